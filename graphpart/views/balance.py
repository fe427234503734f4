"""Balance as a graph to point at: every node in its balance class's colour (what
``balance_ntypes`` evens out over the partitions), ringed in its partition's colour; hovering a
node tells how many nodes of its class its partition, and its trainer, hold against the mean.

Computed from a view's :class:`~graphpart.views.graph.GraphData` and the partitioning; the
widgets only draw it (``PartitionGraph(p, color="balance")``, the explorer's balance tab).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..palette import CLASS_COLORS, OTHER_CLASS_COLOR, part_hex
from .graph import GraphData

if TYPE_CHECKING:  # pragma: no cover
    from ..partitioning.core import Partitioning

__all__ = ["balance_view_data", "COLORINGS"]

#: What a view's node colour can show: the owner partition, or the balance class.
COLORINGS = ("owner", "balance")


def node_classes(p: Partitioning) -> tuple[np.ndarray, tuple[str, ...]]:
    """Every node's balance class (original homogeneous ids) and the class names: the
    partitioning's balance classes, else each node type (a heterograph), else one class.

    Parameters
    ----------
    p : Partitioning

    Returns
    -------
    classes : ndarray of int64
        The class index of every node, by original homogeneous id.
    names : tuple of str
        The name of each class: the partitioning's ``balance_labels`` when it has one per
        class, else the class numbers (``"0"``, ``"1"``, ...); the node types; or ``("nodes",)``.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> cls, names = node_classes(gp.partition(load_karate_club(), 2, seed=0))
    >>> names, int(cls.max())
    (('nodes',), 0)
    """
    n = p.graph.num_nodes()
    if p.balance_classes is not None and len(p.balance_classes) == n:
        cls = np.asarray(p.balance_classes, dtype=np.int64)
        ncls = int(cls.max()) + 1 if n else 0
        names = tuple(p.balance_labels) if len(p.balance_labels) == ncls else None
        return cls, names or tuple(str(c) for c in range(ncls))
    if len(p.graph.ntypes) > 1:
        offsets = np.asarray(p.homogeneous.node_offsets, dtype=np.int64)
        return np.repeat(np.arange(len(offsets) - 1), np.diff(offsets)), tuple(p.graph.ntypes)
    return np.zeros(n, dtype=np.int64), ("nodes",)


def balance_view_data(p: Partitioning, data: GraphData) -> GraphData:
    """``data`` recoloured by balance class: the class is each node's colour (the rest of a
    field, "not train" or "none", in grey), its partition's colour its ring (HALO copies keep
    their hop ring), and its card says its class's load in its partition and trainer.

    Parameters
    ----------
    p : Partitioning
        The partitioning ``data`` was drawn from.
    data : GraphData
        A view's data of ``p`` (:func:`~graphpart.views.graph.graph_data` or
        :func:`~graphpart.views.graph.neighbourhood_data`). A quotient graph (its nodes are
        partitions) is returned unchanged.

    Returns
    -------
    GraphData
        A copy whose nodes have ``owner`` set to their class (``"class <name>"``, or
        ``"nodes"`` with one class), ``partition`` to their former owner, ``partition colour``
        to their ring colour and ``label`` to the new card; ``palette`` maps the classes present
        to their colours, ``rings`` each partition to its ring colour.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.views.graph import graph_data
    >>> g = load_karate_club()
    >>> p = gp.partition(g, 2, balance_ntypes=g.ndata["label"], seed=0)
    >>> d = balance_view_data(p, graph_data(p))
    >>> sorted(d.palette), d.nodes["0"]["owner"]
    (['class 0', 'class 1'], 'class 0')
    >>> d.nodes["0"]["label"]  # doctest: +ELLIPSIS
    'node 0 | class 0 | part 0: 8 of its 17 (0.94x mean)'
    """
    if any(a.get("kind") == "partition" for a in data.nodes.values()):
        return data  # the quotient graph of a big graph: its nodes are partitions
    cls, names = node_classes(p)
    k, t = p.num_parts, p.num_trainers_per_machine
    ncls = len(names)
    part = np.asarray(p.node_part, dtype=np.int64)
    loads = np.bincount(part * ncls + cls, minlength=k * ncls).reshape(k, ncls)
    total = loads.sum(axis=0)
    trainer = np.asarray(p.trainer_id, dtype=np.int64) if t > 1 else None
    if trainer is not None:
        tloads = np.bincount(trainer * ncls + cls, minlength=k * t * ncls).reshape(k * t, ncls)
    keys = list(data.nodes)
    homo = np.array([_homo_id(data.nodes[key]) for key in keys], dtype=np.int64)
    c, q = cls[homo], part[homo]
    mine = loads[q, c]
    ratio = mine * k / np.maximum(total[c], 1)
    s = lambda a: np.asarray(a).astype(str).astype(object)  # noqa: E731
    label = np.asarray(names, dtype=object)[c]
    # short: sigma draws the card on one line, cut at the canvas edge
    text = (
        "node " + np.asarray(keys, dtype=object) + " | class " + label + " | part " + s(q)
        + ": " + s([f"{v:,}" for v in mine.tolist()]) + " of its "
        + s([f"{v:,}" for v in total[c].tolist()]) + " (" + s(np.char.mod("%.2f", ratio))
        + "x mean)"
    )  # fmt: skip
    if trainer is not None:
        tr = trainer[homo]
        tmine = tloads[tr, c]
        tratio = tmine * (k * t) / np.maximum(total[c], 1)
        text = (
            text + " | trainer " + s(q) + "." + s(tr % t) + ": "
            + s([f"{v:,}" for v in tmine.tolist()]) + " (" + s(np.char.mod("%.2f", tratio))
            + "x)"
        )  # fmt: skip
    colors = _class_colors(names)
    rings = part_hex(k)
    nodes = {}
    for i, key in enumerate(keys):
        a = dict(data.nodes[key])
        a["partition"] = a["owner"]
        a["owner"] = f"class {names[c[i]]}" if names != ("nodes",) else "nodes"
        a["partition colour"] = rings[q[i]]
        a["label"] = text[i]
        nodes[key] = a
    palette = {
        (f"class {n}" if names != ("nodes",) else n): colors[j]
        for j, n in enumerate(names)
        if (c == j).any()
    }
    title = data.title + " by balance class"
    rings_legend = {f"part {j}": rings[j] for j in range(k)}
    return replace(data, nodes=nodes, palette=palette, title=title, rings=rings_legend)


def _homo_id(attrs: dict) -> int:
    """A drawn node's original homogeneous id (a heterograph's card carries it apart)."""
    return int(attrs.get("homogeneous id", attrs.get("original id")))


def _class_colors(names: tuple[str, ...]) -> list[str]:
    """A colour per class (:data:`CLASS_COLORS` in turn), grey for the rest of a field
    ("not ...", "none")."""
    out, j = [], 0
    for n in names:
        if n.startswith("not ") or n == "none":
            out.append(OTHER_CLASS_COLOR)
        else:
            out.append(CLASS_COLORS[j % len(CLASS_COLORS)])
            j += 1
    return out

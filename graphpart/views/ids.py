"""The two plain tables the interactive id view draws (:class:`graphpart.widgets.IdView`):
one row per node and one row per edge, every id as a column, from
:func:`graphpart.viz.ids_data.id_data`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..lookup import node_keys
from ..palette import CUT_COLOR
from ..utils.check import check_count
from ..viz.ids_data import IdData, id_data

if TYPE_CHECKING:  # pragma: no cover
    from ..partitioning.core import Partitioning

__all__ = ["IdFrames", "id_view_data"]

#: The most edges the interactive view draws (a uniform sample above; the view says so).
MAX_POINTS = 200_000

#: The colour category of an edge between two partitions.
CUT_LABEL = "cut"
#: The colour of cut edges in the id views (the figures' cut colour).
CUT_EDGE_COLOR = CUT_COLOR


@dataclass(frozen=True)
class IdFrames:
    """What :class:`~graphpart.widgets.IdView` draws: ``nodes`` (one row per node, in original
    homogeneous id order) and ``edges`` (one row per drawn edge), every id a column; ``data`` is
    the :class:`IdData` they come from.

    Attributes
    ----------
    nodes : pandas.DataFrame
        One row per node, in original homogeneous id order (columns: see :func:`id_view_data`).
    edges : pandas.DataFrame
        One row per drawn edge.
    data : IdData
        The numbers both tables come from.
    """

    nodes: object
    edges: object
    data: IdData


def id_view_data(p: Partitioning, max_points: int = MAX_POINTS, seed: int = 0) -> IdFrames:
    """Every node's and every edge's ids as two ``pandas.DataFrame`` tables (at most
    ``max_points`` edges, a uniform sample above).

    Node columns: ``node`` (``"type:id"`` on heterographs), ``type``, ``original id``
    (type-wise), ``original homogeneous id``, ``new id``, ``new type-wise id``, ``owner``,
    ``local id``, ``row`` (one row per type and owner, where the id lines draw it) and ``row
    name`` (``"woman in part 0"``, or ``"part 0"``: a category). Edge
    columns: ``source``/``destination`` (node keys), ``source id``/``destination id`` and
    ``new source id``/``new destination id`` (homogeneous), ``original ids`` and ``new ids``
    (``"8 \u2192 14"``: both ends on one line), on heterographs ``edge type`` and the new
    type-wise ids of both ends (``new type-wise ids`` on one line too), ``owner`` (the
    destination's, which stores the edge), ``edge`` (``inner`` or ``cut``) and ``colour`` (the
    owner, or ``cut``).

    Parameters
    ----------
    p : Partitioning
    max_points : int, default MAX_POINTS
        The most edges in the edge table (at least 1): a uniform sample of this many above it.
    seed : int, default 0
        Seed of that sample.

    Returns
    -------
    IdFrames
        The node table, the edge table and the :class:`IdData` behind them.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_davis_southern_women
    >>> f = id_view_data(gp.partition(load_davis_southern_women(), 2, seed=0))
    >>> f.nodes.loc[[20], ["node", "new id", "new type-wise id", "owner"]].to_dict("records")
    [{'node': 'woman:6', 'new id': 13, 'new type-wise id': 6, 'owner': 'part 0'}]
    >>> f.edges.loc[[0], ["source", "destination", "new source id", "new destination id"]].values
    array([['event:0', 'woman:0', 0, 7]], dtype=object)
    >>> f.edges.loc[[0], ["edge type", "new destination type-wise id", "edge"]].values
    array([['event:attended_by:woman', 0, 'inner']], dtype=object)
    >>> f.edges.loc[0, "new ids"]
    '0 \u2192 7'
    """
    max_points = check_count(max_points, "max_points", 1)
    import pandas as pd

    d = id_data(p, max_points, seed)
    t = d.table
    k = d.num_parts
    keys = np.asarray(node_keys(p, t), dtype=object)
    nodes = pd.DataFrame(
        {
            "node": keys,
            "type": np.asarray(t.ntypes, dtype=object)[t.ntype],
            "original id": t.orig_id,
            "original homogeneous id": np.arange(d.num_nodes),
            "new id": t.shuffled_id,
            "new type-wise id": t.shuffled_typed_id,
            "owner": _categories(t.owner, k),
            "local id": t.local_id,
            # one row per (type, partition): scattered before the reshuffle, a block after
            "row": (t.ntype * k + t.owner).astype(np.float64),
        }
    )
    types = np.asarray(t.ntypes, dtype=object)
    names = [(f"{types[i]} in part {q}" if len(types) > 1 else f"part {q}")
             for i in range(len(types)) for q in range(k)]  # fmt: skip
    # the row's name, where the plot labels it (its y axis ticks by category, not by number)
    nodes["row name"] = pd.Categorical.from_codes(t.ntype * k + t.owner, categories=names)
    inner = d.inner
    owner = t.owner[d.dst]
    edges = {
        "source": keys[d.src],
        "destination": keys[d.dst],
        "source id": d.src,
        "destination id": d.dst,
        "new source id": d.new_src,
        "new destination id": d.new_dst,
    }
    edges["original ids"] = _arrows(d.src, d.dst)
    edges["new ids"] = _arrows(d.new_src, d.new_dst)
    if len(t.ntypes) > 1:
        etype = np.searchsorted(d.edge_offsets, d.eids, side="right") - 1
        edges["edge type"] = np.asarray(d.etypes, dtype=object)[etype]
        edges["new source type-wise id"] = t.shuffled_typed_id[d.src]
        edges["new destination type-wise id"] = t.shuffled_typed_id[d.dst]
        edges["new type-wise ids"] = _arrows(t.shuffled_typed_id[d.src], t.shuffled_typed_id[d.dst])
    edges["owner"] = _categories(owner, k)
    edges["edge"] = np.where(inner, "inner", CUT_LABEL)
    edges["colour"] = _categories(np.where(inner, owner, k), k, [CUT_LABEL])
    return IdFrames(nodes, pd.DataFrame(edges), d)


def _arrows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``"a -> b"`` for each pair (one tooltip line per numbering)."""
    return np.char.add(np.char.add(a.astype(str), " \u2192 "), b.astype(str)).astype(object)


def _categories(codes: np.ndarray, k: int, extra: list[str] = ()):
    """``codes`` as a categorical column of ``part 0 .. part k-1`` (then ``extra``), unused
    categories dropped (jupyter-scatter's legend mislabels them)."""
    import pandas as pd

    names = [f"part {q}" for q in range(k)] + list(extra)
    cat = pd.Categorical.from_codes(np.asarray(codes, dtype=np.int64), categories=names)
    return cat.remove_unused_categories()

"""The numbers behind the id views: every node's ids, the edges in both numberings, and the blocks
of the new id line (one per partition and node type).

``id_data`` feeds the matplotlib figures (:mod:`graphpart.viz.ids`); ``id_view_data`` turns it
into the two plain tables that :class:`graphpart.widgets.IdView` draws (one row per node, one row
per edge, every id as a column).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..homogeneous import HomogeneousGraph, type_offsets
from ..lookup import NodeTable, node_table
from ..utils.check import check_count
from ._style import CUT_COLOR
from .graph_data import node_keys

if TYPE_CHECKING:  # pragma: no cover
    from ..partitioning.core import Partitioning

__all__ = ["IdData", "IdFrames", "id_data", "id_view_data"]

#: The most edges the interactive view draws (a uniform sample above; the view says so).
MAX_POINTS = 200_000

#: The colour category of an edge between two partitions.
CUT_LABEL = "cut"
#: The colour of cut edges in the id views (the figures' cut colour).
CUT_EDGE_COLOR = CUT_COLOR


@dataclass(frozen=True)
class IdData:
    """Every node's ids, the edges in both numberings, and the id blocks.

    Attributes
    ----------
    table : NodeTable
        Every node's ids (:func:`graphpart.lookup.node_table`, indexed by original homogeneous
        id).
    etypes : list of str
        The canonical edge types, as ``"src:relation:dst"``.
    src, dst : ndarray
        Edges in original homogeneous ids: all ``num_edges``, or a uniform sample of them.
    new_src, new_dst : ndarray
        The same edges in new ids.
    eids : ndarray
        Their homogeneous edge ids.
    edge_offsets : ndarray
        Where each edge type starts among the homogeneous edge ids (the edge count last).
    num_edges : int
        The graph's edges, sampled or not.
    type_bounds : ndarray, shape (num_types, 2)
        The ``[start, end)`` of each node type on the original id line.
    blocks : ndarray, shape (num_blocks, 4)
        One ``(start, end, partition, type)`` row per non-empty block of the new id line, in id
        order.
    num_parts : int
    """

    table: NodeTable
    etypes: list[str]
    src: np.ndarray
    dst: np.ndarray
    new_src: np.ndarray
    new_dst: np.ndarray
    eids: np.ndarray
    edge_offsets: np.ndarray
    num_edges: int
    type_bounds: np.ndarray
    blocks: np.ndarray
    num_parts: int

    @property
    def num_nodes(self) -> int:
        return len(self.table.owner)

    @property
    def sampled(self) -> bool:
        """Whether ``src``/``dst`` hold a sample of the edges rather than all of them."""
        return len(self.src) < self.num_edges

    @property
    def part_bounds(self) -> np.ndarray:
        """Partition ``q`` owns new ids ``part_bounds[q]:part_bounds[q + 1]``."""
        sizes = np.bincount(
            self.blocks[:, 2], self.blocks[:, 1] - self.blocks[:, 0], self.num_parts
        )
        return type_offsets(sizes.astype(np.int64))

    @property
    def inner(self) -> np.ndarray:
        """Whether each edge joins two nodes of the same partition."""
        return self.table.owner[self.src] == self.table.owner[self.dst]


def id_data(p: Partitioning, max_points: int | None = None, seed: int = 0) -> IdData:
    """The numbers behind the id views of partitioning ``p``; edges above ``max_points`` are
    sampled uniformly (``None``: every edge).

    Parameters
    ----------
    p : Partitioning
    max_points : int, optional
        The most edges kept: above it, a uniform sample of this many, in edge id order
        (``None``: every edge).
    seed : int, default 0
        Seed of that sample.

    Returns
    -------
    IdData

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_davis_southern_women
    >>> d = id_data(gp.partition(load_davis_southern_women(), 2, seed=0))
    >>> d.type_bounds.tolist()  # events, then women, on the original id line
    [[0, 14], [14, 32]]
    >>> d.blocks.tolist()  # (start, end, partition, type) on the new id line
    [[0, 7, 0, 0], [7, 16, 0, 1], [16, 23, 1, 0], [23, 32, 1, 1]]
    >>> d.part_bounds.tolist()
    [0, 16, 32]
    """
    table = node_table(p)
    h = HomogeneousGraph.of(p.graph)
    src, dst = np.asarray(h.src, dtype=np.int64), np.asarray(h.dst, dtype=np.int64)
    m = len(src)
    eids = np.arange(m, dtype=np.int64)
    if max_points is not None and m > max_points:
        eids = np.sort(np.random.default_rng(seed).choice(m, max_points, replace=False))
        src, dst = src[eids], dst[eids]
    offsets = type_offsets([p.graph.num_nodes(t) for t in p.graph.ntypes])
    type_bounds = np.stack([offsets[:-1], offsets[1:]], axis=1)
    ranges = np.stack(
        [np.asarray(r, dtype=np.int64).reshape(-1, 2) for r in p.book.node_map.values()]
    )
    t, q = np.meshgrid(np.arange(ranges.shape[0]), np.arange(ranges.shape[1]), indexing="ij")
    blocks = np.column_stack([ranges.reshape(-1, 2), q.ravel(), t.ravel()])
    blocks = blocks[blocks[:, 1] > blocks[:, 0]]
    blocks = blocks[np.argsort(blocks[:, 0], kind="stable")]
    new = table.shuffled_id
    etypes = [":".join(e) for e in p.graph.canonical_etypes]
    return IdData(
        table, etypes, src, dst, new[src], new[dst], eids, np.asarray(h.edge_offsets), m,
        type_bounds, blocks, p.num_parts,
    )  # fmt: skip


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

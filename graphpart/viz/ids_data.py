"""The numbers behind the id figures and views: every node's ids, the edges in both numberings,
and the blocks of the new id line (one per partition and node type).

``id_data`` feeds the matplotlib figures (:mod:`graphpart.viz.ids`) and the tables of the
interactive id view (:func:`graphpart.views.ids.id_view_data`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..homogeneous import HomogeneousGraph, type_offsets
from ..lookup import NodeTable, node_table

if TYPE_CHECKING:  # pragma: no cover
    from ..partitioning.core import Partitioning

__all__ = ["IdData", "id_data"]


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

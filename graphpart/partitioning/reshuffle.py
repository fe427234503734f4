"""Reshuffle: renumber nodes and edges so each partition owns one contiguous range.

New node ids are ordered partition-major, then by node type, then by old id;
each edge belongs to its destination's partition and new edge ids are ordered
partition-major, then by edge type, then by old id.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

__all__ = ["Reshuffle", "reshuffle", "stable_order", "group_order", "group_rank", "block_bounds"]


def stable_order(keys: np.ndarray) -> np.ndarray:
    """Indices that sort ``keys`` stably (ties keep their order), using torch's parallel sort.

    Examples
    --------
    >>> stable_order(np.array([2, 0, 2, 1, 0])).tolist()
    [1, 4, 3, 0, 2]
    """
    keys = np.ascontiguousarray(keys)
    if not keys.flags.writeable:  # e.g. memory-mapped: torch wants memory it may own
        keys = keys.copy()
    return torch.sort(torch.from_numpy(keys), stable=True).indices.numpy()


@dataclass(frozen=True)
class Reshuffle:
    """The renumbering of a homogeneous graph by partition.

    Attributes
    ----------
    new2old_nid, new2old_eid : ndarray
        ``new2old_nid[new] = old`` homogeneous node id; likewise for edges.
    old2new_nid : ndarray
        The inverse node map.
    node_bounds : ndarray, shape (num_parts, num_ntypes, 2)
        ``[start, end)`` of the new ids of each (partition, node type) block.
    edge_bounds : ndarray, shape (num_parts, num_etypes, 2)
        The same for edges.
    src, dst : ndarray
        Endpoints (new node ids) of every edge, in new edge id order.
    """

    new2old_nid: np.ndarray
    old2new_nid: np.ndarray
    new2old_eid: np.ndarray
    node_bounds: np.ndarray
    edge_bounds: np.ndarray
    src: np.ndarray
    dst: np.ndarray

    @property
    def num_parts(self) -> int:
        return self.node_bounds.shape[0]

    def node_part(self) -> np.ndarray:
        """Partition of every new node id."""
        sizes = self.node_bounds[:, -1, 1] - self.node_bounds[:, 0, 0]
        return np.repeat(np.arange(self.num_parts), sizes)

    def part_nodes(self, p: int) -> tuple[int, int]:
        """``[start, end)`` of partition ``p``'s nodes."""
        return int(self.node_bounds[p, 0, 0]), int(self.node_bounds[p, -1, 1])

    def part_edges(self, p: int) -> tuple[int, int]:
        """``[start, end)`` of the edges partition ``p`` owns."""
        return int(self.edge_bounds[p, 0, 0]), int(self.edge_bounds[p, -1, 1])


def group_order(keys: np.ndarray, num_groups: int) -> tuple[np.ndarray, np.ndarray]:
    """The id-order rule: indices grouping ``keys`` (stable) and the size of each group.

    The in-memory reshuffle and the chunked pipeline both number nodes and edges
    with this, so both give the same new ids.

    Examples
    --------
    >>> order, counts = group_order(np.array([1, 0, 1, 0]), 3)
    >>> order.tolist(), counts.tolist()
    ([1, 3, 0, 2], [2, 2, 0])
    """
    return stable_order(keys), np.bincount(keys, minlength=num_groups)


def group_rank(order: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Position of every item inside its group, from :func:`group_order`'s ``(order, counts)``.

    Examples
    --------
    >>> group_rank(*group_order(np.array([1, 0, 1, 0, 1]), 2)).tolist()
    [0, 0, 1, 1, 2]
    """
    counts = np.asarray(counts, dtype=np.int64)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    return rank


def block_bounds(counts: np.ndarray) -> np.ndarray:
    """``[start, end)`` of consecutive blocks of sizes ``counts`` (parts, types) -> (parts, types, 2).

    Examples
    --------
    >>> block_bounds(np.array([[2, 1], [0, 3]])).tolist()
    [[[0, 2], [2, 3]], [[3, 3], [3, 6]]]
    """
    counts = np.asarray(counts, dtype=np.int64)
    ends = np.cumsum(counts.ravel())
    return np.stack([ends - counts.ravel(), ends], axis=1).reshape(*counts.shape, 2)


def _bounds(keys: np.ndarray, num_parts: int, num_types: int) -> tuple[np.ndarray, np.ndarray]:
    order, counts = group_order(keys, num_parts * num_types)
    return order, block_bounds(counts.reshape(num_parts, num_types))


def reshuffle(
    node_part: np.ndarray,
    ntype: np.ndarray | None,
    src: np.ndarray,
    dst: np.ndarray,
    etype: np.ndarray | None,
    num_parts: int,
    num_ntypes: int = 1,
    num_etypes: int = 1,
) -> Reshuffle:
    """Renumber nodes and edges by partition (see the module docstring).

    Examples
    --------
    >>> r = reshuffle(np.array([1, 0, 1, 0]), None, np.array([0, 1, 2]), np.array([1, 2, 3]), None, 2)
    >>> r.new2old_nid.tolist(), r.new2old_eid.tolist(), r.node_bounds[:, 0].tolist()
    ([1, 3, 0, 2], [0, 2, 1], [[0, 2], [2, 4]])
    >>> r.src.tolist(), r.dst.tolist()
    ([2, 3, 0], [0, 1, 3])
    """
    node_part = np.asarray(node_part, dtype=np.int64)
    nkey = node_part * num_ntypes + (0 if ntype is None else np.asarray(ntype, dtype=np.int64))
    new2old_nid, node_bounds = _bounds(nkey, num_parts, num_ntypes)
    del nkey
    old2new = np.empty_like(new2old_nid)
    old2new[new2old_nid] = np.arange(len(new2old_nid))
    ekey = node_part[dst] * num_etypes + (0 if etype is None else np.asarray(etype, dtype=np.int64))
    new2old_eid, edge_bounds = _bounds(ekey, num_parts, num_etypes)
    del ekey
    new_src = old2new[src[new2old_eid]]
    new_dst = old2new[dst[new2old_eid]]
    return Reshuffle(new2old_nid, old2new, new2old_eid, node_bounds, edge_bounds, new_src, new_dst)

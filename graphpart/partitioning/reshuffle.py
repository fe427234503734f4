"""Reshuffle: renumber nodes and edges so each partition owns one contiguous range.

New node ids are ordered partition-major, then by node type, then by old id;
each edge belongs to its destination's partition and new edge ids are ordered
partition-major, then by edge type, then by old id.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..index import block_bounds, group_order, part_ranges

__all__ = ["Reshuffle", "reshuffle"]


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
        sizes = np.diff(part_ranges(self.node_bounds), axis=1).ravel()
        return np.repeat(np.arange(self.num_parts), sizes)

    def part_nodes(self, p: int) -> tuple[int, int]:
        """``[start, end)`` of partition ``p``'s nodes."""
        start, end = part_ranges(self.node_bounds)[p]
        return int(start), int(end)

    def part_edges(self, p: int) -> tuple[int, int]:
        """``[start, end)`` of the edges partition ``p`` owns."""
        start, end = part_ranges(self.edge_bounds)[p]
        return int(start), int(end)


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

    Parameters
    ----------
    node_part : numpy.ndarray of int
        The partition, in ``[0, num_parts)``, of every node (old homogeneous ids).
    ntype : numpy.ndarray of int or None
        The node type id, in ``[0, num_ntypes)``, of every node; ``None``: one type.
    src, dst : numpy.ndarray of int
        The endpoints (old homogeneous ids) of every edge, in old edge id order. An edge goes
        to the partition of its ``dst``.
    etype : numpy.ndarray of int or None
        The edge type id, in ``[0, num_etypes)``, of every edge; ``None``: one type.
    num_parts : int
        The number of partitions.
    num_ntypes : int, default 1
        The number of node types.
    num_etypes : int, default 1
        The number of edge types.

    Returns
    -------
    Reshuffle
        The new ids, their inverse for nodes, the ``[start, end)`` block of each
        (partition, type) pair, and the edges in new ids.

    Examples
    --------
    >>> src, dst = np.array([0, 1, 2]), np.array([1, 2, 3])
    >>> r = reshuffle(np.array([1, 0, 1, 0]), None, src, dst, None, 2)
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

"""The homogeneous-id rule: one id space over every node (or edge) type.

Types are numbered in order (``g.ntypes``, ``g.canonical_etypes``); the items of
type ``i`` own the homogeneous ids ``[offsets[i], offsets[i + 1])``, where
``offsets`` is the running sum of the type counts starting at 0. DGL numbers
heterographs this way (``dgl.to_homogeneous``), and so does every part of
graphpart: the partitioner, :class:`~graphpart.IDConverter`, the chunked
pipeline, the PyG export and the figures. This module is the one place the rule
is written down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

__all__ = ["type_offsets", "homogeneous_ids", "typed_ids", "HomogeneousGraph"]


def type_offsets(counts: Sequence[int] | np.ndarray) -> np.ndarray:
    """``offsets`` of types with ``counts`` items: ``[0, c0, c0 + c1, ...]`` (int64).

    Parameters
    ----------
    counts : sequence of int or numpy.ndarray
        Items per type, in type-id order; flattened if not 1-D.

    Returns
    -------
    numpy.ndarray
        int64 of length ``len(counts) + 1``; type ``i`` owns ``[out[i], out[i + 1])``.

    Examples
    --------
    >>> type_offsets([3, 0, 2]).tolist()
    [0, 3, 3, 5]
    """
    counts = np.asarray(counts, dtype=np.int64).reshape(-1)
    out = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    return out


def homogeneous_ids(type_ids: np.ndarray | int, ids: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Homogeneous ids of type-wise ``ids`` of types ``type_ids`` (one type, or one per id).

    Parameters
    ----------
    type_ids : int or numpy.ndarray
        The type of all ``ids``, or of each.
    ids : numpy.ndarray or torch.Tensor
        Type-wise ids (not range-checked).
    offsets : numpy.ndarray
        :func:`type_offsets` of the type counts.

    Returns
    -------
    numpy.ndarray or torch.Tensor
        ``offsets[type_ids] + ids``: a tensor if ``ids`` is one, else an array.

    Examples
    --------
    >>> homogeneous_ids(np.array([0, 2, 2]), np.array([1, 0, 1]), type_offsets([3, 0, 2])).tolist()
    [1, 3, 4]
    """
    if isinstance(ids, torch.Tensor):
        off = torch.as_tensor(offsets, dtype=torch.int64)
        return off[type_ids] + ids
    return np.asarray(offsets, dtype=np.int64)[type_ids] + ids


def typed_ids(ids, offsets) -> tuple:
    """``(type id, type-wise id)`` of homogeneous ``ids`` (numpy arrays or torch tensors).

    Both come back as new int64 arrays (tensors for tensor input). Empty types (repeated
    offsets) are skipped over: an id equal to an offset belongs to the next type that has
    items. Ids are expected in ``[0, offsets[-1])``; callers check ranges.

    Parameters
    ----------
    ids : numpy.ndarray or torch.Tensor
        Homogeneous ids.
    offsets : numpy.ndarray or torch.Tensor
        :func:`type_offsets` of the type counts.

    Returns
    -------
    type_ids : numpy.ndarray or torch.Tensor
        The type of each id.
    local_ids : numpy.ndarray or torch.Tensor
        Its id within that type.

    Examples
    --------
    >>> t, local = typed_ids(np.array([0, 3, 4]), type_offsets([3, 0, 2]))
    >>> t.tolist(), local.tolist()
    ([0, 2, 2], [0, 0, 1])
    """
    if isinstance(ids, torch.Tensor):
        off = torch.as_tensor(offsets, dtype=torch.int64)
        ids = ids.to(torch.int64)
        if len(off) == 2:  # one type: no search
            return torch.zeros_like(ids), ids.clone()
        t = torch.searchsorted(off[1:], ids, right=True)
        return t, ids - off[t]
    off = np.asarray(offsets, dtype=np.int64)
    ids = np.asarray(ids, dtype=np.int64)
    if len(off) == 2:
        return np.zeros_like(ids), ids.copy()
    t = np.searchsorted(off[1:], ids, side="right")
    return t, ids - off[t]


@dataclass(frozen=True)
class HomogeneousGraph:
    """A graph's edges in homogeneous ids, with the type offsets and per-item types.

    Attributes
    ----------
    node_offsets, edge_offsets : ndarray
        :func:`type_offsets` of the node and edge type counts.
    ntype, etype : ndarray or None
        The type of every node / edge (``None`` for a homogeneous graph).
    src, dst : ndarray or None
        Endpoints of every edge in homogeneous ids (edge type order).

    Examples
    --------
    >>> from graphpart import Graph
    >>> g = Graph.from_typed_edges({("a", "r", "b"): ([0, 1], [0, 0])}, num_nodes={"a": 2, "b": 1})
    >>> h = HomogeneousGraph.of(g)
    >>> h.node_offsets.tolist(), h.src.tolist(), h.dst.tolist()
    ([0, 2, 3], [0, 1], [2, 2])
    """

    node_offsets: np.ndarray
    edge_offsets: np.ndarray
    ntype: np.ndarray | None
    etype: np.ndarray | None
    src: np.ndarray | None
    dst: np.ndarray | None

    @classmethod
    def of(cls, g) -> HomogeneousGraph:
        """The homogeneous form of :class:`~graphpart.Graph` ``g`` (read, never imported here)."""
        noff = type_offsets([g.num_nodes(t) for t in g.ntypes])
        eoff = type_offsets([g.num_edges(e) for e in g.canonical_etypes])
        if g.is_homogeneous:
            s, d = g.edges()
            return cls(
                noff, eoff, None, None, s.numpy().astype(np.int64), d.numpy().astype(np.int64)
            )
        src = np.empty(int(eoff[-1]), dtype=np.int64)
        dst = np.empty_like(src)
        for i, (st, r, dt) in enumerate(g.canonical_etypes):
            s, d = g.edges((st, r, dt))
            np.add(s.numpy(), noff[g.get_ntype_id(st)], out=src[eoff[i] : eoff[i + 1]])
            np.add(d.numpy(), noff[g.get_ntype_id(dt)], out=dst[eoff[i] : eoff[i + 1]])
        ntype = np.repeat(np.arange(len(noff) - 1), np.diff(noff))
        etype = np.repeat(np.arange(len(eoff) - 1), np.diff(eoff))
        return cls(noff, eoff, ntype, etype, src, dst)

    @property
    def num_nodes(self) -> int:
        return int(self.node_offsets[-1])

    @property
    def num_edges(self) -> int:
        return int(self.edge_offsets[-1])

    def node_types(self) -> np.ndarray:
        """The type of every node (zeros for a homogeneous graph)."""
        return np.zeros(self.num_nodes, dtype=np.int64) if self.ntype is None else self.ntype

    def edge_types(self) -> np.ndarray:
        """The type of every edge (zeros for a homogeneous graph)."""
        return np.zeros(self.num_edges, dtype=np.int64) if self.etype is None else self.etype

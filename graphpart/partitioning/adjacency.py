"""The symmetric, weighted adjacency of an edge list, as coarsening and METIS read a graph: built
in memory (:func:`adjacency`) or from edge chunks read twice (:func:`stream_adjacency`).

Entry ``(u, v)`` counts the edges between ``u`` and ``v`` in either direction, self-loops left
out; rows are sorted, int32 indices where the ids fit, float32 weights.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import scipy.sparse as sp
import torch

__all__ = ["adjacency", "stream_adjacency"]


def adjacency(src: np.ndarray, dst: np.ndarray, num_nodes: int) -> sp.csr_matrix:
    """The symmetric, weighted adjacency matrix of an edge list, without self-loops.

    Entry ``(u, v)`` counts the edges between ``u`` and ``v`` in either direction, so that the
    weight of the entries a partition cuts, halved, is the number of edges it cuts.

    Parameters
    ----------
    src, dst : numpy.ndarray of int
        The edges, ids in ``[0, num_nodes)``; duplicates and self-loops allowed.
    num_nodes : int
        The number of nodes.

    Returns
    -------
    scipy.sparse.csr_matrix of float32
        ``num_nodes x num_nodes``, symmetric, an empty diagonal, int32 indices where they fit.

    Examples
    --------
    >>> a = adjacency(np.array([0, 0, 1, 2]), np.array([1, 1, 0, 2]), 3)
    >>> a.toarray().tolist()
    [[0.0, 3.0, 0.0], [3.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    """
    rows, cols = _entries(src, dst, np.int32 if num_nodes < 2**31 - 1 else np.int64)
    a = sp.csr_matrix(  # scipy's counting sort by row, repeated neighbours added
        (np.ones(len(rows), dtype=np.float32), (rows, cols)),
        shape=(num_nodes, num_nodes),
        dtype=np.float32,
    )
    return _compact(a)


def stream_adjacency(
    chunks: Callable[[], Iterator[tuple[np.ndarray, np.ndarray]]], num_nodes: int
) -> sp.csr_matrix:
    """:func:`adjacency` of the edges ``chunks()`` yields, chunk by chunk: read twice, never all
    at once.

    The first pass counts every node's entries; the second sorts each chunk's entries by row
    (scipy's counting sort, a chunk's repeated neighbours added) and places them at their row's
    next free slots; every row is then sorted in place, its repeated neighbours added and the
    slots left free dropped. Memory: 8 bytes per entry (int32 neighbour, float32 weight; two
    entries per edge that is not a self-loop; 4 more where merging leaves under half of them,
    which scipy copies) and 16 per node, plus a chunk's worth (about 48 bytes per edge of the
    largest chunk).

    Parameters
    ----------
    chunks : callable
        Returns a fresh iterator of ``(src, dst)`` edge chunks each time it is called (twice,
        where there is more than one chunk).
    num_nodes : int
        The number of nodes; every id in ``[0, num_nodes)``.

    Returns
    -------
    scipy.sparse.csr_matrix of float32
        As :func:`adjacency`.

    Examples
    --------
    >>> src, dst = np.array([0, 0, 1, 2]), np.array([1, 1, 0, 2])
    >>> halves = lambda: iter([(src[:2], dst[:2]), (src[2:], dst[2:])])
    >>> (stream_adjacency(halves, 3) != adjacency(src, dst, 3)).nnz
    0
    """
    n = num_nodes
    itype = np.int32 if n < 2**31 - 1 else np.int64
    count = torch.zeros(n, dtype=torch.int64)
    for src, dst in chunks():
        rows, _ = _entries(src, dst, itype)
        count += torch.bincount(torch.from_numpy(rows), minlength=n)
    total = int(count.sum())
    indptr = np.zeros(n + 1, dtype=np.int32 if total < 2**31 else np.int64)
    np.cumsum(count.numpy(), out=indptr[1:])
    del count
    fill = torch.from_numpy(indptr[:-1].astype(np.int64))
    # a slot no entry reaches (a chunk's repeated neighbours were added) stays (0, 0.0): dropped
    indices = np.zeros(total, dtype=itype)
    data = np.zeros(total, dtype=np.float32)
    for src, dst in chunks():
        rows, cols = _entries(src, dst, itype)
        part = sp.coo_matrix(
            (np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(n, n)
        ).tocsr()
        del rows, cols
        length = torch.from_numpy(np.diff(part.indptr).astype(np.int64))
        start = torch.from_numpy(part.indptr[:-1].astype(np.int64))
        at = torch.repeat_interleave(fill - start, length).numpy()
        at += np.arange(part.nnz, dtype=at.dtype)
        indices[at], data[at] = part.indices, part.data
        fill += length
        del at, part, length, start
    a = sp.csr_matrix((data, indices, indptr), shape=(n, n))
    del data, indices
    a.sum_duplicates()  # every row sorted in place, its repeated neighbours added
    a.eliminate_zeros()
    return _compact(a)


def _compact(a: sp.csr_matrix) -> sp.csr_matrix:
    """``a`` with repeated entries added, its arrays no longer than its entries: scipy merges in
    place and keeps a prefix view of the whole arrays unless they shrank by more than half (a
    graph stored both ways shrinks by exactly half); the arrays under such a view are shrunk in
    place (no copy: the peak stays where the merge left it)."""
    a.sum_duplicates()
    for name in ("indices", "data"):
        arr, owner = getattr(a, name), getattr(a, name).base
        if owner is None:
            continue
        prefix = (
            isinstance(owner, np.ndarray)
            and owner.flags.owndata
            and owner.ndim == 1
            and owner.dtype == arr.dtype
            and owner.ctypes.data == arr.ctypes.data
        )
        if prefix:
            setattr(a, name, None)
            del arr  # no view may outlive the resize
            owner.resize(a.indptr[-1], refcheck=False)
            setattr(a, name, owner)
        else:
            setattr(a, name, arr.copy())
    return a


def _entries(src: np.ndarray, dst: np.ndarray, itype: type) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns of the adjacency's entries from an edge chunk: both directions of
    every edge that is not a self-loop."""
    src, dst = _tensor(src), _tensor(dst)
    keep = src != dst
    if not bool(keep.all()):
        src, dst = src[keep], dst[keep]
    del keep
    t = torch.int32 if itype == np.int32 else torch.int64
    src, dst = src.to(t), dst.to(t)  # narrowed first: the copies below are half the size
    return torch.cat([src, dst]).numpy(), torch.cat([dst, src]).numpy()


def _tensor(ids: np.ndarray) -> torch.Tensor:
    """``ids`` as an int64 tensor sharing memory where it can (a read-only array is copied)."""
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    return torch.from_numpy(ids if ids.flags.writeable else ids.copy())

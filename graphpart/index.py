"""Generic index operations on integer arrays, shared by every module that renumbers.

Each is vectorised (no Python loop over items) and works on numpy arrays; sorts
go through torch, which sorts with every core.

=============================== =====================================================
:func:`unique_int`              sorted unique values (sort + neighbour test)
:func:`stable_order`            indices that sort keys stably
:func:`group_order`             the id-order rule: stable grouping and group sizes
:func:`group_rank`              position of each item inside its group
:func:`block_bounds`            ``[start, end)`` of consecutive blocks of given sizes
:func:`expand_ranges`           concatenated ``arange(ptr[v], ptr[v + 1])`` over nodes
=============================== =====================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch

__all__ = [
    "unique_int",
    "count_into",
    "undirected_pairs",
    "stable_order",
    "group_order",
    "group_rank",
    "group_cumsum",
    "block_bounds",
    "expand_ranges",
    "part_ranges",
    "stack_ranges",
]


def unique_int(a: np.ndarray, return_counts: bool = False):
    """Sorted unique values of an integer array (and how often each occurs).

    ``np.sort`` plus a neighbour comparison: on large int64 arrays this is many
    times faster than ``np.unique`` (whose hash-based path dominates at 10M+ items).

    Parameters
    ----------
    a : numpy.ndarray
        A 1-D integer array.
    return_counts : bool, default False
        Also return the number of times each value occurs.

    Returns
    -------
    numpy.ndarray or tuple of two numpy.ndarray
        The distinct values of ``a``, ascending, in ``a``'s dtype; with ``return_counts``,
        also their int64 counts.

    Examples
    --------
    >>> unique_int(np.array([3, 1, 3, 2, 1]))
    array([1, 2, 3])
    >>> unique_int(np.array([3, 1, 3, 2, 1]), return_counts=True)[1]
    array([2, 1, 2])
    """
    s = np.sort(a)
    first = np.flatnonzero(np.concatenate([[True], s[1:] != s[:-1]])) if len(s) else s[:0]
    if not return_counts:
        return s[first]
    return s[first], np.diff(np.append(first, len(s))).astype(np.int64)


#: :func:`count_into` counts by sorting where the ids are fewer than the table over this.
SPARSE_COUNT = 16


def count_into(counts: np.ndarray, ids: np.ndarray, offset: int = 0) -> np.ndarray:
    """Add to ``counts[i - offset]`` how often each id ``i`` occurs in ``ids``, in place.

    The work grows with ``ids``, not with ``counts``: a few ids (fewer than the table's
    length over :data:`SPARSE_COUNT`) are sorted and counted, many are counted by
    ``np.bincount`` up to the largest. So a pass over a graph's edges in chunks costs the same
    whatever the number of chunks (a bincount per chunk would cost the table's length each).

    Parameters
    ----------
    counts : numpy.ndarray
        The 1-D table of counts, integer or float, changed in place.
    ids : numpy.ndarray
        Integer ids in ``[offset, offset + len(counts))``.
    offset : int, default 0
        The id of ``counts[0]``.

    Returns
    -------
    numpy.ndarray
        ``counts``.

    Examples
    --------
    >>> count_into(np.zeros(5, dtype=np.int32), np.array([13, 11, 13]), offset=10).tolist()
    [0, 1, 0, 2, 0]
    """
    if not len(ids):
        return counts
    if len(ids) * SPARSE_COUNT < len(counts):
        at, many = unique_int(ids, return_counts=True)
        counts[at - offset] += many.astype(counts.dtype, copy=False)
    else:
        many = np.bincount(ids - offset if offset else ids)
        counts[: len(many)] += many.astype(counts.dtype, copy=False)
    return counts


def undirected_pairs(src: np.ndarray, dst: np.ndarray, n: int, return_counts: bool = False):
    """Each pair of neighbours once, whatever the edges' directions; self-loops dropped.

    Parameters
    ----------
    src, dst : numpy.ndarray
        Edge endpoints, integer ids below ``n``.
    n : int
        The number of nodes.
    return_counts : bool, default False
        Also return how many edges join each pair.

    Returns
    -------
    lo, hi : numpy.ndarray
        int64, ``lo < hi``, sorted by ``(lo, hi)``; with ``return_counts``, also the counts.

    Examples
    --------
    >>> lo, hi = undirected_pairs(np.array([0, 1, 2, 2]), np.array([1, 0, 2, 0]), 3)
    >>> lo.tolist(), hi.tolist()
    ([0, 0], [1, 2])
    """
    src, dst = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    keep = src != dst
    lo, hi = np.minimum(src, dst)[keep], np.maximum(src, dst)[keep]
    m = max(int(n), 1)
    out = unique_int(lo * m + hi, return_counts=return_counts)
    pair = out[0] if return_counts else out
    pairs = (pair // m, pair % m)
    return (*pairs, out[1]) if return_counts else pairs


#: Below this many keys :func:`stable_order` sorts with numpy: torch's call costs about 40 us.
SMALL_SORT = 1 << 12
#: Integer keys spanning fewer values than this (a part, a type, a class per item) are sorted by
#: numpy's radix sort on 16 bits: O(n), 3-15x torch's parallel sort from 30K to 30M keys.
NARROW_KEYS = 1 << 16


def stable_order(keys: np.ndarray) -> np.ndarray:
    """Indices that sort ``keys`` stably (ties keep their order), using torch's parallel sort.

    Parameters
    ----------
    keys : numpy.ndarray
        A 1-D array of a dtype torch can hold; a read-only array (memory-mapped) is copied.

    Returns
    -------
    numpy.ndarray
        int64 indices, ``keys[result]`` ascending.

    Examples
    --------
    >>> stable_order(np.array([2, 0, 2, 1, 0])).tolist()
    [1, 4, 3, 0, 2]
    """
    keys = np.ascontiguousarray(keys)
    if len(keys) < SMALL_SORT:  # torch's call costs more than numpy's sort of a few items
        return np.argsort(keys, kind="stable").astype(np.int64, copy=False)
    if keys.dtype.kind == "b":
        keys = keys.view(np.uint8)
    if keys.dtype.kind in "iu":
        low, high = int(keys.min()), int(keys.max())
        if high - low < NARROW_KEYS:  # numpy's radix sort, a pass per byte: 1.4-15x torch's
            narrow = (np.subtract(keys, low, dtype=np.int64) if low else keys).astype(np.uint16)
            return np.argsort(narrow, kind="stable").astype(np.int64, copy=False)
    if not keys.flags.writeable:  # e.g. memory-mapped: torch wants memory it may own
        keys = keys.copy()
    return torch.sort(torch.from_numpy(keys), stable=True).indices.numpy()


def group_order(keys: np.ndarray, num_groups: int) -> tuple[np.ndarray, np.ndarray]:
    """The id-order rule: indices grouping ``keys`` (stable) and the size of each group.

    The in-memory reshuffle and the chunked pipeline both number nodes and edges
    with this, so both give the same new ids.

    Parameters
    ----------
    keys : numpy.ndarray
        The group (a partition id, a type id) of each item: non-negative integers.
    num_groups : int
        The least number of groups counted; groups without items count 0.

    Returns
    -------
    order : numpy.ndarray
        int64 indices listing the items of group 0, then group 1, ..., each in item order.
    counts : numpy.ndarray
        Items per group, of length ``max(num_groups, keys.max() + 1)``.

    Examples
    --------
    >>> order, counts = group_order(np.array([1, 0, 1, 0]), 3)
    >>> order.tolist(), counts.tolist()
    ([1, 3, 0, 2], [2, 2, 0])
    """
    return stable_order(keys), np.bincount(keys, minlength=num_groups)


def group_cumsum(groups: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Running totals of ``weights`` within each group, in item order, inclusive: item ``i``'s
    total is the sum of the weights of the items of its group up to and including ``i``.

    Parameters
    ----------
    groups : numpy.ndarray
        The group of each item: non-negative integers, in any order (the work grows with the
        items, not with the largest group id).
    weights : numpy.ndarray
        One weight per item (1-D), or one row of weights per item (2-D: a total per column).

    Returns
    -------
    numpy.ndarray
        The running totals, shaped like ``weights``.

    Examples
    --------
    >>> group_cumsum(np.array([1, 0, 1, 0, 1]), np.array([1, 2, 3, 4, 5])).tolist()
    [1, 2, 4, 6, 9]
    >>> group_cumsum(np.array([0, 0, 1]), np.array([[1, 10], [2, 20], [3, 30]])).tolist()
    [[1, 10], [3, 30], [3, 30]]
    """
    order = stable_order(groups)
    w = weights[order]
    total = np.cumsum(w, axis=0)
    if not len(w):
        return total
    # the runs of one group in ``order``
    sorted_groups = groups[order]
    start = np.flatnonzero(np.r_[True, sorted_groups[1:] != sorted_groups[:-1]])
    length = np.diff(np.r_[start, len(w)])
    out = np.empty_like(total)
    out[order] = total - np.repeat((total - w)[start], length, axis=0)
    return out


def group_rank(order: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Position of every item inside its group, from :func:`group_order`'s ``(order, counts)``.

    Parameters
    ----------
    order : numpy.ndarray
        Indices listing the items group by group, as :func:`group_order` returns them.
    counts : numpy.ndarray
        Items per group; they must sum to ``len(order)``.

    Returns
    -------
    numpy.ndarray
        int64, one per item: its index among the items of its group (``0 ..`` size - 1).

    Examples
    --------
    >>> group_rank(*group_order(np.array([1, 0, 1, 0, 1]), 2)).tolist()
    [0, 0, 1, 1, 2]
    """
    counts = np.asarray(counts, dtype=np.int64)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64) - np.repeat(
        np.cumsum(counts) - counts, counts
    )
    return rank


def block_bounds(counts: np.ndarray) -> np.ndarray:
    """``[start, end)`` of consecutive blocks of sizes ``counts`` (parts, types) -> (parts, types,
    2).

    Parameters
    ----------
    counts : numpy.ndarray
        Block sizes, of any shape (typically ``(parts, types)``); blocks follow each other
        in row-major order.

    Returns
    -------
    numpy.ndarray
        int64 of shape ``counts.shape + (2,)``: the start and end of each block.

    Examples
    --------
    >>> block_bounds(np.array([[2, 1], [0, 3]])).tolist()
    [[[0, 2], [2, 3]], [[3, 3], [3, 6]]]
    """
    counts = np.asarray(counts, dtype=np.int64)
    ends = np.cumsum(counts.ravel())
    return np.stack([ends - counts.ravel(), ends], axis=1).reshape(*counts.shape, 2)


def expand_ranges(ptr: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(ptr[v], ptr[v + 1])`` for each ``v`` in ``nodes``, without a loop.

    Parameters
    ----------
    ptr : numpy.ndarray
        A CSR index pointer: node ``v``'s items are ``ptr[v]`` to ``ptr[v + 1]``.
    nodes : numpy.ndarray
        Integer node ids, in the order their ranges are wanted; repeats are allowed.

    Returns
    -------
    numpy.ndarray
        int64 positions, node by node (the edge ids of ``nodes``' edges in a CSR).

    Examples
    --------
    >>> expand_ranges(np.array([0, 2, 2, 5]), np.array([2, 0])).tolist()
    [2, 3, 4, 0, 1]
    """
    starts, ends = ptr[nodes], ptr[nodes + 1]
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    return np.arange(total, dtype=np.int64) + offsets


def part_ranges(bounds: np.ndarray) -> np.ndarray:
    """``[start, end)`` of each partition's whole block from ``(parts, types, 2)`` block bounds.

    A partition's types are consecutive, so its block runs from its first type's start to its
    last type's end; with no types at all every block is empty.

    Parameters
    ----------
    bounds : numpy.ndarray
        ``(parts, types, 2)`` block bounds, as :func:`block_bounds` or :func:`stack_ranges`
        return them.

    Returns
    -------
    numpy.ndarray
        ``(parts, 2)``: the start and end of each partition's block (``[0, 0]`` with no
        types).

    Examples
    --------
    >>> part_ranges(block_bounds(np.array([[2, 1], [0, 3]]))).tolist()
    [[0, 3], [3, 6]]
    >>> part_ranges(np.zeros((2, 0, 2), dtype=np.int64)).tolist()
    [[0, 0], [0, 0]]
    """
    bounds = np.asarray(bounds)
    if bounds.shape[1] == 0:
        return np.zeros((bounds.shape[0], 2), dtype=np.int64)
    return np.stack([bounds[:, 0, 0], bounds[:, -1, 1]], axis=1)


def stack_ranges(ranges: Mapping[str, object], types: Sequence[str], num_parts: int) -> np.ndarray:
    """``{type: [[start, end), ...] per partition}`` as one ``(parts, types, 2)`` int64 array.

    Types are stacked in the order given; with no types the result is ``(num_parts, 0, 2)``.

    Parameters
    ----------
    ranges : dict of str to array-like
        Per type, one ``[start, end)`` pair per partition.
    types : sequence of str
        The types to stack, each a key of ``ranges``.
    num_parts : int
        The number of partitions; used only when ``types`` is empty (the row count is
        otherwise taken from ``ranges``, not checked).

    Returns
    -------
    numpy.ndarray
        int64 of shape ``(parts, len(types), 2)``.

    Examples
    --------
    >>> stack_ranges({"a": [[0, 2], [3, 4]], "b": [[2, 3], [4, 6]]}, ["a", "b"], 2).shape
    (2, 2, 2)
    >>> stack_ranges({}, [], 3).shape
    (3, 0, 2)
    """
    if not types:
        return np.zeros((num_parts, 0, 2), dtype=np.int64)
    return np.stack([np.asarray(ranges[t], dtype=np.int64).reshape(-1, 2) for t in types], axis=1)

"""Stochastic block model with planted blocks, sampled block pair by block pair."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

from ..errors import GraphpartError
from ..graph.core import Graph
from ..typing import Seed
from ..utils.check import short_repr
from ..utils.seeds import check_random_state
from .synthetic import NodeTask, attach_node_data, check_fits, planted_task

__all__ = ["sbm"]


def _triu_pairs(idx: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Row-major index into the strict upper triangle of an ``n x n`` matrix -> (row, col)."""

    def row_start(r: np.ndarray) -> np.ndarray:
        return r * n - r * (r + 1) // 2

    disc = np.sqrt(np.maximum((2.0 * n - 1) ** 2 - 8.0 * idx, 0.0))
    r = np.floor(((2.0 * n - 1) - disc) / 2).astype(np.int64)
    r = np.clip(r, 0, max(n - 2, 0))
    r -= row_start(r) > idx  # repair float rounding either way
    r += row_start(r + 1) <= idx
    return r, idx - row_start(r) + r + 1


def _block_edges(rng, ni: int, nj: int, p: float, diagonal: bool, directed: bool):
    if diagonal:
        total = ni * (ni - 1) if directed else ni * (ni - 1) // 2
    else:
        total = ni * nj
    k = int(rng.binomial(total, p)) if total else 0
    idx = np.sort(rng.choice(total, size=k, replace=False)) if k else np.zeros(0, np.int64)
    idx = idx.astype(np.int64)
    if not diagonal:
        return idx // nj, idx % nj
    if directed:  # skip the diagonal entry of each row
        r, c = idx // (ni - 1), idx % (ni - 1)
        return r, c + (c >= r)
    return _triu_pairs(idx, ni)


def check_sbm_args(block_sizes, p_in, p_out, probs, directed) -> tuple[list[int], np.ndarray]:
    """The block sizes and the block probability matrix, or a :class:`GraphpartError`.

    Parameters
    ----------
    block_sizes : list, tuple, range or numpy.ndarray of int
        A non-empty sequence of non-negative ints.
    p_in, p_out : float
        Real numbers; with ``probs`` None they fill the diagonal and the rest of the matrix.
    probs : array-like (k, k) or None
        The block probability matrix; used instead of ``p_in`` and ``p_out`` when given.
    directed : bool
        When False, the matrix must be symmetric.

    Returns
    -------
    sizes : list of int
        ``block_sizes`` as a list.
    probs : numpy.ndarray
        The ``(k, k)`` float matrix, every entry in [0, 1].

    Raises
    ------
    GraphpartError
        An argument has the wrong type, a size is negative, or the matrix has another shape,
        leaves [0, 1] or is not symmetric for an undirected model.
    """
    if not isinstance(block_sizes, (list, tuple, np.ndarray, range)):
        raise GraphpartError(
            f"block_sizes must be a list of ints, got {type(block_sizes).__name__}"
        )
    sizes = list(block_sizes)
    for name, p in (("p_in", p_in), ("p_out", p_out)):
        if isinstance(p, bool) or not isinstance(p, numbers.Real):
            raise GraphpartError(f"{name} must be a probability in [0, 1], got {short_repr(p)}")
    if not sizes or any(
        isinstance(s, bool) or not isinstance(s, numbers.Integral) or s < 0 for s in sizes
    ):
        raise GraphpartError(
            f"block_sizes must be a non-empty list of non-negative ints, got {short_repr(sizes)}"
        )
    k = len(sizes)
    if probs is None:
        probs = np.full((k, k), float(p_out))
        np.fill_diagonal(probs, float(p_in))
    try:
        probs = np.asarray(probs, dtype=float)
    except (TypeError, ValueError):
        raise GraphpartError(
            f"probs must be a {k}x{k} matrix of probabilities, got {short_repr(probs)}"
        ) from None
    if probs.shape != (k, k) or not np.all((probs >= 0) & (probs <= 1)):
        raise GraphpartError(
            f"probs must be a {k}x{k} matrix of probabilities in [0, 1], got shape {probs.shape}"
        )
    if not directed and not np.allclose(probs, probs.T):
        raise GraphpartError(
            "probs must be symmetric for an undirected SBM (or pass directed=True)"
        )
    return sizes, probs


def block_pairs(rng, sizes, probs, directed: bool, offsets: np.ndarray):
    """The edges of each block pair in turn, as ``(src, dst)`` node ids (what :func:`sbm` draws,
    one pair at a time).

    Parameters
    ----------
    rng : numpy.random.Generator
        Draws each pair's edge count (binomial) and then which node pairs they join.
    sizes : list of int
        The block sizes.
    probs : numpy.ndarray
        The ``(k, k)`` block probability matrix.
    directed : bool
        Visit every ordered pair ``(i, j)``; when False, only ``i <= j`` (one direction of each
        edge).
    offsets : numpy.ndarray
        The first node id of each block (the cumulative sizes, starting at 0).

    Yields
    ------
    src, dst : numpy.ndarray
        int64 global node ids of the edges between block ``i`` and block ``j``, pairs in
        row-major order; no self-loops, no duplicates.
    """
    k = len(sizes)
    for i in range(k):  # a loop over block pairs, not over nodes
        for j in range(k) if directed else range(i, k):
            r, c = _block_edges(rng, sizes[i], sizes[j], probs[i, j], i == j, directed)
            yield r + offsets[i], c + offsets[j]


def sbm(
    block_sizes: Sequence[int],
    p_in: float = 0.1,
    p_out: float = 0.01,
    *,
    probs: np.ndarray | None = None,
    directed: bool = False,
    seed: Seed = None,
    task: NodeTask | None = None,
    **names: object,
) -> Graph:
    """A stochastic block model graph; ``ndata["label"]`` is each node's planted block.

    Nodes of block ``i`` are contiguous. Each pair of distinct nodes in blocks
    ``(i, j)`` is joined with probability ``probs[i, j]`` (``p_in`` on the
    diagonal, ``p_out`` off it when ``probs`` is not given); no self-loops and
    no duplicates. Undirected graphs hold both directions of each edge.

    Parameters
    ----------
    block_sizes : list of int
    p_in, p_out : float
        Within- and between-block edge probabilities.
    probs : array (k, k), optional
        Full block probability matrix (symmetric unless ``directed``).
    directed : bool
    seed : int, numpy.random.Generator or None
    task : NodeTask or None, default None
        The labels, features and masks to attach (:class:`~graphpart.datasets.NodeTask`;
        ``None``: none).
    **names
        :class:`~graphpart.datasets.NodeTask` fields by name (``feat_dim=16``,
        ``train_frac=0.1``, ...).

    Returns
    -------
    Graph
        A homogeneous graph of ``sum(block_sizes)`` nodes, with ``ndata["label"]`` (int64) and
        the asked ``feat`` and masks.

    Raises
    ------
    GraphpartError
        An argument is out of range, or the graph would not fit in the memory available.

    Examples
    --------
    >>> g = sbm([50, 50], p_in=0.2, p_out=0.0, seed=0)
    >>> label, (s, d) = g.ndata["label"], g.edges()
    >>> g.num_nodes(), bool((label[s] == label[d]).all())
    (100, True)
    """
    task = planted_task(task, names)
    sizes, probs = check_sbm_args(block_sizes, p_in, p_out, probs, directed)
    n = np.asarray(sizes, dtype=np.float64)
    pairs = np.outer(n, n) - np.diag(n)  # ordered pairs of distinct nodes, per block pair
    check_fits(float((pairs * probs).sum()), int(n.sum()), "sbm")  # both directions counted
    rng = check_random_state(seed)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    k = len(sizes)
    src, dst = [], []
    for r, c in block_pairs(rng, sizes, probs, directed, offsets):
        src.append(r)
        dst.append(c)
    s, d = np.concatenate(src), np.concatenate(dst)
    if not directed:
        s, d = np.concatenate([s, d]), np.concatenate([d, s])
    g = Graph.from_edges(s, d, num_nodes=int(offsets[-1]))
    labels = np.repeat(np.arange(k), sizes)
    return attach_node_data(g, rng, task, labels=labels)

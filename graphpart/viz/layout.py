"""Node positions for drawings: real coordinates when a graph has them, else a cached layout."""

from __future__ import annotations

import weakref
from collections import deque

import numpy as np
import scipy.sparse as sp

from .._random import check_random_state
from ..graph import Graph
from ..homogeneous import HomogeneousGraph
from ..typing import Seed

__all__ = ["node_positions", "sample_neighbourhood", "COORD_NAMES"]

#: Node data names read as real coordinates (shape ``(n, 2)`` or ``(n, 3)``: x and y are used).
COORD_NAMES = ("pos", "coords", "xy")

_CACHE: "weakref.WeakKeyDictionary[Graph, dict]" = weakref.WeakKeyDictionary()


def _homo_edges(g: Graph) -> tuple[np.ndarray, np.ndarray, int]:
    """Edges in homogeneous ids (the same numbering as partitioning uses)."""
    h = HomogeneousGraph.of(g)
    return h.src, h.dst, h.num_nodes


def _real_coords(g: Graph) -> np.ndarray | None:
    for name in COORD_NAMES:
        cols = [g.node_data(t).get(name) if name in g.node_data(t) else None for t in g.ntypes]
        if all(c is not None and c.ndim == 2 and c.shape[1] >= 2 for c in cols):
            return np.concatenate([c[:, :2].double().numpy() for c in cols])
    return None


def _adjacency(src: np.ndarray, dst: np.ndarray, n: int) -> sp.csr_matrix:
    a = sp.coo_matrix((np.ones(len(src)), (src, dst)), shape=(n, n)).tocsr()
    a = a + a.T
    a.setdiag(0)
    a.eliminate_zeros()
    a.data[:] = 1.0
    return a


def _spring(a: sp.csr_matrix, seed: int, iterations: int = 100) -> np.ndarray:
    """Fruchterman-Reingold force-directed layout, vectorised over node pairs (O(n^2) memory)."""
    n = a.shape[0]
    if n <= 1:
        return np.zeros((n, 2))
    rng = np.random.default_rng(seed)
    x, y = (rng.random(n).astype(np.float32) for _ in range(2))
    coo = sp.triu(a, k=1).tocoo()
    i, j = coo.row, coo.col
    k2 = np.float32(1.0 / n)
    t = 0.1
    dt = t / (iterations + 1)
    for _ in range(iterations):
        dx = x[:, None] - x[None, :]
        dy = y[:, None] - y[None, :]
        rep = dx * dx
        rep += dy * dy
        np.maximum(rep, 1e-4, out=rep)
        np.divide(k2, rep, out=rep)  # repulsion k^2 / d, times the unit vector (dx, dy) / d
        fx, fy = (dx * rep).sum(axis=1), (dy * rep).sum(axis=1)
        ex, ey = x[i] - x[j], y[i] - y[j]  # attraction d^2 / k along each edge
        pull = np.sqrt(ex * ex + ey * ey) * np.float32(np.sqrt(n))
        ax_, ay_ = ex * pull, ey * pull
        fx -= np.bincount(i, weights=ax_, minlength=n) - np.bincount(j, weights=ax_, minlength=n)
        fy -= np.bincount(i, weights=ay_, minlength=n) - np.bincount(j, weights=ay_, minlength=n)
        length = np.maximum(np.sqrt(fx * fx + fy * fy), 1e-2)
        x += (fx * (t / length)).astype(np.float32)
        y += (fy * (t / length)).astype(np.float32)
        t -= dt
    pos = np.stack([x, y], axis=1).astype(np.float64)
    pos -= np.median(pos, axis=0)
    scale = max(
        float(np.quantile(np.abs(pos), 0.99)), 1e-9
    )  # isolated nodes drift far: clip them in
    return np.clip(pos / scale, -1.05, 1.05)


def node_positions(g: Graph, seed: int = 0, nodes: np.ndarray | None = None) -> np.ndarray:
    """``(n, 2)`` positions of the nodes of ``g`` (homogeneous ids), computed once per graph.

    Real coordinates win: node data named ``pos``, ``coords`` or ``xy``.
    Otherwise a seeded force-directed layout of the undirected graph, cached
    for as long as ``g`` lives, so every drawing of the same graph lines up.
    With ``nodes``, the layout of the subgraph they induce (cached by node set).

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> g = load_karate_club()
    >>> pos = node_positions(g)
    >>> pos.shape, node_positions(g) is pos
    ((34, 2), True)
    """
    cache = _CACHE.setdefault(g, {})
    key = (seed, None if nodes is None else hash(np.asarray(nodes, dtype=np.int64).tobytes()))
    if key in cache:
        return cache[key]
    real = _real_coords(g)
    if real is not None:
        pos = real if nodes is None else real[nodes]
    else:
        src, dst, n = _homo_edges(g)
        a = _adjacency(src, dst, n)
        if nodes is not None:
            a = a[nodes][:, nodes]
        pos = _spring(a, seed)
    cache[key] = pos
    return pos


def sample_neighbourhood(
    g: Graph, max_nodes: int, seed: Seed = None, start: int | None = None
) -> np.ndarray:
    """Up to ``max_nodes`` homogeneous node ids reached breadth-first from ``start``.

    The start is a random node of maximum degree's component when not given.
    The walk visits whole BFS layers while they fit, then a random part of the
    last one, so the sample is a connected neighbourhood.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> nodes = sample_neighbourhood(load_karate_club(), 10, start=0)
    >>> len(nodes), 0 in nodes
    (10, True)
    """
    src, dst, n = _homo_edges(g)
    a = _adjacency(src, dst, n)
    rng = check_random_state(seed)
    if start is None:
        deg = np.diff(a.indptr)
        start = int(rng.choice(np.flatnonzero(deg == deg.max()))) if n else 0
    seen = np.zeros(n, dtype=bool)
    seen[start] = True
    frontier = np.array([start])
    taken = deque([frontier])
    total = 1
    while total < max_nodes and len(frontier):
        nbrs = np.unique(a[frontier].indices)
        nbrs = nbrs[~seen[nbrs]]
        if total + len(nbrs) > max_nodes:
            nbrs = np.sort(rng.choice(nbrs, max_nodes - total, replace=False))
        seen[nbrs] = True
        taken.append(nbrs)
        total += len(nbrs)
        frontier = nbrs
    return np.sort(np.concatenate(list(taken)))

"""Node positions for drawings: real coordinates when a graph has them, else a cached layout."""

from __future__ import annotations

import weakref
from collections import deque

import numpy as np
import scipy.sparse as sp

from ..graph.core import Graph
from ..homogeneous import HomogeneousGraph
from ..typing import Seed
from ..utils.seeds import check_random_state

__all__ = ["node_positions", "sample_neighbourhood"]

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


#: Up to this many nodes the layout sums every pair's repulsion; above, it is read off a grid.
EXACT_LAYOUT_NODES = 2000


def _spring(a: sp.csr_matrix, seed: int, iterations: int = 100) -> np.ndarray:
    """Fruchterman-Reingold force-directed layout in the unit square, then centred and scaled.

    Repulsion between every pair of nodes up to :data:`EXACT_LAYOUT_NODES` (O(n^2) memory);
    above, the particle-mesh approximation of :func:`_mesh_repulsion` (O(n + grid log grid)).
    """
    n = a.shape[0]
    if n <= 1:
        return np.zeros((n, 2))
    rng = np.random.default_rng(seed)
    exact = n <= EXACT_LAYOUT_NODES
    dtype = np.float32 if exact else np.float64
    x, y = (rng.random(n).astype(dtype) for _ in range(2))
    coo = sp.triu(a, k=1).tocoo()
    i, j = coo.row, coo.col
    k2 = dtype(1.0 / n)
    t = 0.1
    dt = t / (iterations + 1)
    for _ in range(iterations):
        fx, fy = _pair_repulsion(x, y, k2) if exact else _mesh_repulsion(x, y, k2)
        ex, ey = x[i] - x[j], y[i] - y[j]  # attraction d^2 / k along each edge
        pull = np.sqrt(ex * ex + ey * ey) * dtype(np.sqrt(n))
        ax_, ay_ = ex * pull, ey * pull
        fx -= np.bincount(i, weights=ax_, minlength=n) - np.bincount(j, weights=ax_, minlength=n)
        fy -= np.bincount(i, weights=ay_, minlength=n) - np.bincount(j, weights=ay_, minlength=n)
        length = np.maximum(np.sqrt(fx * fx + fy * fy), 1e-2)
        x += (fx * (t / length)).astype(dtype)
        y += (fy * (t / length)).astype(dtype)
        t -= dt
    pos = np.stack([x, y], axis=1).astype(np.float64)
    linked = np.diff(a.indptr) > 0  # isolated nodes drift far: scale by the others, clip them in
    ref = pos[linked] if linked.sum() > 1 else pos
    pos -= np.median(ref, axis=0)
    scale = max(float(np.quantile(np.abs(pos[linked] if linked.sum() > 1 else pos), 0.99)), 1e-9)
    pos /= scale
    radius = np.maximum(np.hypot(pos[:, 0], pos[:, 1]), 1.0)
    pos = np.where(radius[:, None] > 1.05, pos * (1.05 / radius)[:, None], pos)
    alone = np.flatnonzero(~linked)
    if linked.any() and len(alone) > 0.01 * n:  # many edgeless nodes: a ring around the rest
        angle = 2 * np.pi * np.arange(len(alone)) / len(alone)
        pos[alone] = 1.15 * np.stack([np.cos(angle), np.sin(angle)], axis=1)
    return pos


def _pair_repulsion(x: np.ndarray, y: np.ndarray, k2) -> tuple[np.ndarray, np.ndarray]:
    """Repulsion ``k^2 / d`` along each pair's unit vector, summed exactly over all pairs."""
    dx = x[:, None] - x[None, :]
    dy = y[:, None] - y[None, :]
    rep = dx * dx
    rep += dy * dy
    np.maximum(rep, 1e-4, out=rep)
    np.divide(k2, rep, out=rep)
    return (dx * rep).sum(axis=1), (dy * rep).sum(axis=1)


def _mesh_repulsion(
    x: np.ndarray, y: np.ndarray, k2: float, grid: int = 128
) -> tuple[np.ndarray, np.ndarray]:
    """The same repulsion read off a grid (particle-mesh): each node is spread over its four
    nearest cell centres, the cell masses are convolved (by FFT, zero-padded) with the field of
    one node, ``r / |r|^2``, and the field is read back at each node the same way. Exact down to
    about 1/128 of the layout's width."""
    lo_x, lo_y = x.min(), y.min()
    h = max(x.max() - lo_x, y.max() - lo_y, 1e-9) * 1.0001 / (grid - 1)
    gx, gy = (x - lo_x) / h, (y - lo_y) / h
    cx, cy = np.minimum(gx.astype(np.int64), grid - 2), np.minimum(gy.astype(np.int64), grid - 2)
    wx, wy = gx - cx, gy - cy
    size = 2 * grid
    corners = [
        (0, 0, (1 - wx) * (1 - wy)),
        (1, 0, wx * (1 - wy)),
        (0, 1, (1 - wx) * wy),
        (1, 1, wx * wy),
    ]
    rho = np.zeros(size * size)
    for ox, oy, wt in corners:
        rho += np.bincount((cx + ox) * size + cy + oy, weights=wt, minlength=size * size)
    rho = rho.reshape(size, size)
    u = np.arange(-grid, grid) * h
    ux, uy = np.meshgrid(u, u, indexing="ij")
    d2 = ux * ux + uy * uy
    d2[grid, grid] = np.inf  # a cell does not push itself
    r = np.fft.rfft2(rho)
    field_x = np.fft.irfft2(r * np.fft.rfft2(np.fft.ifftshift(ux / d2)), s=rho.shape)
    field_y = np.fft.irfft2(r * np.fft.rfft2(np.fft.ifftshift(uy / d2)), s=rho.shape)
    fx, fy = np.zeros_like(x), np.zeros_like(y)
    for ox, oy, wt in corners:
        fx += wt * field_x[cx + ox, cy + oy]
        fy += wt * field_y[cx + ox, cy + oy]
    return k2 * fx, k2 * fy


def node_positions(g: Graph, seed: int = 0, nodes: np.ndarray | None = None) -> np.ndarray:
    """``(n, 2)`` positions of the nodes of ``g`` (homogeneous ids), computed once per graph.

    Real coordinates win: node data named ``pos``, ``coords`` or ``xy``.
    Otherwise a seeded force-directed layout of the undirected graph, cached
    for as long as ``g`` lives, so every drawing of the same graph lines up.
    With ``nodes``, the layout of the subgraph they induce (cached by node set).

    Parameters
    ----------
    g : Graph
    seed : int, default 0
        Seed of the force-directed layout (unused with real coordinates).
    nodes : ndarray of int, optional
        Homogeneous node ids: lay out only the subgraph they induce, one row per id in the
        order given (default: every node).

    Returns
    -------
    ndarray, shape (n, 2)
        float64 x and y per node. Real coordinates come as stored; a computed layout is centred
        and scaled so that nodes lie within about the unit circle (edgeless nodes, when there
        are many, on a ring just outside). The cached array itself: do not change it in place.

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

    The start is a random node of maximum degree when not given.
    The walk visits whole BFS layers while they fit, then a random part of the
    last one, so the sample is a connected neighbourhood.

    Parameters
    ----------
    g : Graph
        Walked with its edges taken in both directions.
    max_nodes : int
        The most nodes returned (the start is always among them).
    seed : int, numpy.random.Generator or None, default None
        Picks the start, when not given, and the part of the last layer taken.
    start : int, optional
        The homogeneous id to start from (default: a random node of highest degree, a degree
        counting distinct neighbours, self-loops left out).

    Returns
    -------
    ndarray of int
        The homogeneous ids of the sampled nodes, in ascending order.

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

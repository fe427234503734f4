"""Edge samples that make METIS fast on large graphs: uniform, or degree-aware.

METIS's time grows with the edges it sees. A large graph with communities is coarsened for it
(:mod:`.coarsen`): a uniform sample of such a graph has lost them. A graph without communities
(R-MAT: a core of hubs and a fringe of leaves) is sampled instead: METIS partitions the sample
several times faster, and the refinement on every edge (:mod:`.refine`) recovers the cut. Which
edges to keep matters when in-degrees are balanced: every part must then take a share of the
hubs, and the low-degree nodes must follow theirs, so each node keeps about the same number of its
edges (:func:`sample_edges` with ``by_degree``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["sample_edges"]

#: Edges per chunk of the keep-mask computation (its temporaries are reused from chunk to chunk).
_CHUNK = 1 << 20


def _keep_share(deg: np.ndarray, per_node: float) -> np.ndarray:
    """Share of its edges a node of degree ``deg`` keeps when it keeps about ``per_node``."""
    return np.minimum(np.float32(1), np.float32(per_node) / np.maximum(deg, np.float32(1)))


def _edges_per_node(deg_a: np.ndarray, deg_b: np.ndarray, budget: float) -> float:
    """The ``per_node`` that keeps about ``budget`` of the edges between degrees ``deg_a`` and
    ``deg_b`` (bisection; an edge is kept if either end keeps it)."""
    lo, hi = 0.0, float(max(deg_a.max(), deg_b.max()))
    for _ in range(30):
        mid = (lo + hi) / 2
        qa, qb = _keep_share(deg_a, mid), _keep_share(deg_b, mid)
        if (qa + qb - qa * qb).sum(dtype=np.float64) < budget:
            lo = mid
        else:
            hi = mid
    return hi


def keep_shares(
    deg: np.ndarray, probe_src: np.ndarray, probe_dst: np.ndarray, budget: float
) -> np.ndarray:
    """The share of its edges each node keeps (degree-aware sampling) so that about ``budget`` of
    the ``probe`` edges are kept, an edge kept if either end keeps it: for a stream of edges,
    sampled chunk by chunk as :func:`sample_edges` does with ``by_degree``.

    Parameters
    ----------
    deg : numpy.ndarray
        The degree (in plus out, self-loops left out) of every node.
    probe_src, probe_dst : numpy.ndarray of int
        The endpoints of the probe edges: a sample of the stream's edges, without self-loops.
    budget : float
        How many of the probe edges to keep (scale the whole stream's budget by the probe's
        share of it).

    Returns
    -------
    numpy.ndarray of float32
        The share, in ``[0, 1]``, of its edges each node keeps: ``min(1, c / deg)`` for one
        ``c`` found by bisection; all ones when there are no probe edges.

    Examples
    --------
    >>> deg = np.array([100, 1, 1, 1, 1], dtype=np.float32)   # a hub and four leaves
    >>> share = keep_shares(deg, np.zeros(4, dtype=int), np.arange(1, 5), 2.0)
    >>> bool(share[0] < 0.01), bool(0.45 < share[1] < 0.55)   # the leaves keep theirs
    (True, True)
    """
    deg = np.asarray(deg, dtype=np.float32)
    if not len(probe_src):
        return np.ones(len(deg), dtype=np.float32)
    return _keep_share(deg, _edges_per_node(deg[probe_src], deg[probe_dst], budget))


def sample_edges(
    src: np.ndarray,
    dst: np.ndarray,
    num_nodes: int,
    max_edges: int,
    by_degree: bool,
    rng: np.random.Generator,
) -> np.ndarray:
    """Keep-mask for about ``max_edges`` of the edges (self-loops never kept).

    ``by_degree``: each node keeps about the same number ``c`` of its edges, all of them when it has
    fewer, and an edge is kept if either end keeps it. A node with a few edges is placed by those
    few, so it keeps them all; a hub keeps ``c`` of its many, enough to place it. A uniform sample
    instead strips most low-degree nodes of the edges that tie them to their neighbourhood.
    Duplicates and the two directions of a pair are drawn apart: a pair kept either way is kept.

    Parameters
    ----------
    src, dst : numpy.ndarray of int
        The edges, node ids in ``[0, num_nodes)``.
    num_nodes : int
        The number of nodes.
    max_edges : int
        About how many of the edges (self-loops not counted) to keep.
    by_degree : bool
        Sample degree-aware (see above); otherwise each edge is kept with probability
        ``max_edges / (edges that are not self-loops)``.
    rng : numpy.random.Generator
        Draws the sample.

    Returns
    -------
    numpy.ndarray of bool
        One entry per edge, true for the edges kept; self-loops are false.

    Examples
    --------
    >>> a, b = np.triu_indices(20, 1)            # a clique: 190 edges, every node of degree 19
    >>> src = np.concatenate([a, [20, 21]]); dst = np.concatenate([b, [21, 22]])   # and a path
    >>> keep = sample_edges(src, dst, 23, 60, True, np.random.default_rng(0))
    >>> bool(keep[-2:].all()), 40 < int(keep.sum()) < 80   # the path keeps its edges
    (True, True)
    """
    loop = src == dst
    num_loops = int(np.count_nonzero(loop))
    num_real = len(src) - num_loops  # self-loops count neither in the degrees nor in the budget
    keep = np.zeros(len(src), dtype=bool)
    if not num_real:
        return keep
    if by_degree:
        deg = np.bincount(src, minlength=num_nodes) + np.bincount(dst, minlength=num_nodes)
        if num_loops:
            deg -= 2 * np.bincount(src[loop], minlength=num_nodes)
        deg = deg.astype(np.float32)
        # c from at most 2**17 evenly spaced edges, scaled up: every step-th edge that is not a loop
        few = np.arange(0, num_real, max(1, num_real >> 17))
        if num_loops:  # non-loop number r comes after the loops with at most r non-loops before
            at = np.flatnonzero(loop)
            few += np.searchsorted(at - np.arange(num_loops), few, side="right")
        c = _edges_per_node(deg[src[few]], deg[dst[few]], max_edges * len(few) / num_real)
        share = _keep_share(deg, c)
    # Chunk by chunk into reused buffers: edge-sized temporaries cost more in first-touch page
    # faults than the arithmetic. The draws are the same as one call over every edge.
    chunk = min(len(src), _CHUNK)
    draw, qa, qb, both = (np.empty(chunk, dtype=np.float32) for _ in range(4))
    for lo in range(0, len(src), chunk):
        hi = min(lo + chunk, len(src))
        m = hi - lo
        rng.random(m, dtype=np.float32, out=draw[:m])
        if by_degree:
            np.take(share, src[lo:hi], out=qa[:m])
            np.take(share, dst[lo:hi], out=qb[:m])
            np.multiply(qa[:m], qb[:m], out=both[:m])  # kept if either end keeps it:
            qa[:m] += qb[:m]  # qa + qb - qa * qb
            qa[:m] -= both[:m]
            np.less(draw[:m], qa[:m], out=keep[lo:hi])
        else:
            np.less(draw[:m], np.float32(max_edges / num_real), out=keep[lo:hi])
    keep &= ~loop
    return keep

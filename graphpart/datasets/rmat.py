"""Graph500-style R-MAT (recursive matrix) generator, vectorised over edges."""

from __future__ import annotations

import logging
import numbers

import numpy as np

from ..errors import GraphpartError
from ..graph.core import Graph
from ..typing import Seed
from ..utils.check import short_repr
from ..utils.seeds import check_random_state
from .synthetic import NodeTask, attach_node_data, check_fits, dedupe_edges

__all__ = ["rmat"]

log = logging.getLogger(__name__)


def check_rmat_args(scale: object, edge_factor: object, a: object, b: object, c: object) -> None:
    """Refuse R-MAT arguments out of range with a :class:`GraphpartError`.

    Parameters
    ----------
    scale : object
        Must be an int in [0, 31] (not a bool).
    edge_factor : object
        Must be a non-negative int (not a bool).
    a, b, c : object
        Must be non-negative real numbers with ``a + b + c <= 1``.

    Raises
    ------
    GraphpartError
        Any argument is out of range or of another type.
    """
    if isinstance(scale, bool) or not isinstance(scale, numbers.Integral) or not 0 <= scale <= 31:
        raise GraphpartError(f"scale must be an int in [0, 31], got {short_repr(scale)}")
    if (
        isinstance(edge_factor, bool)
        or not isinstance(edge_factor, numbers.Integral)
        or edge_factor < 0
    ):
        raise GraphpartError(
            f"edge_factor must be a non-negative int, got {short_repr(edge_factor)}"
        )
    probs = [a, b, c]
    if any(not isinstance(p, numbers.Real) or not p >= 0 for p in probs) or not sum(probs) <= 1:
        raise GraphpartError(
            f"a, b, c must be non-negative with a + b + c <= 1, got a={a}, b={b}, c={c}"
        )


def rmat_quadrants(draw, scale: int, size: int, a: float, b: float, c: float):
    """``size`` edges of the recursive matrix, before any permutation: one pass per bit, each
    edge's quadrant picked from one uniform float32 that ``draw(level, u)`` writes into ``u``
    (level by level, as :func:`rmat` draws them from its generator).

    Parameters
    ----------
    draw : callable
        ``draw(level, u)`` fills the float32 array ``u`` (of ``size`` items) with uniform
        numbers in [0, 1) for bit ``level``; its return value is ignored.
    scale : int
        Bits per node id: ids lie in ``[0, 2**scale)``.
    size : int
        Number of edges to draw.
    a, b, c : float
        Quadrant probabilities (``d = 1 - a - b - c``): ``u < a`` picks the top-left quadrant,
        then ``b`` top-right (target bit set), ``c`` bottom-left (source bit set), ``d`` both.

    Returns
    -------
    src, dst : numpy.ndarray
        uint32 arrays of ``size`` source and target ids, duplicates and self-loops included.
    """
    src = np.zeros(size, dtype=np.uint32)
    dst = np.zeros(size, dtype=np.uint32)
    u = np.empty(size, dtype=np.float32)
    lower = np.empty(size, dtype=bool)
    for level in range(scale):  # one pass per bit, over all edges at once
        draw(level, u)
        np.greater_equal(u, a + b, out=lower)  # quadrant c or d: source bit set
        src += lower.view(np.uint8).astype(np.uint32) << np.uint32(level)
        right = ((u >= a) & ~lower) | (u >= a + b + c)  # quadrant b or d: target bit set
        dst += right.view(np.uint8).astype(np.uint32) << np.uint32(level)
    return src, dst


def rmat(
    scale: int,
    edge_factor: int = 16,
    a: float = 0.57,
    b: float = 0.19,
    c: float = 0.19,
    *,
    symmetric: bool = False,
    self_loops: bool = False,
    permute: bool = True,
    seed: Seed = None,
    task: NodeTask | None = None,
    **names: object,
) -> Graph:
    """An R-MAT graph with ``2**scale`` nodes and up to ``edge_factor * 2**scale`` edges.

    Each edge picks one quadrant of the adjacency matrix per level with
    probabilities ``a, b, c, d = 1 - a - b - c`` (Graph500 defaults), for all
    edges at once. Vertex labels are then randomly permuted (as Graph500 does,
    so that ids carry no locality), duplicate edges are dropped, and so are
    self-loops unless ``self_loops``.

    Parameters
    ----------
    scale : int
        log2 of the number of nodes (at most 31).
    edge_factor : int
        Edges drawn per node before deduplication.
    a, b, c : float
        Quadrant probabilities.
    symmetric : bool
        Add the reverse of every edge (an undirected graph as a directed one).
    self_loops : bool, default False
        Keep drawn self-loops.
    permute : bool
        Shuffle vertex ids.
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
        A homogeneous graph of ``2**scale`` nodes (isolated ones included) and the distinct
        edges drawn; node data as asked.

    Raises
    ------
    GraphpartError
        An argument is out of range, or the graph would not fit in the memory available.

    Examples
    --------
    >>> g = rmat(8, seed=0)
    >>> g.num_nodes(), g.num_edges() <= 16 * 256
    (256, True)
    """
    task = NodeTask.of(task, **names)
    check_rmat_args(scale, edge_factor, a, b, c)
    n, m = 1 << scale, edge_factor << scale
    check_fits(m * (2 if symmetric else 1), n, "rmat")
    rng = check_random_state(seed)
    src, dst = rmat_quadrants(
        lambda level, u: rng.random(out=u, dtype=np.float32), scale, m, a, b, c
    )
    if permute:
        perm = rng.permutation(n).astype(np.uint32)
        src, dst = perm[src], perm[dst]
    s, d = dedupe_edges(src, dst, n, symmetric, self_loops)
    log.debug("rmat scale=%d: %d drawn, %d kept", scale, m, len(s))
    g = Graph.from_edges(s, d, num_nodes=n)
    return attach_node_data(g, rng, task)

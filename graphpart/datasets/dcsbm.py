"""Degree-corrected stochastic block model (Karrer & Newman, 2011): communities with power-law
degrees, drawn in blocks so that graphs larger than memory can be written chunk by chunk.

Every node has a weight from a Pareto law of exponent ``exponent`` (its expected degree, up to a
factor): each edge draws a node with probability proportional to its weight, then, with
probability ``1 - mixing``, a neighbour in the same community by weight, else one anywhere by
weight. Communities are ``community_size`` consecutive nodes before the ids are shuffled; the
planted community of every node is ``ndata["label"]``. Self-loops and repeated pairs are dropped
and every edge is stored in both directions (an undirected graph), so the degrees follow the
weights' power law, and a partition that keeps communities whole cuts about ``mixing`` of the
edges.

The edges are drawn ``DRAW_BLOCK`` at a time, block ``i`` from its own generator (seeded by the
graph's seed and ``i``): :func:`dcsbm` and :func:`graphpart.chunked.ingest.dcsbm_chunked` give
the same graph, and the blocks can be drawn in any order or in parallel.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..errors import GraphpartError
from ..graph.core import Graph
from ..typing import Seed
from ..utils.check import check_count, short_repr
from ..utils.seeds import check_random_state
from .synthetic import NodeTask, attach_node_data, check_fits, dedupe_edges, planted_task

__all__ = ["dcsbm", "DcsbmModel"]

#: Undirected edges drawn per block (each block from its own generator).
DRAW_BLOCK = 1 << 22


class DcsbmModel:
    """The node weights, communities and id shuffle of a DC-SBM graph, and its edge draws.

    Memory: ``20`` bytes per node (cumulative weights, shuffled ids).

    Parameters
    ----------
    scale : int
        log2 of the number of nodes, from 1 to 31.
    avg_degree : float
        Edges drawn per node, both directions counted (before repeated pairs are dropped).
    community_size : int
        Nodes per community (the last may be smaller).
    mixing : float
        Fraction of the draws whose neighbour is taken anywhere, in ``[0, 1]``.
    exponent : float
        The weights' Pareto exponent, above 2 (the degrees' power law).
    seed : int, numpy.random.Generator or None
        The random state.
    base : int, optional
        A model's :attr:`base` instead of ``seed``: the same model, rebuilt elsewhere.

    Examples
    --------
    >>> model = DcsbmModel(10, 8, 64, 0.1, 2.5, seed=0)
    >>> src, dst = model.draw(0)
    >>> len(src) == model.draws and bool((src < 1024).all())
    True
    """

    def __init__(
        self,
        scale: int,
        avg_degree: float,
        community_size: int,
        mixing: float,
        exponent: float,
        seed: Seed,
        *,
        base: int | None = None,
    ) -> None:
        check_dcsbm_args(scale, avg_degree, community_size, mixing, exponent)
        self.n = n = 1 << int(scale)
        self.size, self.mixing = int(community_size), float(mixing)
        self.draws = int(round(avg_degree * n / 2))  # undirected edges drawn
        #: every draw's generator is seeded by this and its block (``base``: the same model again)
        self.base = int(check_random_state(seed).integers(2**63)) if base is None else int(base)
        rng = np.random.default_rng([self.base, 2**32])
        weights = (1.0 - rng.random(n)) ** (-1.0 / (float(exponent) - 1.0))
        weights = np.minimum(weights, np.sqrt(n))  # no node above sqrt(n) times the least
        self.cum = np.cumsum(weights)
        del weights
        self.perm = rng.permutation(n).astype(np.uint32)  # planted order -> node id

    @property
    def blocks(self) -> int:
        """The number of draw blocks."""
        return -(-self.draws // DRAW_BLOCK)

    def draw(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``(src, dst)`` node ids of draw block ``i`` (one direction, self-loops and
        repeats included)."""
        lo, hi = i * DRAW_BLOCK, min((i + 1) * DRAW_BLOCK, self.draws)
        rng = np.random.default_rng([self.base, i])
        total = self.cum[-1]
        u = np.searchsorted(self.cum, rng.random(hi - lo) * total, side="right")
        u = np.minimum(u, self.n - 1)
        first = (u // self.size) * self.size  # u's community: planted nodes first .. last
        last = np.minimum(first + self.size, self.n) - 1
        inside = rng.random(hi - lo) >= self.mixing  # else a neighbour anywhere
        lo_w = np.where(inside & (first > 0), self.cum[np.maximum(first - 1, 0)], 0.0)
        hi_w = np.where(inside, self.cum[last], total)
        v = np.searchsorted(self.cum, lo_w + rng.random(hi - lo) * (hi_w - lo_w), side="right")
        v = np.minimum(v, self.n - 1)
        return self.perm[u].astype(np.int64), self.perm[v].astype(np.int64)

    def labels(self) -> np.ndarray:
        """Every node's planted community (int64, by node id)."""
        label = np.empty(self.n, dtype=np.int64)
        label[self.perm] = np.arange(self.n, dtype=np.int64) // self.size
        return label


def check_dcsbm_args(scale, avg_degree, community_size, mixing, exponent) -> None:
    """Refuse DC-SBM arguments out of range with a :class:`GraphpartError`."""
    check_count(scale, "scale", low=1, high=31)
    check_count(community_size, "community_size", low=1)
    if not isinstance(avg_degree, numbers.Real) or not 0 < avg_degree <= 1e4:
        raise GraphpartError(f"avg_degree must lie in (0, 10000], got {short_repr(avg_degree)}")
    if not isinstance(mixing, numbers.Real) or not 0 <= mixing <= 1:
        raise GraphpartError(f"mixing must lie in [0, 1], got {short_repr(mixing)}")
    if not isinstance(exponent, numbers.Real) or not 2 < exponent <= 100:
        raise GraphpartError(f"exponent must lie in (2, 100], got {short_repr(exponent)}")


def dcsbm(
    scale: int,
    avg_degree: float = 16,
    community_size: int = 4096,
    mixing: float = 0.2,
    exponent: float = 2.5,
    *,
    seed: Seed = None,
    task: NodeTask | None = None,
    **names: object,
) -> Graph:
    """A degree-corrected stochastic block model graph: communities with power-law degrees.

    See the module docstring for the model. :func:`graphpart.chunked.ingest.dcsbm_chunked`
    writes the same graph without holding it in memory.

    Parameters
    ----------
    scale : int
        log2 of the number of nodes, from 1 to 31.
    avg_degree : float, default 16
        Edges drawn per node, both directions counted (repeated pairs are then dropped).
    community_size : int, default 4096
        Nodes per planted community.
    mixing : float, default 0.2
        Fraction of the draws whose neighbour may lie in any community.
    exponent : float, default 2.5
        The degrees' power-law exponent, above 2.
    seed : int, numpy.random.Generator or None
        The random state.
    task : NodeTask or None, default None
        The labels, features and masks to attach (:class:`~graphpart.datasets.NodeTask`;
        ``None``: none).
    **names
        :class:`~graphpart.datasets.NodeTask` fields by name (``feat_dim=16``,
        ``train_frac=0.1``, ...).

    Returns
    -------
    Graph
        ``2**scale`` nodes, undirected (each edge both ways), ``ndata["label"]`` the planted
        community.

    Raises
    ------
    GraphpartError
        An argument is out of range, or the graph would not fit in the memory available.

    Examples
    --------
    >>> g = dcsbm(12, 16, community_size=256, mixing=0.1, seed=0)
    >>> s, d = (x.numpy() for x in g.edges())
    >>> label = g.ndata["label"].numpy()
    >>> g.num_nodes(), round(float((label[s] != label[d]).mean()), 2) < 0.15
    (4096, True)
    """
    task = planted_task(task, names)
    model = DcsbmModel(scale, avg_degree, community_size, mixing, exponent, seed)
    check_fits(2.0 * model.draws, model.n, "dcsbm")
    pairs = [model.draw(i) for i in range(model.blocks)]
    src = np.concatenate([p[0] for p in pairs]) if pairs else np.zeros(0, np.int64)
    dst = np.concatenate([p[1] for p in pairs]) if pairs else np.zeros(0, np.int64)
    del pairs
    src, dst = dedupe_edges(src, dst, model.n, True, False)
    g = Graph.from_edges(src, dst, num_nodes=model.n)
    return attach_node_data(
        g, np.random.default_rng([model.base, 2**33]), task, labels=model.labels()
    )

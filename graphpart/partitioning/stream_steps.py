"""Fennel, one node at a time: every decision of a streaming partitioner, kept for replay.

Fennel (Tsourakakis et al., WSDM 2014) reads the nodes in a stream and puts each where
``neighbours already placed there - alpha * gamma * load ** (gamma - 1)`` is highest, among the
partitions not yet full. The chunked pipeline (:mod:`graphpart.chunked.stream`) makes the same
decisions for a batch of nodes at once, with refinement passes after; this module makes them one
by one, the textbook way, and keeps each decision's numbers so that a view can show why every
node went where it did. It is for small graphs: the replay is sequential by nature.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import GraphpartError
from ..graph.core import Graph, check_graph
from ..homogeneous import HomogeneousGraph
from ..index import undirected_pairs
from ..utils.check import check_count, check_rate, short_repr

__all__ = ["StreamSteps", "fennel_steps", "MAX_STEP_NODES"]

#: The largest graph replayed node by node (a view shows one decision at a time).
MAX_STEP_NODES = 5000
#: Fennel's largest exponent, weight and slack in a replay: every penalty stays a finite float
#: (the paper's gamma is 1.5, its alpha under 1).
MAX_GAMMA, MAX_ALPHA, MAX_SLACK = 10.0, 1e12, 100.0


@dataclass(frozen=True)
class StreamSteps:
    """Fennel's decisions, step ``t`` placing node ``order[t]``.

    Attributes
    ----------
    order : ndarray of int64, shape (n,)
        The stream: the node placed at each step.
    neighbours : ndarray of int64, shape (n, k)
        At step ``t``, how many neighbours of ``order[t]`` each partition already holds (each
        neighbour once, whether the edges join them one way or both).
    penalty : ndarray of float64, shape (n, k)
        At step ``t``, each partition's load penalty ``alpha * gamma * load ** (gamma - 1)``.
    full : ndarray of bool, shape (n, k)
        At step ``t``, the partitions already at capacity (not eligible).
    choice : ndarray of int64, shape (n,)
        The partition node ``order[t]`` went to.
    capacity : int
        Most nodes a partition may hold: ``ceil((1 + slack) * n / k)``.
    alpha, gamma : float
        Fennel's parameters.
    """

    order: np.ndarray
    neighbours: np.ndarray
    penalty: np.ndarray
    full: np.ndarray
    choice: np.ndarray
    capacity: int
    alpha: float
    gamma: float

    @property
    def score(self) -> np.ndarray:
        """``neighbours - penalty`` at each step, ``-inf`` where the partition is full."""
        return np.where(self.full, -np.inf, self.neighbours - self.penalty)

    @property
    def assignment(self) -> np.ndarray:
        """Each node's partition once the stream is done (node ids, not steps)."""
        out = np.empty_like(self.choice)
        out[self.order] = self.choice
        return out

    def placed(self, t: int) -> np.ndarray:
        """Each node's partition before step ``t`` (``-1``: not read yet)."""
        out = np.full(len(self.order), -1, dtype=np.int64)
        out[self.order[:t]] = self.choice[:t]
        return out


def fennel_steps(
    graph: Graph,
    num_parts: int,
    *,
    order: np.ndarray | None = None,
    gamma: float = 1.5,
    alpha: float | None = None,
    slack: float = 0.1,
) -> StreamSteps:
    """Stream the nodes of ``graph`` through Fennel, one at a time, keeping every decision.

    Parameters
    ----------
    graph : Graph
        At most :data:`MAX_STEP_NODES` nodes (all types together); edges count both ways.
    num_parts : int
        Partitions, at least 1.
    order : array of int, optional
        The stream (a permutation of the node ids); by default ``0, 1, ..., n - 1``.
    gamma : float, default 1.5
        The load penalty's exponent, above 1 and at most :data:`MAX_GAMMA`.
    alpha : float, optional
        The load penalty's weight, above 0 and at most :data:`MAX_ALPHA`; by default the
        paper's ``sqrt(k) * m / n ** gamma``, ``m`` the undirected edges (a pair of nodes joined
        both ways counts once).
    slack : float, default 0.1
        A partition is full at ``(1 + slack) * n / k`` nodes; 0 to :data:`MAX_SLACK`.

    Returns
    -------
    StreamSteps

    Examples
    --------
    >>> from graphpart import Graph
    >>> g = Graph.from_edges([0, 1, 3, 4], [1, 2, 4, 5], num_nodes=6)  # two paths of 3
    >>> s = fennel_steps(g, 2)
    >>> s.assignment.tolist()
    [0, 0, 0, 1, 1, 1]
    >>> s.neighbours[1].tolist()  # node 1 sees node 0 in partition 0
    [1, 0]
    """
    h, k = check_step_graph(
        graph, num_parts, 1, "(partition larger graphs with chunked.assign(..., 'fennel'))"
    )
    n = h.num_nodes
    gamma = check_rate(gamma, "gamma")
    if not 1 < gamma <= MAX_GAMMA:  # past it, n ** gamma leaves the float range
        raise GraphpartError(f"gamma must be above 1 and at most {MAX_GAMMA}, got {gamma:g}")
    slack = check_rate(slack, "slack", zero=True)
    if slack > MAX_SLACK:
        raise GraphpartError(f"slack must be at most {MAX_SLACK} (never full), got {slack:g}")
    lo, hi = undirected_pairs(h.src, h.dst, n)  # each pair of neighbours once, no self-loops
    m = len(lo)  # the paper's m: undirected edges
    if alpha is None:
        alpha = math.sqrt(k) * m / max(n, 1) ** gamma
    elif check_rate(alpha, "alpha") > MAX_ALPHA:  # a penalty that outweighs every neighbour
        raise GraphpartError(f"alpha must be at most {MAX_ALPHA:g}, got {alpha:g}")
    alpha = float(alpha)
    if order is None:
        order = np.arange(n, dtype=np.int64)
    else:
        bad = GraphpartError(
            f"order must be a permutation of the {n} node ids (ints), got {short_repr(order, 80)}"
        )
        if isinstance(order, (str, bytes)) or not hasattr(order, "__len__") or len(order) != n:
            raise bad  # sized before numpy reads it: a hostile object may claim any length
        order = np.asarray(order)
        if (
            order.shape != (n,)
            or order.dtype.kind not in "iu"
            or not np.array_equal(np.sort(order), np.arange(n))
        ):
            raise bad
        order = order.astype(np.int64)
    # each node's neighbours, each once (an edge stored both ways is one neighbour), as CSR
    src, dst = np.concatenate([lo, hi]), np.concatenate([hi, lo])
    by = np.argsort(src, kind="stable")
    indptr = np.concatenate([[0], np.cumsum(np.bincount(src, minlength=n))])
    adj = dst[by]
    capacity = math.ceil((1 + slack) * n / k)
    part = np.full(n, -1, dtype=np.int64)
    load = np.zeros(k, dtype=np.int64)
    neighbours = np.zeros((n, k), dtype=np.int64)
    penalty = np.zeros((n, k))
    full = np.zeros((n, k), dtype=bool)
    choice = np.zeros(n, dtype=np.int64)
    for t, v in enumerate(order):  # sequential by definition: each decision sees the last
        near = part[adj[indptr[v] : indptr[v + 1]]]
        neighbours[t] = np.bincount(near[near >= 0], minlength=k)
        penalty[t] = alpha * gamma * load ** (gamma - 1)
        full[t] = load >= capacity
        score = np.where(full[t], -np.inf, neighbours[t] - penalty[t])
        best = np.flatnonzero(score == score.max())
        choice[t] = best[np.argmin(load[best])]  # ties: the lighter, then the lower id
        part[v] = choice[t]
        load[choice[t]] += 1
    return StreamSteps(order, neighbours, penalty, full, choice, capacity, alpha, gamma)


def check_step_graph(
    graph: object, num_parts: object, least: int, larger: str = ""
) -> tuple[HomogeneousGraph, int]:
    """The one check of a step-by-step replay's graph and part count, before anything is sized
    from them: ``graph`` a :class:`Graph` of 1 to :data:`MAX_STEP_NODES` nodes, ``num_parts`` an
    int from ``least`` to the graph's node count (each ``(steps, parts)`` table is sized by it).

    Parameters
    ----------
    graph : object
        The graph to replay.
    num_parts : object
        The partitions asked for.
    least : int
        The fewest partitions the replay takes.
    larger : str, default ""
        Appended to the message for a graph too large (where to partition it instead).

    Returns
    -------
    (HomogeneousGraph, int)
        The graph's homogeneous view and ``num_parts`` as an int.

    Raises
    ------
    GraphpartError
        For anything else.

    Examples
    --------
    >>> from graphpart import Graph
    >>> check_step_graph(Graph.from_edges([0], [1], num_nodes=2), 10**9, 1)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: num_parts must be at most the graph's 2 nodes, got 1000000000
    """
    h = HomogeneousGraph.of(check_graph(graph, "graph"))
    n = h.num_nodes
    if n > MAX_STEP_NODES:
        raise GraphpartError(
            f"the graph has {n} nodes; a step-by-step replay takes at most {MAX_STEP_NODES}"
            + (f" {larger}" if larger else "")
        )
    if n == 0:
        raise GraphpartError("the graph has no nodes: a replay needs at least one")
    k = check_count(num_parts, "num_parts", least)  # the type first, then the graph's bound
    if k > n:
        raise GraphpartError(f"num_parts must be at most the graph's {n} nodes, got {k}")
    return h, k

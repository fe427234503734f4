"""METIS's multilevel idea, every stage kept: coarsen, partition, uncoarsen and refine.

METIS (Karypis and Kumar, 1998) does not partition a big graph directly. It **coarsens** it:
each node is merged with the neighbour it shares its heaviest edge with (heavy-edge matching),
level after level, node and edge weights adding up, until a few dozen nodes remain. It
**partitions** that small graph, then **uncoarsens**: each level takes its coarse node's
partition, and a **refinement** pass moves boundary nodes whose move cuts fewer edges, as long as
balance allows. METIS's library does all this inside one call; :func:`multilevel_steps` does the
same stages in the open on a small graph, with METIS itself (through pymetis's library)
partitioning the coarsest graph, so that a view can show each one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..graph.core import Graph
from ..index import undirected_pairs
from ..typing import Seed
from ..utils.check import check_count, check_rate
from ..utils.seeds import check_random_state
from ._metis_ctypes import part_graph
from .stream_steps import check_step_graph

__all__ = ["Level", "MultilevelSteps", "multilevel_steps"]


@dataclass(frozen=True)
class Level:
    """One graph of the hierarchy (level 0 is the input, undirected, each pair once).

    Attributes
    ----------
    node_of : ndarray of int64, shape (n0,)
        The node of this level each input node is merged into.
    weight : ndarray of int64
        Each node's weight: how many input nodes it stands for.
    src, dst, edge_weight : ndarray of int64
        Each pair of neighbours once, weighted by the input edges between their members.
    """

    node_of: np.ndarray
    weight: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    edge_weight: np.ndarray

    @property
    def num_nodes(self) -> int:
        return len(self.weight)

    def cut(self, part: np.ndarray) -> int:
        """The weight of the edges ``part`` cuts at this level (input edges, each pair once)."""
        return int(self.edge_weight[part[self.src] != part[self.dst]].sum())


@dataclass(frozen=True)
class MultilevelSteps:
    """The stages of a multilevel partitioning of a small graph.

    Attributes
    ----------
    levels : tuple of Level
        Level 0 is the input; the last is the coarsest graph.
    projected : tuple of ndarray
        Per level, each node's partition as taken from the coarser level (the coarsest: METIS's).
    refined : tuple of ndarray
        Per level, after the refinement pass (the coarsest: METIS's, unchanged).
    num_parts : int
    """

    levels: tuple[Level, ...]
    projected: tuple[np.ndarray, ...]
    refined: tuple[np.ndarray, ...]
    num_parts: int

    @property
    def assignment(self) -> np.ndarray:
        """Each input node's partition at the end."""
        return self.refined[0]


def _level(node_of: np.ndarray, src0, dst0, n: int) -> Level:
    lo, hi, count = undirected_pairs(node_of[src0], node_of[dst0], n, return_counts=True)
    return Level(node_of, np.bincount(node_of, minlength=n), lo, hi, count)


def _match(level: Level, rng: np.random.Generator) -> np.ndarray:
    """Heavy-edge matching: each node, in random order, with its unmatched neighbour of the
    heaviest edge (itself when none is left). Returns each node's coarse id."""
    n = level.num_nodes
    s = np.concatenate([level.src, level.dst])
    d = np.concatenate([level.dst, level.src])
    w = np.concatenate([level.edge_weight, level.edge_weight])
    by = np.lexsort((-w, s))  # per node, heaviest edge first
    s, d = s[by], d[by]
    start = np.searchsorted(s, np.arange(n + 1))
    mate = np.full(n, -1, dtype=np.int64)
    for v in rng.permutation(n):  # sequential by definition: a match takes both nodes
        if mate[v] >= 0:
            continue
        free = d[start[v] : start[v + 1]]
        free = free[mate[free] < 0]
        mate[v] = free[0] if len(free) else v
        mate[mate[v]] = v
    root = np.minimum(np.arange(n), mate)
    _, coarse = np.unique(root, return_inverse=True)
    return coarse


def _refine(level: Level, part: np.ndarray, k: int, cap: float, passes: int = 4) -> np.ndarray:
    """Greedy boundary refinement: a node moves to the partition holding more of its edge weight
    than its own does, when the move keeps that partition under ``cap``."""
    part = part.copy()
    n = level.num_nodes
    s = np.concatenate([level.src, level.dst])
    by = np.argsort(s, kind="stable")
    d = np.concatenate([level.dst, level.src])[by]
    w = np.concatenate([level.edge_weight, level.edge_weight])[by]
    start = np.searchsorted(s[by], np.arange(n + 1))
    load = np.bincount(part, weights=level.weight, minlength=k)
    for _ in range(passes):
        moved = 0
        for v in range(n):  # sequential: each move changes its neighbours' gains
            near = slice(start[v], start[v + 1])
            pull = np.bincount(part[d[near]], weights=w[near], minlength=k)
            own = part[v]
            room = load + level.weight[v] <= cap
            room[own] = False
            gain = np.where(room, pull - pull[own], -np.inf)
            q = int(np.argmax(gain))
            if gain[q] > 0:
                load[own] -= level.weight[v]
                load[q] += level.weight[v]
                part[v] = q
                moved += 1
        if not moved:
            break
    return part


def multilevel_steps(
    graph: Graph, num_parts: int, *, coarsest: int = 24, imbalance: float = 0.1, seed: Seed = 0
) -> MultilevelSteps:
    """Coarsen ``graph``, partition the coarsest level with METIS, uncoarsen and refine.

    Parameters
    ----------
    graph : Graph
        At most :data:`~graphpart.partitioning.stream_steps.MAX_STEP_NODES` nodes.
    num_parts : int
        At least 2.
    coarsest : int, default 24
        Coarsening stops at this many nodes, and at ``4 * num_parts`` at least (or when a level
        shrinks by less than a tenth).
    imbalance : float, default 0.1
        Refinement keeps every partition's weight under ``(1 + imbalance) * n / k``.
    seed : int, Generator or None
        The matching's visiting order.

    Returns
    -------
    MultilevelSteps

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> s = multilevel_steps(load_karate_club(), 2)
    >>> [lv.num_nodes for lv in s.levels][0], s.levels[-1].num_nodes <= 24
    (34, True)
    >>> s.levels[0].cut(s.refined[0]) <= s.levels[0].cut(s.projected[0])
    True
    """
    h, k = check_step_graph(graph, num_parts, 2)
    n = h.num_nodes
    coarsest = check_count(coarsest, "coarsest", 1)
    imbalance = check_rate(imbalance, "imbalance", zero=True)
    rng = check_random_state(seed)
    src0, dst0 = np.asarray(h.src, dtype=np.int64), np.asarray(h.dst, dtype=np.int64)
    levels = [_level(np.arange(n, dtype=np.int64), src0, dst0, n)]
    while levels[-1].num_nodes > max(coarsest, 4 * k):
        coarse = _match(levels[-1], rng)
        m = int(coarse.max()) + 1
        if m > 0.9 * levels[-1].num_nodes:
            break
        levels.append(_level(coarse[levels[-1].node_of], src0, dst0, m))
    top = levels[-1]
    s = np.concatenate([top.src, top.dst])
    by = np.argsort(s, kind="stable")
    xadj = np.searchsorted(s[by], np.arange(top.num_nodes + 1))
    _, parts = part_graph(
        xadj,
        np.concatenate([top.dst, top.src])[by],
        k,
        vwgt=top.weight,
        adjwgt=np.concatenate([top.edge_weight, top.edge_weight])[by],
        recursive=True,  # bisections: k-way METIS can leave a tiny graph in one part
        seed=int(rng.integers(2**31)),
    )
    cap = (1 + imbalance) * n / k
    projected = [np.asarray(parts, dtype=np.int64)]
    refined = [projected[0]]
    for i in range(len(levels) - 2, -1, -1):  # uncoarsen: level i takes level i+1's partition
        fine, coarse = levels[i], levels[i + 1]
        into = np.empty(fine.num_nodes, dtype=np.int64)
        into[fine.node_of] = coarse.node_of  # each fine node's coarse node
        part = refined[0][into]
        projected.insert(0, part)
        refined.insert(0, _refine(fine, part, k, cap))
    return MultilevelSteps(tuple(levels), tuple(projected), tuple(refined), k)

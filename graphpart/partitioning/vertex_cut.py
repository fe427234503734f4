"""A vertex cut (PowerGraph-style): edges go to machines, nodes are copied where their edges are.

An edge-cut partitioner (METIS, Fennel, random) gives every node one owner and cuts the edges
between owners. A vertex-cut partitioner gives every *edge* one machine and cuts nodes instead: a
node is present on every machine that holds one of its edges, one copy the master, the others
mirrors kept in sync. On power-law graphs this balances work better (a hub's edges are spread).
Degree-based hashing (DBH; Xie et al., NeurIPS 2014) puts each edge with the hash of its
lower-degree end, so that low-degree nodes keep all their edges in one place and hubs are cut.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..graph.core import Graph
from ..homogeneous import HomogeneousGraph
from ..index import undirected_pairs, unique_int
from ..typing import Seed
from ..utils.check import check_count
from ..utils.seeds import check_random_state

__all__ = ["VertexCut", "vertex_cut"]


@dataclass(frozen=True)
class VertexCut:
    """Each edge's machine, and the node copies that follow.

    Attributes
    ----------
    src, dst : ndarray of int64
        The edges, each pair of neighbours once.
    edge_part : ndarray of int64
        Each edge's machine.
    copies : ndarray of int64
        Per node, the machines holding one of its edges (0 for an isolated node).
    num_parts : int
    """

    src: np.ndarray
    dst: np.ndarray
    edge_part: np.ndarray
    copies: np.ndarray
    num_parts: int

    @property
    def mirrors(self) -> int:
        """Copies beyond the first of every node: what must be kept in sync."""
        return int(np.maximum(self.copies - 1, 0).sum())

    @property
    def replication_factor(self) -> float:
        """Copies per node that has edges."""
        has = self.copies > 0
        return float(self.copies[has].mean()) if has.any() else 1.0


def vertex_cut(graph: Graph, num_parts: int, *, seed: Seed = 0) -> VertexCut:
    """Degree-based hashing: each edge to a machine chosen by its lower-degree end (of two ends
    of one degree, the lower id).

    Parameters
    ----------
    graph : Graph
        Edges count once per pair of neighbours, whatever their direction.
    num_parts : int
        At least 1.
    seed : int, Generator or None
        The hash: a random machine per node.

    Returns
    -------
    VertexCut

    Examples
    --------
    >>> from graphpart import Graph
    >>> star = Graph.from_edges([0, 0, 0, 0], [1, 2, 3, 4], num_nodes=5)
    >>> vc = vertex_cut(star, 2)
    >>> int(vc.copies[0]) >= 1, vc.copies[1:].tolist()  # the hub is cut, the leaves are not
    (True, [1, 1, 1, 1])
    """
    k = check_count(num_parts, "num_parts", 1)
    h = HomogeneousGraph.of(graph)
    n = h.num_nodes
    lo, hi = undirected_pairs(h.src, h.dst, n)
    degree = np.bincount(np.concatenate([lo, hi]), minlength=n)
    machine = check_random_state(seed).integers(0, k, size=n)  # the hash of each node
    low = np.where(degree[lo] <= degree[hi], lo, hi)
    edge_part = machine[low]
    held = unique_int(np.concatenate([lo * k + edge_part, hi * k + edge_part]))
    copies = np.bincount(np.asarray(held) // k, minlength=n).astype(np.int64)
    return VertexCut(lo, hi, edge_part, copies, k)

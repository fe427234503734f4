"""Topology and neighbour sampling: what a GNN trainer looks features up for.

=====================  ======================================================
``Topology``           CSC / CSR with edge ids, from COO, CSR or CSC
``sample_neighbors``   one hop of uniform sampling, vectorised over seeds
``NeighborSampler``    several hops, one fanout each, seeded
``NeighborLoader``     mini-batches over seed nodes (a train mask, one partition)
``negative_sample``    node pairs that are not edges, uniform (link prediction; GLT's)
``induced_subgraph``   the subgraph a node set induces, with edge ids (GLT's subgraph op)
=====================  ======================================================
"""

from __future__ import annotations

from .loader import NeighborLoader
from .negative import edge_keys, negative_sample
from .neighbors import MiniBatch, NeighborSampler, check_fanouts, parse_fanouts, sample_neighbors
from .subgraph import Subgraph, induced_subgraph
from .topology import LAYOUTS, Topology

__all__ = [
    "Topology",
    "LAYOUTS",
    "sample_neighbors",
    "NeighborSampler",
    "MiniBatch",
    "NeighborLoader",
    "check_fanouts",
    "parse_fanouts",
    "negative_sample",
    "edge_keys",
    "induced_subgraph",
    "Subgraph",
]

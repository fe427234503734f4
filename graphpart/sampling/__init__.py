"""Topology and neighbour sampling: what a GNN trainer looks features up for.

=====================  ======================================================
``Topology``           CSC / CSR with edge ids, from COO, CSR or CSC
``sample_neighbors``   one hop of uniform sampling, vectorised over seeds
``NeighborSampler``    several hops, one fanout each, seeded
``NeighborLoader``     mini-batches over seed nodes (a train mask, one partition)
``negative_sample``    node pairs that are not edges, uniform (link prediction; GLT's)
``induced_subgraph``   the subgraph a node set induces, with edge ids (GLT's subgraph op)
=====================  ======================================================

Its modules, one idea each:

- ``loader``: NeighborLoader: shuffled seed batches, train mask, one partition's seeds
- ``negative``: negative_sample: uniform non-edges (sorted edge keys), trials and padding
- ``neighbors``: sample_neighbors: uniform neighbour sampling per hop, vectorised
- ``subgraph``: induced_subgraph: the edges between a node set, with edge ids
- ``topology``: Topology: CSC/CSR with edge ids, from COO/CSR/CSC, vectorised conversions
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

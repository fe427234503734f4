"""Topology and neighbour sampling: what a GNN trainer looks features up for.

=====================  ======================================================
``Topology``           CSC / CSR with edge ids, from COO, CSR or CSC
``sample_neighbors``   one hop of uniform sampling, vectorised over seeds
``NeighborSampler``    several hops, one fanout each, seeded
``NeighborLoader``     mini-batches over seed nodes (a train mask, one partition)
=====================  ======================================================
"""

from __future__ import annotations

from .loader import NeighborLoader
from .neighbors import MiniBatch, NeighborSampler, check_fanouts, sample_neighbors
from .topology import LAYOUTS, Topology

__all__ = [
    "Topology",
    "LAYOUTS",
    "sample_neighbors",
    "NeighborSampler",
    "MiniBatch",
    "NeighborLoader",
    "check_fanouts",
]

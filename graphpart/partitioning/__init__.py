"""Partitioning: assignment (random, METIS), reshuffle, HALO and the partition book.

Its modules, one idea each:

- ``_metis_ctypes``: the METIS C API from pymetis's library (ncon > 1, the options array)
- ``adjacency``: the symmetric weighted adjacency of an edge list, in memory or from chunks
- ``assignment``: random_assignment (balanced), check_assignment (a given one)
- ``balance``: the one place balance_ntypes (array, dict, field names) becomes classes
- ``best_effort``: what a repair could not hold, said once in a BalanceWarning
- ``book``: RangePartitionBook: new id ranges per partition and type (DGL's partition book)
- ``coarsen``: a big graph made small for METIS by size-constrained label propagation
- ``core``: ``partition``: a graph -> a ``Partitioning`` (assignment, new ids, HALO, book)
- ``fields``: balance by node data fields, classes named after them (train / not train)
- ``halo``: HALO nodes/edges per partition, local order
- ``loads``: each balance constraint's load per partition and trainer
- ``metis``: METIS on the nodes with edges (coarsened or sampled when big), then refine
- ``multilevel_steps``: METIS's multilevel stages in the open: coarsen, partition, refine
- ``options``: PartitionOptions and MetisOptions: every option declared and checked once
- ``refine``: rebalance + label-propagation exchanges on every edge, under every cap
- ``repair``: the balance a split can meet, and the repair of what is far outside it
- ``reshuffle``: Reshuffle: partition-major renumbering and the way back
- ``sample``: the edge sample METIS sees on large graphs (uniform / degree-aware)
- ``stream_steps``: fennel_steps: a streaming partitioner's every decision, node by node, kept
- ``summary``: what the partitioner reports of what it made (PartitionMetrics)
- ``swap``: swaps of alike nodes: one constraint's load moves where no part has room
- ``trainers``: num_trainers_per_machine: each machine split into its trainers (machines first)
- ``vertex_cut``: a vertex cut (degree-based hashing): edges to machines, nodes copied
"""

from __future__ import annotations

from .assignment import check_assignment, random_assignment
from .book import RangePartitionBook
from .core import Partitioning, PartitionOptions, partition
from .multilevel_steps import MultilevelSteps, multilevel_steps
from .options import MetisOptions
from .reshuffle import Reshuffle, reshuffle
from .stream_steps import StreamSteps, fennel_steps
from .vertex_cut import VertexCut, vertex_cut

__all__ = [
    "partition",
    "Partitioning",
    "PartitionOptions",
    "MetisOptions",
    "random_assignment",
    "check_assignment",
    "RangePartitionBook",
    "fennel_steps",
    "multilevel_steps",
    "MultilevelSteps",
    "vertex_cut",
    "VertexCut",
    "StreamSteps",
    "Reshuffle",
    "reshuffle",
]

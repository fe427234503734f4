"""Partitioning: assignment (random, METIS), reshuffle, HALO and the partition book.

=======================  ======================================================
``partition``            a graph -> a ``Partitioning`` (assignment, new ids, HALO, book)
``PartitionOptions``     every option of ``partition``, declared and checked once
``MetisOptions``         METIS's own options (ncuts, niter, ufactor, ...)
``random_assignment``    a balanced random split; ``check_assignment`` checks a given one
``RangePartitionBook``   new id ranges per partition and type (DGL's partition book)
``Reshuffle``            partition-major renumbering and the way back
=======================  ======================================================

Its modules, one idea each:

- ``_metis_ctypes``: the METIS C API from pymetis's library (ncon > 1, options)
- ``assignment``: balanced random, user-supplied assignments
- ``balance``: the one place balance_ntypes (array, dict, field names) becomes classes; METIS
  weights; edgeless nodes dealt out per class (evenly for trainers)
- ``best_effort``: what a repair could not hold, said once (shortfalls_collected, one
  BalanceWarning); refused whatever the balance: a class whole in one part
- ``book``: RangePartitionBook (from_bounds: the one book builder)
- ``core``: ``partition(g, num_parts, options, **overrides)`` -> Partitioning (which records its
  options)
- ``fields``: balance by node data fields: one field's classes named after it ("train" / "not
  train"), several fields at once (a class per combination: train, val, test, none)
- ``halo``: HALO nodes/edges per partition, local order
- ``loads``: each balance constraint's load per partition and trainer, and the balance record a
  config keeps
- ``metis``: symmetric CSR, METIS on the nodes with edges, then refine
- ``options``: PartitionOptions: every option of partition declared, documented and checked once
  (PartitionOptions.of: keywords by name, unknown names refused with the nearest); partition,
  partition_graph, chunked.assign, the CLI and sweep take it
- ``refine``: rebalance + label-propagation exchanges on every edge, under every cap
- ``repair``: the balance a split can meet (what METIS is asked for), and the last check: an
  empty part or a constraint far outside its tolerance is repaired; what cannot be held is
  loosened in a defined order and held as well as possible
- ``reshuffle``: partition-major renumbering
- ``sample``: the edge sample METIS sees on large graphs (uniform / degree-aware)
- ``summary``: what the partitioner reports of what it made: per-partition summaries,
  PartitionMetrics (edge cut, communication volume, balance, HALO, replication)
- ``swap``: swaps of alike nodes (same class): one constraint's load moves where no part has
  room for a node (in-degree at full node balance)
- ``trainers``: num_trainers_per_machine: each machine split into its trainers (machines first);
  metis_two_levels says the shortfalls of both levels once
"""

from __future__ import annotations

from .assignment import check_assignment, random_assignment
from .book import RangePartitionBook
from .core import Partitioning, PartitionOptions, partition
from .metis import MetisOptions
from .reshuffle import Reshuffle, reshuffle

__all__ = [
    "partition",
    "Partitioning",
    "PartitionOptions",
    "MetisOptions",
    "random_assignment",
    "check_assignment",
    "RangePartitionBook",
    "Reshuffle",
    "reshuffle",
]

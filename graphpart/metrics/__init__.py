"""Partition quality, in one place: every number that says how good a partitioning is.

- ``PartitionMetrics``, ``partition_metrics``, ``summarize``, ``edge_cut``,
  ``communication_volume`` -- what the partitioner reports of what it made
  (``Partitioning.metrics``: edge cut, communication volume, balance, HALO, replication); they
  live beside it, in :mod:`graphpart.partitioning.summary`
- ``balance_loads``, ``trainer_loads``, ``class_loads``, ``balance_record`` -- each balance
  constraint's load per partition and trainer, and the record a config keeps of them
  (:mod:`graphpart.partitioning.loads`)
- :mod:`~graphpart.metrics.disk` -- the same numbers from partitions on disk, in any format;
  several partitionings side by side
- :mod:`~graphpart.metrics.structure` -- where the cut lies: cut matrix, quotient graph, HALO
  growth by hop (the numbers behind the figures)
"""

from __future__ import annotations

from ..partitioning.loads import balance_loads, balance_record, class_loads, trainer_loads
from ..partitioning.summary import (
    PartitionMetrics,
    PartSummary,
    communication_volume,
    edge_cut,
    partition_metrics,
    summarize,
)
from .disk import compare_metrics, metrics_from_disk
from .structure import HaloGrowth, QuotientGraph, cut_matrix, halo_growth, quotient_graph

__all__ = [
    "PartSummary",
    "PartitionMetrics",
    "partition_metrics",
    "summarize",
    "balance_loads",
    "trainer_loads",
    "class_loads",
    "balance_record",
    "edge_cut",
    "communication_volume",
    "metrics_from_disk",
    "compare_metrics",
    "cut_matrix",
    "QuotientGraph",
    "quotient_graph",
    "HaloGrowth",
    "halo_growth",
]

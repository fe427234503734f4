"""Partition quality, in one place: every number that says how good a partitioning is.

- :mod:`~graphpart.metrics.summary` -- per-partition summaries and :class:`PartitionMetrics`
  (edge cut, communication volume, balance, HALO, replication); the partitioner reports them
  (``Partitioning.metrics``), so this module sits below it
- :mod:`~graphpart.metrics.loads` -- each balance constraint's load per partition and trainer,
  and the balance record a config keeps of them
- :mod:`~graphpart.metrics.disk` -- the same numbers from partitions on disk, in any format;
  several partitionings side by side
- :mod:`~graphpart.metrics.structure` -- where the cut lies: cut matrix, quotient graph, HALO
  growth by hop (the numbers behind the figures)

A new number goes in ``summary`` when it is computed from per-partition summaries, in
``structure`` when it is a matrix or graph over partitions. The names load on first use, so
the partitioner can import :mod:`~graphpart.metrics.summary` without the rest.
"""

from __future__ import annotations

import importlib

_HOME = {
    "PartSummary": "summary",
    "PartitionMetrics": "summary",
    "partition_metrics": "summary",
    "summarize": "summary",
    "balance_loads": "loads",
    "trainer_loads": "loads",
    "class_loads": "loads",
    "balance_record": "loads",
    "edge_cut": "summary",
    "communication_volume": "summary",
    "metrics_from_disk": "disk",
    "compare_metrics": "disk",
    "headline": "disk",
    "metric_deltas": "disk",
    "cut_matrix": "structure",
    "QuotientGraph": "structure",
    "quotient_graph": "structure",
    "HaloGrowth": "structure",
    "halo_growth": "structure",
}

__all__ = list(_HOME)


def __getattr__(name: str):
    if name in _HOME:
        return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

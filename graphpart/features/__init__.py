"""Feature store, static orderings, dynamic caches, oracles, and hit-rate accounting.

Its modules, one idea each:

- ``box``: DeviceGroup, FeatureBox, replay_box, LinkModel: a box of GPUs, GLT's way
- ``caches``: static, LRU, FIFO, CLOCK and SIEVE caches
- ``locality``: RULES: which feature rows a machine holds (DGL's, GLT's, with HALO copies)
- ``oracles``: static optimum order, next use, BeladyCache (warm start, bypass)
- ``orderings``: static orderings: random, in/out-degree, pre-sampling
- ``partition``: partition_access: one trainer's lookups by node class, where a rule serves them
- ``session``: LookupSession: stream batches through several caches (what CacheSimulator shows)
- ``simulate``: simulate (a trace through a cache: hits per batch), hit_rate_table
- ``store``: Feature: rows split hot / cold, lookups with hit and byte stats, CPU and CUDA paths
- ``trace``: Trace: what each mini-batch looked up, batch after batch
"""

from __future__ import annotations

from .box import LINK_SOURCES, BoxRun, DeviceGroup, FeatureBox, LinkModel, LinkStats, replay_box
from .caches import (
    DYNAMIC_POLICIES,
    Cache,
    ClockCache,
    FIFOCache,
    LRUCache,
    SieveCache,
    StaticCache,
    make_cache,
)
from .locality import RULES, held_locally
from .oracles import BeladyCache, hotness_order, next_use, oracle_order
from .orderings import ORDERINGS, degree_order, presample_order, random_order
from .partition import (
    PartitionAccess,
    access_by_partition,
    locality_table,
    node_locality,
    partition_access,
)
from .session import STREAM_POLICIES, LookupSession
from .simulate import CacheRun, HitRateTable, capacity_for, hit_rate_table, simulate
from .store import Feature, LookupStats
from .trace import Trace, record_trace

__all__ = [
    "Feature",
    "DeviceGroup",
    "FeatureBox",
    "LinkModel",
    "LINK_SOURCES",
    "LinkStats",
    "BoxRun",
    "replay_box",
    "LookupStats",
    "Trace",
    "record_trace",
    "random_order",
    "degree_order",
    "presample_order",
    "oracle_order",
    "hotness_order",
    "next_use",
    "ORDERINGS",
    "Cache",
    "StaticCache",
    "LRUCache",
    "FIFOCache",
    "ClockCache",
    "SieveCache",
    "BeladyCache",
    "DYNAMIC_POLICIES",
    "make_cache",
    "simulate",
    "CacheRun",
    "capacity_for",
    "HitRateTable",
    "hit_rate_table",
    "RULES",
    "held_locally",
    "PartitionAccess",
    "partition_access",
    "access_by_partition",
    "locality_table",
    "node_locality",
    "LookupSession",
    "STREAM_POLICIES",
]

"""Feature store, static orderings, dynamic caches, oracles, and hit-rate accounting.

=======================  ======================================================
``Feature``              rows split hot / cold (static order or dynamic cache); hits, bytes
``Trace``                what each mini-batch looked up, batch after batch
``*_order``              static orderings: random, degree, pre-sampling, oracle
``*Cache``               static, LRU, FIFO, CLOCK, SIEVE; ``BeladyCache`` (optimal)
``simulate``             replay a trace through a cache: hits per batch
``hit_rate_table``       every policy at every cache ratio, with the oracles
``partition_access``     one trainer's lookups by node class, and where a named system serves them
``RULES``                which rows a machine holds: DGL's, GLT's, with HALO copies (one home)
``DeviceGroup``          GLT's GPUs with NVLink between them: the hot part once per group
``FeatureBox``           a box of GPUs: rows and bytes from own shard / peers / host per lookup
``replay_box``           every GPU's lookups through a box; ``LinkModel`` turns bytes into time
=======================  ======================================================

Its modules, one idea each:

- ``box``: a box of GPUs, GLT's way: DeviceGroup, FeatureBox
- ``caches``: Cache slots; static, LRU and SIEVE
- ``locality``: the one home of which feature rows a machine holds, per named system
- ``oracles``: static optimum order, next use, BeladyCache (warm start, bypass)
- ``orderings``: random, in/out-degree (node_degree), pre-sampling
- ``partition``: node_locality, partition_access, access_by_partition
- ``session``: LookupSession: stream batches through several caches (what CacheSimulator shows)
- ``simulate``: simulate (trace -> CacheRun), hit_rate_table
- ``store``: Feature: hot/cold split, lookups with hit/byte stats, CPU and CUDA paths
- ``trace``: Trace: the distinct ids each batch looked up
"""

from __future__ import annotations

from .box import (
    LINK_SOURCES,
    BoxRun,
    DeviceGroup,
    FeatureBox,
    LinkModel,
    LinkStats,
    replay_box,
)
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

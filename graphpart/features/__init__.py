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

- ``box``: a box of GPUs, GLT's way: DeviceGroup, FeatureBox (the hot part once per group,
  sharded in near-equal runs; rows and bytes per lookup from the own shard, each peer, the
  host), LinkModel (every rate a field), replay_box
- ``caches``: Cache slots; static, LRU and SIEVE (queues with holes), FIFO (ring), CLOCK; per-
  batch semantics
- ``locality``: the one home of which feature rows a machine holds, per named system (RULES: dgl
  -- owned only, glt -- and a remote cache, halo-copies); read by partition.py, session.py,
  views/cache.py and training/replay.py
- ``oracles``: static optimum order, next use, BeladyCache (warm start, bypass)
- ``orderings``: random, in/out-degree (node_degree), pre-sampling
- ``partition``: node_locality, partition_access, access_by_partition (a named rule, remote
  cache where the rule has one), locality_table (where lookups are served; percent_tenths rounds
  each row to exactly 100.0%)
- ``session``: LookupSession: stream batches through several caches (what CacheSimulator shows);
  LastBatch (the latest sample, hits, when each node was last looked up and admitted) and
  StaticReason (a static order's score and ranks): why a row was or was not cached
- ``simulate``: simulate (trace -> CacheRun), hit_rate_table
- ``store``: Feature: hot/cold split, lookups with hit/byte stats, CPU and CUDA paths; with
  GLT's device_group_list, the box's shards placed on real GPUs or simulated; id2index
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

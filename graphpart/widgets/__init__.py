"""ipywidgets views over graphpart's computations (they compute nothing of their own).

``PartitionExplorer``       re-partition with new settings; drawing, balance and metrics follow
``HaloInspector``           one partition's inner and HALO nodes; look any node's ids up
``BalancePlayground``       compare balance settings side by side: table and trade-off plot
``CacheSimulator``          stream mini-batches through feature caches; hit rates as lookups happen
``PartitioningComparison``  partitionings of one graph (in memory or on disk) side by side
``PartitionGraph``          WebGL view: hover a node for its ids, click to select it
``PartitionViews``          one linked WebGL view per partition: select a node, see every copy
``IdView``                  the reshuffle: id line and adjacency before/after, hover for ids
``EpochCostView``           set the machine model; which setting trains fastest, and why
``JourneyView``             the chunked pipeline: follow a node from chunk row to partition file
``BoxView``                 a box of GPUs as batches stream: groups, links by bytes, hit rates

Importing this module imports ipywidgets; ``import graphpart`` does not.
"""

from __future__ import annotations

from .box_view import BoxView
from .cache import CacheSimulator
from .compare import PartitioningComparison
from .epoch_cost import EpochCostView
from .explorer import PartitionExplorer
from .graph_view import PartitionGraph
from .halo import HaloInspector
from .id_view import IdView
from .journey import JourneyView
from .partition_views import PartitionViews
from .playground import BalancePlayground

__all__ = [
    "PartitionExplorer",
    "HaloInspector",
    "BalancePlayground",
    "CacheSimulator",
    "PartitioningComparison",
    "PartitionGraph",
    "PartitionViews",
    "IdView",
    "EpochCostView",
    "JourneyView",
    "BoxView",
]

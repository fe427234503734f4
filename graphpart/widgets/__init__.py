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

Its modules, one idea each:

- ``_common``: figures to PNG, status line, tables
- ``_task``: background recomputation, newest request wins, errors in the status line
- ``box_view``: BoxView: a FeatureBox as SVG
- ``cache``: CacheSimulator: stream mini-batches through feature caches
- ``cache_graph``: BatchGraph: CacheSimulator's graph of the latest batch
- ``compare``: PartitioningComparison: linked views of sources in the same ids, figures, table
- ``epoch_cost``: EpochCostView: a slider per ClusterModel rate, every setting's epoch
- ``explorer``: PartitionExplorer: controls -> partition -> graph, HALO, balance, metrics
- ``graph_view``: PartitionGraph: one WebGL view on ipysigma (hover, click, zoom)
- ``halo``: HaloInspector: PartitionViews of the chosen partition and the node's holders
- ``id_view``: IdView: id lines and adjacency before/after the reshuffle on jupyter-scatter
- ``journey``: JourneyView: a node followed through the pipeline's files
- ``node_card``: location_card (a node's ids as HTML), NodeSelection, drawn_ids
- ``partition_views``: PartitionViews: one linked view per partition
- ``playground``: BalancePlayground: balance settings side by side (imbalance, edge cut)
- ``sigma_style``: sigma_args: sizes, HALO rings, labels and stand-ins of the sigma views
- ``trainer_bars``: TrainerBars: each trainer's busy time as HTML stacked bars
- ``trainer_graph``: TrainerGraph: EpochCostView's bars and the hovered trainer's reads
- ``webgl_budget``: WebGLBudget: the page's WebGL contexts, shared out among the views
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

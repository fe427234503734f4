"""ipywidgets views over graphpart's computations (they compute nothing of their own).

Importing this module imports ipywidgets; ``import graphpart`` does not.

Its modules, one idea each:

- ``_common``: figures to PNG, status line, tables, controls laid out alike (form)
- ``_task``: background recomputation, newest request wins, errors in the status line
- ``_tabs``: Tabs: pages under toggle buttons (ipywidgets' Tab ignores clicks after some reloads)
- ``algorithms``: StreamingSteps (Fennel node by node), MultilevelView (METIS: coarsen, refine)
- ``big_graph``: BigGraphView: 100K nodes in WebGL (cosmos.gl) from typed arrays; hover, click, zoom
- ``box_view``: BoxView: a box of GPUs as batches stream: groups, links by bytes, hit rates
- ``cache``: CacheSimulator: stream mini-batches through feature caches; hit rates as they happen
- ``cache_graph``: BatchGraph: CacheSimulator's graph of the latest batch
- ``compare``: PartitioningComparison: partitionings of one graph (memory or disk) side by side
- ``epoch_cost``: EpochCostView: set the machine model; which setting trains fastest, and why
- ``exercise``: Exercise: predict, then check: a question, a guess, the answer behind a button
- ``explorer``: PartitionExplorer: re-partition with new settings; drawing, balance, metrics follow
- ``graph_view``: PartitionGraph: one WebGL view on ipysigma: hover a node for its ids, click it
- ``halo``: HaloInspector: one partition's inner and HALO nodes; look any node's ids up
- ``id_view``: IdView: the reshuffle's id line and adjacency before/after, hover for ids
- ``journey``: JourneyView: the chunked pipeline: follow a node from chunk row to partition file
- ``node_card``: location_card (a node's ids as HTML), NodeSelection, drawn_ids
- ``partition_views``: PartitionViews: one linked WebGL view per partition; a node selected in all
- ``playground``: BalancePlayground: compare balance settings side by side: table, trade-off plot
- ``scatter_fit``: ScatterFillsWidth: jupyter-scatter plots whose x range spans their width
- ``shared_code``: shared_code: a library's JavaScript sent once per kernel, not once per view
- ``sigma_style``: sigma_args: sizes, HALO rings, labels and stand-ins of the sigma views
- ``trainer_bars``: TrainerBars: each trainer's busy time as HTML stacked bars
- ``trainer_graph``: TrainerGraph: EpochCostView's bars and the hovered trainer's reads
- ``webgl_budget``: WebGLBudget: the page's WebGL contexts, shared out among the views
- ``wheel``: the mouse wheel over a view scrolls the page (Ctrl + wheel zooms); WheelScrollsPage
"""

from __future__ import annotations

from .algorithms import MultilevelView, StreamingSteps
from .big_graph import BigGraphView
from .box_view import BoxView
from .cache import CacheSimulator
from .compare import PartitioningComparison
from .epoch_cost import EpochCostView
from .exercise import Exercise
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
    "Exercise",
    "StreamingSteps",
    "MultilevelView",
    "BigGraphView",
]

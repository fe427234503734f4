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

- ``_common``: figures to PNG, status line, tables; check_choice / check_height / check_key
  (every widget checks its arguments before drawing)
- ``_task``: background recomputation, newest request wins, errors in the status line
- ``box_view``: BoxView: a FeatureBox as SVG (anywidget, box_view.js): groups, NVLink arcs and
  PCIe lines as wide as their bytes, each GPU's reads by place; Step (step_requests) and a
  clicked GPU (selected -> detail) reach Python
- ``cache``: CacheSimulator: stream mini-batches through feature caches, hit rates as they
  happen, where the trainer's lookups land
- ``cache_graph``: BatchGraph: CacheSimulator's graph of the latest batch (a PartitionGraph fed
  batch_view_data), redrawn after each Step and when play pauses, a policy to colour by
- ``compare``: PartitioningComparison: linked views of sources in the same ids, figures, table
- ``epoch_cost``: EpochCostView: a slider per ClusterModel rate (synced both ways), network
  presets, calibrate; re-prices kept EpochCounts, never replays
- ``explorer``: PartitionExplorer: tabs graph / HALO (chosen partition, num_hops, a filter of
  the hops shown) / balance (the graph by balance class, load bars) / metrics; status deltas and
  history
- ``graph_view``: PartitionGraph: one WebGL view on ipysigma (whole graph, a partition's local
  graph, a node's neighbourhood, or the quotient graph whose partitions open on click);
  selection synced with Python, the node's card below
- ``halo``: HaloInspector: PartitionViews of the chosen partition and the node's holders
- ``id_view``: IdView: id lines and adjacency before/after the reshuffle on jupyter-scatter
  (linked plots, HTML tooltips, hovered / selected -> Python, card); its tables from
  views/ids.py
- ``journey``: JourneyView: the pipeline's partitioned graph; a click (or an id typed in)
  follows the node through the files (follow_node), journey_html
- ``node_card``: location_card (a node's ids as HTML), NodeSelection, drawn_ids
- ``partition_views``: PartitionViews: one view per partition, linked by ipysigma's own camera,
  hover and selection sync; every view holds every node drawn in the row (those it lacks
  invisible, far below a pixel: sigma turns size 0 into 2, findable by the mouse), as sigma's
  sync fails on a node a view lacks. A selection made in Python draws the views again (ipysigma
  reads it only when it draws); never replace single views inside a synced row: sigma's remove()
  throws and leaves stale views (the row freezes and wakes as one)
- ``playground``: BalancePlayground: balance settings side by side (imbalance, edge cut)
- ``sigma_style``: sigma_args (sizes, HALO rings, hover label, stand-ins, sync targets, the
  compact payload above 10K nodes), legend_html
- ``trainer_bars``: TrainerBars: each trainer's busy time as HTML stacked bars (anywidget,
  trainer_bars.js); the mouse entering or clicking a bar sets `hovered`
- ``trainer_graph``: TrainerGraph: EpochCostView's bars and the graph of the hovered trainer's
  reads (TrainingSetup.trainer_reads -> views.epoch.trainer_view_data), kept per trainer; a
  model change redraws the bars only (reads do not depend on it)
- ``webgl_budget``: The page's WebGL budget (Chromium: 16 contexts per page, 3 per sigma view,
  the oldest dropped silently): WebGLBudget, an anywidget seat in each view (PartitionGraph, or
  a PartitionViews row) whose webgl_budget.js keeps one registry per page; a view is drawn live
  when the page grants it contexts (seen, or room under LIMIT), out-of-sight views give theirs
  back past LIMIT (Freezer: sigma closed, a still picture and a "draw live" button), a context
  lost otherwise is said and waits for the button. The seat is the view's first child:
  ipywidgets renders a box's children again from the first that changed. Canvases replaced
  inside a view (a redraw) give their contexts back at once (Chromium counts them until
  collected), and a view taken out of the page gives its back too. PartitioningComparison's row
  holds one seat, as PartitionViews' does (its views none). The same script ends a hover when
  the mouse leaves a view (sigma ends one only on a move over its canvas: linked views kept
  stale labels) and draws the hover card on several lines inside the canvas, clear of ipysigma's
  panels (its sigma renderers reached through widget_manager: sigma_ids)
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

"""Data for the interactive WebGL views: plain tables and dicts the widgets send to the browser,
computed from a partitioning (nothing here draws but :func:`~.snapshot.draw_graph_data`, the
still picture a view shows where WebGL cannot draw it).

Its modules, one idea each:

- ``graph``: ``graph_data``, the whole graph; ``node_label``, one node's hover card
- ``arrays``: ``graph_arrays``, the whole graph as typed arrays (the big WebGL view)
- ``balance``: ``balance_view_data``, nodes coloured by their balance class
- ``cache``: ``batch_view_data``, one mini-batch
- ``epoch``: ``trainer_view_data``, one trainer's reads over an epoch: local, HALO, fetched
- ``ids``: ``id_view_data``, every node's and edge's ids before and after the reshuffle
- ``box``: ``box_view_data``, a box of GPUs: each GPU's reads, the bytes each link carried
- ``snapshot``: ``draw_graph_data``, a view's data drawn as a still picture (matplotlib)
"""

from .arrays import GraphArrays, graph_arrays
from .balance import balance_view_data
from .box import box_view_data
from .cache import batch_view_data
from .epoch import trainer_view_data
from .graph import GraphData, graph_data, neighbourhood_data, node_label
from .ids import IdFrames, id_view_data
from .snapshot import draw_graph_data

__all__ = [
    "GraphData",
    "graph_data",
    "neighbourhood_data",
    "node_label",
    "GraphArrays",
    "graph_arrays",
    "balance_view_data",
    "batch_view_data",
    "trainer_view_data",
    "IdFrames",
    "id_view_data",
    "box_view_data",
    "draw_graph_data",
]

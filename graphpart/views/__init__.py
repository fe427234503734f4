"""Data for the interactive WebGL views: plain tables and dicts the widgets send to the browser,
computed from a partitioning (nothing here draws but :func:`~.snapshot.draw_graph_data`, the
still picture a view shows where WebGL cannot draw it).

Its modules, one idea each:

- ``graph``: ``graph_data``, the whole graph
- ``balance``: ``balance_view_data``, nodes coloured by their balance class
- ``cache``: ``batch_view_data``, one mini-batch
- ``epoch``: ``trainer_view_data``, one trainer's reads over an epoch: local, HALO, fetched
- ``ids``: ``id_view_data``, every node's and edge's ids before and after the reshuffle
- ``box``: ``box_view_data``, a box of GPUs: each GPU's reads, the bytes each link carried
- ``snapshot``: ``draw_graph_data``, a view's data drawn as a still picture (matplotlib)
"""

"""graphpart: partition graphs for distributed GNN training, and see what partitioning does.

The names DGL users call are here (``Graph``, ``partition``, ``partition_graph``,
``load_partition``, ...). Data flows one way -- graph -> assignment -> reshuffle -> HALO ->
storage -- and everything else reads the result:

- ``errors``, ``typing``, ``utils``, ``palette``: errors, type aliases, checks, the colours
- ``index``, ``homogeneous``, ``fs``: index operations, the homogeneous-id rule, safe files
- ``graph``, ``ids``, ``sampling``, ``features``: the graph, id conversion, neighbour sampling,
  the feature store and caches
- ``datasets``: real graphs offline, and generators for scale
- ``partitioning``: assignment (random, METIS), reshuffle, HALO, the book, what it reports
- ``interop``, ``storage``: other libraries' byte layouts; graphpart's on-disk partitions
- ``chunked``: the out-of-core pipeline (chunked format, assign, dispatch) on Dask
- ``metrics``: every number that says how good a partitioning is, from memory or disk
- ``lookup``, ``sweep``, ``training``, ``recommend``: a node's ids, settings grids, the epoch a
  partitioning costs, the setting to pick
- ``viz``, ``views``, ``widgets``: matplotlib figures, the WebGL views' data, the live views
- ``cli``: the ``graphpart`` command
"""

from __future__ import annotations

import logging

from .errors import (
    DatasetNotFoundError,
    DataShapeError,
    FormatError,
    GraphpartError,
    IDRangeError,
    UnknownTypeError,
)
from .graph.core import EID, ETYPE, NID, NTYPE, Graph
from .ids import IDConverter
from .partitioning.book import RangePartitionBook
from .partitioning.core import Partitioning, partition
from .partitioning.options import MetisOptions, PartitionOptions
from .storage import load_partition, load_partition_book, load_partition_feats, partition_graph

__version__ = "0.1.0"

__all__ = [
    "Graph",
    "IDConverter",
    "partition",
    "Partitioning",
    "PartitionOptions",
    "partition_graph",
    "load_partition",
    "load_partition_feats",
    "load_partition_book",
    "RangePartitionBook",
    "MetisOptions",
    "NID",
    "EID",
    "NTYPE",
    "ETYPE",
    "GraphpartError",
    "UnknownTypeError",
    "IDRangeError",
    "DataShapeError",
    "FormatError",
    "DatasetNotFoundError",
    "datasets",
    "metrics",
]

logging.getLogger(__name__).addHandler(logging.NullHandler())


def __getattr__(name: str):
    # Subpackages load on first use so ``import graphpart`` stays light.
    if name in ("datasets", "metrics"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'graphpart' has no attribute {name!r}")

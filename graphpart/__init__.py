"""graphpart: partition graphs for distributed GNN training, and see what partitioning does."""

from __future__ import annotations

import logging

from .errors import (
    DataShapeError,
    DatasetNotFoundError,
    FormatError,
    GraphpartError,
    IDRangeError,
    UnknownTypeError,
)
from .graph import EID, ETYPE, NID, NTYPE, Graph
from .ids import IDConverter

__version__ = "0.1.0"

__all__ = [
    "Graph",
    "IDConverter",
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
]

logging.getLogger(__name__).addHandler(logging.NullHandler())


def __getattr__(name: str):
    # Subpackages load on first use so ``import graphpart`` stays light.
    if name == "datasets":
        import importlib

        return importlib.import_module(".datasets", __name__)
    raise AttributeError(f"module 'graphpart' has no attribute {name!r}")

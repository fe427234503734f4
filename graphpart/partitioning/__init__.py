"""Partitioning: assignment (random, METIS), reshuffle, HALO and the partition book.

=======================  ======================================================
``partition``            a graph -> a ``Partitioning`` (assignment, new ids, HALO, book)
``PartitionOptions``     every option of ``partition``, declared and checked once
``MetisOptions``         METIS's own options (ncuts, niter, ufactor, ...)
``random_assignment``    a balanced random split; ``check_assignment`` checks a given one
``RangePartitionBook``   new id ranges per partition and type (DGL's partition book)
``Reshuffle``            partition-major renumbering and the way back
=======================  ======================================================
"""

from __future__ import annotations

from .assignment import check_assignment, random_assignment
from .book import RangePartitionBook
from .core import Partitioning, PartitionOptions, partition
from .metis import MetisOptions
from .reshuffle import Reshuffle, reshuffle

__all__ = [
    "partition",
    "Partitioning",
    "PartitionOptions",
    "MetisOptions",
    "random_assignment",
    "check_assignment",
    "RangePartitionBook",
    "Reshuffle",
    "reshuffle",
]

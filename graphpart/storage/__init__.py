"""graphpart's on-disk partitions, and opening partitions in any format.

==================== ==============================================================
:mod:`.config`       the config JSON read and checked: ``PartitionConfig``, the book
:mod:`.make_config`  the config JSON as written (both paths), and for folders without one
:mod:`.files`        one partition's files per flavour (graphpart, DGL, GraphBolt)
:mod:`.write`        ``partition_graph``, ``save_partitions``, ``write_part``
:mod:`.sources`      ``open_partitions``: graphpart, DGL, PyG or GLT partitions
:mod:`.read`         ``load_partition`` and friends (DGL's tuples)
:mod:`.reopen`       a ``Partitioning`` from files, for the figures and widgets
==================== ==============================================================

Other libraries' byte layouts (DGL's binary files, GraphBolt, PyG, GLT) live in
:mod:`graphpart.interop`; this package decides which files a partitioning has.
"""

from .config import PartitionConfig, read_config
from .make_config import build_config
from .owned import OutputTarget, check_partition_output
from .read import BookData, PartitionData, load_partition, load_partition_book, load_partition_feats
from .reopen import as_partitioning, open_partitioning
from .sources import PartitionSource, detect_format, open_partitions
from .write import partition_graph, save_partitions, write_part

__all__ = [
    "partition_graph",
    "save_partitions",
    "write_part",
    "load_partition",
    "load_partition_feats",
    "load_partition_book",
    "PartitionData",
    "BookData",
    "open_partitions",
    "detect_format",
    "PartitionSource",
    "open_partitioning",
    "as_partitioning",
    "build_config",
    "check_partition_output",
    "OutputTarget",
    "read_config",
    "PartitionConfig",
]

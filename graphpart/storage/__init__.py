"""graphpart's on-disk partitions, and opening partitions in any format.

Other libraries' byte layouts (DGL's binary files, GraphBolt, PyG, GLT) live in
:mod:`graphpart.interop`; this package decides which files a partitioning has.

Its modules, one idea each:

- ``config``: the config JSON read: read_config -> PartitionConfig (checked, typed)
- ``files``: one partition's files per flavour (graphpart, DGL, GraphBolt): the file-name table
- ``make_config``: the config JSON as written (build_config), and config_of for other layouts
- ``owned``: check_partition_output: an output folder is replaced only when graphpart wrote it
- ``read``: load_partition, load_partition_feats, load_partition_book (DGL's tuples)
- ``reopen``: open_partitioning / as_partitioning
- ``sources``: open_partitions: any format -> PartitionSource (config + load(i)); detect_format
- ``write``: partition_graph, save_partitions, write_part (the chunked path ends here too)
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

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

Its modules, one idea each:

- ``config``: the config JSON (DGL's) read: read_config -> PartitionConfig, the checked, typed
  view (counts, types, blocks, trainers, balance loads; part_files(i), book(i));
  check_graph_name
- ``files``: one partition's files per flavour (graphpart .pt, DGL .dgl, GraphBolt's
  fused_csc_sampling_graph.pt alone, with DGL's feature files): the one file-name table
  (PART_FILES: every name and its kind), writers fed by arrays or filled block by block
  (streamed_torch_file), readers that sniff the first bytes
- ``make_config``: the config JSON as written (build_config, both paths; graphbolt_meta) and
  config_of for folders without a config (PyG, GLT)
- ``owned``: check_partition_output: what of an earlier output graphpart wrote, the whole tree
  vetted by name and kind (configs, part<i> folders, merged maps); the rest named;
  check_mapping_out: --mapping-out replaces only a mapping graphpart wrote
- ``read``: load_partition, load_partition_feats, load_partition_book (DGL's tuples)
- ``reopen``: open_partitioning / as_partitioning: a Partitioning from files, for viz and
  widgets
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

"""Other libraries' byte layouts: DGL's binary files, GraphBolt, PyG and GLT partitions.

- :mod:`~graphpart.interop.dgl_graphs` / :mod:`~graphpart.interop.dgl_tensors`: the files
  ``dgl.save_graphs`` and ``dgl.data.save_tensors`` write, read (memory-mapped) and written in
  numpy and torch alone.
- :mod:`~graphpart.interop.graphbolt`: GraphBolt's ``fused_csc_sampling_graph.pt``.
- :mod:`~graphpart.interop.pyg`: :func:`export_pyg` writes the folder PyG's distributed stores
  load (layout: :mod:`~graphpart.interop.pyg_layout`); ``pyg_read.read_pyg`` reads one.
  :mod:`~graphpart.interop.glt`: GLT's partition folders.
- :mod:`~graphpart.interop.safe_load`: the loaders that unpickle nothing but tensors.

graphpart imports none of DGL, PyG or GLT: each format is read and written from its layout.
Opening partitions of any format is :mod:`graphpart.storage`'s job (``open_partitions``,
``detect_format``, ``PartitionSource``, ``open_partitioning``, ``as_partitioning``).
"""

from .dgl_graphs import load_graphs, save_graphs
from .dgl_tensors import load_tensors, save_tensors
from .graphbolt import load_graphbolt, save_graphbolt
from .pyg import export_pyg

__all__ = [
    "load_graphs",
    "save_graphs",
    "load_tensors",
    "save_tensors",
    "load_graphbolt",
    "save_graphbolt",
    "export_pyg",
]

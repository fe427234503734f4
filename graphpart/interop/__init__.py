"""Interoperability: DGL's binary files, GraphBolt, PyG and GLT partitions.

- :mod:`~graphpart.interop.dgl_graphs` / :mod:`~graphpart.interop.dgl_tensors`: the files
  ``dgl.save_graphs`` and ``dgl.data.save_tensors`` write, read (memory-mapped) and written in
  numpy and torch alone.
- :mod:`~graphpart.interop.partfiles`: one partition's files in graphpart's, DGL's or GraphBolt's
  flavour (``partition_graph(..., format=...)``).
- :mod:`~graphpart.interop.pyg`: :func:`export_pyg` writes the folder PyG's distributed stores load.
- :mod:`~graphpart.interop.sources`: :func:`open_partitions` opens partitions made by graphpart,
  DGL (``.dgl`` / GraphBolt), PyG or GLT; every reader of partitions on disk goes through it.

graphpart imports none of DGL, PyG or GLT: each format is read and written from its layout.
"""

from .dgl_graphs import load_graphs, save_graphs
from .dgl_tensors import load_tensors, save_tensors
from .graphbolt import load_graphbolt, save_graphbolt
from .pyg import export_pyg
from .sources import PartitionSource, detect_format, open_partitions

__all__ = ["load_graphs", "save_graphs", "load_tensors", "save_tensors", "load_graphbolt", "save_graphbolt",
           "export_pyg", "open_partitions", "detect_format", "PartitionSource"]

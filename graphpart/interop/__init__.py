"""Interoperability: DGL's binary files, GraphBolt, PyG and GLT partitions.

- :mod:`~graphpart.interop.dgl_graphs` / :mod:`~graphpart.interop.dgl_tensors`: the files
  ``dgl.save_graphs`` and ``dgl.data.save_tensors`` write, read (memory-mapped) and written in
  numpy and torch alone.
- :mod:`~graphpart.interop.partfiles`: one partition's files in graphpart's, DGL's or GraphBolt's
  flavour (``partition_graph(..., format=...)``).

graphpart imports none of DGL, PyG or GLT: each format is read and written from its layout.
"""

from .dgl_graphs import load_graphs, save_graphs
from .dgl_tensors import load_tensors, save_tensors

__all__ = ["load_graphs", "save_graphs", "load_tensors", "save_tensors"]

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

Its modules, one idea each:

- ``_binary``: DGL's NDArray records, scalars, strings
- ``_relabel``: partitions in original ids (PyG, GLT) renumbered partition-major
- ``dgl_graphs``: load_graphs (and save_graphs, re-exported from dgl_graphs_save.py)
- ``dgl_graphs_save``: write ``dgl.save_graphs`` files
- ``dgl_layout``: the byte layout of dgl.save_graphs v2 files (magic numbers, headers, formats)
- ``dgl_tensors``: dgl.data.save_tensors files
- ``glt``: read_glt
- ``graphbolt``: GraphBolt's fused_csc_sampling_graph.pt, read and written without DGL
- ``pyg``: export_pyg (a partition's empty feature groups left out: PyG cannot load them)
- ``pyg_layout``: PyG's folder layout, the data schema export_pyg records in META.json
- ``pyg_read``: read_pyg (PyG's folders and export_pyg's, left-out groups as zero rows)
- ``safe_load``: weights-only torch loads, hostile files refused in one line
- ``torch_zip``: torch.save's zip layout, written record by record (streamed)
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

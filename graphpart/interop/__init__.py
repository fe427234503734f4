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

- ``_binary``: DGL's NDArray records, scalars, strings: bounds-checked reads over a copy-on-
  write mmap
- ``_relabel``: original-id partitions (PyG, GLT) seen in partition-major ids with inner + HALO
  local graphs
- ``dgl_graphs``: load_graphs (and save_graphs, re-exported from dgl_graphs_save.py)
- ``dgl_graphs_save``: write ``dgl.save_graphs`` files (format version 2) that DGL loads, byte-
  identical to DGL's own past its uninitialised header (the layout:
  :mod:`graphpart.interop.dgl_layout`)
- ``dgl_layout``: dgl.save_graphs v2 files (HeteroGraph, UnitGraph, COO/CSR/CSC): layout, magic
  numbers
- ``dgl_tensors``: dgl.data.save_tensors files: load_tensors / save_tensors, and
  save_tensors_streamed (each tensor from blocks of rows)
- ``glt``: read_glt
- ``graphbolt``: fused_csc_sampling_graph.pt via torch's weights-only unpickler with inert
  stand-ins; graphbolt_records (its arrays left on disk, read by slices); graphbolt_tree + NAMES
  (what TorchZipWriter writes, in memory or streamed); DGL's dtypes (id_dtype, type_dtype) and
  options (GraphBoltStore: store_eids, ...)
- ``pyg``: export_pyg (a partition's empty feature groups left out: PyG cannot load them)
- ``pyg_layout``: PyG's folder layout, the data schema export_pyg records in META.json
- ``pyg_read``: read_pyg (PyG's folders and export_pyg's, left-out groups as zero rows)
- ``safe_load``: weights-only torch loads (defaultdict as dict), a tensors-only raw unpickler
  (GLT)
- ``torch_zip``: torch.save's zip layout: TorchZipWriter lays a file out from dtypes and shapes
  and fills each tensor record block by block (stand-in classes pickled under the names given);
  read_torch_zip opens one as records read by slices (only dicts, numbers, strings, tensors and
  the stand-ins named unpickled)
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

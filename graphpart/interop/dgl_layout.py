"""The byte layout of ``dgl.save_graphs`` files (format version 2): magic numbers and codes.

File layout::

    0     u64 magic 0xDD2E4FF046B4A13F, u64 version 2, u64 graph type 2, u64 number of graphs
    32    (not initialised by DGL up to byte 4096: never compared; written as zeros here)
    4096  u64 offset of the first graph record
    4104  labels: u64 count, then (string name, NDArray) pairs
    ...   one record per graph: HeteroGraph, node data per node type, edge data per edge type,
          node type names, edge (relation) names
    end   u64 L, u64 count, u64 offsets[count], u64 L       (L = 8 * (count + 1))

A HeteroGraph is its metagraph (an ImmutableGraph: magic + CSR whose rows are source node types,
columns destination node types and data edge type ids), one UnitGraph per edge type and the node
count of every type. A UnitGraph stores the formats it saves and allows (``code | 1 << 32`` with
COO = 1, CSR = 2, CSC = 4) and, per saved format in that order, the unit metagraph and the
matrix. Matrices write ``num_cols`` before ``num_rows``; COO edge ids are implicit (its data is
an empty array), CSR/CSC data are edge ids.

:mod:`graphpart.interop.dgl_graphs` reads these files; :mod:`graphpart.interop.dgl_graphs_save`
writes them.
"""

from __future__ import annotations

__all__ = ["COO", "CSR", "CSC", "SPARSE_FORMATS"]

GRAPH_FILE_MAGIC = 0xDD2E4FF046B4A13F
HETERO_MAGIC = 0xDD589FBE35224ABF
IMMUTABLE_MAGIC = 0xDD3C5FFE20046ABF
UNIT_MAGIC = 0xDD2E60F0F6B4A127
COO_MAGIC = 0xDD61FFD305DFF127
CSR_MAGIC = 0xDD6CD31205DFF127
NEW_CODE = 1 << 32
COO, CSR, CSC = 1, 2, 4
SPARSE_FORMATS = {"coo": COO, "csr": CSR, "csc": CSC}
HEADER = 4096

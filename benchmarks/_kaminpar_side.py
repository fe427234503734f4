"""KaMinPar's side of benchmarks/partition_vs_dgl.py (run in a fresh process for peak RSS).

Usage: python _kaminpar_side.py GRAPH_DIR NUM_PARTS

KaMinPar (PyPI ``kaminpar``, default preset, 2 threads, imbalance 3%) has one balance constraint,
so it runs on the plain configuration only. Its Python binding reads graphs from files: the graph
goes through a binary ParHIP file (the symmetric CSR, each pair once each way). ``wall_s`` covers
the conversion, the file and the partition, ``metis_s`` (named as the other sides' partitioner
step) the partition alone.
"""

import json
import os
import sys
import tempfile
import time

import kaminpar
import numpy as np

from graphpart.partitioning.metis import metis_csr

graph_dir, num_parts = sys.argv[1], int(sys.argv[2])
src = np.load(os.path.join(graph_dir, "src.npy"))
dst = np.load(os.path.join(graph_dir, "dst.npy"))
n = int(np.load(os.path.join(graph_dir, "num_nodes.npy")))
t0 = time.perf_counter()
xadj, adjncy = metis_csr(src, dst, n)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "graph.parhip")
    # ParHIP binary: version 3 (no weights, 64-bit ids), n, directed entries; then the n + 1
    # offsets as byte positions in the file, then the neighbours
    head = 3 + n + 1
    with open(path, "wb") as f:
        f.write(np.array([3, n, len(adjncy)], dtype=np.uint64).tobytes())
        f.write((head * 8 + xadj.astype(np.uint64) * 8).tobytes())
        f.write(adjncy.astype(np.uint64).tobytes())
    del xadj, adjncy
    graph = kaminpar.load_graph(path, kaminpar.GraphFileFormat.PARHIP)
kaminpar.reseed(0)
t1 = time.perf_counter()
part = np.asarray(
    kaminpar.KaMinPar(2, kaminpar.default_context()).compute_partition(graph, num_parts, 0.03)
)
t2 = time.perf_counter()
train = np.load(os.path.join(graph_dir, "train_mask.npy"))
print(
    json.dumps(
        {
            "wall_s": t2 - t0,
            "metis_s": t2 - t1,
            "edge_cut": int((part[src] != part[dst]).sum()),
            "train_per_part": np.bincount(part[train], minlength=num_parts).tolist(),
            "constraints": {
                "nodes": round(
                    float(np.bincount(part, minlength=num_parts).max() * num_parts / n), 3
                )
            },
        }
    )
)

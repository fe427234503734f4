"""Peak memory of the coarse route (the adjacency, then every level's clustering and contraction)
above the edge list, against the formula in ``graphpart/partitioning/coarsen.py``.

Usage: .venv/bin/python benchmarks/coarsen_memory.py benchmarks/out/GRAPH_DIR  (written by
partition_vs_dgl.py); a fresh process per graph, so its peak is the coarsening's.
"""

import resource
import sys

import numpy as np
import psutil

from graphpart.partitioning.adjacency import adjacency
from graphpart.partitioning.coarsen import coarsen

d = sys.argv[1]
s = np.load(d + "/src.npy")
t = np.load(d + "/dst.npy")
n = int(np.load(d + "/num_nodes.npy"))
base = psutil.Process().memory_info().rss
a = adjacency(s, t, n)
h = coarsen(a, np.ones((n, 1)), 0.03 * n / 8, 1_000_000, np.random.default_rng(0), min_nodes=16000)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
E, bound = len(s), 48 * len(s) + 60 * n
print(
    f"{d.rstrip('/').split('/')[-1]}: E {E:,} n {n:,}; above the edge list "
    f"{(peak - base) / 2**20:.0f} MiB; 48E + 60n {bound / 2**20:.0f} MiB; "
    f"ratio {(peak - base) / bound:.2f}"
)

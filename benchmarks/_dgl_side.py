"""DGL's side of benchmarks/partition_vs_dgl.py; runs in DGL's own virtual environment.

Usage: python _dgl_side.py GRAPH_DIR OUT_DIR NUM_PARTS BALANCE(0|1)
Reads src.npy, dst.npy, feat.npy, train_mask.npy from GRAPH_DIR and prints one
JSON line: wall time of partition_graph, its METIS step, and the edge cut.
"""

import json
import os
import resource
import sys
import time

from _timing import constraint_balance, time_calls

os.environ.setdefault("DGLBACKEND", "pytorch")

import dgl  # noqa: E402
import dgl.distributed.partition as dgl_partition  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from dgl.distributed import partition_graph  # noqa: E402

graph_dir, out_dir, num_parts, balance = (
    sys.argv[1],
    sys.argv[2],
    int(sys.argv[3]),
    sys.argv[4] == "1",
)
src = torch.from_numpy(np.load(os.path.join(graph_dir, "src.npy")))
dst = torch.from_numpy(np.load(os.path.join(graph_dir, "dst.npy")))
n = int(np.load(os.path.join(graph_dir, "num_nodes.npy")))
g = dgl.graph((src, dst), num_nodes=n)
g.ndata["feat"] = torch.from_numpy(np.load(os.path.join(graph_dir, "feat.npy")))
g.ndata["train_mask"] = torch.from_numpy(np.load(os.path.join(graph_dir, "train_mask.npy")))
del src, dst

# Time the METIS step by wrapping the function partition_graph calls.
metis_time = time_calls(dgl_partition, "metis_partition_assignment")
rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
orig_nids, _ = partition_graph(
    g,
    "bench",
    num_parts,
    out_dir,
    part_method="metis",
    balance_ntypes=g.ndata["train_mask"] if balance else None,
    balance_edges=balance,
    return_mapping=True,
)
wall = time.perf_counter() - t0
# Edge cut over the original graph's edges: owner of each original node.
node_part = torch.empty(n, dtype=torch.int64)
with open(os.path.join(out_dir, "bench.json")) as f:
    ranges = json.load(f)["node_map"]["_N"]
for p, (start, end) in enumerate(ranges):
    node_part[orig_nids[start:end]] = p
s, d = g.edges()
cut = int((node_part[s] != node_part[d]).sum())
print(
    json.dumps(
        {
            "wall_s": wall,
            "metis_s": metis_time[0],
            "edge_cut": cut,
            "train_per_part": torch.bincount(
                node_part[g.ndata["train_mask"].bool()], minlength=num_parts
            ).tolist(),
            "constraints": constraint_balance(
                node_part.numpy(), g.ndata["train_mask"].numpy(), d.numpy(), num_parts
            ),
            "peak_rss_gb_before": rss_before / 1e6,
        }
    )
)

"""graphpart's side of benchmarks/partition_vs_dgl.py (run in a fresh process for peak RSS).

Usage: python _graphpart_side.py GRAPH_DIR OUT_DIR NUM_PARTS BALANCE(0|1)
"""

import json
import os
import sys
import time

import numpy as np
import torch
from _timing import constraint_balance, time_calls

import graphpart as gp
import graphpart.partitioning.core as gp_core

graph_dir, out_dir, num_parts, balance = (
    sys.argv[1],
    sys.argv[2],
    int(sys.argv[3]),
    sys.argv[4] == "1",
)
src = np.load(os.path.join(graph_dir, "src.npy"))
dst = np.load(os.path.join(graph_dir, "dst.npy"))
n = int(np.load(os.path.join(graph_dir, "num_nodes.npy")))
g = gp.Graph.from_edges(
    src,
    dst,
    num_nodes=n,
    ndata={
        "feat": torch.from_numpy(np.load(os.path.join(graph_dir, "feat.npy"))),
        "train_mask": torch.from_numpy(np.load(os.path.join(graph_dir, "train_mask.npy"))),
    },
)
del src, dst

# Time the assignment step (coarsening or sample, METIS, refinement) by wrapping what partition
# calls, as the DGL side times its metis_partition_assignment.
metis_time = time_calls(gp_core, "metis_two_levels")
t0 = time.perf_counter()
orig_nids, _ = gp.partition_graph(
    g,
    "bench",
    num_parts,
    out_dir,
    num_hops=1,
    balance_ntypes=g.ndata["train_mask"] if balance else None,
    balance_edges=balance,
    return_mapping=True,
    seed=0,
)
wall = time.perf_counter() - t0
book = gp.load_partition_book(os.path.join(out_dir, "bench.json"), 0).book
node_part = torch.empty(n, dtype=torch.int64)
node_part[orig_nids] = book.nid2partid(torch.arange(n))
s, d = g.edges()
cut = int((node_part[s] != node_part[d]).sum())
print(
    json.dumps(
        {
            "wall_s": wall,
            "metis_s": metis_time[0],
            "edge_cut": cut,
            "train_per_part": torch.bincount(
                node_part[g.ndata["train_mask"]], minlength=num_parts
            ).tolist(),
            "constraints": constraint_balance(
                node_part.numpy(), g.ndata["train_mask"].numpy(), d.numpy(), num_parts
            ),
        }
    )
)

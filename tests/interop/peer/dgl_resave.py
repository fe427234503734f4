"""Load a partition config with real DGL and save every partition again with DGL's own writers.

Usage: python dgl_resave.py CONFIG OUT_DIR
Writes OUT_DIR/<name>.json (a copy of CONFIG with DGL file names) and part<i>/graph.dgl,
node_feat.dgl, edge_feat.dgl written by dgl.save_graphs / dgl.data.save_tensors.
"""

import json
import os
import sys

import dgl
from dgl.distributed import load_partition

config, out = sys.argv[1], sys.argv[2]
with open(config) as f:
    cfg = json.load(f)
for i in range(cfg["num_parts"]):
    g, nfeat, efeat, *_ = load_partition(config, i)
    folder = os.path.join(out, f"part{i}")
    os.makedirs(folder, exist_ok=True)
    dgl.save_graphs(os.path.join(folder, "graph.dgl"), [g])
    dgl.data.save_tensors(os.path.join(folder, "node_feat.dgl"), nfeat)
    dgl.data.save_tensors(os.path.join(folder, "edge_feat.dgl"), efeat)
    cfg[f"part-{i}"] = {
        "node_feats": f"part{i}/node_feat.dgl",
        "edge_feats": f"part{i}/edge_feat.dgl",
        "part_graph": f"part{i}/graph.dgl",
    }
with open(os.path.join(out, os.path.basename(config)), "w") as f:
    json.dump(cfg, f)
print("resaved")

"""Load a partition config with real DGL and dump every array it loaded into an .npz.

Usage: python dgl_dump.py CONFIG OUT.npz [graphbolt]
Keys: p<i>/ndata/<name>, p<i>/edata/<name>, p<i>/src, p<i>/dst (local ids, edge order of the
file), p<i>/nfeat/<key>, p<i>/efeat/<key>, p<i>/nid2partid (every global node id),
p<i>/gb/<name> (GraphBolt: indptr, indices, type_per_edge, node/<attr>, edge/<attr>). A
partition with GraphBolt's file alone (no part_graph in the config) is loaded with
use_graphbolt=True only: its features and book come from that load.
Run with DGL_DIST_DEBUG=1 so DGL verifies each partition against its book.
"""

import json
import sys

import numpy as np
import torch
from dgl.distributed import load_partition

config, out = sys.argv[1], sys.argv[2]
graphbolt = len(sys.argv) > 3 and sys.argv[3] == "graphbolt"
with open(config) as f:
    cfg = json.load(f)
num_parts = cfg["num_parts"]
dump = {}
for i in range(num_parts):
    if "part_graph" in cfg[f"part-{i}"]:
        g, nfeat, efeat, gpb, name, ntypes, etypes = load_partition(config, i)
        src, dst = g.edges(order="eid")
        dump[f"p{i}/src"], dump[f"p{i}/dst"] = src.numpy(), dst.numpy()
        for k, v in g.ndata.items():
            dump[f"p{i}/ndata/{k}"] = v.numpy()
        for k, v in g.edata.items():
            dump[f"p{i}/edata/{k}"] = v.numpy()
    else:
        gb, nfeat, efeat, gpb, name, ntypes, etypes = load_partition(config, i, use_graphbolt=True)
    for k, v in nfeat.items():
        dump[f"p{i}/nfeat/{k}"] = v.numpy()
    for k, v in efeat.items():
        dump[f"p{i}/efeat/{k}"] = v.numpy()
    dump[f"p{i}/nid2partid"] = gpb.nid2partid(torch.arange(cfg["num_nodes"])).numpy()
    dump[f"p{i}/name"] = np.array(name)
    dump[f"p{i}/ntypes"] = np.array(ntypes)
    if graphbolt:
        if "part_graph" in cfg[f"part-{i}"]:
            gb, *_ = load_partition(config, i, load_feats=False, use_graphbolt=True)
        dump[f"p{i}/gb/indptr"] = gb.csc_indptr.numpy()
        dump[f"p{i}/gb/indices"] = gb.indices.numpy()
        if gb.type_per_edge is not None:
            dump[f"p{i}/gb/type_per_edge"] = gb.type_per_edge.numpy()
        for k, v in (gb.node_attributes or {}).items():
            dump[f"p{i}/gb/node/{k}"] = v.numpy()
        for k, v in (gb.edge_attributes or {}).items():
            dump[f"p{i}/gb/edge/{k}"] = v.numpy()
np.savez(out, **dump)
print(f"dumped {len(dump)} arrays of {num_parts} partitions")

"""Load a PyG partition folder with PyG's own LocalGraphStore / LocalFeatureStore; dump what they
hold.

Usage: python pyg_dump.py ROOT OUT.npz
Keys: p<i>/edge_index/<etype>, p<i>/edge_id/<etype>, p<i>/global_id/<ntype>, p<i>/x/<ntype>/<attr>,
p<i>/edge_global_id/<etype>, p<i>/edge_attr/<etype>/<attr>, p<i>/lookup/<ntype>/<attr> (rows
looked up by global id through the store), node_pb/<ntype>, edge_pb/<etype>. <etype> is
"src__rel__dst", or "_" for a homogeneous graph.
"""

import json
import os
import sys

import numpy as np
from torch_geometric.distributed import LocalFeatureStore, LocalGraphStore

root, out = sys.argv[1], sys.argv[2]
with open(os.path.join(root, "META.json")) as f:
    meta = json.load(f)
hetero = meta["is_hetero"]
dump = {}
for i in range(meta["num_parts"]):
    gs = LocalGraphStore.from_partition(root, i)
    fs = LocalFeatureStore.from_partition(root, i)
    etypes = [tuple(e) for e in meta["edge_types"]] if hetero else [None]
    for e in etypes:
        key = "__".join(e) if e else "_"
        dump[f"p{i}/edge_index/{key}"] = gs.get_edge_index(edge_type=e, layout="coo").numpy()
        dump[f"p{i}/edge_id/{key}"] = gs.get_edge_id(edge_type=e, layout="coo").numpy()
    for attr in fs.get_all_tensor_attrs():
        group = attr.group_name
        if isinstance(group, tuple):
            key = "__".join(group) if group != (None, None) else "_"
            dump[f"p{i}/edge_attr/{key}/{attr.attr_name}"] = fs.get_tensor(attr).numpy()
            dump[f"p{i}/edge_global_id/{key}"] = fs.get_global_id(group).numpy()
        else:
            key = group if group is not None else "_"
            gid = fs.get_global_id(group)
            dump[f"p{i}/global_id/{key}"] = gid.numpy()
            dump[f"p{i}/x/{key}/{attr.attr_name}"] = fs.get_tensor(attr).numpy()
            dump[f"p{i}/lookup/{key}/{attr.attr_name}"] = fs.get_tensor_from_global_id(
                group_name=group, attr_name=attr.attr_name, index=gid.flip(0)
            ).numpy()
    pb = gs.node_pb if hetero else {"_": gs.node_pb}
    for t, v in pb.items():
        dump[f"node_pb/{t}"] = v.numpy()
np.savez(out, **dump)
print(f"dumped {len(dump)} arrays")

"""Run in the peer venv: DGL's HALO (partition_graph_with_halo) for given graphs, assignments
and hop counts; dump each partition's nodes and edges in original ids.

Usage: dgl_halo.py IN.npz OUT.npz (IN: src, dst, num_nodes, node_part, hops)
"""

import sys

import dgl
import numpy as np
import torch

data = np.load(sys.argv[1])
g = dgl.graph(
    (torch.from_numpy(data["src"]), torch.from_numpy(data["dst"])), num_nodes=int(data["num_nodes"])
)
node_part = torch.from_numpy(data["node_part"])
out = {}
for hops in data["hops"].tolist():
    parts, _, _ = dgl.partition_graph_with_halo(g, node_part, hops, reshuffle=False)
    for i, p in parts.items():
        nid = p.ndata[dgl.NID]
        s, d = p.edges()
        out[f"h{hops}/p{i}/nodes"] = np.sort(nid.numpy())
        pairs = np.stack([nid[s].numpy(), nid[d].numpy()], axis=1)
        out[f"h{hops}/p{i}/edges"] = pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]
np.savez(sys.argv[2], **out)

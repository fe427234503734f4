"""Real DGL 2.1 loads partitions the pipeline wrote at scale, and what it loads is checked.

Run in the peers' venv (``tools/make_peer_env.sh``), one partition per process::

    DGL_DIST_DEBUG=1 ~/.cache/graphpart/peer-venv/bin/python benchmarks/dgl_loads_at_scale.py \
        /work/scale/rmat26/parts/chunks.json 0 3 15

For each partition: ``dgl.distributed.load_partition(config, i, use_graphbolt=True)`` (with
``DGL_DIST_DEBUG`` DGL checks every edge against its partition book), then: the first local nodes
are the partition's own range of new ids, every edge enters an inner node (each edge stored once,
at its destination's owner), the edge ids are exactly the partition's range, each once, and the
features have one row per owned node and edge. Prints one JSON line per partition (time and peak
memory of the load).
"""

from __future__ import annotations

import json
import resource
import sys
import time

import numpy as np
import torch
from dgl.distributed import load_partition

config, parts = sys.argv[1], [int(x) for x in sys.argv[2:]]
cfg = json.load(open(config))
for i in parts:
    t = time.perf_counter()
    gb, nfeat, efeat, book, *_ = load_partition(config, i, use_graphbolt=True)
    seconds = time.perf_counter() - t
    ((start, end),) = [cfg["node_map"][k][i] for k in cfg["node_map"]]
    ((es, ee),) = [cfg["edge_map"][k][i] for k in cfg["edge_map"]]
    nid = gb.node_attributes["_ID"]
    indptr, eid = gb.csc_indptr.to(torch.int64), gb.edge_attributes["_ID"]
    inner = end - start
    checks = {
        "inner nodes are the partition's range": bool(
            torch.equal(nid[:inner], torch.arange(start, end))
        ),
        "HALO nodes belong to other partitions": bool(
            ((nid[inner:] < start) | (nid[inner:] >= end)).all()
        ),
        "every edge enters an inner node": int(indptr[inner]) == gb.total_num_edges,
        "edge ids are the partition's range, once each": bool(
            torch.equal(torch.sort(eid).values, torch.arange(es, ee))
        ),
        "node features: a row per owned node": all(len(v) == inner for v in nfeat.values()),
        "edge features: a row per owned edge": all(len(v) == ee - es for v in efeat.values()),
    }
    print(
        json.dumps(
            {
                "part": i,
                "nodes": int(gb.total_num_nodes),
                "inner": inner,
                "edges": int(gb.total_num_edges),
                "indptr": str(gb.csc_indptr.dtype),
                "indices": str(gb.indices.dtype),
                "load_s": round(seconds, 1),
                "peak_rss_gib": round(
                    resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2
                ),
                "ok": all(checks.values()),
                "failed": [k for k, v in checks.items() if not v],
            }
        ),
        flush=True,
    )
    assert all(checks.values()), checks
    del gb, nfeat, efeat, nid, indptr, eid
print(np.__version__, torch.__version__, file=sys.stderr)

"""graphpart's HALO equals real DGL's (partition_graph_with_halo) at 1, 2 and 3 hops."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart import datasets

from .peers import load_dump, run_peer

pytestmark = pytest.mark.peers


def _graphs():
    # the smallest case found: node 2 is an out-neighbour of 0 (hop 1) and, through 2 -> 1 -> 0,
    # two in-hops away; its in-edge 3 -> 2 belongs to the third hop
    yield (
        "out-neighbour reached again",
        4,
        np.array([1, 0, 2, 3]),
        np.array([0, 2, 1, 2]),
        [0, 1, 1, 1],
    )
    rng = np.random.default_rng(7)
    for n, m, k in ((30, 60, 3), (80, 240, 4)):
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        keep = src != dst
        pairs = np.unique(np.stack([src[keep], dst[keep]], 1), axis=0)
        yield f"random {n} nodes", n, pairs[:, 0], pairs[:, 1], rng.integers(0, k, n).tolist()
    g = datasets.load_karate_club()
    s, d = g.edges()
    yield "karate", 34, s.numpy(), d.numpy(), (np.arange(34) % 3).tolist()


def test_halo_equals_dgls_at_every_hop(tmp_path):
    hops = [1, 2, 3]
    for name, n, src, dst, part in _graphs():
        np.savez(
            tmp_path / "in.npz",
            src=src,
            dst=dst,
            num_nodes=n,
            node_part=np.array(part),
            hops=np.array(hops),
        )
        run_peer("dgl_halo.py", tmp_path / "in.npz", tmp_path / "out.npz")
        theirs = load_dump(tmp_path / "out.npz")
        g = gp.Graph.from_edges(torch.from_numpy(src), torch.from_numpy(dst), num_nodes=n)
        for h in hops:
            p = gp.partition(g, int(max(part)) + 1, part_method=np.array(part), num_hops=h)
            for i in range(p.num_parts):
                lg = p.local_graph(i)
                old = p.shuffle.new2old_nid[lg.ndata["_ID"].numpy()]
                s, d = (x.numpy() for x in lg.edges())
                pairs = np.stack([old[s], old[d]], axis=1)
                pairs = pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]
                key = f"h{h}/p{i}"
                assert np.array_equal(np.sort(old), theirs[f"{key}/nodes"]), (name, key)
                assert np.array_equal(pairs, theirs[f"{key}/edges"]), (name, key)

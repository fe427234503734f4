"""vertex_cut (degree-based hashing) and node_volumes: what each kind of cut copies."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart import datasets
from graphpart.partitioning import vertex_cut
from graphpart.partitioning.summary import node_volumes


@settings(max_examples=50, deadline=None)
@given(n=st.integers(1, 30), k=st.integers(1, 4), seed=st.integers(0, 1000))
def test_every_edge_goes_with_its_lower_degree_end_and_copies_follow_the_edges(n, k, seed):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(0, 3 * n + 1))
    g = gp.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), num_nodes=n)
    vc = vertex_cut(g, k, seed=seed)
    pairs = {(min(a, b), max(a, b)) for a, b in zip(*(e.tolist() for e in g.edges())) if a != b}
    assert set(zip(vc.src.tolist(), vc.dst.tolist())) == pairs and len(vc.src) == len(pairs)
    degree = np.bincount(np.concatenate([vc.src, vc.dst]), minlength=n)
    for v in range(n):
        mine = (vc.src == v) | (vc.dst == v)
        assert vc.copies[v] == len(set(vc.edge_part[mine].tolist()))
        other = np.where(vc.src == v, vc.dst, vc.src)
        low = mine & ((degree[other] > degree[v]) | ((degree[other] == degree[v]) & (other > v)))
        assert len(set(vc.edge_part[low].tolist())) <= 1  # a node's own edges stay together


def test_node_volumes_add_up_to_the_partitions_communication_volume():
    p = gp.partition(datasets.load_karate_club(), 3, seed=0)
    src, dst = (e.numpy() for e in p.graph.edges())
    vol = node_volumes(src, dst, np.asarray(p.node_part))
    assert vol.sum() == p.metrics.communication_volume
    assert vol.max() <= 2 and (vol[np.asarray(p.node_part) == 0] >= 0).all()

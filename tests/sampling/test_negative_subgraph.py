"""GLT's other graph operations against their definitions on small graphs: negative pairs are
never edges (but the padding), induced subgraphs hold exactly the edges between the set."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.sampling import Topology, induced_subgraph, negative_sample


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 12))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=40))
    layout = draw(st.sampled_from(["CSC", "CSR"]))
    src = [s for s, _ in edges]
    dst = [d for _, d in edges]
    return Topology.from_coo(src, dst, num_nodes=n, layout=layout), edges


@settings(max_examples=80, deadline=None)
@given(graphs(), st.integers(0, 50), st.integers(1, 4), st.integers(0, 9))
def test_negative_pairs_are_never_edges(case, num, trials, seed):
    topo, edges = case
    src, dst = negative_sample(topo, num, trials=trials, seed=seed)
    assert len(src) == len(dst) <= num
    assert set(zip(src.tolist(), dst.tolist())).isdisjoint(set(edges))
    assert ((0 <= src) & (src < topo.num_nodes)).all() and (
        (0 <= dst) & (dst < topo.num_nodes)
    ).all()


def test_padding_fills_what_the_trials_did_not_find():
    full = [(u, v) for u in range(3) for v in range(3)]  # every pair is an edge
    topo = Topology.from_coo([u for u, _ in full], [v for _, v in full], num_nodes=3)
    assert len(negative_sample(topo, 5, seed=0)[0]) == 0
    src, dst = negative_sample(topo, 5, padding=True, seed=0)
    assert len(src) == 5  # the padding: unchecked pairs, edges here


def test_a_sparse_graph_finds_every_pair_in_one_trial():
    g = gp.datasets.rmat(12, seed=0)
    topo = Topology.from_graph(g)
    src, dst = negative_sample(topo, 10_000, trials=1, seed=0)
    assert len(src) > 9_900  # about 0.05% of the pairs are edges
    keys = set((src * topo.num_nodes + dst).tolist())
    s, d = g.edges()
    assert keys.isdisjoint(set((s * topo.num_nodes + d).tolist()))


@settings(max_examples=80, deadline=None)
@given(graphs(), st.data())
def test_the_induced_subgraph_holds_exactly_the_edges_between_the_set(case, data):
    topo, edges = case
    nodes = data.draw(st.lists(st.integers(0, topo.num_nodes - 1), max_size=12))
    sub = induced_subgraph(topo, nodes)
    keep = sorted(set(nodes))
    assert sub.nodes.tolist() == keep
    got = sorted(
        (int(sub.nodes[s]), int(sub.nodes[d]), int(e))
        for s, d, e in zip(sub.src, sub.dst, sub.edge_ids)
    )
    want = sorted((s, d, i) for i, (s, d) in enumerate(edges) if s in keep and d in keep)
    assert got == want


def test_induced_subgraph_refuses_ids_out_of_range():
    topo = Topology.from_coo([0], [1], num_nodes=2)
    with pytest.raises(gp.GraphpartError, match="nodes"):
        induced_subgraph(topo, [5])


def test_induced_subgraph_of_a_large_graph_is_vectorised():
    g = gp.datasets.rmat(16, seed=0)
    topo = Topology.from_graph(g)
    nodes = torch.from_numpy(np.random.default_rng(0).choice(topo.num_nodes, 5000, replace=False))
    sub = induced_subgraph(topo, nodes)
    s, d = g.edges()
    inside = torch.isin(s, nodes) & torch.isin(d, nodes)
    assert sub.num_edges == int(inside.sum())

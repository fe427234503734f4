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


HAS_CUDA = torch.cuda.is_available()


def test_a_topology_s_mode_says_where_it_lives():
    topo = Topology.from_coo([0, 1, 2], [1, 2, 0])
    assert topo.mode == "CPU" and topo.to_mode("CPU") is topo
    with pytest.raises(gp.GraphpartError, match="mode must be one of"):
        topo.to_mode("GPU")


@pytest.mark.skipif(HAS_CUDA, reason="checks the message given where CUDA is missing")
@pytest.mark.parametrize("mode", ["ZERO_COPY", "CUDA"])
def test_gpu_modes_without_cuda_are_refused_in_one_line(mode):
    with pytest.raises(gp.GraphpartError, match="CUDA is not available here: use mode='CPU'"):
        Topology.from_coo([0], [1]).to_mode(mode)


@pytest.mark.skipif(not HAS_CUDA, reason="needs a CUDA GPU")
@pytest.mark.parametrize("mode", ["ZERO_COPY", "CUDA"])
def test_sampling_on_the_gpu_equals_sampling_on_the_cpu(mode):
    from graphpart.sampling import NeighborSampler

    topo = Topology.from_graph(gp.datasets.rmat(14, seed=0))
    gpu = topo.to_mode(mode)
    assert gpu.device.type == "cuda"
    assert (gpu.indices.device.type == "cpu" and gpu.indices.is_pinned()) == (mode == "ZERO_COPY")
    seeds = torch.arange(0, topo.num_nodes, 7)
    for fanouts in ([10, 5], [-1], [3, 3, 3]):
        a = NeighborSampler(topo, fanouts, seed=0).sample(seeds)
        b = NeighborSampler(gpu, fanouts, seed=0).sample(seeds.cuda())
        assert b.input_nodes.device.type == "cuda"
        assert torch.equal(a.input_nodes, b.input_nodes.cpu())
        for x, y in zip(a.edges, b.edges):
            assert all(torch.equal(u, v.cpu()) for u, v in zip(x, y))
    src, dst = negative_sample(gpu, 1000, seed=0)
    assert src.device.type == "cuda" and len(src) > 990
    sub = induced_subgraph(gpu, seeds[:500].cuda())
    want = induced_subgraph(topo, seeds[:500])
    assert torch.equal(sub.edge_ids.cpu(), want.edge_ids)


@pytest.mark.skipif(not HAS_CUDA, reason="needs a CUDA GPU")
def test_a_loader_over_a_gpu_topology_gives_the_cpu_loader_s_batches():
    from graphpart.sampling import NeighborLoader

    topo = Topology.from_graph(gp.datasets.rmat(12, seed=0))
    seeds = torch.arange(0, topo.num_nodes, 3)
    cpu = list(NeighborLoader(topo, [5, 5], seeds=seeds, batch_size=128, seed=0))
    gpu = list(NeighborLoader(topo.to_mode("CUDA"), [5, 5], seeds=seeds, batch_size=128, seed=0))
    assert len(cpu) == len(gpu)
    assert all(torch.equal(a.input_nodes, b.input_nodes.cpu()) for a, b in zip(cpu, gpu))

"""NeighborSampler (several hops) and NeighborLoader (mini-batches, partition restriction)."""

from __future__ import annotations

import pytest
import torch

import graphpart as gp
from graphpart.datasets import load_karate_club, rmat
from graphpart.sampling import NeighborLoader, NeighborSampler, Topology


@pytest.fixture(scope="module")
def karate_topo():
    return Topology.from_graph(load_karate_club())


def _in_nbrs(topo, v):
    return set(topo.indices[topo.indptr[v] : topo.indptr[v + 1]].tolist())


def test_each_hop_samples_in_neighbours_of_the_previous_hops_new_nodes(karate_topo):
    mb = NeighborSampler(karate_topo, [3, 2], seed=1).sample([0, 5])
    (n1, d1, _), (n2, d2, _) = mb.edges
    assert set(d1.tolist()) <= {0, 5}
    assert all(n in _in_nbrs(karate_topo, d) for n, d in zip(n1.tolist(), d1.tolist()))
    assert set(d2.tolist()) <= set(mb.hops[0].tolist())
    assert all(n in _in_nbrs(karate_topo, d) for n, d in zip(n2.tolist(), d2.tolist()))


def test_hops_are_new_distinct_nodes_and_input_nodes_their_union(karate_topo):
    mb = NeighborSampler(karate_topo, [4, 4, 4], seed=0).sample([3, 3, 7])
    assert mb.seeds.tolist() == [3, 7]
    assert len(torch.unique(mb.input_nodes)) == len(mb.input_nodes)
    everything = {3, 7} | {n for e in mb.edges for n in e[0].tolist()}
    assert set(mb.input_nodes.tolist()) == everything
    seen = {3, 7}
    for hop in mb.hops:
        assert not (set(hop.tolist()) & seen)
        seen |= set(hop.tolist())


def test_fanout_caps_neighbours_per_node_without_replacement(karate_topo):
    mb = NeighborSampler(karate_topo, [2], seed=0).sample(torch.arange(34))
    nbr, node, _ = mb.edges[0]
    per_node = torch.bincount(node, minlength=34)
    assert torch.equal(per_node, torch.clamp(karate_topo.degree(), max=2))


def test_same_seed_same_batches_and_samples(karate_topo):
    def run(seed):
        loader = NeighborLoader(karate_topo, [3, 3], batch_size=5, seed=seed)
        return [mb.input_nodes.tolist() for _ in range(2) for mb in loader]

    assert run(4) == run(4)
    assert run(4) != run(5)


def test_loader_visits_every_seed_once_per_epoch(karate_topo):
    mask = torch.zeros(34, dtype=torch.bool)
    mask[::3] = True
    loader = NeighborLoader(karate_topo, [2], seeds=mask, batch_size=4, seed=0)
    seeds = torch.cat([mb.seeds for mb in loader])
    assert sorted(seeds.tolist()) == list(range(0, 34, 3)) and len(loader) == 3


def test_drop_last_skips_the_short_batch(karate_topo):
    loader = NeighborLoader(karate_topo, [2], batch_size=8, drop_last=True, seed=0)
    assert len(loader) == 4 and [len(mb.seeds) for mb in loader] == [8] * 4


def test_partition_restriction_keeps_only_that_partitions_inner_seeds():
    g = load_karate_club()
    p = gp.partition(g, 3, part_method="random", seed=0)
    topo = Topology.from_graph(g)
    for part in range(3):
        loader = NeighborLoader(topo, [2], batch_size=100, seed=0, partitioning=p, part_id=part)
        seeds = torch.cat([mb.seeds for mb in loader])
        assert set(seeds.tolist()) == set((p.node_part == part).nonzero()[0].tolist())


def test_empty_seed_set_gives_no_batches(karate_topo):
    loader = NeighborLoader(karate_topo, [2], seeds=torch.zeros(34, dtype=torch.bool))
    assert len(loader) == 0 and list(loader) == []


def test_isolated_seeds_sample_nothing():
    topo = Topology.from_coo([0], [1], num_nodes=4)
    mb = NeighborSampler(topo, [5, 5], seed=0).sample([2, 3])
    assert mb.input_nodes.tolist() == [2, 3] and mb.num_sampled_edges == 0


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(fanouts=[]), "non-empty"),
        (dict(fanouts=[0]), "positive"),
        (dict(fanouts=5), "sequence"),
        (dict(batch_size=0), "batch_size"),
        (dict(seeds=torch.ones(3, dtype=torch.bool)), "one entry per node"),
        (dict(seeds=[40]), "seeds"),
        (dict(part_id=1), "needs a partitioning"),
    ],
)
def test_bad_loader_arguments_are_refused(karate_topo, bad, match):
    kw = dict(fanouts=[2], batch_size=4) | bad
    fanouts = kw.pop("fanouts")
    with pytest.raises(gp.GraphpartError, match=match):
        NeighborLoader(karate_topo, fanouts, **kw)


def test_rmat_sampling_is_vectorised_enough_for_large_batches():
    g = rmat(14, edge_factor=8, seed=0)
    topo = Topology.from_graph(g)
    mb = NeighborSampler(topo, [15, 10, 5], seed=0).sample(torch.arange(1024))
    per_node = torch.bincount(mb.edges[0][1], minlength=topo.num_nodes)[:1024]
    assert torch.equal(per_node, torch.clamp(topo.degree()[:1024], max=15))
    assert len(mb.input_nodes) > 1024

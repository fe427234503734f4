"""Trainers within machines: machines balanced first, then each machine's trainers inside it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.datasets import sbm
from graphpart.partitioning.trainers import metis_trainers

NAMES = ["paper", "author", "field"]


def hetero_sbm(seed: int = 0, blocks: int = 32, size: int = 300) -> gp.Graph:
    """A heterograph with communities: each block leans towards one node type (so balancing the
    types works against the cut), a 1.5% node type, and a train mask on papers, denser in some
    blocks."""
    g = sbm([size] * blocks, 0.03, 0.0005, seed=seed)
    s, d = (x.numpy() for x in g.edges())
    n = g.num_nodes()
    rng = np.random.default_rng(seed)
    block = np.repeat(np.arange(blocks), size)
    lean = np.eye(3)[rng.integers(0, 3, blocks)]
    probs = 0.4 * np.array([0.6, 0.385, 0.015])[None, :] + 0.6 * lean
    ntype = (rng.random(n)[:, None] > np.cumsum(probs[block], axis=1)).sum(axis=1)
    rank = np.empty(n, np.int64)
    for t in range(3):
        idx = np.flatnonzero(ntype == t)
        rank[idx] = np.arange(len(idx))
    edges = {}
    for a in range(3):
        for b in range(3):
            m = (ntype[s] == a) & (ntype[d] == b)
            pair = (torch.from_numpy(rank[s[m]]), torch.from_numpy(rank[d[m]]))
            edges[(NAMES[a], f"r{a}{b}", NAMES[b])] = pair
    counts = {NAMES[t]: int((ntype == t).sum()) for t in range(3)}
    papers = block[ntype == 0]
    train = torch.from_numpy(rng.random(counts["paper"]) < np.where(papers % 3 == 0, 0.4, 0.2))
    ndata = {"paper": {"train_mask": train}}
    return gp.Graph.from_typed_edges(edges, num_nodes=counts, ndata=ndata)


def _worst(parts: torch.Tensor, groups: int, per: int = 1) -> float:
    """Worst max/mean over ``groups`` of the ``per`` loads each (the load of part i sits at i)."""
    loads = torch.bincount(parts, minlength=groups * per).double().view(groups, per)
    return float((loads.max(dim=1).values / loads.mean(dim=1)).max())


@pytest.mark.parametrize("trainers", [2, 4])
def test_machines_then_trainers_are_balanced(trainers):
    g = hetero_sbm()
    k = 4
    train = g.node_data("paper")["train_mask"]
    p = gp.partition(
        g,
        k,
        balance_ntypes={"paper": train},
        balance_edges=True,
        num_trainers_per_machine=trainers,
        seed=0,
    )
    assert np.array_equal(p.node_part, p.trainer_id // trainers)
    machine, trainer = p.assignment, p._per_ntype(p.trainer_id)
    groups = {t: (machine[t], trainer[t]) for t in g.ntypes}
    groups["train"] = (machine["paper"][train], trainer["paper"][train])
    for name, (m, t) in groups.items():
        # the machines: every node type and the train nodes within METIS's tolerance (1.03) or so
        assert _worst(m, 1, k) <= 1.05, name
        # and the trainers of each machine among themselves (the old scheme, METIS into k * T
        # parts and machine = trainer // T, leaves these at 1.07-1.11 on this graph)
        assert _worst(t, k, trainers) <= 1.05, name


def test_machines_do_not_depend_on_the_trainers():
    # machines no longer follow trainer boundaries: they are METIS's k-way parts
    g = hetero_sbm(1, blocks=16)
    one = gp.partition(g, 4, num_trainers_per_machine=1, seed=0)
    four = gp.partition(g, 4, num_trainers_per_machine=4, seed=0)
    assert np.array_equal(one.node_part, four.node_part)
    assert len(np.unique(four.trainer_id)) == 16


def test_random_and_custom_assignments_are_trainer_ids():
    g = hetero_sbm(2, blocks=8)
    p = gp.partition(g, 2, part_method="random", num_trainers_per_machine=3, seed=0)
    assert np.array_equal(p.node_part, p.trainer_id // 3)
    assert sorted(np.unique(p.trainer_id).tolist()) == list(range(6))
    custom = {t: torch.arange(g.num_nodes(t)) % 6 for t in g.ntypes}
    q = gp.partition(g, 2, part_method=custom, num_trainers_per_machine=3)
    assert np.array_equal(q._per_ntype(q.trainer_id)["paper"].numpy(), custom["paper"].numpy())
    assert np.array_equal(q.node_part, q.trainer_id // 3)


def test_a_machine_with_fewer_nodes_than_trainers():
    src, dst = np.array([0, 2, 4, 6]), np.array([1, 3, 5, 7])
    machine = np.array([0, 0, 0, 0, 1, 1, 1, 1, 2])  # machine 2 holds one node
    t = metis_trainers(src, dst, machine, 3, 2, seed=0)
    assert np.array_equal(t // 2, machine)
    assert np.bincount(t, minlength=6)[:4].tolist() == [2, 2, 2, 2]
    assert bool(np.all(t[src] == t[dst]))


@pytest.mark.parametrize("trainers", [2, 4])
def test_isolated_nodes_are_dealt_out_evenly_to_the_trainers_of_each_machine(trainers):
    """They piled into trainer 0 of each machine (R-MAT 14, 2 x 2: 2,959 vs 706 isolated),
    node counts looking balanced while the trainers' seeds were not."""
    from graphpart.datasets import rmat

    g = rmat(14, seed=0)
    s, d = (x.numpy() for x in g.edges())
    isolated = (
        np.bincount(s, minlength=g.num_nodes()) + np.bincount(d, minlength=g.num_nodes())
    ) == 0
    p = gp.partition(g, 2, num_trainers_per_machine=trainers, seed=0)
    per = np.bincount(p.trainer_id[isolated], minlength=2 * trainers).reshape(2, trainers)
    assert (per.max(axis=1) - per.min(axis=1)).max() <= 1, per
    assert p.metrics.trainer_balance["nodes"] <= 1.03 + 1e-6

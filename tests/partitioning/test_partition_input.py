"""Bad input to partition() gets a GraphpartError that says what was received and expected."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp

from ..graphs import hetero_graph, karate


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(num_parts=0), "num_parts must be an integer >= 1, got 0"),
        (dict(num_parts=2.5), "num_parts must be an integer"),
        (dict(num_parts=35), "cannot split 34 nodes into 35 parts"),
        (
            dict(num_parts=2, part_method="kahip"),
            "part_method must be 'metis', 'random' or an assignment",
        ),
        (
            dict(num_parts=2, balance_ntypes=torch.zeros(10, dtype=torch.bool)),
            r"one value per node \(34\), got 10",
        ),
        (dict(num_parts=2, balance_ntypes=torch.zeros(34)), "bool or int array"),
        (dict(num_parts=2, num_hops=-1), "num_hops must be a non-negative integer, got -1"),
        (
            dict(num_parts=2, num_trainers_per_machine=0),
            "num_trainers_per_machine must be an integer >= 1, got 0",
        ),
        (dict(num_parts=2, objtype="edges"), "objtype"),
        (
            dict(num_parts=2, part_method=np.zeros(5, dtype=np.int64)),
            r"one entry per node \(34\), got 5",
        ),
        (dict(num_parts=2, part_method=np.full(34, 2)), r"values must lie in \[0, 2\)"),
        (dict(num_parts=2, seed="x"), "seed"),
    ],
)
def test_bad_partition_arguments(kw, match):
    with pytest.raises(gp.GraphpartError, match=match):
        gp.partition(karate(), **kw)


def test_random_may_use_as_many_parts_as_nodes():
    p = gp.partition(karate(), 34, part_method="random", seed=0)
    assert np.bincount(p.node_part).tolist() == [1] * 34


def test_bad_hetero_balance_dict():
    g = hetero_graph()
    with pytest.raises(gp.GraphpartError, match="unknown node types"):
        gp.partition(g, 2, balance_ntypes={"movie": torch.zeros(3, dtype=torch.bool)})
    with pytest.raises(gp.GraphpartError, match="one value per 'user' node"):
        gp.partition(g, 2, balance_ntypes={"user": torch.zeros(3, dtype=torch.bool)})
    with pytest.raises(gp.GraphpartError, match="needs exactly the node types"):
        gp.partition(g, 2, part_method={"user": np.zeros(40, dtype=np.int64)})


def test_hetero_balance_dict_balances_the_mask():
    g = hetero_graph()
    masks = {t: g.node_data(t)["train_mask"] for t in g.ntypes}
    p = gp.partition(g, 2, balance_ntypes=masks, seed=0)
    for t in g.ntypes:
        tr = np.bincount(p.assignment[t].numpy()[masks[t].numpy()], minlength=2)
        assert tr.max() - tr.min() <= max(2, 0.1 * tr.sum()), t


def test_not_a_graph():
    with pytest.raises(gp.GraphpartError, match="must be a graphpart.Graph"):
        gp.partition({"a": 1}, 2)


def test_empty_graph_one_part():
    g = gp.Graph.from_edges([], [], num_nodes=0)
    p = gp.partition(g, 1, part_method="random")
    assert p.local_graph(0).num_nodes() == 0

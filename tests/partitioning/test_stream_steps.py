"""fennel_steps: each decision is the best score among partitions with room, and is kept."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart import datasets
from graphpart.errors import GraphpartError
from graphpart.partitioning import fennel_steps


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 40),
    k=st.integers(1, 5),
    seed=st.integers(0, 10_000),
    slack=st.sampled_from([0.0, 0.1, 0.5]),
)
def test_every_step_places_its_node_at_the_best_score_with_room(n, k, seed, slack):
    k = min(k, n)  # a replay takes at most one partition per node
    rng = np.random.default_rng(seed)
    m = int(rng.integers(0, 3 * n + 1))
    g = gp.Graph.from_edges(rng.integers(0, n, m), rng.integers(0, n, m), num_nodes=n)
    order = rng.permutation(n)
    s = fennel_steps(g, k, order=order, slack=slack)
    src, dst = (e.numpy() for e in g.edges())
    part = np.full(n, -1)
    load = np.zeros(k, int)
    for t, v in enumerate(order):
        near = np.unique(
            np.concatenate([dst[(src == v) & (dst != v)], src[(dst == v) & (src != v)]])
        )
        expect = np.bincount(part[near][part[near] >= 0], minlength=k)
        assert s.neighbours[t].tolist() == expect.tolist()
        assert s.full[t].tolist() == (load >= s.capacity).tolist()
        score = s.score[t]
        assert not s.full[t, s.choice[t]] and score[s.choice[t]] == score.max()
        part[v] = s.choice[t]
        load[s.choice[t]] += 1
    assert load.max() <= s.capacity
    assert np.array_equal(s.assignment, part)


def test_a_neighbour_joined_both_ways_counts_once():
    """The karate club stores each friendship both ways: node 9 has one neighbour placed before
    it (node 2), node 33 all its 17."""
    s = fennel_steps(datasets.load_karate_club(), 2)
    assert s.neighbours[9].sum() == 1 and s.neighbours[33].sum() == 17


def test_the_communities_of_an_sbm_end_up_together():
    g = datasets.sbm([60, 60], p_in=0.3, p_out=0.005, seed=0)
    a = fennel_steps(g, 2, order=np.random.default_rng(0).permutation(120)).assignment
    label = g.ndata["label"].numpy()
    agree = max((a == label).mean(), (a != label).mean())
    assert agree > 0.9, agree


def test_a_graph_too_big_or_a_bad_order_is_refused():
    with pytest.raises(GraphpartError, match="at most"):
        fennel_steps(datasets.rmat(13, seed=0), 2)
    karate = datasets.load_karate_club()
    with pytest.raises(GraphpartError, match="permutation"):
        fennel_steps(karate, 2, order=np.zeros(34, int))
    with pytest.raises(GraphpartError, match="gamma"):
        fennel_steps(karate, 2, gamma=1.0)
    with pytest.raises(GraphpartError, match="num_parts"):
        fennel_steps(karate, 0)

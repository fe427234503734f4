"""The epoch replay: counts equal a brute-force walk, invariants hold under random sampling."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.datasets import load_karate_club, sbm
from graphpart.errors import GraphpartError
from graphpart.training import (
    CACHE_POLICIES,
    LAYER_FIELDS,
    STEP_FIELDS,
    node_split,
    replay_epochs,
    train_set,
)

from ..graphs import hetero_graph


def _brute(p, seeds: np.ndarray, me: int, layers: int) -> dict:
    """One batch of every seed, all in-neighbours per layer, counted node by node."""
    sh = p.shuffle
    owner = sh.node_part()
    nbrs: dict[int, list[int]] = {}
    for s, d in zip(sh.src.tolist(), sh.dst.tolist()):
        nbrs.setdefault(d, []).append(s)
    frontier = list(dict.fromkeys(seeds.tolist()))
    out = {f: [0] * layers for f in LAYER_FIELDS}
    for layer in range(layers):
        out["dst"][layer] = len(frontier)
        asked = set()
        nxt = list(frontier)
        have = set(frontier)
        for v in frontier:
            deg = len(nbrs.get(v, []))
            if owner[v] == me:
                out["requests_local"][layer] += 1
                out["edges_local"][layer] += deg
            else:
                out["requests_remote"][layer] += 1
                out["edges_remote"][layer] += deg
                asked.add(int(owner[v]))
            for u in nbrs.get(v, []):
                if u not in have:
                    have.add(u)
                    nxt.append(u)
        out["sample_machines"][layer] = len(asked)
        frontier = nxt
        out["src"][layer] = len(frontier)
    remote = [v for v in frontier if owner[v] != me]
    return {
        **out,
        "seeds": len(seeds),
        "seeds_local": int(sum(owner[v] == me for v in seeds.tolist())),
        "inputs": len(frontier),
        "inputs_local": len(frontier) - len(remote),
        "inputs_remote": len(remote),
        "inputs_remote_owned": len(remote),
        "inputs_cached": 0,
        "fetch_machines": len({int(owner[v]) for v in remote}),
    }


@pytest.mark.parametrize("hetero", [False, True], ids=["homogeneous", "heterograph"])
@pytest.mark.parametrize("trainers", [1, 2])
def test_counts_equal_a_brute_force_walk_with_all_neighbours(trainers, hetero):
    g = hetero_graph(1) if hetero else sbm([30, 30, 30], 0.15, 0.02, seed=1)
    p = gp.partition(g, 3, seed=0)
    c = replay_epochs(
        p,
        fanouts=[-1, -1],
        batch_size=10_000,
        train=None,
        num_trainers_per_machine=trainers,
        seed=0,
    )
    for r, seeds in enumerate(c.seeds):
        want = _brute(p, seeds, r // trainers, 2)
        for f in STEP_FIELDS:
            assert c.step[f][0, r, 0] == want[f], (r, f)
        for f in LAYER_FIELDS:
            assert c.layer[f][0, r, 0].tolist() == want[f], (r, f)


def test_byte_totals_are_rows_times_row_size():
    p = gp.partition(load_karate_club(), 2, seed=0)
    c = replay_epochs(
        p, fanouts=[3, 3], batch_size=4, train=None, feat_dim=100, dtype="float16", seed=0
    )
    assert c.row_bytes == 200
    for f in ("inputs_local", "inputs_remote", "inputs_cached"):
        assert np.array_equal(c.bytes(f), c.step[f][0].sum(axis=1) * 200)


@settings(max_examples=25, deadline=None)
@given(
    parts=st.integers(1, 4),
    trainers=st.integers(1, 3),
    fanouts=st.lists(st.sampled_from([-1, 1, 2, 5]), min_size=1, max_size=3),
    batch=st.integers(1, 40),
    force_even=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_counts_are_consistent_under_random_sampling(
    parts, trainers, fanouts, batch, force_even, seed
):
    p = gp.partition(load_karate_club(), parts, seed=seed)
    c = replay_epochs(
        p,
        fanouts=fanouts,
        batch_size=batch,
        train=None,
        num_trainers_per_machine=trainers,
        force_even=force_even,
        epochs=2,
        seed=seed,
    )
    S, L = c.step, c.layer
    assert sorted(np.concatenate(c.seeds).tolist()) == list(range(34))  # each node once
    assert np.array_equal(S["seeds"].sum(axis=2)[0], [len(s) for s in c.seeds])
    assert np.array_equal(S["inputs"], S["inputs_cached"] + S["inputs_local"] + S["inputs_remote"])
    assert np.array_equal(L["dst"], L["requests_local"] + L["requests_remote"])
    assert np.array_equal(L["dst"][..., 0], S["seeds"])
    assert np.array_equal(L["src"][..., -1], S["inputs"])
    assert np.array_equal(L["src"][..., :-1], L["dst"][..., 1:])
    deg = torch.bincount(torch.from_numpy(p.shuffle.dst), minlength=34)
    cap = [int(deg.sum()) if k < 0 else k * 34 for k in fanouts]
    assert ((L["edges_local"] + L["edges_remote"]) <= np.array(cap)).all()
    assert (S["seeds_local"] <= S["seeds"]).all() and (S["fetch_machines"] < parts).all()
    inactive = ~c.active
    assert all((S[f][:, inactive] == 0).all() for f in STEP_FIELDS)
    if not force_even:  # every trainer keeps its own machine's nodes
        assert np.array_equal(S["seeds_local"], S["seeds"])


def test_same_seed_same_counts_and_different_seed_different_samples():
    p = gp.partition(sbm([40, 40], 0.2, 0.05, seed=0), 2, seed=0)
    a, b, d = (
        replay_epochs(p, fanouts=[4, 4], batch_size=8, train=None, seed=s) for s in (3, 3, 4)
    )
    assert all(np.array_equal(a.layer[f], b.layer[f]) for f in LAYER_FIELDS)
    assert not np.array_equal(a.layer["src"], d.layer["src"])


def test_a_full_cache_serves_every_row_and_no_cache_serves_none():
    p = gp.partition(load_karate_club(), 2, seed=0)
    full = replay_epochs(p, fanouts=[3], train=None, cache="in-degree", cache_ratio=1.0, seed=0)
    assert np.array_equal(full.step["inputs_cached"], full.step["inputs"])
    assert full.per_trainer("inputs_remote").sum() == 0
    assert full.per_trainer("inputs_remote_owned").sum() > 0  # the nodes are still remote
    none = replay_epochs(p, fanouts=[3], train=None, seed=0)
    assert none.per_trainer("inputs_cached").sum() == 0 and none.cache is None


@pytest.mark.parametrize("policy", CACHE_POLICIES)
def test_every_cache_policy_runs_and_caches_some_rows(policy):
    p = gp.partition(sbm([60, 60], 0.2, 0.05, seed=0), 2, seed=0)
    c = replay_epochs(
        p, fanouts=[3, 3], batch_size=10, train=None, cache=policy, cache_ratio=0.3, seed=0
    )
    assert c.cache == policy and c.cache_rows == 36
    assert 0 < c.per_trainer("inputs_cached").sum() < c.per_trainer("inputs").sum()


def test_heterograph_trains_on_the_typed_mask_of_every_type_that_has_it():
    g = hetero_graph(0)
    p = gp.partition(g, 2, seed=0)
    c = replay_epochs(p, fanouts=[2], batch_size=5, seed=0)  # "train_mask" on every type
    want = sum(int(g.node_data(t)["train_mask"].sum()) for t in g.ntypes)
    assert sum(len(s) for s in c.seeds) == want
    only = replay_epochs(p, fanouts=[2], train={"user": g.node_data("user")["train_mask"]}, seed=0)
    assert sum(len(s) for s in only.seeds) == int(g.node_data("user")["train_mask"].sum())


def test_reads_a_partitioning_written_by_dgl():
    from graphpart.datasets import peer_partitions

    c = replay_epochs(peer_partitions("karate", "dgl"), fanouts=[5, 5], batch_size=4, seed=0)
    mask = np.load(peer_partitions("karate", "dgl").parents[1] / "graph.npz")["train_mask"]
    assert sum(len(s) for s in c.seeds) == int(mask.sum())


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"fanouts": []}, "fanouts"),
        ({"batch_size": 0}, "batch_size"),
        ({"cache": "nope"}, "cache must be"),
        ({"cache": "lru", "cache_ratio": 2.0}, "cache_ratio must be a share"),
        ({"dtype": "complex"}, "dtype"),
        ({"train": "no_such_field"}, "no node data named 'no_such_field'"),
        ({"train": np.zeros(34, bool)}, "no training nodes"),
        ({"train": [40]}, r"train ids for the graph must be in \[0, 34\)"),
        ({"num_trainers_per_machine": 0}, "num_trainers_per_machine"),
        ({"by_trainer_id": True, "num_trainers_per_machine": 2}, "by_trainer_id needs"),
    ],
)
def test_bad_arguments_say_what_was_expected(kwargs, match):
    p = gp.partition(load_karate_club(), 2, seed=0)
    args = {"fanouts": [2], "train": None, **kwargs}
    with pytest.raises(GraphpartError, match=match):
        replay_epochs(p, fanouts=args.pop("fanouts"), **args)


def test_node_split_of_a_train_set_matches_the_replays_seeds():
    p = gp.partition(load_karate_club(), 2, num_trainers_per_machine=2, seed=0)
    c = replay_epochs(p, fanouts=[2], train=None, by_trainer_id=True, seed=0)
    want = node_split(train_set(p, None), 2, by_trainer_id=True)
    assert all(np.array_equal(a, b) for a, b in zip(c.seeds, want))


def test_a_heterograph_draws_the_fanout_per_relation_type_as_dgl_does():
    """Node b0 receives 3 edges of relation r1 and 3 of r2: fanout 2 samples 2 of each."""
    src = torch.arange(6)
    g = gp.Graph.from_typed_edges(
        {("a", "r1", "b"): (src[:3], torch.zeros(3, dtype=torch.int64)),
         ("a", "r2", "b"): (src[3:], torch.zeros(3, dtype=torch.int64))},
        num_nodes={"a": 6, "b": 1},
    )  # fmt: skip
    p = gp.partition(g, 1)
    c = replay_epochs(p, fanouts=[2], train={"b": [0]}, seed=0)
    assert c.layer["edges_local"][0, 0, 0].tolist() == [4]
    assert c.step["inputs"][0, 0, 0] == 5  # b0 and 2 + 2 distinct sources
    homo = replay_epochs(gp.partition(g.to_homogeneous(), 1), fanouts=[2], train=[6], seed=0)
    assert homo.layer["edges_local"][0, 0, 0].tolist() == [2]  # one relation: 2 in all


def test_int_ids_are_ids_even_when_they_look_like_a_mask_and_fields_must_be_masks():
    g = load_karate_club()
    p = gp.partition(g, 2, seed=0)
    assert len(train_set(p, [0, 1]).ids) == 2  # two ids, not a mask of two entries
    assert len(train_set(p, np.ones(34, np.uint8)).ids) == 34  # uint8: DGL's mask dtype
    g.ndata["year"] = torch.full((34,), 2020)
    with pytest.raises(GraphpartError, match="a train field must hold one 0/1 or bool value"):
        train_set(gp.partition(g, 2, seed=0), "year")


def test_a_replay_of_a_million_trainers_is_refused_at_once():
    """1000 machines x 1024 trainers of a 10-node graph replayed for 73 s; now one line."""
    import time

    g = gp.Graph.from_edges(list(range(9)), list(range(1, 10)), num_nodes=10)
    p = gp.partition(g, 1000, part_method="random", seed=0)
    t0 = time.perf_counter()
    with pytest.raises(GraphpartError, match="1000 machines x 1024 trainers would replay"):
        replay_epochs(p, fanouts=[5], train=None, num_trainers_per_machine=1024)
    assert time.perf_counter() - t0 < 2


def test_a_replay_of_too_many_mini_batches_is_refused_before_it_runs():
    g = gp.Graph.from_edges(list(range(9)), list(range(1, 10)), num_nodes=10)
    p = gp.partition(g, 2, seed=0)
    with pytest.raises(GraphpartError, match="in 10 mini-batches per epoch would replay"):
        replay_epochs(p, fanouts=[5], batch_size=1, train=None, epochs=30_000)


def test_the_replay_runs_torch_on_one_thread_and_gives_the_threads_back(monkeypatch):
    """On two threads a busy machine took 23 s for what one thread did in 0.63 s (issue 31)."""
    seen = []
    from graphpart.training._walk import Walker

    walk = Walker.walk

    def spy(self, *args, **kwargs):
        seen.append(torch.get_num_threads())
        return walk(self, *args, **kwargs)

    monkeypatch.setattr(Walker, "walk", spy)
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        replay_epochs(gp.partition(load_karate_club(), 2, seed=0), fanouts=[5], train=None, seed=0)
        assert set(seen) == {1} and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_the_training_options_are_declared_once_in_the_setup():
    """replay_epochs takes a TrainingSetup or its fields by name; a typo gets the nearest."""
    import inspect

    from graphpart.training import TrainingSetup

    params = set(inspect.signature(replay_epochs).parameters)
    assert not params & set(TrainingSetup.__dataclass_fields__)
    p = gp.partition(load_karate_club(), 2, seed=0)
    setup = TrainingSetup(fanouts=(3,), batch_size=8, train=None)
    a = replay_epochs(p, setup)
    b = replay_epochs(p, fanouts=(3,), batch_size=8, train=None)
    assert np.array_equal(a.step["seeds"], b.step["seeds"])
    with pytest.raises(GraphpartError, match="did you mean batch_size"):
        replay_epochs(p, batch_sise=8)
    with pytest.raises(GraphpartError, match="batch_size must be"):
        TrainingSetup(batch_size=0)

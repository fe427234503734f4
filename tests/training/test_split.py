"""DGL's node_split rules, for every trainer at once (checked against real DGL in tests/interop)."""

from __future__ import annotations

import numpy as np
import pytest

import graphpart as gp
from graphpart.datasets import sbm
from graphpart.errors import GraphpartError
from graphpart.training import even_offsets, node_split, train_set


def _skewed():
    """Two communities; every training node is in the first, so one machine owns them all."""
    g = sbm([50, 50], 0.3, 0.01, seed=0)
    mask = np.zeros(100, bool)
    mask[:40] = True
    g.ndata["train_mask"] = mask
    return g, gp.partition(g, 2, seed=0)


def test_even_offsets_give_the_first_slices_the_extra_items():
    assert even_offsets(10, 3).tolist() == [0, 4, 7, 10]
    assert even_offsets(2, 4).tolist() == [0, 1, 2, 2, 2]


def test_force_even_cuts_the_sorted_train_ids_into_even_contiguous_slices():
    g, p = _skewed()
    ts = train_set(p)
    split = node_split(ts, 1)
    assert [len(s) for s in split] == [20, 20]
    assert np.array_equal(np.concatenate(split), ts.ids)  # contiguous, in order
    owner = p.shuffle.node_part()
    # one machine owns every training node: the other's seeds are all remote
    assert sorted(int((owner[s] == m).sum()) for m, s in enumerate(split)) == [0, 20]


def test_without_force_even_every_machine_keeps_its_own_train_nodes():
    g, p = _skewed()
    split = node_split(train_set(p), 2, force_even=False)
    owner = p.shuffle.node_part()
    assert all((owner[s] == r // 2).all() for r, s in enumerate(split))
    assert sorted(len(s) for s in split) == [0, 0, 20, 20]


def test_within_a_machine_the_random_split_is_fixed_and_disjoint():
    g, p = _skewed()
    a, b = node_split(train_set(p), 3), node_split(train_set(p), 3)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    for m in range(2):
        mine = np.concatenate(a[3 * m : 3 * m + 3])
        assert len(np.unique(mine)) == len(mine) == 20
        assert all(np.all(np.diff(s) > 0) for s in a[3 * m : 3 * m + 3])  # sorted positions


def test_by_trainer_id_gives_each_trainer_its_own_nodes_first():
    g = sbm([30, 30, 30, 30], 0.3, 0.01, seed=1)
    p = gp.partition(g, 2, num_trainers_per_machine=2, seed=0)
    ts = train_set(p, None)
    split = node_split(ts, 2, by_trainer_id=True)
    tid = ts.trainer_id
    for r, s in enumerate(split):
        own = tid[s] == r
        assert own.mean() > 0.8, r
        assert not np.any(own[np.argmin(own) :]) or own.all()  # own nodes come first


def test_trainer_ids_written_for_more_trainers_are_merged_pairwise():
    g = sbm([30, 30, 30, 30], 0.3, 0.01, seed=1)
    p = gp.partition(g, 2, num_trainers_per_machine=4, seed=0)
    split = node_split(train_set(p, None), 2, by_trainer_id=True)
    tid = train_set(p, None).trainer_id // 2
    assert all((tid[s] == r).mean() > 0.8 for r, s in enumerate(split))


def test_by_trainer_id_needs_trainer_ids():
    g, p = _skewed()
    with pytest.raises(GraphpartError, match="by_trainer_id needs the trainer of every node"):
        node_split(train_set(p), 2, by_trainer_id=True)


def test_an_integer_0_1_array_with_one_entry_per_node_is_a_mask():
    """It was read as the ids {0, 1}: 2 seeds trained instead of the mask's 40."""
    g, p = _skewed()
    as_ints = train_set(p, g.ndata["train_mask"].numpy().astype(np.int64))
    assert np.array_equal(as_ints.ids, train_set(p, "train_mask").ids) and len(as_ints.ids) == 40
    assert len(train_set(p, np.array([0, 1, 5])).ids) == 3  # shorter: ids


def test_with_one_or_two_nodes_a_0_1_array_is_ids():
    """There the same array lists distinct ids ({'b': [0]} trains type b's one node)."""
    g = gp.Graph.from_edges([0], [1], num_nodes=2)
    assert train_set(gp.partition(g, 1, seed=0), [1, 0]).ids.tolist() == [0, 1]


def test_train_set_takes_partitions_and_refuses_anything_else(tmp_path):
    g, _ = _skewed()
    gp.partition_graph(g, "g", 2, tmp_path)
    assert len(train_set(tmp_path / "g.json", "train_mask").ids) == 40
    with pytest.raises(GraphpartError, match="expected a Partitioning .* got NoneType"):
        train_set(None)


def test_node_split_refuses_what_is_not_a_train_set():
    with pytest.raises(GraphpartError, match="train must be a TrainSet .* got list"):
        node_split([0, 1, 2], 2)


@pytest.mark.parametrize(
    "train, match",
    [
        (range(10**12), "lists 1,000,000,000,000 entries, more than 100"),
        ("nested", "must be a mask or integer ids"),
        ([0, "a"], "must be a mask or integer ids"),
    ],
)
def test_a_hostile_train_argument_is_refused_at_once(train, match):
    """A shared nested list hung the replay; range(10**12) was a MemoryError (issue 30)."""
    import time

    _, p = _skewed()
    if train == "nested":
        train = [1]
        for _ in range(30):
            train = [train] * 4
    t0 = time.perf_counter()
    with pytest.raises(GraphpartError, match=match):
        train_set(p, train)
    with pytest.raises(GraphpartError, match=match):
        train_set(p, {"_N": train})
    assert time.perf_counter() - t0 < 2

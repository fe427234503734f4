"""Degenerate METIS results (issue 19): no empty part, no constraint far outside its tolerance."""

from __future__ import annotations

import logging

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
import graphpart.partitioning.metis as metis_module
import graphpart.partitioning.repair as repair_module
from graphpart.datasets import sbm
from graphpart.errors import BalanceWarning
from graphpart.homogeneous import HomogeneousGraph
from graphpart.partitioning.balance import balance_weights
from graphpart.partitioning.refine import part_sums
from graphpart.partitioning.repair import (
    achievable_tolerance,
    constraint_totals,
    far_limits,
    fill_empty,
    repair_assignment,
)

from ..graphs import shop, shop_masks
from ..strategies import typed_graphs

UB = 1.03  # k-way METIS's default tolerance


def loads_of(p: gp.Partitioning) -> tuple[np.ndarray, np.ndarray]:
    """``(num_parts, ncon)`` loads of the partitioning's classes, and their totals."""
    w, _ = balance_weights(len(p.node_part), p.balance_classes, False, None)
    return part_sums(p.node_part, w, p.num_parts), w.sum(axis=0)


@pytest.mark.parametrize("seed", range(4))
def test_issue_graph_has_no_empty_part_and_every_class_within_tolerance(seed, caplog):
    g = shop(seed)
    with caplog.at_level(logging.WARNING, logger="graphpart.partitioning.metis"):
        p = gp.partition(g, 3, balance_ntypes=shop_masks(g), seed=seed)
    assert np.bincount(p.node_part, minlength=3).min() > 0
    loads, total = loads_of(p)
    ratio = loads.max(axis=0) / (total / 3)
    for label, t, r in zip(p.balance_labels, total, ratio):
        if t >= 3:  # every class with at least one unit per part: within the tolerance
            assert r <= UB + 1e-9, (label, r)
        else:  # the tags: as even as a split can be (one unit per part at most)
            assert loads[:, p.balance_labels.index(label)].max() == 1, label
    tags = [label for label, t in zip(p.balance_labels, total) if t < 3]
    assert all(label in caplog.text for label in tags), caplog.text  # said, not silent


@pytest.mark.parametrize("seed", range(3))
def test_repair_mends_a_degenerate_metis_result(seed, monkeypatch, caplog):
    # METIS asked for the impossible (the tags at 1.03) hands back a part with no node at all
    monkeypatch.setattr(metis_module, "held_tolerance", lambda w, n, k, ub, names: ub)
    g = shop(seed)
    with caplog.at_level(logging.INFO, logger="graphpart.partitioning.repair"):
        p = gp.partition(g, 3, balance_ntypes=shop_masks(g), seed=seed)
    assert "repairing" in caplog.text and "empty" in caplog.text
    assert np.bincount(p.node_part, minlength=3).min() > 0
    loads, total = loads_of(p)
    big = total >= 3
    assert np.all(loads.max(axis=0)[big] <= UB * total[big] / 3 + 1e-9)
    homo = HomogeneousGraph.of(g)
    src, dst = homo.src, homo.dst
    assert (p.node_part[src] != p.node_part[dst]).mean() < 0.7  # better than random (2/3)


def test_a_repair_that_falls_short_returns_its_best_and_warns_naming_the_constraint(monkeypatch):
    """It was a GraphpartError: a setting DGL partitions was refused (issue 31)."""
    monkeypatch.setattr(repair_module, "refine_assignment", lambda src, dst, part, *a, **k: part)
    part = np.zeros(30, dtype=np.int64)  # every node in part 0
    w = np.stack([np.ones(30, np.int64), np.arange(30) % 2], axis=1)
    said = r"train:1 at 2\.800 x its mean \(tolerance 1\.030\)"
    with pytest.warns(BalanceWarning, match=said) as caught:
        new = repair_assignment(
            np.arange(29),
            np.arange(1, 30),
            part,
            3,
            w,
            None,
            np.array([UB, UB]),
            np.random.default_rng(0),
            names=lambda: ["nodes", "train:1"],
        )
    assert np.bincount(new, minlength=3).min() > 0  # no part empty
    (warning,) = caught
    assert [name for name, _, _ in warning.message.shortfalls] == ["nodes", "train:1"]


def test_a_class_left_whole_in_one_part_is_refused(monkeypatch):
    """What no training run can use: every other machine would go without the class."""
    monkeypatch.setattr(repair_module, "refine_assignment", lambda src, dst, part, *a, **k: part)
    src, dst = np.arange(26), np.r_[np.arange(1, 26), 0]  # a ring of 27, nodes 27-29 alone
    classes = (np.arange(30) < 3).astype(np.int64)  # class 1: nodes 0-2, on the ring
    w, _ = balance_weights(30, classes, False, None)
    with pytest.raises(gp.GraphpartError, match=r"class 1 \(3 nodes\) lies whole in part 0"):
        repair_assignment(
            src, dst, np.zeros(30, np.int64), 3, w, classes, np.array([UB, UB]),
            np.random.default_rng(0),
        )  # fmt: skip


def test_a_partitioning_says_once_what_it_could_not_hold_and_records_it(monkeypatch):
    """Machine and trainer level alike: one BalanceWarning, p.balance_shortfalls, report()."""

    def lopsided(xadj, adjncy, k, *args, **kwargs):  # 4 nodes in every part but the first
        part = np.zeros(len(xadj) - 1, np.int64)
        for q in range(1, k):
            part[4 * (q - 1) : 4 * q] = q
        return part

    monkeypatch.setattr(metis_module, "_metis_connected", lopsided)
    monkeypatch.setattr(repair_module, "refine_assignment", lambda src, dst, part, *a, **k: part)
    g = sbm([40, 40], 0.2, 0.01, seed=0)
    with pytest.warns(BalanceWarning) as caught:
        p = gp.partition(g, 3, balance_edges=True, num_trainers_per_machine=2, seed=0)
    assert len([w for w in caught if w.category is BalanceWarning]) == 1
    assert {s[0] for s in p.balance_shortfalls} == {"machine", "trainer"}
    level, name, ratio, tol = p.balance_shortfalls[0]
    assert ratio > tol and f"not held: {level} {name} (max/mean)" in str(p.report())
    assert np.bincount(p.trainer_id, minlength=6).min() > 0


def test_fill_empty_takes_the_cheapest_nodes_and_keeps_every_part_non_empty():
    src, dst = np.array([0, 1, 2, 3]), np.array([1, 2, 0, 4])  # a triangle, an edge, lone 5 and 6
    part = np.zeros(7, dtype=np.int64)
    new = fill_empty(src, dst, part, 3)
    assert sorted(np.flatnonzero(new != 0).tolist()) == [5, 6]  # no edge inside part 0
    assert np.bincount(new).tolist() == [5, 1, 1]


@pytest.mark.parametrize("recursive", [False, True])
def test_a_normal_graph_is_left_as_metis_made_it(monkeypatch, recursive):
    g = sbm(block_sizes=[300] * 4, p_in=0.03, p_out=0.002, seed=0, train_frac=0.2)
    kw = dict(balance_ntypes=g.ndata["train_mask"], seed=3, recursive=recursive)
    repaired = gp.partition(g, 4, **kw).node_part
    monkeypatch.setattr(metis_module, "repair_assignment", lambda s, d, part, *a, **k: part)
    assert np.array_equal(repaired, gp.partition(g, 4, **kw).node_part)


def _labels(data, n: int) -> np.ndarray:
    return np.array(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), dtype=np.int64)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_no_part_is_empty_and_no_class_far_off_on_random_heterographs(data):
    g = data.draw(typed_graphs(max_types=3, max_nodes=25, max_edges=60), label="graph")
    k = data.draw(st.integers(2, 5), label="num_parts")
    if g.num_nodes() < k:
        return
    if g.is_homogeneous:
        balance = _labels(data, g.num_nodes())
    else:
        types = data.draw(st.lists(st.sampled_from(g.ntypes), unique=True, min_size=1))
        balance = {t: _labels(data, g.num_nodes(t)) for t in types}
    p = gp.partition(g, k, balance_ntypes=balance, seed=data.draw(st.integers(0, 3)))
    assert np.bincount(p.node_part, minlength=k).min() > 0
    w, _ = balance_weights(len(p.node_part), p.balance_classes, False, None)
    total, heaviest = constraint_totals(w, len(w))
    tol = achievable_tolerance(total, heaviest, k, np.full(w.shape[1], UB))
    limit = far_limits(total, heaviest, k, tol)
    assert np.all(part_sums(p.node_part, w, k).max(axis=0) <= limit + 1e-9)


def test_a_trainer_left_without_nodes_is_refused(monkeypatch):
    """Machines of 78, 1 and 1 nodes cannot give 2 trainers each a node: no run can use that."""
    everything_in_part_0 = lambda xadj, *a, **k: np.zeros(len(xadj) - 1, np.int64)  # noqa: E731
    monkeypatch.setattr(metis_module, "_metis_connected", everything_in_part_0)
    monkeypatch.setattr(repair_module, "refine_assignment", lambda src, dst, part, *a, **k: part)
    g = sbm([40, 40], 0.2, 0.01, seed=0)
    with pytest.raises(gp.GraphpartError, match="gives each of the 6 trainers a node"):
        gp.partition(g, 3, balance_edges=True, num_trainers_per_machine=2, seed=0)


def test_the_cli_says_a_shortfall_in_one_line_and_succeeds(monkeypatch, tmp_path, capsys):
    from graphpart.cli import main

    everything_in_part_0 = lambda xadj, *a, **k: np.zeros(len(xadj) - 1, np.int64)  # noqa: E731
    monkeypatch.setattr(metis_module, "_metis_connected", everything_in_part_0)
    monkeypatch.setattr(repair_module, "refine_assignment", lambda src, dst, part, *a, **k: part)
    argv = ["partition", "--dataset", "karate_club", "--graph-name", "k", "--num-parts", "3"]
    rc = main([*argv, "--balance-edges", "--out-path", str(tmp_path / "o"), "--quiet"])
    err = capsys.readouterr().err
    assert rc == 0 and err.count("\n") == 1, err
    assert err.startswith("graphpart: warning: balance held as well as possible")

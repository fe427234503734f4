"""Refinement on the full graph after METIS saw a sample: moves that lower the cut under every
constraint."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpart.datasets import sbm
from graphpart.datasets.rmat import rmat
from graphpart.partitioning.balance import balance_weights
from graphpart.partitioning.metis import metis_assignment
from graphpart.partitioning.refine import _Edges, exchange, part_sums, rebalance, refine_assignment


def _cut(src, dst, part):
    return int((part[src] != part[dst]).sum())


def _sbm_edges(seed=0):
    g = sbm(block_sizes=[200] * 4, p_in=0.05, p_out=0.004, seed=seed)
    s, d = g.edges()
    return s.numpy(), d.numpy(), g.num_nodes()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5), st.floats(1.01, 1.2))
def test_exchange_lowers_the_cut_and_keeps_every_part_under_its_cap(seed, k, ub):
    rng = np.random.default_rng(seed)
    n = 120
    src, dst = rng.integers(0, n, 400), rng.integers(0, n, 400)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    part = rng.permutation(np.arange(n) % k)
    w = np.stack([np.ones(n, np.int64), rng.integers(0, 5, n)], axis=1)
    cap = ub * w.sum(axis=0) / k
    start = part_sums(part, w, k)
    new = exchange(_Edges(src, dst, n, k), part, w, cap, np.random.default_rng(seed), rounds=5)
    loads = part_sums(new, w, k)
    # a part ends under the cap, or no heavier than it started
    assert np.all((loads <= cap + 1e-9) | (loads <= start))
    assert _cut(src, dst, new) <= _cut(src, dst, part)


def test_rebalance_brings_overloaded_parts_under_the_cap():
    src, dst, n = _sbm_edges()
    part = np.zeros(n, dtype=np.int64)
    part[: n // 8] = 1  # part 0 holds 7/8 of everything
    w = np.ones((n, 1), np.int64)
    cap = np.array([1.05 * n / 2])
    new = rebalance(_Edges(src, dst, n, 2), part, w, cap, rounds=20)
    assert part_sums(new, w, 2).max() <= cap[0]


def test_refinement_recovers_planted_blocks_from_a_random_start():
    src, dst, n = _sbm_edges(1)
    rng = np.random.default_rng(0)
    part = rng.permutation(np.arange(n) % 4)
    new = refine_assignment(src, dst, part, 4, None, None, np.array([1.05]), rng, rounds=30)
    assert _cut(src, dst, new) < 0.5 * _cut(src, dst, part)
    assert np.bincount(new, minlength=4).max() <= 1.05 * n / 4


@pytest.mark.parametrize("balanced", [False, True])
def test_metis_on_a_sample_then_refined_beats_the_sample_alone(balanced):
    # R-MAT has no communities for the coarsening to keep: METIS sees a sample of its edges
    g = rmat(14, seed=3, train_frac=0.2)
    s, d = (x.numpy() for x in g.edges())
    n = g.num_nodes()
    tm = g.ndata["train_mask"].numpy() if balanced else None
    kwargs = dict(balance_ntypes=tm, balance_edges=balanced, max_edges=len(s) // 8, seed=0)
    raw = metis_assignment(s, d, n, 4, refine_rounds=0, **kwargs)
    refined = metis_assignment(s, d, n, 4, **kwargs)
    assert _cut(s, d, refined) < _cut(s, d, raw)
    w, _ = balance_weights(n, tm, balanced, np.bincount(d, minlength=n))
    w = np.ones((n, 1), np.int64) if w is None else w
    loads = part_sums(refined, w, 4)
    assert np.all(loads.max(axis=0) <= 1.05 * loads.mean(axis=0) + 1)


def test_no_refinement_when_metis_saw_every_edge():
    s, d, n = _sbm_edges(2)
    a = metis_assignment(s, d, n, 4, seed=0, max_edges=None)
    b = metis_assignment(s, d, n, 4, seed=0, max_edges=None, refine_rounds=0)
    assert np.array_equal(a, b)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6))
def test_moves_keep_the_connection_table_exact(seed, k):
    rng = np.random.default_rng(seed)
    n = 60
    src, dst = rng.integers(0, n, 300), rng.integers(0, n, 300)  # loops and duplicates included
    edges = _Edges(src, dst, n, k)
    part = rng.integers(0, k, n)
    conn = edges.conn(part)
    for _ in range(3):
        nodes = rng.choice(n, size=int(rng.integers(1, n)), replace=False)
        edges.move(conn, part, nodes, rng.integers(0, k, len(nodes)))
        assert np.array_equal(conn, edges.conn(part))


def test_refinement_never_hands_back_a_worse_balance(monkeypatch, caplog):
    import graphpart.partitioning.refine as refine_module

    src, dst, n = _sbm_edges(4)
    rng = np.random.default_rng(0)
    part = rng.permutation(np.arange(n) % 4)
    monkeypatch.setattr(
        refine_module, "exchange", lambda edges, p, *a, **k: np.zeros_like(p)
    )  # all in part 0
    out = refine_assignment(src, dst, part, 4, None, None, np.array([1.05]), rng, rounds=2)
    assert np.array_equal(out, part)
    assert "keeping METIS's assignment" in caplog.text


def test_exchange_stops_once_a_round_gains_too_little():
    src, dst, n = _sbm_edges(5)
    part = np.random.default_rng(0).permutation(np.arange(n) % 4)
    w = np.ones((n, 1), np.int64)
    cap = np.array([1.05 * n / 4])

    def run(**kw):
        edges = _Edges(src, dst, n, 4)
        return exchange(edges, part, w, cap, np.random.default_rng(1), **kw)

    # every round gains less than the whole cut: min_gain=1 stops after the first round
    assert np.array_equal(run(rounds=10, min_gain=1.0), run(rounds=1))
    assert _cut(src, dst, run(rounds=10)) < _cut(src, dst, run(rounds=1))


def test_rebalance_keeps_its_loads_current_over_several_rounds():
    # several constraints and several rounds: the loads kept from the moves must match a recount
    src, dst, n = _sbm_edges(6)
    rng = np.random.default_rng(0)
    part = np.where(rng.random(n) < 0.6, 0, rng.integers(1, 4, n))
    w = np.stack([np.ones(n, np.int64), rng.integers(0, 4, n), rng.integers(0, 2, n)], axis=1)
    cap = 1.03 * w.sum(axis=0) / 4
    new = rebalance(_Edges(src, dst, n, 4), part, w, cap, rounds=30)
    assert np.all(part_sums(new, w, 4) <= cap + 1e-9)

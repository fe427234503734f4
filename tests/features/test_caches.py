"""Cache policies against brute-force references; the oracles are never beaten."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.features import (
    DYNAMIC_POLICIES,
    BeladyCache,
    StaticCache,
    Trace,
    hotness_order,
    make_cache,
    next_use,
    oracle_order,
    simulate,
)

from .reference import REFERENCES, best_static


def _batches(draw_batches, n):
    return [sorted(set(b)) for b in draw_batches]  # a trace's batches hold distinct ids in id order


traces = st.integers(2, 12).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(st.lists(st.integers(0, n - 1), max_size=n), min_size=1, max_size=12),
        st.integers(0, n),
    )
)


@pytest.mark.parametrize("policy", sorted(DYNAMIC_POLICIES))
@settings(max_examples=150, deadline=None)
@given(case=traces)
def test_dynamic_policy_matches_its_reference(policy, case):
    n, raw, cap = case
    batches = _batches(raw, n)
    run = simulate(Trace.from_batches(batches, n), make_cache(policy, n, cap))
    assert run.hits.tolist() == REFERENCES[policy](batches, cap)


@settings(max_examples=150, deadline=None)
@given(case=traces)
def test_belady_is_never_beaten(case):
    n, raw, cap = case
    trace = Trace.from_batches(_batches(raw, n), n)
    best = simulate(trace, BeladyCache(trace, cap)).hits.sum()
    for policy in DYNAMIC_POLICIES:
        assert simulate(trace, make_cache(policy, n, cap)).hits.sum() <= best
    for order in (oracle_order(trace), torch.arange(n), torch.randperm(n)):
        assert simulate(trace, StaticCache(order, cap)).hits.sum() <= best


@settings(max_examples=150, deadline=None)
@given(case=traces, perm_seed=st.integers(0, 1000))
def test_static_oracle_is_the_best_static_set(case, perm_seed):
    n, raw, cap = case
    batches = _batches(raw, n)
    trace = Trace.from_batches(batches, n)
    oracle = simulate(trace, StaticCache(oracle_order(trace), cap)).hits.sum()
    assert oracle == best_static(batches, cap)
    other = torch.randperm(n, generator=torch.Generator().manual_seed(perm_seed))
    assert simulate(trace, StaticCache(other, cap)).hits.sum() <= oracle


def test_belady_exhaustive_on_a_tiny_trace():
    """Every sequence of cache contents allowed (previous content and the batch, any start) scores
    no more."""
    import itertools

    n, cap = 4, 2
    batches = [[0, 1], [2], [3, 0], [1], [2, 3], [0]]
    trace = Trace.from_batches(batches, n)
    belady = simulate(trace, BeladyCache(trace, cap)).hits.sum()
    sets = [frozenset(c) for k in range(cap + 1) for c in itertools.combinations(range(n), k)]
    best = {s: 0 for s in sets}  # best hits so far, ending with content s
    for b in batches:
        nxt = {}
        for s, h in best.items():
            got = h + len(s & set(b))
            for t in sets:
                if t <= s | set(b):
                    nxt[t] = max(nxt.get(t, -1), got)
        best = nxt
    assert belady == max(best.values())


def test_cache_state_is_consistent_after_a_long_random_run():
    g = torch.Generator().manual_seed(0)
    n, cap = 500, 60
    for policy in DYNAMIC_POLICIES:
        c = make_cache(policy, n, cap)
        for _ in range(80):
            c.access(torch.unique(torch.randint(0, n, (90,), generator=g)))
        cached = c.cached()
        assert len(cached) == cap == len(torch.unique(cached))
        assert torch.equal(c.node_in[c.slot_of[cached]], cached)
        assert int((c.slot_of >= 0).sum()) == cap


def test_admitted_misses_are_reported_with_their_slots():
    c = make_cache("lru", 10, 3)
    hit, _, miss_slots = c.access(torch.tensor([1, 2, 3, 4, 5]))
    assert (
        not hit.any()
        and miss_slots.tolist()[:2] == [-1, -1]
        and sorted(miss_slots[2:].tolist()) == [0, 1, 2]
    )
    assert sorted(c.cached().tolist()) == [3, 4, 5]


def test_zero_capacity_never_hits():
    t = Trace.from_batches([[0, 1], [0, 1]], 2)
    for policy in DYNAMIC_POLICIES:
        assert simulate(t, make_cache(policy, 2, 0)).hits.tolist() == [0, 0]
    assert simulate(t, BeladyCache(t, 0)).hits.tolist() == [0, 0]


def test_full_capacity_only_misses_first_touches():
    t = Trace.from_batches([[0, 1], [1, 2], [0, 2]], 3)
    for policy in DYNAMIC_POLICIES:
        assert simulate(t, make_cache(policy, 3, 3)).hits.tolist() == [0, 1, 2]


def test_next_use_and_hotness_order():
    t = Trace.from_batches([[0, 2], [2], [0, 1]], 3)
    assert next_use(t).tolist() == [2, 1, 3, 3, 3]
    assert hotness_order(t.counts()).tolist() == [0, 2, 1]


def test_belady_refuses_a_different_trace():
    t = Trace.from_batches([[0, 1], [1]], 2)
    c = BeladyCache(t, 1)
    with pytest.raises(gp.GraphpartError, match="differs"):
        c.access(torch.tensor([1]))


@pytest.mark.parametrize("bad", [("lfu", 3, 1), ("lru", 3, 4)])
def test_bad_cache_arguments(bad):
    with pytest.raises(gp.GraphpartError):
        make_cache(*bad)


@pytest.mark.parametrize("policy", sorted(DYNAMIC_POLICIES))
def test_long_skewed_run_matches_the_reference(policy):
    """Hundreds of batches: queues fill with holes and compact many times on the way."""
    g = torch.Generator().manual_seed(1)
    n, cap = 400, 50
    weights = 1.0 / torch.arange(1, n + 1).double()
    batches = [
        sorted(set(torch.multinomial(weights, 40, True, generator=g).tolist())) for _ in range(300)
    ]
    run = simulate(Trace.from_batches(batches, n), make_cache(policy, n, cap))
    assert run.hits.tolist() == REFERENCES[policy](batches, cap)

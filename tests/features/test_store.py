"""Feature: lookups return the true rows for every policy, split and device; stats add up."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.features import DYNAMIC_POLICIES, Feature, Trace, make_cache, simulate

POLICIES = ["static", *sorted(DYNAMIC_POLICIES)]
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("policy", POLICIES)
@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 40), ratio=st.sampled_from([0.0, 0.1, 0.5, 1.0]), data=st.data())
def test_lookup_returns_the_rows_asked_for(policy, device, n, ratio, data):
    x = torch.randn(n, 3, 2)
    order = torch.randperm(
        n, generator=torch.Generator().manual_seed(data.draw(st.integers(0, 99)))
    )
    f = Feature(x, split_ratio=ratio, order=order, cache=policy, device=device)
    for _ in range(data.draw(st.integers(1, 4))):
        ids = torch.tensor(
            data.draw(st.lists(st.integers(0, n - 1), max_size=30)), dtype=torch.int64
        )
        out = f[ids]
        assert out.device.type == device and torch.equal(out.cpu(), x[ids])
    assert sum(f.stats.rows) == sum(f.stats.hits) + sum(f.stats.misses)


def test_static_hits_are_the_first_split_ratio_of_the_order():
    x = torch.arange(10.0)[:, None]
    f = Feature(
        x, split_ratio=0.3, order=torch.tensor([9, 8, 7, 0, 1, 2, 3, 4, 5, 6]), device="cpu"
    )
    f[torch.tensor([9, 0, 7, 7])]
    assert f.capacity == 3 and f.stats.hits == [3] and f.stats.misses == [1]
    assert f.stats.hot_bytes == [12] and f.stats.cold_bytes == [4]
    assert torch.equal(f.hot, x[[9, 8, 7]])


def test_dynamic_feature_counts_what_the_simulator_counts():
    g = torch.Generator().manual_seed(0)
    n, batches = 200, [torch.unique(torch.randint(0, 200, (60,), generator=g)) for _ in range(25)]
    trace = Trace.from_batches(batches, n)
    for policy in DYNAMIC_POLICIES:
        f = Feature(torch.randn(n, 4), split_ratio=0.2, cache=policy, device="cpu")
        for b in batches:
            f[b]
        assert f.stats.hits == simulate(trace, make_cache(policy, n, 40)).hits.tolist()
        # every cached slot holds that node's true row
        cached = f.cache.cached()
        assert torch.equal(f.hot[f.cache.slot_of[cached]], f.cold[cached])


def test_duplicates_in_one_lookup_are_served():
    f = Feature(torch.arange(5.0), split_ratio=0.4, cache="lru", device="cpu")
    assert f[[3, 3, 1, 3]].tolist() == [3.0, 3.0, 1.0, 3.0]
    assert f[[3, 1]].tolist() == [3.0, 1.0] and f.stats.hits == [0, 2]


def test_reset_stats_and_running_hit_rate():
    f = Feature(torch.zeros(4, 2), split_ratio=0.5, device="cpu")
    f[[0, 1]], f[[2, 3]]
    assert f.stats.running_hit_rate().tolist() == [1.0, 0.5] and f.stats.hit_rate == 0.5
    f.reset_stats()
    assert f.stats.num_lookups == 0


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(split_ratio=1.5), "ratio"),
        (dict(order=torch.tensor([0, 0, 1])), "permutation"),
        (dict(cache="lfu"), "cache"),
        (dict(device="tpu"), "device"),
    ],
)
def test_bad_feature_arguments(kwargs, match):
    with pytest.raises(gp.GraphpartError, match=match):
        Feature(torch.zeros(3, 2), **kwargs)


def test_out_of_range_lookup_is_refused():
    f = Feature(torch.zeros(3, 2), split_ratio=0.5, device="cpu")
    with pytest.raises(gp.GraphpartError, match="ids"):
        f[[3]]


@pytest.mark.skipif(
    torch.cuda.is_available(), reason="checks the message given when CUDA is missing"
)
def test_cuda_without_a_gpu_is_refused_with_a_reason():
    with pytest.raises(gp.GraphpartError, match="CUDA is not available"):
        Feature(torch.zeros(3, 2), device="cuda")

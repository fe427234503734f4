"""Generic index operations (graphpart.index): the sorts every id rule rests on."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpart.index import NARROW_KEYS, SMALL_SORT, count_into, group_cumsum, stable_order

DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"]


def _keys(dtype: str, n: int, low: int, span: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    info = np.iinfo(dtype)
    low = min(max(low, int(info.min)), int(info.max))
    high = min(low + span, int(info.max))
    return rng.integers(low, high, n, endpoint=True).astype(dtype)


@settings(max_examples=60, deadline=None)
@given(
    dtype=st.sampled_from(DTYPES),
    n=st.sampled_from([0, 1, SMALL_SORT - 1, SMALL_SORT, 3 * SMALL_SORT + 7]),
    low=st.integers(-(2**40), 2**40),
    span=st.sampled_from([0, 1, 15, NARROW_KEYS - 1, NARROW_KEYS, 2**20]),
    seed=st.integers(0, 2**16),
)
def test_stable_order_is_numpys_stable_argsort(dtype, n, low, span, seed):
    keys = _keys(dtype, n, low, span, seed)
    got = stable_order(keys)
    assert got.dtype == np.int64
    assert np.array_equal(got, np.argsort(keys, kind="stable"))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int64"])
def test_stable_order_narrow_keys_across_zero(dtype):
    # signed keys on both sides of zero, spanning most of 16 bits
    info = np.iinfo(dtype)
    low, high = max(int(info.min), -30000), min(int(info.max), 30000)
    keys = np.random.default_rng(1).integers(low, high, 5 * SMALL_SORT, endpoint=True)
    keys = keys.astype(dtype)
    assert np.array_equal(stable_order(keys), np.argsort(keys, kind="stable"))


def test_stable_order_read_only_input():
    keys = np.random.default_rng(2).integers(0, 2**40, 2 * SMALL_SORT)
    keys.flags.writeable = False
    assert np.array_equal(stable_order(keys), np.argsort(keys, kind="stable"))


@settings(max_examples=40, deadline=None)
@given(
    n=st.sampled_from([0, 1, 100, 2 * SMALL_SORT]),
    groups=st.integers(1, 70000),
    seed=st.integers(0, 2**16),
)
def test_group_cumsum_is_running_total_per_group(n, groups, seed):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n)
    w = rng.integers(-5, 10, n)
    want = np.empty(n, dtype=np.int64)
    totals: dict[int, int] = {}
    for i in range(n):  # the definition, item by item
        totals[g[i]] = totals.get(g[i], 0) + int(w[i])
        want[i] = totals[g[i]]
    assert np.array_equal(group_cumsum(g, w), want)


@pytest.mark.parametrize("span", [NARROW_KEYS - 1, NARROW_KEYS, NARROW_KEYS + 1])
def test_stable_order_at_the_narrow_bound(span):
    # both ends of the span present: a span of 2**16 values wraps on 16 bits
    keys = np.random.default_rng(3).integers(-7, span - 7, 3 * SMALL_SORT)
    keys[[5, 17]] = [span - 7, -7]
    assert np.array_equal(stable_order(keys), np.argsort(keys, kind="stable"))


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(1, 5000),
    many=st.integers(0, 3000),
    offset=st.integers(-50, 2**40),
    seed=st.integers(0, 2**16),
)
def test_count_into_adds_each_ids_count(size, many, offset, seed):
    # both routes: few ids against the table (sorted and counted), or many (bincount)
    rng = np.random.default_rng(seed)
    ids = rng.integers(offset, offset + size, many)
    counts = rng.integers(0, 5, size).astype(np.int32)
    want = counts.astype(np.int64).copy()
    for i in ids:
        want[i - offset] += 1
    assert count_into(counts, ids, offset) is counts
    assert np.array_equal(counts, want)

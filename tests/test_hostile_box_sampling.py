"""Issue 61, the GPU feature box and the sampling APIs: hostile and careless arguments get one
printable GraphpartError line, before anything the size of a count is allocated; the box counts
by GLT's rules (hot rows truncated, ``hot // size`` rows a GPU and the remainder on the last,
groups of one size)."""

from __future__ import annotations

import contextlib
import resource
from collections import namedtuple
from unittest import mock

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphpart.errors import GraphpartError
from graphpart.features import DeviceGroup, Feature, FeatureBox, replay_box
from graphpart.features.box import GLT_DIFFERENCES, MAX_GPUS
from graphpart.sampling import (
    NeighborLoader,
    NeighborSampler,
    Topology,
    induced_subgraph,
    negative_sample,
    sample_neighbors,
)
from graphpart.sampling.negative import MAX_TRIALS
from graphpart.utils.check import check_allocation
from graphpart.views.box import box_view_data

PAIR = [DeviceGroup(0, [0, 1])]


def one_line(exc: BaseException) -> None:
    text = str(exc)
    assert text and "\n" not in text and text.isprintable() and len(text) < 2100, text


def refused(match: str, fn, *args, **kwargs) -> None:
    with pytest.raises(GraphpartError, match=match) as e:
        fn(*args, **kwargs)
    one_line(e.value)


def box8() -> FeatureBox:
    return FeatureBox(8, 0.5, PAIR)


def triangle() -> Topology:
    return Topology.from_coo([0, 1, 2], [1, 2, 0], num_nodes=3)


# 1. counts that size tensors are weighed before anything is allocated


@pytest.mark.parametrize(
    "make",
    [
        lambda: FeatureBox(10**12, 0.5, PAIR),
        lambda: Topology.from_coo([0], [1], num_nodes=2**40),
        lambda: Topology.from_coo([2**40], [0]),  # num_nodes from the largest id
        lambda: negative_sample(triangle(), 10**12),
        lambda: sample_neighbors(triangle(), [0] * 10, 10**15, replace=True),
    ],
    ids=["box rows", "num_nodes", "largest id", "negative pairs", "fanout with replacement"],
)
def test_counts_the_machine_cannot_hold_are_refused(make):
    refused("of memory and", make)


def test_an_allocation_is_weighed_against_the_memory_available():
    check_allocation(10**6, "a small thing", have=0)  # small: never weighed
    refused("needs about 1.00 GB of memory", check_allocation, 1e9, "x", have=10**8)


def test_a_box_holds_at_most_max_gpus():
    refused(f"more than {MAX_GPUS} GPUs", DeviceGroup, 0, range(10**18))
    refused("at most 255", DeviceGroup, 0, [2**40])


def test_a_graph_without_a_non_edge_draws_no_round(monkeypatch):
    full = Topology.from_coo([0, 0, 1, 1], [0, 1, 0, 1], num_nodes=2)
    calls = []
    real = torch.randint
    monkeypatch.setattr(torch, "randint", lambda *a, **k: calls.append(1) or real(*a, **k))
    src, dst = negative_sample(full, 10**5, trials=MAX_TRIALS, seed=0)
    assert len(src) == len(dst) == 0 and not calls
    src, _ = negative_sample(full, 7, padding=True, seed=0)
    assert len(src) == 7 and len(calls) == 2  # the padding only
    refused(f"trials must be at most {MAX_TRIALS}", negative_sample, full, 1, trials=10**9)


# 2. every argument checked at the door


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda b: b.owner([8]), "rows must be within"),
        (lambda b: b.owner([-8]), "rows must be within"),
        (lambda b: b.count(torch.tensor([100]), 0), "rows must be within"),
        (lambda b: b.count(torch.tensor([-1]), 0), "rows must be within"),
        (lambda b: b.record(np.array([-1, 2, 3]), 0), "counts >= 0"),
        (lambda b: b.record(np.array([np.nan, 2, 3]), 0), "must hold integers"),
        (lambda b: b.record(np.array([1]), 0), "must hold 3 counts"),
        (lambda b: b.lookup([0], device=True), "GPU rank"),
        (lambda b: b.lookup([0], device=1.0), "GPU rank"),
        (lambda b: b.owner([0], device=True), "GPU rank"),
        (lambda b: b.shard_bounds(DeviceGroup(7, [7, 8])), "DeviceGroup of this box"),
        (lambda b: replay_box([[0, 1]], b), "traces must map GPUs"),
        (lambda b: replay_box({0: 5}, b), "must be a Trace or batches"),
        (lambda b: box_view_data(b, -1), "batches must be"),
        (lambda b: box_view_data(None), "box must be a FeatureBox"),
    ],
)
def test_the_box_refuses_bad_arguments(call, match):
    box = box8()
    refused(match, call, box)
    assert box.stats.get(True) is None and all(type(d) is int for d in box.stats)


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: FeatureBox(8, None, PAIR), "split_ratio must be a number"),
        (lambda: FeatureBox(8, float("nan"), PAIR), "split_ratio must be a number"),
        (lambda: Feature([[1.0, 2.0], [3.0]]), "regular array of numbers"),
        (lambda: Feature(np.array([object(), object()])), "regular array of numbers"),
        (lambda: Feature("abc"), "regular array of numbers"),
        (lambda: Feature(torch.zeros(4, 2), 0.5, cache=["lru"]), "cache must be"),
        (lambda: Feature(torch.zeros(4, 2), 0.5, with_gpu=1), "with_gpu must be"),
        (lambda: Feature(torch.zeros(4, 2), 0.5, device=1.0), "device must be"),
        (
            lambda: Feature(torch.zeros(4, 2), 0.5, device_group_list=PAIR, device=True),
            "the GPU rank that",
        ),
        (lambda: induced_subgraph(None, [0]), "topo must be a Topology"),
        (lambda: induced_subgraph(triangle(), "abc"), "nodes must hold integers"),
        (lambda: negative_sample(None, 3), "topo must be a Topology"),
        (lambda: sample_neighbors(None, [0], 2), "topo must be a Topology"),
        (lambda: sample_neighbors(triangle(), [0], "2"), "fanout must be an int"),
        (lambda: sample_neighbors(triangle(), [0], 2**70), "fanout must be at most"),
        (lambda: sample_neighbors(triangle(), [0], 2, replace="yes"), "replace must be"),
        (lambda: sample_neighbors(triangle(), [0], 2, generator=3), "generator must be"),
        (lambda: NeighborSampler(triangle(), [2], replace=None), "replace must be"),
        (lambda: NeighborLoader(triangle(), [2], shuffle="no"), "shuffle must be"),
        (lambda: NeighborLoader(triangle(), [2], seeds="abc"), "seeds must hold integers"),
        (lambda: NeighborLoader(triangle(), [2], partitioning=1, part_id=0), "a Partitioning"),
        (lambda: Topology.from_graph(None), "a graphpart Graph"),
        (lambda: triangle().to_mode("CPU", device=1.5), "device must be"),
        (lambda: triangle().to_mode(["CPU"]), "mode must be one of"),
        (lambda: Topology.from_compressed([0, 0], [], layout="X"), "layout must be one of"),
    ],
)
def test_feature_and_sampling_refuse_bad_arguments(make, match):
    refused(match, make)


# 3. GLT's rules


def test_the_box_counts_hot_rows_and_shards_them_glts_way():
    box = FeatureBox(7, 0.5, [DeviceGroup(0, [0, 1, 2])])
    assert box.capacity == 3  # int(3.5); rounding half to even gave 4
    ten = FeatureBox(10, 1.0, [DeviceGroup(0, [0, 1, 2, 3])])
    assert ten.shard_bounds(ten.groups[0]).tolist() == [0, 2, 4, 6, 10]  # the last holds 4
    assert ten.owner(list(range(10))).tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 3, 3]
    two = FeatureBox(2, 1.0, [DeviceGroup(0, [0, 1, 2])])  # fewer hot rows than GPUs
    assert two.owner([0, 1]).tolist() == [2, 2]
    f = Feature(torch.zeros(7, 2), 0.5, device_group_list=[DeviceGroup(0, [0])], with_gpu=False)
    assert f.capacity == f.box.capacity == 3 == len(f.hot)


def test_device_groups_are_of_one_size_and_the_differences_are_named():
    refused("one size", FeatureBox, 8, 0.5, [DeviceGroup(0, [0, 1]), DeviceGroup(1, [2])])
    assert {"device_group_list=None", "with_gpu", "device=None"} <= set(GLT_DIFFERENCES)


# the fuzz: any wrong type or value, one GraphpartError line, bounded time and memory

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.integers(-3, 9),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.binary(max_size=3),
    st.lists(st.integers(-(2**65), 2**65), max_size=4),
    st.lists(
        st.one_of(st.integers(-3, 9), st.floats(), st.none(), st.text(max_size=2)), max_size=4
    ),
    st.sampled_from(
        [
            [[1, 2], [3]],
            np.array([object(), 1], dtype=object),
            {},
            {0: [[0]]},
            {True: [[0]]},
            {0.0: [[0]]},
            torch.tensor([[1, 2]]),
            torch.tensor([0.5]),
            torch.tensor(3),
            np.array([-1, 3]),
            np.int64(2**62),
            np.float64(1.0),
            DeviceGroup(0, [0]),
            [DeviceGroup(0, [0]), DeviceGroup(1, [1, 2])],
            "CSC",
            "CPU",
            "cuda:0",
            "cuda:99",
            "lru",
            "static",
            object(),
        ]
    ),
)


def _feature(**kw):
    args = {"tensor": torch.arange(16.0).reshape(8, 2), "split_ratio": 0.5}
    return Feature(**{**args, **kw})


def _loader(**kw):
    return list(NeighborLoader(**{"topo": triangle(), "fanouts": [2], **kw}))


CALLS = {
    "FeatureBox": (
        lambda **kw: FeatureBox(
            **{"num_rows": 8, "split_ratio": 0.5, "device_group_list": PAIR, **kw}
        ),
        ["num_rows", "split_ratio", "device_group_list", "order", "id2index", "row_bytes", "links"],
    ),
    "DeviceGroup": (
        lambda **kw: DeviceGroup(**{"group_id": 0, "device_list": [0], **kw}),
        ["group_id", "device_list"],
    ),
    "owner": (lambda **kw: box8().owner(**{"rows": [0], **kw}), ["rows", "device"]),
    "lookup": (lambda **kw: box8().lookup(**{"ids": [0], "device": 0, **kw}), ["ids", "device"]),
    "count": (lambda **kw: box8().count(**{"rows": [0], "device": 0, **kw}), ["rows", "device"]),
    "record": (
        lambda **kw: box8().record(**{"per_shard": [1, 0, 0], "device": 0, **kw}),
        ["per_shard", "device"],
    ),
    "group_of": (lambda **kw: box8().group_of(**kw), ["device"]),
    "shard_bounds": (lambda **kw: box8().shard_bounds(**kw), ["group"]),
    "replay_box": (
        lambda **kw: replay_box(**{"traces": {0: [[0]]}, "box": box8(), **kw}),
        ["traces", "box"],
    ),
    "box_view_data": (lambda **kw: box_view_data(**{"box": box8(), **kw}), ["box", "batches"]),
    "Feature": (
        _feature,
        ["tensor", "split_ratio", "order", "cache", "device", "id2index", "with_gpu", "links"],
    ),
    "Feature box": (
        lambda **kw: _feature(**{"device_group_list": PAIR, "with_gpu": False, **kw}),
        ["device_group_list", "device", "with_gpu", "order", "id2index"],
    ),
    "Feature[ids]": (lambda ids: _feature()[ids], ["ids"]),
    "Feature box[ids]": (
        lambda ids: _feature(device_group_list=PAIR, with_gpu=False)[ids],
        ["ids"],
    ),
    "from_coo": (
        lambda **kw: Topology.from_coo(**{"src": [0, 1], "dst": [1, 2], **kw}),
        ["src", "dst", "num_nodes", "edge_ids", "layout"],
    ),
    "from_compressed": (
        lambda **kw: Topology.from_compressed(**{"indptr": [0, 1, 2], "indices": [1, 0], **kw}),
        ["indptr", "indices", "edge_ids", "input_layout", "layout"],
    ),
    "to_mode": (lambda **kw: triangle().to_mode(**{"mode": "CPU", **kw}), ["mode", "device"]),
    "to_layout": (lambda **kw: triangle().to_layout(**kw), ["layout"]),
    "negative_sample": (
        lambda **kw: negative_sample(**{"topo": triangle(), "num": 4, "seed": 0, **kw}),
        ["topo", "num", "trials", "padding", "seed"],
    ),
    "induced_subgraph": (
        lambda **kw: induced_subgraph(**{"topo": triangle(), "nodes": [0, 1], **kw}),
        ["topo", "nodes"],
    ),
    "sample_neighbors": (
        lambda **kw: sample_neighbors(**{"topo": triangle(), "seeds": [0], "fanout": 2, **kw}),
        ["topo", "seeds", "fanout", "replace", "generator"],
    ),
    "NeighborSampler": (
        lambda **kw: NeighborSampler(**{"topo": triangle(), "fanouts": [2], **kw}).sample([0]),
        ["topo", "fanouts", "replace", "seed"],
    ),
    "sample": (lambda seeds: NeighborSampler(triangle(), [2], seed=0).sample(seeds), ["seeds"]),
    "NeighborLoader": (
        _loader,
        ["topo", "fanouts", "seeds", "batch_size", "shuffle", "drop_last", "replace", "seed"],
    ),
}
CASES = [(name, arg) for name, (_, args) in CALLS.items() for arg in args]

#: What the fuzz lets the machine have: a count is weighed against this, not the real memory.
FUZZ_MEMORY = 256 * 2**20


@contextlib.contextmanager
def small_machine():
    memory = namedtuple("memory", "available total")(FUZZ_MEMORY, FUZZ_MEMORY)
    with mock.patch("psutil.virtual_memory", return_value=memory):
        yield


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@settings(
    max_examples=600,
    deadline=2000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.sampled_from(CASES), HOSTILE)
def test_any_argument_gives_a_result_or_one_graphpart_error_line(case, value):
    name, arg = case
    call, _ = CALLS[name]
    before = peak_mb()
    with small_machine():
        try:
            call(**{arg: value})
        except GraphpartError as exc:
            one_line(exc)
    assert peak_mb() - before < 400, f"{name}({arg}={value!r}) took memory"

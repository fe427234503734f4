"""A box of GPUs, GLT's way: every lookup's rows counted per place (own shard, each peer, host)
exactly as a row-by-row replay counts them; the rows returned are the rows asked for, simulated
or on a real GPU."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.features import DeviceGroup, Feature, FeatureBox, LinkModel, Trace, replay_box

HAS_CUDA = torch.cuda.is_available()


def brute_force(n, ratio, groups, order, batches_by_gpu):
    """Row by row, GLT's rules: the first int(n * ratio) rows of the order are hot; each GPU of a
    group holds the next hot // size of them, the last GPU everything left."""
    capacity = int(n * ratio)
    hot = [int(v) for v in order[:capacity]]
    holder = {}  # (group id, row) -> GPU
    for g in groups:
        k = len(g.device_list)
        block = capacity // k
        for pos, row in enumerate(hot):
            holder[g.group_id, row] = g.device_list[min(pos // block, k - 1) if block else k - 1]
    out = {}
    for gpu, batches in batches_by_gpu.items():
        (g,) = [g for g in groups if gpu in g.device_list]
        own = host = 0
        peer = {d: 0 for d in g.device_list if d != gpu}
        for batch in batches:
            for row in batch:
                where = holder.get((g.group_id, int(row)))
                if where is None:
                    host += 1
                elif where == gpu:
                    own += 1
                else:
                    peer[where] += 1
        out[gpu] = (own, peer, host)
    return out


@st.composite
def boxes(draw):
    size, count = draw(st.integers(1, 4)), draw(st.integers(1, 3))  # GLT: groups of one size
    gpus = draw(st.permutations(range(size * count)))
    groups = [DeviceGroup(i, list(gpus[i * size : (i + 1) * size])) for i in range(count)]
    n = draw(st.integers(1, 60))
    ratio = draw(st.sampled_from([0.0, 0.1, 0.33, 0.5, 0.7, 0.9, 1.0]))
    seed = draw(st.integers(0, 99))
    order = torch.randperm(n, generator=torch.Generator().manual_seed(seed))
    batches = {
        gpu: [draw(st.lists(st.integers(0, n - 1), max_size=25)) for _ in range(2)]
        for gpu in draw(st.sets(st.sampled_from(gpus), min_size=1))
    }
    return n, ratio, groups, order, batches


@settings(max_examples=150, deadline=None)
@given(boxes())
def test_every_row_is_counted_where_a_row_by_row_replay_finds_it(case):
    n, ratio, groups, order, batches = case
    box = FeatureBox(n, ratio, groups, order=order, row_bytes=12)
    run = replay_box(batches, box)
    want = brute_force(n, ratio, groups, order, batches)
    for gpu, (own, peer, host) in want.items():
        st_ = run.box.stats[gpu]
        assert sum(st_.own) == own and sum(st_.host) == host
        assert dict(zip(st_.peers, st_.peer_rows().tolist())) == peer
        t = st_.totals()
        assert t["peer_bytes"] == 12 * sum(peer.values())
    for (reader, holder), nbytes in run.link_bytes().items():
        assert nbytes == 12 * want[reader][1][holder]


def test_a_group_of_four_holds_four_times_the_hot_rows_of_one_gpu():
    """GLT's two figures: a replica per GPU at a budget of b rows per GPU, or a replica per
    group sharded four ways, 4b rows for the same memory; the group turns host reads into
    NVLink reads."""
    g = gp.datasets.rmat(12, seed=0)
    order = gp.features.degree_order(gp.sampling.Topology.from_graph(g))
    n = g.num_nodes()
    rng = np.random.default_rng(0)
    # skewed, as sampling is: ids drawn with the degree order's bias
    deg = torch.bincount(g.edges()[1], minlength=n).numpy().astype(float) + 1
    batches = {gpu: [rng.choice(n, 500, p=deg / deg.sum()) for _ in range(5)] for gpu in range(4)}
    per_gpu = FeatureBox(n, 1 / 16, [DeviceGroup(i, [i]) for i in range(4)], order=order)
    per_group = FeatureBox(n, 4 / 16, [DeviceGroup(0, [0, 1, 2, 3])], order=order)
    a = replay_box(batches, per_gpu).per_gpu()
    b = replay_box(batches, per_group).per_gpu()
    assert (b["hit_rate"] > a["hit_rate"]).all()
    assert (b["host_rows"] < a["host_rows"]).all() and (a["peer_rows"] == 0).all()
    assert (b["peer_rows"] > 0).all()
    assert per_group.capacity == 4 * per_gpu.capacity


def test_a_lookup_takes_its_slowest_link():
    m = LinkModel(own_gbyte_s=100, peer_gbyte_s=10, host_gbyte_s=1, latency_us=5)
    assert m.seconds(own=10**9, peers=[0, 0], host=0) == pytest.approx(0.01 + 5e-6)
    assert m.seconds(own=10**9, peers=[10**9], host=10**8) == pytest.approx(0.1 + 5e-6)
    with pytest.raises(gp.GraphpartError, match="peer_gbyte_s must be a finite number > 0"):
        LinkModel(peer_gbyte_s=0)


@settings(max_examples=60, deadline=None)
@given(boxes(), st.booleans())
def test_a_simulated_box_returns_the_rows_asked_for(case, mapped):
    n, ratio, groups, order, batches = case
    x = torch.randn(n, 3)
    id2index = torch.randperm(n) if mapped else None
    gpu = next(iter(batches))
    f = Feature(x, ratio, order=order, device_group_list=groups, device=gpu, with_gpu=False,
                id2index=id2index)  # fmt: skip
    for ids in batches[gpu]:
        ids = torch.tensor(ids, dtype=torch.int64)
        rows = ids if id2index is None else id2index[ids]
        assert torch.equal(f[ids], x[rows])
    st_ = f.box.stats[gpu].totals()
    assert f.stats.totals()["hits"] == st_["own_rows"] + st_["peer_rows"]
    assert f.stats.totals()["cold_bytes"] == st_["host_bytes"]


def test_id2index_maps_node_ids_to_rows_and_refuses_ids_without_one():
    x = torch.arange(8.0).reshape(4, 2)
    f = Feature(x, 0.5, id2index=torch.tensor([3, -1, 0, 1, 2]), device="cpu")
    assert torch.equal(f[[0, 2, 4]], x[[3, 0, 2]])
    with pytest.raises(gp.GraphpartError, match="node id 1 has no row"):
        f[[1]]
    with pytest.raises(gp.GraphpartError, match="id2index maps node ids to rows 0..3"):
        Feature(x, 0.5, id2index=torch.tensor([4, 0]), device="cpu")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"device_group_list": [DeviceGroup(0, [0, 1]), DeviceGroup(1, [1, 2])]}, "in two dev"),
        ({"device_group_list": [DeviceGroup(0, [0, 1]), DeviceGroup(1, [2])]}, "one size"),
        ({"device_group_list": [DeviceGroup(0, [0]), DeviceGroup(0, [1])]}, "ids must be dist"),
        ({"device_group_list": DeviceGroup(0, [0])}, "a list of DeviceGroup"),
        ({"device_group_list": [DeviceGroup(0, [0])], "device": 3}, "GPU 3 is in no device"),
        ({"device_group_list": [DeviceGroup(0, [0])], "cache": "lru"}, "static hot part"),
        ({"device_group_list": [DeviceGroup(0, [0])], "device": "cpu"}, "the GPU rank that"),
        ({"device_group_list": [DeviceGroup(0, [0])], "with_gpu": 1}, "True, False or None"),
    ],
)
def test_bad_boxes_are_refused_in_one_line(kwargs, match):
    with pytest.raises(gp.GraphpartError, match=match) as e:
        Feature(torch.zeros(4, 2), 0.5, **kwargs)
    assert "\n" not in str(e.value)


def test_a_device_group_lists_distinct_gpus():
    with pytest.raises(gp.GraphpartError, match="distinct GPU ranks"):
        DeviceGroup(0, [1, 1])


@pytest.mark.skipif(HAS_CUDA, reason="checks the message given where CUDA is missing")
def test_real_gpus_asked_for_where_there_are_none_are_refused():
    with pytest.raises(gp.GraphpartError, match="use with_gpu=False to simulate"):
        Feature(torch.zeros(4, 2), 0.5, device_group_list=[DeviceGroup(0, [0])], with_gpu=True)


def test_without_gpus_the_box_is_simulated_by_default():
    groups = [DeviceGroup(0, [0, 1, 2, 3]), DeviceGroup(1, [4, 5, 6, 7])]
    f = Feature(torch.zeros(8, 2), 0.5, device_group_list=groups, device=6)
    assert f.real == (HAS_CUDA and torch.cuda.device_count() >= 8)
    f[[0, 1, 2, 3, 7]]
    st_ = f.box.stats[6]
    assert st_.peers == (4, 5, 7) and st_.peer_rows().tolist() == [1, 1, 1] and st_.own == [1]


def test_a_trace_per_gpu_drives_the_box():
    t = Trace.from_batches([[0, 1], [2, 3]], num_nodes=4)
    run = replay_box({0: t, 1: t}, FeatureBox(4, 0.5, [DeviceGroup(0, [0, 1])]), "group")
    assert run.per_gpu()["own_rows"].tolist() == [1, 1] and run.label == "group"
    assert "hit_rate" in str(run.table())


@pytest.mark.skipif(not HAS_CUDA, reason="needs a CUDA GPU")
def test_on_a_real_gpu_the_rows_and_counts_equal_the_simulation():
    n = 10_000
    x = torch.randn(n, 16)
    order = torch.randperm(n, generator=torch.Generator().manual_seed(0))
    groups = [DeviceGroup(0, [0])]
    real = Feature(x, 0.3, order=order, device_group_list=groups, device=0, with_gpu=True)
    sim = Feature(x, 0.3, order=order, device_group_list=groups, device=0, with_gpu=False)
    assert real.real and real.device.type == "cuda" and real.cold.is_pinned()
    rng = torch.Generator().manual_seed(1)
    for _ in range(5):
        ids = torch.randint(0, n, (4096,), generator=rng)
        got = real[ids.cuda()]
        assert got.device.type == "cuda" and torch.equal(got.cpu(), sim[ids])
    assert real.box.stats[0].totals() == sim.box.stats[0].totals()


def test_the_trainers_of_a_partitioning_drive_the_box():
    """One trainer per partition, each on its own GPU: the box counts what each trainer's own
    mini-batches (its partition's seeds) read from where."""
    from graphpart.sampling import NeighborLoader, Topology

    g = gp.datasets.sbm([100] * 4, 0.1, 0.01, seed=0)
    p = gp.partition(g, 4, seed=0)
    topo = Topology.from_graph(g)
    traces = {
        part: gp.features.record_trace(
            NeighborLoader(topo, [5, 5], batch_size=32, seed=0, partitioning=p, part_id=part), 1
        )
        for part in range(4)
    }
    box = FeatureBox(g.num_nodes(), 0.4, [DeviceGroup(0, [0, 1, 2, 3])])
    run = replay_box(traces, box)
    rows = run.per_gpu()["rows"]
    assert rows.tolist() == [traces[q].num_lookups for q in range(4)]
    owner = box.owner(torch.arange(g.num_nodes()))
    for q in range(4):  # a GPU's own reads are the rows its shard holds that its trainer read
        ids = traces[q].ids
        assert sum(box.stats[q].own) == int((owner[ids] == q).sum())

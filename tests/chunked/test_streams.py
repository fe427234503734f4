"""Streaming partitioners as several streams (one per Dask worker): the same answer wherever they
run, the caps kept together, and the cut of one stream."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphpart.chunked import ClusterOptions, read_metadata, stream_partition, write_chunked
from graphpart.chunked._loads import water_fill
from graphpart.datasets import rmat, sbm


@pytest.fixture(scope="module")
def rmat_chunks(tmp_path_factory):
    g = rmat(13, seed=3)
    return g, read_metadata(write_chunked(g, tmp_path_factory.mktemp("r") / "c", 16))


def _cut(g, p):
    s, d = (x.numpy() for x in g.edges())
    return (p[s] != p[d]).mean()


def test_streams_on_dask_give_the_answer_they_give_here(rmat_chunks, dask_client, tmp_path):
    g, meta = rmat_chunks
    here = stream_partition(meta, 4, "fennel", balance_edges=True, streams=2)
    on_dask = stream_partition(
        meta,
        4,
        "fennel",
        balance_edges=True,
        cluster=ClusterOptions(client=dask_client),
        work_dir=tmp_path,
    )
    assert (here == on_dask).all()
    assert list(tmp_path.iterdir()) == []  # the shared files are gone


@pytest.mark.parametrize("streams", [2, 3])
def test_refining_in_streams_moves_what_one_stream_moves(streams, tmp_path):
    # a stream refines a share of each chunk's nodes; together they propose one stream's moves
    g = sbm([32] * 32, p_in=0.3, p_out=0.003, seed=1)
    meta = read_metadata(write_chunked(g, tmp_path / "s", 6))
    start = np.random.default_rng(0).integers(0, 4, g.num_nodes())
    one = stream_partition(meta, 4, "fennel", initial=start, streams=1)
    many = stream_partition(meta, 4, "fennel", initial=start, streams=streams)
    assert (one == many).all()
    assert _cut(g, one) < 0.5 * _cut(g, start)


@pytest.mark.parametrize("algorithm", ["fennel", "ldg"])
def test_two_streams_cut_within_two_percent_of_one_and_keep_both_balances(algorithm, rmat_chunks):
    g, meta = rmat_chunks
    one, two = (stream_partition(meta, 8, algorithm, balance_edges=True, streams=s) for s in (1, 2))
    indeg = np.bincount(two[g.edges()[1].numpy()], minlength=8)
    assert np.bincount(two, minlength=8).max() <= np.ceil(1.05 * g.num_nodes() / 8)
    assert indeg.max() <= np.ceil(1.05 * g.num_edges() / 8)
    assert _cut(g, two) <= 1.02 * _cut(g, one)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    n=st.integers(2, 300),
    m=st.integers(0, 1500),
    k=st.integers(1, 6),
    streams=st.integers(2, 4),
    chunks=st.integers(1, 7),
    seed=st.integers(0, 2**16),
)
def test_streams_keep_every_node_cap_together(n, m, k, streams, chunks, seed, tmp_path_factory):
    from graphpart import Graph

    k = min(k, n)
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, m), rng.zipf(1.5, m) % n  # skewed: parts fill unevenly
    g = Graph.from_edges(src, dst, num_nodes=n)
    meta = read_metadata(write_chunked(g, tmp_path_factory.mktemp("h") / "c", chunks))
    for algorithm in ("fennel", "ldg"):
        p = stream_partition(meta, k, algorithm, balance_edges=False, streams=streams)
        assert p.min() >= 0 and p.max() < k
        assert np.bincount(p, minlength=k).max() <= np.ceil(1.05 * n / k)


def test_a_streaming_assignment_this_machine_cannot_hold_is_refused_first(tmp_path, monkeypatch):
    from graphpart import GraphpartError
    from graphpart.chunked import assign, plan
    from graphpart.utils import memory

    write_chunked(rmat(10, seed=0), tmp_path / "c", 2)
    monkeypatch.setattr(memory, "available_memory", lambda: plan.BASE + (1 << 20))
    with pytest.raises(GraphpartError, match="fennel on 1,024 nodes with 3 streams needs about"):
        assign(tmp_path / "c", tmp_path / "a", 2, "fennel", workers=3)
    assert not (tmp_path / "a").exists()


def test_a_stream_over_the_workers_memory_limit_is_refused_before_it_runs(
    tmp_path, monkeypatch, dask_client
):
    import sys

    from graphpart import GraphpartError
    from graphpart.chunked import assign

    write_chunked(rmat(10, seed=0), tmp_path / "c", 2)
    module = sys.modules["graphpart.chunked.assign"]  # the package's name is the function's
    monkeypatch.setattr(module, "worker_memory_limit", lambda client: 1 << 20)
    with pytest.raises(
        GraphpartError, match="a stream needs about .* memory limit is [0-9.]+ [KMG]?B"
    ):
        assign(tmp_path / "c", tmp_path / "a", 2, "ldg", client=dask_client)
    assert not (tmp_path / "a").exists()


@pytest.mark.parametrize(
    "kw, says",
    [({"gamma": 397}, "gamma must be above 1 and at most 10"), ({"slack": 1e9}, "slack must be at"),
     ({"alpha": 1e300}, "alpha must")],
)  # fmt: skip
def test_stream_options_that_overflow_fennels_scores_are_refused(kw, says):
    # gamma=397 overflowed load ** (gamma - 1) to inf: every score NaN, the parts arbitrary
    from graphpart import GraphpartError
    from graphpart.chunked import StreamOptions

    with pytest.raises(GraphpartError, match=says):
        StreamOptions(**kw)


def _water_fill_by_slots(load, room, count):
    """The definition: every free slot listed, ordered by the load it brings its part to."""
    slots = np.repeat(np.arange(len(load)), room)
    rank = np.concatenate([np.arange(r) for r in room]) if len(slots) else slots
    level = np.asarray(load)[slots] + rank
    return slots[np.argsort(level, kind="stable")][:count]


@settings(max_examples=80, deadline=None)
@given(load=st.lists(st.integers(0, 40), min_size=1, max_size=12), data=st.data())
def test_water_fill_takes_the_lowest_slots_in_order(load, data):
    room = data.draw(st.lists(st.integers(0, 30), min_size=len(load), max_size=len(load)))
    count = data.draw(st.integers(0, sum(room)))
    got = water_fill(np.array(load), np.array(room), count)
    assert got.tolist() == _water_fill_by_slots(load, room, count).tolist()


def test_water_fill_refuses_more_items_than_slots():
    with pytest.raises(ValueError, match="3 items for 2 slots"):
        water_fill(np.array([0, 5]), np.array([1, 1]), 3)


def test_in_degree_sums_widen_only_past_int32():
    from graphpart.chunked.stream import _sum_counts

    top = np.iinfo(np.int32).max
    a = np.array([top - 1, 5, 0], dtype=np.int32)
    fits = _sum_counts([a, np.array([1, 2, 3], dtype=np.int32)], 3)
    assert fits.dtype == np.int32 and fits.tolist() == [top, 7, 3]
    wide = _sum_counts([a, np.array([2, 0, 0], dtype=np.int64)], 3)
    assert wide.dtype == np.int64 and wide.tolist() == [top + 1, 5, 0]


@pytest.mark.parametrize("graph", ["rmat", "dcsbm"])
def test_measuring_a_pass_first_gives_the_parts_of_running_every_pass(graph, tmp_path, monkeypatch):
    # R-MAT: refinement gains nothing, the second pass is skipped; DC-SBM: 7 passes gain 1-5%
    import graphpart.chunked.stream as stream
    from graphpart.datasets import dcsbm

    g = rmat(12, seed=5) if graph == "rmat" else dcsbm(13, seed=0)
    meta = read_metadata(write_chunked(g, tmp_path / "c", 8))
    cuts = []
    measured = stream._measured_cut
    monkeypatch.setattr(stream, "_measured_cut", lambda *a: cuts.append(1) or measured(*a))
    quick = stream_partition(meta, 4, "fennel")
    assert cuts  # the pass after a doubtful one was measured first
    monkeypatch.setattr(stream, "_doubtful", lambda cuts: False)  # every pass run, as before
    assert np.array_equal(quick, stream_partition(meta, 4, "fennel"))

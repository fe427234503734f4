"""CSC out of core: edges appended in any blocks come back sorted by destination, edge id order
kept within a destination, one bucket at a time."""

from __future__ import annotations

import importlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpart.chunked._csc import CscBuckets


def _run(tmp_path, dst, num_nodes, block, pieces):
    indptr = np.zeros(num_nodes + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=num_nodes), out=indptr[1:])
    b = CscBuckets(tmp_path / "w", indptr, block)
    eid = np.arange(len(dst))
    src = (eid * 7) % max(num_nodes, 1)
    for part in np.array_split(eid, pieces):
        b.add(src[part], dst[part], eid[part], eid[part] % 2)
    got = [np.concatenate(x) if x else np.zeros(0, np.int64) for x in zip(*b.blocks())]
    b.close()
    return got, (src, eid, indptr), b


@settings(max_examples=60, deadline=None)
@given(
    dst=st.lists(st.integers(0, 9), max_size=60), block=st.integers(1, 8), pieces=st.integers(1, 5)
)
def test_edges_come_back_in_stable_csc_order(tmp_path_factory, dst, block, pieces):
    tmp = tmp_path_factory.mktemp("csc")
    dst = np.array(dst, dtype=np.int64)
    (s, e, f), (src, eid, _), _ = _run(tmp, dst, 10, block, pieces)
    order = np.argsort(dst, kind="stable")
    assert np.array_equal(e, eid[order]) and np.array_equal(s, src[order])
    assert np.array_equal(f, eid[order] % 2)


def test_buckets_hold_about_a_block_and_never_split_a_node(tmp_path):
    # a hub of 50 in-edges among nodes of 1: its edges share one bucket, the rest stay small
    dst = np.concatenate([np.full(50, 3), np.arange(40) % 10])
    indptr = np.zeros(11, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=10), out=indptr[1:])
    b = CscBuckets(tmp_path / "w", indptr, 8)
    b.add(np.zeros(len(dst), np.int64), dst, np.arange(len(dst)), np.zeros(len(dst), np.int64))
    sizes = [len(x[0]) for x in b.blocks()]
    b.close()
    assert sum(sizes) == 90 and max(sizes) <= 8 + 54 and len(sizes) > 3
    assert not (tmp_path / "w").exists()


def test_the_pipeline_in_tiny_buckets_and_blocks_writes_the_same_graphbolt_files(
    tmp_path, monkeypatch
):
    from graphpart import chunked
    from graphpart.datasets import rmat

    from .test_dispatch import _arrays

    g = rmat(9, seed=1)
    chunked.write_chunked(g, tmp_path / "c", 3)
    chunked.assign(tmp_path / "c", tmp_path / "a", 3, "fennel")
    run = dict(workers=1, processes=False)
    big = chunked.dispatch(tmp_path / "c", tmp_path / "a", tmp_path / "big", **run)
    monkeypatch.setattr(importlib.import_module("graphpart.chunked._csc"), "BLOCK", 37)
    monkeypatch.setattr(importlib.import_module("graphpart.chunked._csc"), "SLICE", 5)
    monkeypatch.setattr(importlib.import_module("graphpart.chunked._assemble_stream"), "BLOCK", 11)
    small = chunked.dispatch(tmp_path / "c", tmp_path / "a", tmp_path / "small", **run)
    for i in range(3):
        name = f"part{i}/fused_csc_sampling_graph.pt"
        assert _arrays(big.parent / name) == _arrays(small.parent / name)

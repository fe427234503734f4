"""Every reader of foreign rows is bounded by bytes: line endings of any kind, a file that is one
huge line, parquet row groups of any size, chunks that hold more rows than their metadata says;
and every native reader is closed on every path."""

from __future__ import annotations

import os
import tracemalloc

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.chunked import _files, load_chunked, read_metadata, write_chunked
from graphpart.chunked.edge_files import count_and_check, edge_blocks
from graphpart.chunked.ingest import edges_chunked

EDGES = np.array([[0, 1], [1, 2], [2, 0], [3, 1]])


def _text(lines: list[str], end: str) -> bytes:
    return "".join(line + end for line in lines).encode()


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("header", [[], ["# SNAP", "% Konect", ""]])
def test_edge_lists_with_any_line_ending_and_comments_read_alike(tmp_path, end, header):
    f = tmp_path / "e.txt"
    f.write_bytes(_text(header + [f"{s}\t{d}" for s, d in EDGES], end))
    blocks = list(edge_blocks(f, 3))
    assert np.array_equal(np.concatenate(blocks), EDGES) and max(map(len, blocks)) <= 3


@settings(max_examples=40, deadline=None)
@given(
    edges=st.lists(st.tuples(st.integers(0, 10**12), st.integers(0, 10**12)), max_size=30),
    end=st.sampled_from(["\n", "\r\n", "\r"]),
    sep=st.sampled_from([" ", "\t", ","]),
    comments=st.lists(st.sampled_from(["# x", "% y", "#", ""]), max_size=3),
    block=st.integers(1, 7),
)
def test_any_edge_list_reads_back_its_edges(tmp_path_factory, edges, end, sep, comments, block):
    f = tmp_path_factory.mktemp("e") / "e.txt"
    f.write_bytes(_text(comments + [f"{s}{sep}{d}" for s, d in edges], end))
    blocks = list(edge_blocks(f, block))
    got = np.concatenate(blocks) if blocks else np.zeros((0, 2), dtype=np.int64)
    assert got.reshape(-1, 2).tolist() == [list(e) for e in edges]
    assert all(len(b) <= block for b in blocks)


def test_a_file_of_one_huge_line_is_refused_without_holding_it(tmp_path):
    """It was read whole to sniff its delimiter: a 640 MB line took 1.8 GB."""
    f = tmp_path / "e.txt"
    f.write_bytes(b"1" * (32 << 20))
    tracemalloc.start()
    try:
        with pytest.raises(gp.GraphpartError, match="a line longer than"):
            count_and_check(f, 1 << 20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20


def test_a_cr_only_file_with_a_comment_header_is_not_all_comment(tmp_path):
    f = tmp_path / "e.txt"
    f.write_bytes(b"# a comment\r0 1\r1 2\r")
    assert count_and_check(f, 10) == (2, 2)


def test_a_parquet_row_group_is_decoded_a_batch_at_a_time(tmp_path, monkeypatch):
    """A row group of 64M edges was decoded whole (~2 GB from a 585 KB file)."""
    monkeypatch.setattr(_files, "PARQUET_BATCH", 1000)
    n = 10_000
    a = np.arange(n, dtype=np.int64)
    pq.write_table(
        pa.table({"s": a, "d": a[::-1].copy()}), tmp_path / "e.parquet", row_group_size=n
    )
    blocks = list(edge_blocks(tmp_path / "e.parquet", 1 << 24))
    assert max(map(len, blocks)) == 1000
    assert np.array_equal(np.concatenate(blocks)[:, 0], a)


@pytest.mark.parametrize(
    "column, kind",
    [
        (pa.array(["a", "b"]), "string"),
        (pa.array(np.array(["2024-01-01", "2024-01-02"], dtype="datetime64[D]")), "date32"),
        (pa.array([1, 2], type=pa.int32()).cast(pa.decimal128(12, 2)), "decimal"),
        (pa.array([1, None], type=pa.int64()), "empty values"),
    ],
)
def test_parquet_columns_that_are_not_numbers_are_named(tmp_path, column, kind):
    """They were refused with pyarrow's 'zero_copy_only' text."""
    pq.write_table(pa.table({"s": pa.array([0, 1]), "d": column}), tmp_path / "e.parquet")
    with pytest.raises(gp.GraphpartError, match=f"column 1 (holds {kind}|has 1 {kind})"):
        count_and_check(tmp_path / "e.parquet", 10)


def _graph():
    g = gp.datasets.rmat(7, seed=0, feat_dim=3)
    return g


@pytest.mark.parametrize("fmt", ["csv", "parquet", "numpy"])
def test_a_chunk_with_more_rows_than_its_counts_is_refused_before_it_is_read_whole(
    tmp_path, fmt, monkeypatch
):
    """A chunk declared as ~57K rows that was a 300 MB CSV drove assign past 1.5 GB: text is
    read a block at a time and stops past the counts; npy and parquet declare their rows."""
    write_chunked(_graph(), tmp_path / "g", 2, edge_format=fmt)
    meta = read_metadata(tmp_path / "g")
    spec = meta.edges[meta.etypes[0]]
    rows = spec.counts[0]
    many = np.tile(np.array([[0, 1]]), (50 * rows, 1))
    _files.write_array(spec.paths[0], many, spec.format)
    monkeypatch.setattr(_files, "TEXT_BLOCK", 1 << 12)
    blocks = []
    real = _files.text_columns

    def counted(*a, **k):
        for cols in real(*a, **k):
            blocks.append(len(cols[0]))
            yield cols

    monkeypatch.setattr(_files, "text_columns", counted)
    with pytest.raises(
        gp.GraphpartError, match=f"holds (at least )?[0-9,]+ rows, but the metadata allows {rows:,}"
    ):
        spec.read(0)
    assert sum(blocks) < 2 * rows  # never read far past the counts


def test_a_text_chunk_of_too_many_values_a_row_is_refused_before_parsing(tmp_path):
    write_chunked(_graph(), tmp_path / "g", 2, node_data_format="csv")
    meta = read_metadata(tmp_path / "g")
    spec = meta.node_data["_N"]["feat"]
    spec.paths[0].write_text(" ".join(["1"] * 5000) + "\n")
    with pytest.raises(gp.GraphpartError, match="5,000 values, more than the 3"):
        load_chunked(tmp_path / "g")


def _open_fds(path) -> int:
    fds = os.listdir("/proc/self/fd")
    return sum(1 for fd in fds if os.path.realpath(f"/proc/self/fd/{fd}") == str(path))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to list open files")
@pytest.mark.parametrize("kind", ["txt", "parquet"])
def test_a_refused_edge_list_leaves_no_reader_open(tmp_path, kind):
    """An abandoned pyarrow stream reader aborted the interpreter at exit ('terminate called
    without an active exception', exit 134)."""
    f = tmp_path / f"e.{kind}"
    a = np.tile(np.array([[0, 1]]), (50_000, 1))
    a[30_000, 0] = -4
    if kind == "txt":
        f.write_text("\n".join(f"{s} {d}" for s, d in a) + "\n")
    else:
        pq.write_table(pa.table({"s": a[:, 0], "d": a[:, 1]}), f, row_group_size=10_000)
    with pytest.raises(gp.GraphpartError, match="non-negative") as e:
        edges_chunked(f, tmp_path / "c", 2)
    assert e.value.__traceback__ is not None  # the frames that held the reader are still alive
    assert _open_fds(f) == 0


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(0, 3000),
    row_group=st.integers(1, 4000),
    batch=st.integers(1, 2000),
    block=st.integers(1, 5000),
    dtype=st.sampled_from(["int32", "int64", "uint32"]),
)
def test_any_parquet_layout_reads_back_its_edges(
    tmp_path_factory, n, row_group, batch, block, dtype
):
    """Whatever the row groups, no batch is larger than PARQUET_BATCH or the block asked for."""
    f = tmp_path_factory.mktemp("p") / "e.parquet"
    a = np.arange(2 * n, dtype=dtype).reshape(n, 2)
    pq.write_table(pa.table({"s": a[:, 0], "d": a[:, 1]}), f, row_group_size=row_group)
    old = _files.PARQUET_BATCH
    _files.PARQUET_BATCH = batch
    try:
        blocks = list(edge_blocks(f, block))
    finally:
        _files.PARQUET_BATCH = old
    assert all(len(b) <= min(batch, block) for b in blocks)
    got = np.concatenate(blocks) if blocks else np.zeros((0, 2), dtype=dtype)
    assert got.tolist() == a.tolist()


@pytest.mark.parametrize("streamed", [False, True])
def test_numpy_edge_chunks_hold_int32_ids_and_read_back_the_same(streamed, tmp_path):
    # half the bytes of every pass over the edges, where every id fits in 32 bits
    from graphpart.chunked import ChunkFormat, rmat_chunked
    from graphpart.datasets import rmat

    fmt = ChunkFormat(edge_format="numpy")
    if streamed:
        path = rmat_chunked(tmp_path / "c", 3, 10, seed=1, chunk_format=fmt)
    else:
        path = write_chunked(rmat(10, seed=1), tmp_path / "c", 3, fmt)
    meta = read_metadata(path)
    spec = next(iter(meta.edges.values()))
    stored = [np.load(meta.path.parent / p) for p in spec.paths]
    assert all(a.dtype == np.int32 and a.shape[1] == 2 for a in stored)
    g = load_chunked(path)
    s, d = (x.numpy() for x in g.edges())
    want = np.concatenate(stored)
    assert s.dtype == np.int64 and np.array_equal(s, want[:, 0]) and np.array_equal(d, want[:, 1])

"""Streaming ingest: R-MAT in blocks and edge-list files, equal to the in-memory writer."""

from __future__ import annotations

import filecmp
import importlib
import json

import numpy as np
import pytest

import graphpart as gp
from graphpart.chunked import load_chunked, write_chunked
from graphpart.chunked.ingest import edges_chunked, rmat_chunked, sbm_chunked
from graphpart.datasets import rmat, sbm


def _same_folders(a, b) -> None:
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    assert files_a == files_b
    for f in files_a:
        if f.name == "metadata.json":
            assert json.loads((a / f).read_text()) == json.loads((b / f).read_text())
        else:
            assert filecmp.cmp(a / f, b / f, shallow=False), f


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"symmetric": True},
        {"self_loops": True, "permute": False},
        {"edge_factor": 5, "feat_dim": 3, "num_classes": 4, "train_frac": 0.2, "val_frac": 0.1},
    ],
)
@pytest.mark.parametrize("fmt", ["csv", "numpy", "parquet"])
def test_rmat_in_blocks_writes_what_write_chunked_writes(kwargs, fmt, tmp_path):
    expect = write_chunked(
        rmat(9, seed=3, **kwargs), tmp_path / "g", 5, edge_format=fmt, node_data_format="numpy"
    ).parent
    got = rmat_chunked(
        tmp_path / "s",
        5,
        9,
        seed=3,
        edge_format=fmt,
        block_edges=700,
        buckets=8,
        graph_name="g",
        **kwargs,
    ).parent
    _same_folders(expect, got)


def test_rmat_in_blocks_leaves_no_work_files(tmp_path):
    rmat_chunked(tmp_path / "s", 2, 8, seed=0, block_edges=512, buckets=4)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]


def test_rmat_in_blocks_refuses_a_generator_it_cannot_place(tmp_path):
    with pytest.raises(gp.GraphpartError, match="PCG64"):
        rmat_chunked(tmp_path / "s", 2, 6, seed=np.random.Generator(np.random.MT19937(0)))
    with pytest.raises(gp.GraphpartError, match="scale"):
        rmat_chunked(tmp_path / "s", 2, 40)
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("kind", ["txt", "npy", "parquet"])
def test_an_edge_list_file_becomes_a_chunked_graph_in_file_order(kind, tmp_path):
    rng = np.random.default_rng(0)
    edges = rng.integers(0, 50, size=(333, 2))
    path = tmp_path / f"e.{kind}"
    if kind == "txt":
        lines = "".join(f"{s}\t{d}\n" for s, d in edges)
        path.write_text("# Directed graph (SNAP)\n# FromNodeId\tToNodeId\n" + lines)
    elif kind == "npy":
        np.save(path, edges)
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.table({"s": edges[:, 0], "d": edges[:, 1]}), path, row_group_size=50)
    meta = edges_chunked(path, tmp_path / "c", 4, block_edges=40, edge_format="numpy")
    g = load_chunked(meta)
    assert g.num_nodes() == edges.max() + 1
    s, d = (x.numpy() for x in g.edges())
    assert np.array_equal(np.stack([s, d], 1), edges)
    assert json.loads(meta.read_text())["edges"]["_N:_E:_N"]["counts"] == [83, 83, 83, 84]


def test_an_edge_list_with_more_nodes_than_ids(tmp_path):
    np.save(tmp_path / "e.npy", np.array([[0, 1], [1, 2]]))
    g = load_chunked(edges_chunked(tmp_path / "e.npy", tmp_path / "c", 1, num_nodes=10))
    assert g.num_nodes() == 10
    with pytest.raises(gp.GraphpartError, match="out of range for num_nodes=2"):
        edges_chunked(tmp_path / "e.npy", tmp_path / "d", 1, num_nodes=2)


@pytest.mark.parametrize(
    "content, match",
    [
        ("0 1\n1 x\n", "two integers a line"),
        ("0 1 2\n", "two integers a line"),
        ("0 -1\n", "non-negative"),
    ],
)
def test_bad_edge_lists_are_refused_in_one_line(content, match, tmp_path):
    (tmp_path / "e.txt").write_text(content)
    with pytest.raises(gp.GraphpartError, match=match):
        edges_chunked(tmp_path / "e.txt", tmp_path / "c", 1)
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"directed": True},
        {"feat_dim": 3, "train_frac": 0.3, "test_frac": 0.1},
        {"probs": [[0.2, 0.01, 0.0], [0.01, 0.3, 0.05], [0.0, 0.05, 0.1]]},
    ],
)
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_sbm_in_blocks_writes_what_write_chunked_writes(kwargs, fmt, tmp_path):
    sizes = [40, 25, 60]
    expect = write_chunked(
        sbm(sizes, 0.2, 0.02, seed=5, **kwargs), tmp_path / "g", 4, edge_format=fmt
    ).parent
    got = sbm_chunked(
        tmp_path / "s", 4, sizes, 0.2, 0.02, seed=5, edge_format=fmt, graph_name="g", **kwargs
    ).parent
    _same_folders(expect, got)


def test_sbm_in_blocks_refuses_bad_blocks(tmp_path):
    with pytest.raises(gp.GraphpartError, match="block_sizes"):
        sbm_chunked(tmp_path / "s", 2, [10, -1])
    assert not (tmp_path / "s").exists()


def test_an_empty_edge_list_is_a_readable_graph(tmp_path):
    np.save(tmp_path / "e.npy", np.zeros((0, 2), dtype=np.int64))
    g = load_chunked(edges_chunked(tmp_path / "e.npy", tmp_path / "c", 3, num_nodes=4))
    assert g.num_nodes() == 4 and g.num_edges() == 0


def test_ids_past_int64_are_refused(tmp_path):
    np.save(tmp_path / "e.npy", np.array([[0, 2**63 + 5]], dtype=np.uint64))
    with pytest.raises(gp.GraphpartError, match="past the largest"):
        edges_chunked(tmp_path / "e.npy", tmp_path / "c", 1)
    assert not (tmp_path / "c").exists()


def test_rmat_in_blocks_into_a_new_nested_folder(tmp_path):
    load_chunked(rmat_chunked(tmp_path / "a" / "b" / "out", 2, 6, seed=0))


def test_a_bad_name_or_folder_is_refused_before_any_edge_is_drawn(tmp_path, monkeypatch):
    from graphpart.chunked import ingest

    drawn = []
    monkeypatch.setattr(ingest, "_rmat_block", lambda *a: drawn.append(1))
    with pytest.raises(gp.GraphpartError, match="graph_name"):
        rmat_chunked(tmp_path / "s", 2, 8, graph_name="bad/name")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    with pytest.raises(gp.GraphpartError):
        rmat_chunked(tmp_path / "mine", 2, 8)
    assert not drawn and (tmp_path / "mine" / "notes.txt").read_text() == "mine"


def test_drawn_on_a_cluster_the_chunked_graph_is_the_same(tmp_path, dask_client, monkeypatch):
    import sys

    from graphpart.chunked import ClusterOptions
    from graphpart.chunked.ingest import dcsbm_chunked
    from graphpart.datasets import dcsbm

    cluster = ClusterOptions(client=dask_client)  # two workers, each its own share of blocks
    got = rmat_chunked(tmp_path / "r", 3, 9, seed=2, block_edges=600, buckets=4, cluster=cluster)
    assert [x.tolist() for x in load_chunked(got).edges()] == [
        x.tolist() for x in rmat(9, seed=2).edges()
    ]
    dcsbm_module = sys.modules["graphpart.datasets.dcsbm"]  # the package's name is the function's
    monkeypatch.setattr(dcsbm_module, "DRAW_BLOCK", 300)  # several blocks, in both tasks
    got = load_chunked(dcsbm_chunked(tmp_path / "d", 2, 9, 8, community_size=32, seed=4,
                                     cluster=cluster))  # fmt: skip
    want = dcsbm(9, 8, community_size=32, seed=4)
    assert [x.tolist() for x in got.edges()] == [x.tolist() for x in want.edges()]


@pytest.mark.parametrize("kind", ["rmat", "dcsbm"])
@pytest.mark.parametrize("scale, degree", [(27, 16), (31, 0.001)])
def test_a_generator_beyond_memory_is_refused_before_it_builds_anything(
    tmp_path, monkeypatch, kind, scale, degree
):
    """dcsbm_chunked built its model (20+ bytes a node: past 1.5 GB at scale 27) before any
    check; both generators now check their main process and drawing tasks first."""
    dc = importlib.import_module("graphpart.datasets.dcsbm")
    from graphpart.chunked import dcsbm_chunked, rmat_chunked
    from graphpart.utils import memory

    monkeypatch.setattr(memory, "available_memory", lambda: 1536 << 20)
    monkeypatch.setattr(dc, "DcsbmModel", lambda *a, **k: pytest.fail("model built first"))
    with pytest.raises(gp.GraphpartError, match=rf"chunk --dataset {kind} .* of memory and"):
        if kind == "rmat":
            rmat_chunked(tmp_path / "c", 2, scale, max(int(degree), 1))
        else:
            dcsbm_chunked(tmp_path / "c", 2, scale, degree)
    assert not (tmp_path / "c").exists()


def test_rmat_chunked_refuses_zero_buckets_before_sizing_its_memory(tmp_path):
    from graphpart.chunked import rmat_chunked

    with pytest.raises(gp.GraphpartError, match="buckets must be an integer >= 1"):
        rmat_chunked(tmp_path / "c", 2, 8, buckets=0)  # was a ZeroDivisionError

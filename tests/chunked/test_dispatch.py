"""Step 2: dispatch on Dask writes what the in-memory partition_graph writes for the same
assignment."""

from __future__ import annotations

import json
import os
from types import SimpleNamespace

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.chunked import assign, load_chunked, write_assignment, write_chunked
from graphpart.chunked.assign import read_assignment
from graphpart.chunked.dispatch import dispatch, load_orig_ids
from graphpart.chunked.format import read_metadata
from graphpart.datasets import load_karate_club, sbm

from ..graphs import hetero_graph, karate
from ..helpers import LIKE_PARTITION_GRAPH, assert_same_partitions


def featured_sbm():
    g = sbm(block_sizes=[50, 40, 30], p_in=0.15, p_out=0.01, seed=3, feat_dim=4, train_frac=0.3)
    g.edata["w"] = torch.rand(g.num_edges(), dtype=torch.float32)
    return g


GRAPHS = {"karate": karate, "sbm": featured_sbm, "hetero": hetero_graph}


def in_memory(g, parts: dict, num_parts, out, num_hops):
    """partition_graph with the same assignment, given type-wise."""
    method = parts["_N"] if g.is_homogeneous else parts
    return gp.partition_graph(
        g, "g", num_parts, out, part_method=method, num_hops=num_hops, return_mapping=True
    )


def random_parts(g, num_parts, seed=0):
    rng = np.random.default_rng(seed)
    return {t: rng.integers(0, num_parts, g.num_nodes(t)) for t in g.ntypes}


@pytest.mark.parametrize("num_hops", [0, 1])
@pytest.mark.parametrize("num_chunks,num_parts", [(2, 4), (5, 3), (3, 1)])
@pytest.mark.parametrize("name", list(GRAPHS))
def test_equals_the_in_memory_partition(
    name, num_chunks, num_parts, num_hops, tmp_path, dask_client
):
    g = GRAPHS[name]()
    write_chunked(g, tmp_path / "ch", num_chunks, graph_name="g")
    parts = random_parts(g, num_parts)
    write_assignment(tmp_path / "asg", parts, num_parts, "custom")
    cfg = dispatch(
        tmp_path / "ch",
        tmp_path / "asg",
        tmp_path / "out",
        num_hops=num_hops,
        client=dask_client,
        save_orig_nids=True,
        save_orig_eids=True,
        **LIKE_PARTITION_GRAPH,
    )
    nmap, emap = in_memory(g, parts, num_parts, tmp_path / "mem", num_hops)
    assert_same_partitions(cfg, tmp_path / "mem" / "g.json")
    onids, oeids = load_orig_ids(cfg)
    if g.is_homogeneous:
        assert torch.equal(onids, nmap) and torch.equal(oeids, emap)
    else:
        assert onids.keys() == nmap.keys() and all(torch.equal(onids[t], nmap[t]) for t in nmap)
        assert all(torch.equal(oeids[e], emap[e]) for e in emap)


@pytest.mark.parametrize("fmt", ["csv", "numpy", "parquet"])
def test_every_chunk_format(fmt, tmp_path, dask_client):
    g = hetero_graph(1)
    write_chunked(
        g,
        tmp_path / "ch",
        3,
        graph_name="g",
        edge_format=fmt,
        node_data_format=fmt,
        edge_data_format=fmt,
    )
    parts = random_parts(g, 2, seed=1)
    write_assignment(tmp_path / "asg", parts, 2, "custom")
    cfg = dispatch(
        tmp_path / "ch",
        tmp_path / "asg",
        tmp_path / "out",
        client=dask_client,
        **LIKE_PARTITION_GRAPH,
    )
    in_memory(g, parts, 2, tmp_path / "mem", 1)
    assert_same_partitions(cfg, tmp_path / "mem" / "g.json")


def test_metis_pipeline_equals_partition_graph_config_included(tmp_path, dask_client):
    g = featured_sbm()
    write_chunked(g, tmp_path / "ch", 4, graph_name="g")
    assign(tmp_path / "ch", tmp_path / "asg", 3, "metis", seed=5)
    cfg = dispatch(
        tmp_path / "ch",
        tmp_path / "asg",
        tmp_path / "out",
        client=dask_client,
        **LIKE_PARTITION_GRAPH,
    )
    gp.partition_graph(load_chunked(tmp_path / "ch"), "g", 3, tmp_path / "mem", seed=5)
    assert json.loads(cfg.read_text())["part_method"] == "metis"
    assert_same_partitions(cfg, tmp_path / "mem" / "g.json", same_method=True)


def test_balanced_metis_pipeline_records_the_balance_partition_graph_records(tmp_path, dask_client):
    g = featured_sbm()
    write_chunked(g, tmp_path / "ch", 4, graph_name="g")
    assign(
        tmp_path / "ch",
        tmp_path / "asg",
        3,
        "metis",
        seed=5,
        balance_ntypes="train_mask",
        balance_edges=True,
    )
    cfg = dispatch(
        tmp_path / "ch",
        tmp_path / "asg",
        tmp_path / "out",
        client=dask_client,
        **LIKE_PARTITION_GRAPH,
    )
    mem = load_chunked(tmp_path / "ch")
    gp.partition_graph(
        mem,
        "g",
        3,
        tmp_path / "mem",
        seed=5,
        balance_edges=True,
        balance_ntypes="train_mask",  # classes named after the field, as assign names them
    )
    assert_same_partitions(cfg, tmp_path / "mem" / "g.json", same_method=True)
    record = json.loads(cfg.read_text())["balance"]
    assert record["edges"] and len(record["ntypes"]) == 2 and "in-degree" in record["loads"]
    m = gp.metrics.metrics_from_disk(cfg)
    train = g.ndata["train_mask"].numpy()
    parts = read_assignment(tmp_path / "asg", tmp_path / "ch")[0]
    owner = np.concatenate([np.asarray(parts[t]) for t in sorted(parts)])
    assert (
        m.constraints[f"class {record['ntypes'][1]}"].tolist()
        == np.bincount(owner[train], minlength=3).tolist()
    )


def test_per_partition_original_ids(tmp_path, dask_client):
    g = hetero_graph()
    write_chunked(g, tmp_path / "ch", 2, graph_name="g")
    parts = random_parts(g, 3)
    write_assignment(tmp_path / "asg", parts, 3, "custom")
    cfg = dispatch(
        tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client, save_orig_nids=True
    )
    for p in range(3):
        ids = torch.load(tmp_path / "out" / f"part{p}" / "orig_nids.pt", weights_only=True)
        for t in g.ntypes:
            assert torch.equal(ids[t], torch.from_numpy(np.flatnonzero(parts[t] == p)))
    assert not (tmp_path / "out" / "part0" / "orig_eids.pt").exists()
    assert load_orig_ids(cfg)[1] is None


def test_load_partition_reads_the_output(tmp_path, dask_client):
    g = load_karate_club()
    write_chunked(g, tmp_path / "ch", 2)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    cfg = dispatch(
        tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client, graph_name="karate"
    )
    assert cfg.name == "karate.json"
    data = gp.load_partition(cfg, 1)
    assert data.book.num_partitions() == 2 and data.graph_name == "karate"
    listed = sorted(os.listdir(tmp_path / "out"))  # and the chunks' counts, for verify
    assert listed == ["edge_counts", "karate.json", "part0", "part1"]


def test_more_hops_are_refused(tmp_path, dask_client):
    write_chunked(load_karate_club(), tmp_path / "ch", 2)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    with pytest.raises(gp.GraphpartError, match="num_hops 0 or 1, got 2"):
        dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", num_hops=2)
    assert not (tmp_path / "out").exists()


def test_bad_chunk_leaves_no_output_and_keeps_the_earlier_one(tmp_path, dask_client):
    g = featured_sbm()
    meta = write_chunked(g, tmp_path / "ch", 3)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    cfg = dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client)
    before = {
        p.relative_to(tmp_path / "out"): p.read_bytes()
        for p in (tmp_path / "out").rglob("*")
        if p.is_file()
    }
    m = json.loads(meta.read_text())
    edge_file = meta.parent / m["edges"]["_N:_E:_N"]["data"][1]
    lines = edge_file.read_text().splitlines()
    edge_file.write_text("\n".join([f"0 {g.num_nodes() + 7}"] + lines[1:]) + "\n")
    with pytest.raises(
        gp.GraphpartError, match=f"destination id {g.num_nodes() + 7} is out of range"
    ):
        dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client)
    after = {
        p.relative_to(tmp_path / "out"): p.read_bytes()
        for p in (tmp_path / "out").rglob("*")
        if p.is_file()
    }
    assert after == before and cfg.exists()
    assert sorted(os.listdir(tmp_path)) == ["asg", "ch", "out"]  # no temporary sibling left


def test_edge_data_chunks_must_match_edge_chunks(tmp_path, dask_client):
    g = featured_sbm()
    meta = write_chunked(g, tmp_path / "ch", 3)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    m = json.loads(meta.read_text())
    w = m["edge_data"]["_N:_E:_N"]["w"]
    path = meta.parent / w["data"][0]
    np.save(path, np.load(path)[:-1])
    w.pop("counts", None)
    meta.write_text(json.dumps(m))
    with pytest.raises(gp.GraphpartError, match="has .* rows but its edge chunk .* has"):
        dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client)
    assert not (tmp_path / "out").exists()


def test_assignment_must_cover_every_node(tmp_path, dask_client):
    write_chunked(load_karate_club(), tmp_path / "ch", 2)
    (tmp_path / "asg").mkdir()
    (tmp_path / "asg" / "_N.txt").write_text("0\n1\n")
    with pytest.raises(gp.GraphpartError, match="2 lines, but node type '_N' has 34 nodes"):
        dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client)
    assert not (tmp_path / "out").exists()


def test_type_order_in_the_metadata_does_not_change_the_ids(tmp_path, dask_client):
    g = hetero_graph(2)
    meta = write_chunked(g, tmp_path / "ch", 2, graph_name="g")
    m = json.loads(meta.read_text())
    for names, counts in (("node_type", "num_nodes_per_type"), ("edge_type", "num_edges_per_type")):
        m[names], m[counts] = (
            m[names][::-1],
            m[counts][::-1],
        )  # ids follow sorted types, as Graph's do
    meta.write_text(json.dumps(m))
    parts = random_parts(g, 3, seed=2)
    write_assignment(tmp_path / "asg", parts, 3, "custom")
    cfg = dispatch(
        tmp_path / "ch",
        tmp_path / "asg",
        tmp_path / "out",
        client=dask_client,
        **LIKE_PARTITION_GRAPH,
    )
    in_memory(g, parts, 3, tmp_path / "mem", 1)
    assert_same_partitions(cfg, tmp_path / "mem" / "g.json")


@pytest.mark.parametrize("fmt", ["dgl", "graphbolt"])
def test_dispatch_writes_dgls_format_like_partition_graph(fmt, tmp_path, dask_client):
    g = hetero_graph(1)
    write_chunked(g, tmp_path / "ch", 2, graph_name="g")
    parts = random_parts(g, 2, seed=2)
    write_assignment(tmp_path / "asg", parts, 2, "custom")
    cfg = dispatch(
        tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client, format=fmt,
        out_edges=True,
    )  # fmt: skip
    gp.partition_graph(g, "g", 2, tmp_path / "mem", part_method=parts, format=fmt)
    assert_same_partitions(cfg, tmp_path / "mem" / "g.json")
    written = json.loads(cfg.read_text())
    graph_file = {"dgl": "graph.dgl", "graphbolt": "fused_csc_sampling_graph.pt"}[fmt]
    assert sorted(os.listdir(cfg.parent / "part1")) == sorted(
        [graph_file, "node_feat.dgl", "edge_feat.dgl"]
    )  # one copy of the graph
    assert written["file_format"] == fmt
    for i in range(2):  # GraphBolt's file written out of core equals the one built in memory
        mine, theirs = (d / f"part{i}" / graph_file for d in (cfg.parent, tmp_path / "mem"))
        assert mine.read_bytes()[-2000:] != b"" and _arrays(mine) == _arrays(theirs)


def _arrays(path):
    """Every array of a partition graph file (GraphBolt's, or DGL's), with its dtype."""
    from graphpart.interop.graphbolt import load_graphbolt
    from graphpart.storage.files import read_graph_file

    if path.suffix == ".pt":
        gb = load_graphbolt(path)
        named = {"indptr": gb.indptr, "indices": gb.indices, "tpe": gb.type_per_edge}
        named.update({f"n/{k}": v for k, v in gb.node_attributes.items()})
        named.update({f"e/{k}": v for k, v in gb.edge_attributes.items()})
    else:
        g = read_graph_file(path)
        named = {"src": g.edges()[0], "dst": g.edges()[1]}
        named.update({f"n/{k}": v for k, v in g.ndata.items()})
        named.update({f"e/{k}": v for k, v in g.edata.items()})
    return {k: (str(v.dtype), v.tolist()) for k, v in named.items() if v is not None}


@pytest.mark.parametrize("num_hops", [0, 1])
def test_partitions_written_in_small_blocks_equal_the_in_memory_partition(
    num_hops, tmp_path, dask_client, monkeypatch
):
    """Out-of-core assembly: blocks of 7 rows (nodes, owned edges, each owner's leaving edges)
    give the files one block of everything gives."""
    from graphpart.chunked import _assemble_stream

    monkeypatch.setattr(_assemble_stream, "BLOCK", 7)
    g = hetero_graph()
    write_chunked(g, tmp_path / "ch", 4, graph_name="g")
    parts = random_parts(g, 3, seed=2)
    write_assignment(tmp_path / "asg", parts, 3, "custom")
    cfg = dispatch(
        tmp_path / "ch", tmp_path / "asg", tmp_path / "out", num_hops=num_hops, client=dask_client,
        **LIKE_PARTITION_GRAPH,
    )  # fmt: skip
    in_memory(g, parts, 3, tmp_path / "mem", num_hops)
    assert_same_partitions(cfg, tmp_path / "mem" / "g.json")
    assert not list((tmp_path / "out").rglob("leaving*")), "the owners' files are deleted"


@pytest.mark.parametrize("runs_of", [1, 2, 7])
def test_runs_of_chunks_give_the_partitions_of_one_chunk_a_task(
    runs_of, tmp_path, dask_client, monkeypatch
):
    """A phase-1 task reads consecutive chunks up to TASK_EDGES edges (node data up to
    TASK_BYTES): one chunk a run, runs of two, and every chunk in one run all give the
    in-memory partition, with a piece per run and partition."""
    from graphpart.chunked import _shuffle

    g = featured_sbm()
    write_chunked(g, tmp_path / "ch", 7, graph_name="g")
    meta = read_metadata(tmp_path / "ch")
    edges = max(meta.edges[("_N", "_E", "_N")].counts)
    rows = max(meta.node_data["_N"]["feat"].counts)
    monkeypatch.setattr(_shuffle, "TASK_EDGES", runs_of * edges)
    monkeypatch.setattr(_shuffle, "TASK_BYTES", runs_of * rows * 16)  # rows of 4 float32
    saved = []
    real = _shuffle.save_piece
    monkeypatch.setattr(
        _shuffle, "save_piece", lambda path, **a: (saved.append(path), real(path, **a))
    )
    parts = random_parts(g, 3, seed=1)
    write_assignment(tmp_path / "asg", parts, 3, "custom")
    cfg = dispatch(
        tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client,
        save_orig_nids=True, save_orig_eids=True, **LIKE_PARTITION_GRAPH,
    )  # fmt: skip
    in_memory(g, parts, 3, tmp_path / "mem", 1)
    assert_same_partitions(cfg, tmp_path / "mem" / "g.json")
    runs = _shuffle.edge_runs(meta, ("_N", "_E", "_N"))
    assert len(runs) == {1: 7, 2: 4, 7: 1}[runs_of]
    assert len([p for p in saved if "-own" in p.name]) == len(runs) * 3  # a run and partition
    assert [c for r in runs for c in range(*r)] == list(range(7))
    counts = meta.node_data["_N"]["feat"].counts
    plan = _shuffle.Plan.of(meta, tmp_path, SimpleNamespace(ntypes=("_N",)), (), 1, False,
                            {(0, k): counts for k in range(len(meta.node_data["_N"]))})  # fmt: skip
    assert len(plan.node_runs[0][0]) == {1: 7, 2: 4, 7: 1}[runs_of]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 50), max_size=30), st.integers(1, 60))
def test_chunk_runs_cover_the_chunks_in_order_within_their_bound(sizes, limit):
    from graphpart.chunked._shuffle import chunk_runs

    runs = chunk_runs(sizes, limit)
    assert [c for first, end in runs for c in range(first, end)] == list(range(len(sizes)))
    assert all(end > first for first, end in runs)
    bound = max([limit, *sizes])
    assert all(sum(sizes[first:end]) <= bound for first, end in runs)
    # greedy: a run and the next chunk together would pass the limit
    assert all(sum(sizes[a:b]) + sizes[b] > limit for (a, b), _ in zip(runs, runs[1:]))


def test_a_dispatched_output_with_its_merged_maps_is_replaced(tmp_path, dask_client):
    from graphpart.chunked import assign, dispatch, write_chunked

    write_chunked(load_karate_club(), tmp_path / "ch", 2)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    for _ in range(2):
        cfg = dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client,
                       save_orig_nids=True, save_orig_eids=True)  # fmt: skip
    assert (tmp_path / "out" / "orig_nids").is_dir() and cfg.is_file()
    (tmp_path / "out" / "orig_nids" / "notes.txt").write_text("mine")
    with pytest.raises(gp.GraphpartError, match=r"did not write \('orig_nids/notes.txt'\)"):
        dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client)


@pytest.mark.parametrize("name", ["sbm", "hetero"])
def test_by_default_each_edge_is_stored_once_at_its_destinations_owner(name, tmp_path, dask_client):
    # DGL's pipeline: a partition holds the in-edges of its nodes, their sources from other
    # partitions as HALO nodes, and nothing else; the cut and the owned edges are partition_graph's
    g = GRAPHS[name]()
    write_chunked(g, tmp_path / "ch", 3, graph_name="g")
    parts = random_parts(g, 3, seed=5)
    write_assignment(tmp_path / "asg", parts, 3, "custom")
    cfg = dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client)
    in_memory(g, parts, 3, tmp_path / "mem", 1)
    mem = gp.storage.open_partitions(tmp_path / "mem" / "g.json")
    assert json.loads(cfg.read_text())["out_edges"] is False
    seen = []
    for p in range(3):
        ours, _, _ = gp.storage.open_partitions(cfg).load(p)
        theirs, _, _ = mem.load(p)
        nid, s, d = ours.ndata["_ID"], *ours.edges()
        inner = ours.ndata["inner_node"].bool()
        assert inner[d].all() and ours.edata["inner_edge"].bool().all()  # into its own nodes
        ts, td = theirs.edges()
        own = theirs.edata["inner_edge"].bool()
        t_nid = theirs.ndata["_ID"]
        want = sorted(zip(theirs.edata["_ID"][own].tolist(), t_nid[ts[own]].tolist(),
                          t_nid[td[own]].tolist()))  # fmt: skip
        got = sorted(zip(ours.edata["_ID"].tolist(), nid[s].tolist(), nid[d].tolist()))
        assert got == want  # the same edges, ids and endpoints as partition_graph's owned ones
        halo = set(nid[~inner].tolist())
        assert halo == set(nid[s].tolist()) - set(nid[inner].tolist())  # sources, nothing else
        seen += [e for e, _, _ in got]
    assert sorted(seen) == list(range(sum(g.num_edges(e) for e in g.canonical_etypes)))
    m = gp.metrics.metrics_from_disk(cfg)
    m0 = gp.metrics.metrics_from_disk(tmp_path / "mem" / "g.json")
    assert m.edge_cut == m0.edge_cut and (m.owned_edges == m0.owned_edges).all()
    assert m.replication_factor <= m0.replication_factor


@pytest.mark.parametrize("format", ["graphbolt", "dgl", "graphpart"])
@pytest.mark.parametrize("dtype", ["uint16", "uint32"])
def test_unsigned_data_is_stored_wider_every_value_kept(tmp_path, dask_client, dtype, format):
    # every partition task crashed in graphpart's format ("no torch storage for dtype uint32"),
    # and DGL 2.1 could not load the GraphBolt or DGL files ("Unsupported kUInt bits")
    from graphpart.chunked import verify

    g = gp.datasets.rmat(8, seed=0)
    top = np.iinfo(dtype).max
    g.ndata["x"] = torch.from_numpy((top - np.arange(g.num_nodes())).astype(dtype))
    write_chunked(g, tmp_path / "ch", 2, graph_name="g")
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    cfg = dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client,
                   format=format)  # fmt: skip
    assert verify(cfg, tmp_path / "ch", tmp_path / "asg").ok
    got = torch.cat([gp.load_partition(cfg, i)[1]["_N/x"] for i in range(2)])
    assert got.dtype == {"uint16": torch.int32, "uint32": torch.int64}[dtype]
    assert sorted(got.tolist()) == sorted((top - np.arange(g.num_nodes())).tolist())


@pytest.mark.parametrize("format", ["graphbolt", "dgl", "graphpart"])
def test_uint64_data_is_refused_before_any_task(tmp_path, dask_client, format):
    g = gp.datasets.rmat(8, seed=0)
    g.ndata["x"] = torch.from_numpy(np.arange(g.num_nodes(), dtype=np.uint64))
    write_chunked(g, tmp_path / "ch", 2, graph_name="g")
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    with pytest.raises(gp.GraphpartError, match="'x' of '_N' is uint64, which no partition file"):
        dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "o2", client=dask_client,
                 format=format)  # fmt: skip
    assert not (tmp_path / "o2").exists()


@pytest.mark.parametrize("format", ["graphbolt", "dgl", "graphpart"])
def test_float128_data_is_refused_before_any_task(tmp_path, format, monkeypatch):
    """float128 in a .npy chunk crashed every partition task ('can't convert np.ndarray of type
    numpy.longdouble'), in every format: one rule for what chunks hold, checked first."""
    import importlib

    dispatch_module = importlib.import_module("graphpart.chunked.dispatch")
    g = gp.datasets.rmat(7, seed=0)
    write_chunked(g, tmp_path / "ch", 2, graph_name="g")
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0)
    meta = json.loads((tmp_path / "ch" / "metadata.json").read_text())
    n = g.num_nodes()
    for i, rows in enumerate([n // 2, n - n // 2]):
        np.save(tmp_path / "ch" / f"x{i}.npy", np.ones(rows, dtype=np.longdouble))
    meta["node_data"] = {"_N": {"x": {"format": {"name": "numpy"}, "data": ["x0.npy", "x1.npy"]}}}
    (tmp_path / "ch" / "metadata.json").write_text(json.dumps(meta))
    monkeypatch.setattr(dispatch_module, "dask_client", None)  # no cluster is ever started
    with pytest.raises(gp.GraphpartError, match="holds float128 values; chunks hold numbers"):
        dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", format=format)
    assert not (tmp_path / "out").exists()

"""Real DGL 2.1 (in its own venv) loads graphpart's partitions, and graphpart reads DGL's back
exactly."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp

from ..graphs import shop, shop_masks
from .fixture_graphs import GRAPHS
from .peers import FIXTURES, load_dump, run_peer

pytestmark = pytest.mark.peers


def _graphpart_view(config, num_parts):
    """graphpart's reading of a config, keyed like tests/interop/peer/dgl_dump.py's dump."""
    out = {}
    for i in range(num_parts):
        g, nfeat, efeat, book, *_ = gp.load_partition(config, i)
        s, d = g.edges()
        out[f"p{i}/src"], out[f"p{i}/dst"] = s.numpy(), d.numpy()
        out.update({f"p{i}/ndata/{k}": v.numpy() for k, v in g.ndata.items()})
        out.update({f"p{i}/edata/{k}": v.numpy() for k, v in g.edata.items()})
        out.update({f"p{i}/nfeat/{k}": v.numpy() for k, v in nfeat.items()})
        out.update({f"p{i}/efeat/{k}": v.numpy() for k, v in efeat.items()})
        out[f"p{i}/nid2partid"] = book.nid2partid(
            torch.arange(sum(book.metadata()[j]["num_nodes"] for j in range(num_parts)))
        ).numpy()
    return out


def _assert_same(dgl_dump, ours):
    keys = {k for k in dgl_dump if not k.endswith(("/name", "/ntypes")) and "/gb/" not in k}
    assert keys == set(ours), sorted(keys ^ set(ours))
    for k in sorted(keys):
        a, b = dgl_dump[k], ours[k]
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), k


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_dgl_loads_graphpart_partitions(tmp_path, name):
    g = GRAPHS[name]()
    gp.partition_graph(g, name, 2, tmp_path / "p", seed=0, format="dgl", num_hops=1)
    config = tmp_path / "p" / f"{name}.json"
    run_peer("dgl_dump.py", config, tmp_path / "dump.npz", env={"DGL_DIST_DEBUG": "1"})
    dump = load_dump(tmp_path / "dump.npz")
    _assert_same(dump, _graphpart_view(config, 2))
    assert str(dump["p0/name"]) == name


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_graphpart_reads_what_dgl_loads_from_dgl_written_partitions(tmp_path, name):
    config = FIXTURES / name / "dgl" / f"{name}.json"
    run_peer("dgl_dump.py", config, tmp_path / "dump.npz", env={"DGL_DIST_DEBUG": "1"})
    _assert_same(load_dump(tmp_path / "dump.npz"), _graphpart_view(config, 2))


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_round_trip_graphpart_dgl_graphpart(tmp_path, name):
    """graphpart writes; DGL loads and saves again with its own writers; graphpart reads the same
    arrays."""
    g = GRAPHS[name]()
    gp.partition_graph(g, name, 2, tmp_path / "p", seed=0, format="dgl", num_trainers_per_machine=2)
    run_peer("dgl_resave.py", tmp_path / "p" / f"{name}.json", tmp_path / "q")
    _assert_same(
        _graphpart_view(tmp_path / "q" / f"{name}.json", 2),
        _graphpart_view(tmp_path / "p" / f"{name}.json", 2),
    )


def _graphbolt_view(config, num_parts):
    from graphpart.interop.graphbolt import load_graphbolt

    out = {}
    for i in range(num_parts):
        gb = load_graphbolt(config.parent / f"part{i}" / "fused_csc_sampling_graph.pt")
        out[f"p{i}/gb/indptr"], out[f"p{i}/gb/indices"] = gb.indptr.numpy(), gb.indices.numpy()
        if gb.type_per_edge is not None:
            out[f"p{i}/gb/type_per_edge"] = gb.type_per_edge.numpy()
        out.update({f"p{i}/gb/node/{k}": v.numpy() for k, v in gb.node_attributes.items()})
        out.update({f"p{i}/gb/edge/{k}": v.numpy() for k, v in gb.edge_attributes.items()})
    return out


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_dgl_loads_graphpart_graphbolt_partitions(tmp_path, name):
    gp.partition_graph(GRAPHS[name](), name, 2, tmp_path / "p", seed=0, format="graphbolt")
    config = tmp_path / "p" / f"{name}.json"
    proc = run_peer(
        "dgl_dump.py", config, tmp_path / "dump.npz", "graphbolt", env={"DGL_DIST_DEBUG": "1"}
    )
    assert proc.stdout.count("looks good") == 2  # DGL's own GraphBolt verification ran on both
    dump = load_dump(tmp_path / "dump.npz")
    ours = _graphbolt_view(config, 2)
    assert {k for k in dump if "/gb/" in k} == set(ours)
    for k, v in ours.items():  # DGL's dtypes too: int32 indptr and indices where they fit
        assert dump[k].dtype == v.dtype and np.array_equal(dump[k], v), k
    assert ours["p0/gb/indptr"].dtype == ours["p0/gb/indices"].dtype == np.int32
    assert not (config.parent / "part0" / "graph.dgl").exists()  # one copy of the graph


def test_dgl_verifies_every_part_of_issue_19s_heterograph(tmp_path):
    # balance_ntypes with two one-node classes once left one of three parts empty, which DGL's
    # GraphBolt verification refused
    g = shop(0)
    out = tmp_path / "p"
    gp.partition_graph(g, "shop", 3, out, balance_ntypes=shop_masks(g), seed=0, format="graphbolt")
    proc = run_peer(
        "dgl_dump.py",
        out / "shop.json",
        tmp_path / "d.npz",
        "graphbolt",
        env={"DGL_DIST_DEBUG": "1"},
    )
    assert proc.stdout.count("looks good") == 3


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_graphpart_reads_dgl_written_graphbolt_files(tmp_path, name):
    config = FIXTURES / name / "dgl" / f"{name}.json"
    run_peer("dgl_dump.py", config, tmp_path / "dump.npz", "graphbolt")
    dump = load_dump(tmp_path / "dump.npz")
    for k, v in _graphbolt_view(config, 2).items():
        assert dump[k].dtype == v.dtype and np.array_equal(dump[k], v), k


def _free_ports(n):
    import socket

    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def test_two_dist_graph_servers_serve_graphpart_partitions(tmp_path):
    """Two real DistGraphServers on loopback serve graphpart's output; a DistGraph client sees the
    graph."""
    g = GRAPHS["karate"]()
    nmap, emap = gp.partition_graph(
        g, "karate", 2, tmp_path / "p", seed=0, format="dgl", return_mapping=True
    )
    run_peer(
        "dgl_distgraph.py",
        tmp_path / "p" / "karate.json",
        tmp_path / "out.npz",
        *_free_ports(2),
        timeout=420,
    )
    got = load_dump(tmp_path / "out.npz")
    # in the partitions' ids: new node i is original nmap[i], new edge j is original emap[j]
    for name in ("feat", "label", "train_mask"):
        want = g.ndata[name][nmap]
        want = want.to(torch.uint8) if want.dtype == torch.bool else want
        assert np.array_equal(got[f"feat/{name}"], want.numpy()), name
    s, d = g.edges()
    old2new = torch.empty_like(nmap)
    old2new[nmap] = torch.arange(len(nmap))
    assert np.array_equal(got["find_src"], old2new[s[emap]].numpy())
    assert np.array_equal(got["find_dst"], old2new[d[emap]].numpy())
    sampled = sorted(
        zip(got["sample_src"].tolist(), got["sample_dst"].tolist(), got["sample_eid"].tolist())
    )
    assert sampled == sorted(
        zip(old2new[s[emap]].tolist(), old2new[d[emap]].tolist(), range(g.num_edges()))
    )


def test_dgl_loads_what_the_out_of_core_pipeline_writes(tmp_path):
    # R-MAT generated in blocks, the edge-balanced streaming assignment, dispatch in DGL's format
    from graphpart import chunked

    chunked.rmat_chunked(tmp_path / "c", 4, 11, seed=0, edge_format="numpy", graph_name="rmat")
    chunked.assign(tmp_path / "c", tmp_path / "a", 3, "fennel", balance_edges=True)
    config = chunked.dispatch(
        tmp_path / "c", tmp_path / "a", tmp_path / "p", format="dgl", workers=1, processes=False
    )
    run_peer("dgl_dump.py", config, tmp_path / "dump.npz", env={"DGL_DIST_DEBUG": "1"})
    _assert_same(load_dump(tmp_path / "dump.npz"), _graphpart_view(config, 3))


@pytest.mark.parametrize("out_edges", [False, True], ids=["each edge once", "out_edges"])
def test_dgl_loads_the_pipelines_graphbolt_output_every_inner_node_and_in_edge(tmp_path, out_edges):
    # dispatch's default: GraphBolt's file alone, written out of core; DGL 2.1 loads it, checks
    # it against its book (DGL_DIST_DEBUG), and what it loaded is the graph, edge for edge
    from graphpart import chunked

    from ..chunked.test_dispatch import featured_sbm

    g = featured_sbm()
    chunked.write_chunked(g, tmp_path / "c", 3, graph_name="sbm")
    rng = np.random.default_rng(4)
    chunked.write_assignment(tmp_path / "a", {"_N": rng.integers(0, 3, g.num_nodes())}, 3, "x")
    config = chunked.dispatch(
        tmp_path / "c", tmp_path / "a", tmp_path / "p", workers=1, processes=False,
        save_orig_nids=True, save_orig_eids=True, out_edges=out_edges,
    )  # fmt: skip
    proc = run_peer(
        "dgl_dump.py", config, tmp_path / "dump.npz", "graphbolt", env={"DGL_DIST_DEBUG": "1"}
    )
    assert proc.stdout.count("looks good") == 3
    dump = load_dump(tmp_path / "dump.npz")
    onid, oeid = (x.numpy() for x in chunked.load_orig_ids(config))
    src, dst = (x.numpy() for x in g.edges())
    cfg = gp.storage.read_config(config)
    owned = []
    for i in range(3):
        start, end = cfg.node_bounds[i, 0]
        nid = dump[f"p{i}/gb/node/_ID"]
        assert np.array_equal(nid[: end - start], np.arange(start, end))  # every inner node
        indptr, indices = dump[f"p{i}/gb/indptr"], dump[f"p{i}/gb/indices"]
        assert indptr.dtype == indices.dtype == np.int32
        local_dst = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
        eid = dump[f"p{i}/gb/edge/_ID"]
        inner = dump[f"p{i}/gb/edge/inner_edge"].astype(bool)
        # each edge joins the original endpoints of its original edge
        assert np.array_equal(onid[nid[indices]], src[oeid[eid]])
        assert np.array_equal(onid[nid[local_dst]], dst[oeid[eid]])
        assert np.array_equal(inner, local_dst < end - start)  # owned: into an inner node
        assert out_edges or inner.all()
        owned.append(eid[inner])
        for name, feat in (("_N/feat", g.ndata["feat"]), ("_N/train_mask", g.ndata["train_mask"])):
            assert np.array_equal(dump[f"p{i}/nfeat/{name}"], feat.numpy()[onid[start:end]])
        es, ee = cfg.edge_bounds[i, 0]
        assert np.array_equal(dump[f"p{i}/efeat/_N:_E:_N/w"], g.edata["w"].numpy()[oeid[es:ee]])
    # every edge of the graph is the in-edge of exactly one partition's inner node
    assert np.array_equal(np.sort(np.concatenate(owned)), np.arange(g.num_edges()))


@pytest.mark.parametrize("dtype", [torch.uint16, torch.uint32])
@pytest.mark.parametrize("how", ["partition_graph dgl", "dispatch graphbolt"])
def test_dgl_loads_unsigned_data_stored_wider_every_value_kept(tmp_path, dtype, how):
    # DGL 2.1 refused the files graphpart wrote with uint16/32 data ("Unsupported kUInt bits"),
    # exit 0 and verify passing
    from graphpart import chunked

    g = gp.datasets.rmat(7, seed=0)
    top = torch.iinfo(dtype).max
    values = torch.tensor([top - v for v in range(g.num_nodes())], dtype=torch.int64)
    g.ndata["x"] = values.to(dtype)
    if how == "partition_graph dgl":
        gp.partition_graph(g, "g", 2, tmp_path / "p", seed=0, format="dgl")
        config, mode = tmp_path / "p" / "g.json", ()
    else:
        chunked.write_chunked(g, tmp_path / "c", 2, graph_name="g")
        chunked.assign(tmp_path / "c", tmp_path / "a", 2, "random", seed=0)
        config = chunked.dispatch(
            tmp_path / "c", tmp_path / "a", tmp_path / "p", workers=1, processes=False
        )
        mode = ("graphbolt",)
        assert chunked.verify(config, tmp_path / "c", tmp_path / "a").ok
    run_peer("dgl_dump.py", config, tmp_path / "dump.npz", *mode)
    dump = load_dump(tmp_path / "dump.npz")
    got = np.concatenate([dump[f"p{i}/nfeat/_N/x"] for i in range(2)])
    assert got.dtype == (np.int32 if dtype == torch.uint16 else np.int64)
    assert sorted(got.tolist()) == sorted(values.tolist())

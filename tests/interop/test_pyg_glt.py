"""PyG and GLT partition folders written by the real libraries: graphpart reads every array
exactly."""

from __future__ import annotations

import logging

import pytest
import torch

import graphpart as gp
from graphpart.interop import export_pyg
from graphpart.metrics import metrics_from_disk
from graphpart.storage import detect_format

from .fixture_graphs import GRAPHS
from .peers import FIXTURES

# Where each peer puts the source graph's data: (feature key in the file, graph data name, node or
# edge).
NAMES = {
    "pyg": {"x": ("feat", "node"), "edge_attr": ("w", "edge")},
    "glt": {"feat": ("feat", "node")},
}


def _check_partition(g, d, fmt, name):
    lg = d.graph
    inner = lg.ndata["inner_node"].bool()
    ntype = (
        lg.ndata["_TYPE"].long()
        if "_TYPE" in lg.ndata
        else torch.zeros(lg.num_nodes(), dtype=torch.long)
    )
    etype = (
        lg.edata["_TYPE"].long()
        if "_TYPE" in lg.edata
        else torch.zeros(lg.num_edges(), dtype=torch.long)
    )
    orig = lg.ndata["orig_id"]
    s, dd = lg.edges()
    book = d.book
    # every local edge is the source graph's edge with that original id
    for k, et in enumerate(g.canonical_etypes):
        sel = etype == k
        ids = book.map_to_per_etype(lg.edata["_ID"][sel])[1]
        # the original edge id: the partition book renumbers, so ask which original edge has these
        # endpoints
        gs, gd = g.edges(et)
        pairs = set(zip(gs.tolist(), gd.tolist()))
        got = list(zip(orig[s[sel]].tolist(), orig[dd[sel]].tolist()))
        assert set(got) <= pairs and len(ids) == len(got)
        assert bool((ntype[s[sel]] == g.ntypes.index(et[0])).all()) and bool(
            (ntype[dd[sel]] == g.ntypes.index(et[2])).all()
        )
    for key, rows in d.node_feats.items():
        t, _, fname = key.rpartition("/")
        src_name = NAMES[fmt][fname][0]
        mine = orig[inner & (ntype == g.ntypes.index(t))]
        expect = g.node_data(t)[src_name][mine] if src_name in g.node_data(t) else None
        if expect is not None:
            assert torch.equal(rows, expect.to(rows.dtype).reshape(rows.shape)), key


@pytest.mark.parametrize("fmt", ["pyg", "glt"])
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_peer_written_folders_load_exactly(name, fmt, caplog):
    g = GRAPHS[name]()
    root = FIXTURES / name / fmt
    with caplog.at_level(logging.INFO, logger="graphpart"):
        assert detect_format(root) == fmt
        parts = [gp.load_partition(root, i) for i in range(2)]
    assert any("PyG" in r.message or "GraphLearn" in r.message for r in caplog.records)
    owned = []
    for i, d in enumerate(parts):
        assert d.ntypes == g.ntypes and d.etypes == g.canonical_etypes
        _check_partition(g, d, fmt, name)
        owned.append(int(d.graph.edata["inner_edge"].sum()))
    assert sum(owned) == g.num_edges()
    m = metrics_from_disk(root)
    assert m.num_nodes == g.num_nodes() and m.num_edges == g.num_edges()


def test_pyg_edge_features_follow_their_edges():
    g = GRAPHS["karate"]()
    for i in range(2):
        d = gp.load_partition(FIXTURES / "karate" / "pyg", i)
        s, dd = d.graph.edges()
        orig = d.graph.ndata["orig_id"]
        gs, gd = g.edges()
        w = {(a, b): float(x) for a, b, x in zip(gs.tolist(), gd.tolist(), g.edata["w"].tolist())}
        inner = d.graph.edata["inner_edge"].bool()
        # edge features are stored in new edge id order, which is the local graph's edge order
        got = d.edge_feats["_N:_E:_N/edge_attr"].flatten().tolist()
        want = [w[(a, b)] for a, b in zip(orig[s[inner]].tolist(), orig[dd[inner]].tolist())]
        assert got == pytest.approx(want)


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_export_pyg_reads_back_as_the_same_partitioning(tmp_path, name):
    g = GRAPHS[name]()
    p = gp.partition(g, 2, seed=0)
    export_pyg(p, tmp_path / "pyg")
    m_disk, m_mem = metrics_from_disk(tmp_path / "pyg"), p.metrics
    assert (
        m_disk.edge_cut == m_mem.edge_cut
        and m_disk.communication_volume == m_mem.communication_volume
    )
    assert list(m_disk.inner_nodes) == list(m_mem.inner_nodes)
    for i in range(2):
        d = gp.load_partition(tmp_path / "pyg", i)
        assert d.book.metadata() == p.book.metadata()
        assert torch.equal(
            d.graph.ndata["_ID"][: int(d.graph.ndata["inner_node"].sum())], p.book.partid2nids(i)
        )
        for key, v in p.node_feats(i).items():
            assert torch.equal(d.node_feats[key], v), key
        for key, v in p.edge_feats(i).items():
            assert torch.equal(d.edge_feats[key], v), key


def test_export_pyg_refuses_what_is_not_a_partitioning(tmp_path):
    with pytest.raises(gp.GraphpartError, match="takes a graphpart Partitioning"):
        export_pyg(GRAPHS["karate"](), tmp_path / "x")


class Payload:
    def __reduce__(self):
        import os

        return os.system, ("touch /tmp/graphpart_peer_pwned",)


@pytest.mark.parametrize(
    "peer,victim",
    [
        ("glt", "META"),
        ("glt", "part0/node_feat/feats.pkl"),
        ("glt", "node_pb.pt"),
        ("pyg", "part_0/graph.pt"),
        ("pyg", "node_map.pt"),
        ("pyg", "part_1/edge_feats.pt"),
    ],
)
def test_pickled_payloads_in_peer_folders_are_refused(tmp_path, peer, victim):
    import os
    import pickle
    import shutil

    from graphpart.datasets import peer_partitions

    shutil.copytree(peer_partitions("karate", peer), tmp_path / "p")
    target = tmp_path / "p" / victim
    if target.suffix == ".pt":
        torch.save({"x": Payload()}, target)
    else:
        target.write_bytes(pickle.dumps(Payload()))
    with pytest.raises(gp.FormatError, match="refusing|weights-only|Unsupported|not a"):
        for i in range(2):
            gp.load_partition(tmp_path / "p", i)
    assert not os.path.exists("/tmp/graphpart_peer_pwned")


def test_feature_rows_must_match_their_ids(tmp_path):
    import shutil

    from graphpart.datasets import peer_partitions

    shutil.copytree(peer_partitions("karate", "pyg"), tmp_path / "p")
    nf = torch.load(tmp_path / "p" / "part_0" / "node_feats.pt", weights_only=True)
    nf["feats"]["x"] = torch.cat([nf["feats"]["x"], nf["feats"]["x"][:5]])
    torch.save(nf, tmp_path / "p" / "part_0" / "node_feats.pt")
    with pytest.raises(gp.FormatError, match="rows for"):
        gp.load_partition(tmp_path / "p", 0)


def test_type_names_from_meta_cannot_leave_the_folder(tmp_path):
    import json
    import shutil

    from graphpart.datasets import peer_partitions

    shutil.copytree(peer_partitions("hetero3", "pyg"), tmp_path / "p")
    meta = json.loads((tmp_path / "p" / "META.json").read_text())
    meta["node_types"][0] = "../../outside"
    (tmp_path / "p" / "META.json").write_text(json.dumps(meta))
    with pytest.raises(gp.FormatError, match="plain non-empty names"):
        gp.load_partition(tmp_path / "p", 0)

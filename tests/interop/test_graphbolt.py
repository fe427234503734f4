"""GraphBolt's fused_csc_sampling_graph.pt: DGL's files read without DGL, hostile pickles
refused."""

from __future__ import annotations

import os
import pickle
import zipfile

import pytest
import torch

import graphpart as gp
from graphpart.errors import FormatError
from graphpart.interop.graphbolt import load_graphbolt, save_graphbolt

from .fixture_graphs import GRAPHS
from .peers import FIXTURES


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_dgl_written_graphbolt_matches_its_dgl_graph(name):
    """Both files DGL wrote for a partition hold the same edges (CSC order vs COO order)."""
    for i in range(2):
        g = gp.load_partition(FIXTURES / name / "dgl" / f"{name}.json", i, load_feats=False).graph
        gb = load_graphbolt(FIXTURES / name / "dgl" / f"part{i}" / "fused_csc_sampling_graph.pt")
        s, d = gb.coo()
        ours = sorted(zip(s.tolist(), d.tolist(), gb.edge_attributes["_ID"].tolist()))
        s2, d2 = g.edges()
        assert ours == sorted(zip(s2.tolist(), d2.tolist(), g.edata["_ID"].tolist()))
        assert torch.equal(gb.node_attributes["_ID"], g.ndata["_ID"])
        assert torch.equal(gb.node_attributes["inner_node"], g.ndata["inner_node"])
        if name == "hetero3":
            assert gb.edge_type_to_id == {
                "item:bought_by:user": 0,
                "item:has:tag": 1,
                "user:buys:item": 2,
                "user:follows:user": 3,
            }
            assert torch.equal(
                gb.type_per_edge.to(torch.int64),
                g.edata["_TYPE"][torch.argsort(d2, stable=True)].to(torch.int64),
            )


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_written_graphbolt_round_trips(tmp_path, name):
    gp.partition_graph(GRAPHS[name](), name, 2, tmp_path / "p", seed=0, format="graphbolt")
    for i in range(2):
        g = gp.load_partition(tmp_path / "p" / f"{name}.json", i, load_feats=False).graph
        gb = load_graphbolt(tmp_path / "p" / f"part{i}" / "fused_csc_sampling_graph.pt")
        s, d = gb.coo()
        order = torch.argsort(g.edges()[1], stable=True)
        assert torch.equal(s, g.edges()[0][order]) and torch.equal(d, g.edges()[1][order])
        assert torch.equal(gb.edge_attributes["_ID"], g.edata["_ID"][order])


class Payload:
    def __reduce__(self):
        return os.system, ("touch /tmp/graphpart_gb_pwned",)


def _torch_zip_with(path, obj_bytes):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("archive/data.pkl", obj_bytes)
        z.writestr("archive/version", "3\n")
        z.writestr("archive/byteorder", "little")


@pytest.mark.parametrize("payload", [Payload(), {"independent_tensors": Payload()}])
def test_pickled_payloads_are_refused_and_never_run(tmp_path, payload):
    path = tmp_path / "fused_csc_sampling_graph.pt"
    torch.save(payload, path)
    with pytest.raises(FormatError, match="not a GraphBolt partition graph"):
        load_graphbolt(path)
    _torch_zip_with(path, pickle.dumps(payload, protocol=2))
    with pytest.raises(FormatError):
        load_graphbolt(path)
    assert not os.path.exists("/tmp/graphpart_gb_pwned")


def test_wrong_objects_and_damage_are_format_errors(tmp_path):
    path = tmp_path / "g.pt"
    torch.save({"indptr": torch.zeros(1)}, path)
    with pytest.raises(FormatError, match="expected a pickled"):
        load_graphbolt(path)
    good = FIXTURES / "karate" / "dgl" / "part0" / "fused_csc_sampling_graph.pt"
    raw = good.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])
    with pytest.raises(FormatError):
        load_graphbolt(path)


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_a_config_with_graphbolt_files_only_loads(tmp_path, name):
    """Newer DGL writes GraphBolt files without graph.dgl: the partitions load from those alone."""
    import json
    import shutil

    shutil.copytree(FIXTURES / name / "dgl", tmp_path / "p")
    cfg_path = tmp_path / "p" / f"{name}.json"
    cfg = json.loads(cfg_path.read_text())
    for i in range(2):
        (tmp_path / "p" / cfg[f"part-{i}"].pop("part_graph")).unlink()
    cfg_path.write_text(json.dumps(cfg))
    for i in range(2):
        gb_only = gp.load_partition(cfg_path, i)
        full = gp.load_partition(FIXTURES / name / "dgl" / f"{name}.json", i)
        assert torch.equal(gb_only.graph.ndata["_ID"], full.graph.ndata["_ID"])
        for k in ("part_id", "inner_node") + (("_TYPE",) if name == "hetero3" else ()):
            assert torch.equal(gb_only.graph.ndata[k].long(), full.graph.ndata[k].long()), k
        a = sorted(
            zip(
                *(x.tolist() for x in gb_only.graph.edges()),
                gb_only.graph.edata["_ID"].tolist(),
                gb_only.graph.edata["inner_edge"].tolist(),
            )
        )
        b = sorted(
            zip(
                *(x.tolist() for x in full.graph.edges()),
                full.graph.edata["_ID"].tolist(),
                full.graph.edata["inner_edge"].tolist(),
            )
        )
        assert a == b
        assert all(torch.equal(gb_only.node_feats[k], v) for k, v in full.node_feats.items())
    assert (
        gp.metrics.metrics_from_disk(cfg_path).edge_cut
        == gp.metrics.metrics_from_disk(FIXTURES / name / "dgl" / f"{name}.json").edge_cut
    )


def test_graphbolt_ids_outside_the_book_name_the_file(tmp_path):
    import shutil

    from graphpart.datasets import peer_partitions
    from graphpart.interop.graphbolt import load_graphbolt, save_graphbolt

    from ..fuzzing import graphbolt_only

    root = tmp_path / "gb"
    shutil.copytree(peer_partitions("karate", "dgl").parent, root)
    graphbolt_only(root)
    path = root / "part0" / "fused_csc_sampling_graph.pt"
    gb = load_graphbolt(path)
    nid = gb.node_attributes["_ID"].clone()
    nid[0] = 10**6
    src, dst = gb.coo()
    ndata = {"_ID": nid, "inner_node": gb.node_attributes["inner_node"]}
    edata = {k: gb.edge_attributes[k] for k in ("_ID", "inner_edge")}
    save_graphbolt(
        path, gp.Graph.from_edges(src, dst, num_nodes=gb.num_nodes, ndata=ndata, edata=edata)
    )
    with pytest.raises(gp.FormatError, match=r"fused_csc_sampling_graph.pt: node ids must lie in"):
        gp.storage.open_partitions(root / "karate.json").load(0)


@pytest.mark.parametrize("bad", [99, -1])
def test_edge_type_ids_outside_the_type_map_are_refused(tmp_path, bad):
    """They loaded: every edge of a 4-type graph read back as type 99 (issue 30)."""
    from graphpart.errors import FormatError

    g = gp.Graph.from_edges([0, 1, 2], [1, 2, 0], num_nodes=3)
    g.edata["_TYPE"] = torch.tensor([0, bad, 1])
    g.ndata["_ID"] = torch.arange(3)
    g.edata["_ID"] = torch.arange(3)
    path = tmp_path / "fused_csc_sampling_graph.pt"
    save_graphbolt(path, g, {"n": 0}, {"n:a:n": 0, "n:b:n": 1})
    with pytest.raises(FormatError, match=r"type_per_edge holds .* outside the edge types' ids"):
        load_graphbolt(path)


@pytest.mark.parametrize(
    "state",
    [["not", "a dict"], {"_c_csc_graph": 3}, {"_c_csc_graph": {"indptr": 1}}, None],
    ids=["a list", "a number", "a dict", "none"],
)
def test_graphbolt_records_refuse_a_stand_in_holding_something_else(tmp_path, state):
    from graphpart.errors import FormatError
    from graphpart.interop.graphbolt import NAMES, _instance, _PyGraph, graphbolt_records
    from graphpart.interop.torch_zip import TorchZipWriter

    path = tmp_path / "fused_csc_sampling_graph.pt"
    with open(path, "wb") as f:
        TorchZipWriter(f, _instance(_PyGraph, state), NAMES).close()
    with pytest.raises(FormatError, match="not a GraphBolt partition graph"):
        graphbolt_records(path)

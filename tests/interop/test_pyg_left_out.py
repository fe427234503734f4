"""export_pyg leaves a partition's empty feature groups out (PyG cannot load an empty global_id);
graphpart reads such folders back whole, and refuses a group missing from a partition that owns
rows of it."""

from __future__ import annotations

import json

import pytest
import torch

import graphpart as gp
from graphpart.interop import export_pyg
from graphpart.metrics import metrics_from_disk

from ..graphs import rare_hetero_graph


def _rare(tmp_path):
    g = rare_hetero_graph()
    balance = torch.cat([g.node_data(t)["train_mask"] for t in g.ntypes])
    p = gp.partition(g, 3, seed=0, balance_ntypes=balance)
    export_pyg(p, tmp_path / "pyg")
    return g, p


def _homogeneous(tmp_path):
    g = gp.Graph.from_edges(
        torch.tensor([0, 1, 2, 3]),
        torch.tensor([1, 2, 3, 0]),
        num_nodes=8,
        ndata={"x": torch.randn(8, 3)},
        edata={"w": torch.randn(4, 2)},
    )
    # partition 2 owns nodes 4, 5 and no edge; partition 3 owns nothing
    p = gp.partition(g, 4, part_method=torch.tensor([0, 0, 1, 1, 2, 2, 0, 1]))
    export_pyg(p, tmp_path / "pyg")
    return g, p


def _load(path):
    return torch.load(path, weights_only=True)


def test_empty_groups_are_left_out_of_the_files(tmp_path):
    g, p = _rare(tmp_path)
    left_out = 0
    for i in range(3):
        nf = _load(tmp_path / "pyg" / f"part_{i}" / "node_feats.pt")
        ef = _load(tmp_path / "pyg" / f"part_{i}" / "edge_feats.pt")
        graph = _load(tmp_path / "pyg" / f"part_{i}" / "graph.pt")
        assert all(len(d["global_id"]) for d in [*nf.values(), *ef.values()])
        assert set(graph) == set(g.canonical_etypes)  # empty edge lists stay (PyG loads them)
        left_out += len(g.ntypes) - len(nf) + len(g.canonical_etypes) - len(ef)
    assert left_out >= 3  # tiny, item:in:tiny, user:recalls:item somewhere
    _, p = _homogeneous(tmp_path / "h")
    assert not (tmp_path / "h" / "pyg" / "part_3" / "node_feats.pt").exists()
    assert _load(tmp_path / "h" / "pyg" / "part_2" / "edge_feats.pt") == {}


@pytest.mark.parametrize("make", [_rare, _homogeneous])
def test_export_pyg_with_left_out_groups_reads_back_whole(tmp_path, make):
    g, p = make(tmp_path)
    m = metrics_from_disk(tmp_path / "pyg")
    assert m.edge_cut == p.metrics.edge_cut
    assert list(m.inner_nodes) == list(p.metrics.inner_nodes)
    for i in range(p.num_parts):
        d = gp.load_partition(tmp_path / "pyg", i)
        assert d.book.metadata() == p.book.metadata()
        for got, want in ((d.node_feats, p.node_feats(i)), (d.edge_feats, p.edge_feats(i))):
            assert set(got) == set(want)  # zero-row arrays for the groups the files left out
            for key, v in want.items():
                assert got[key].dtype == v.dtype and torch.equal(got[key], v), (i, key)


def test_a_group_missing_where_the_partition_owns_rows_is_refused(tmp_path):
    g, p = _rare(tmp_path)
    i = int(p.assignment["tiny"][0])
    f = tmp_path / "pyg" / f"part_{i}" / "node_feats.pt"
    nf = _load(f)
    del nf["tiny"]
    torch.save(nf, f)
    with pytest.raises(gp.FormatError, match="rows for 0 ids of 'tiny'"):
        gp.load_partition(tmp_path / "pyg", i)


def test_a_foreign_folder_without_the_schema_reads_what_it_holds(tmp_path):
    g, p = _rare(tmp_path)
    meta = json.loads((tmp_path / "pyg" / "META.json").read_text())
    del meta["graphpart"]["schema"]
    (tmp_path / "pyg" / "META.json").write_text(json.dumps(meta))
    for i in range(3):
        d = gp.load_partition(tmp_path / "pyg", i)
        want = p.node_feats(i)
        assert set(d.node_feats) == {k for k, v in want.items() if len(v)}
        for key in d.node_feats:
            assert torch.equal(d.node_feats[key], want[key])


@pytest.mark.parametrize(
    "schema",
    [
        [1],
        {"node": {"tiny": {"feat": ["os.system", [4]]}}, "edge": {}},
        {"node": {"tiny": {"feat": ["float32", [-1]]}}, "edge": {}},
        {"node": {"tiny": {"feat": ["float32", 4]}}, "edge": {}},
        {"node": {"tiny": ["feat"]}, "edge": {}},
        {"node": {}},
    ],
)
def test_a_bad_schema_is_a_format_error(tmp_path, schema):
    _rare(tmp_path)
    meta = json.loads((tmp_path / "pyg" / "META.json").read_text())
    meta["graphpart"]["schema"] = schema
    (tmp_path / "pyg" / "META.json").write_text(json.dumps(meta))
    with pytest.raises(gp.FormatError, match="schema"):
        gp.load_partition(tmp_path / "pyg", 0)


def test_a_graphpart_entry_that_is_not_a_dict_is_a_format_error(tmp_path):
    _rare(tmp_path)
    meta = json.loads((tmp_path / "pyg" / "META.json").read_text())
    meta["graphpart"] = ["type_wise_ids"]
    (tmp_path / "pyg" / "META.json").write_text(json.dumps(meta))
    with pytest.raises(gp.FormatError, match="graphpart entry"):
        gp.load_partition(tmp_path / "pyg", 0)

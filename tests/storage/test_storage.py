"""On-disk partitions: layout, config keys, atomic writes, validation of what is read back."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys

import pytest
import torch

import graphpart as gp

from ..graphs import hetero_graph, karate


@pytest.fixture()
def written(tmp_path):
    out = tmp_path / "out"
    gp.partition_graph(karate(), "karate", 2, out, seed=0)
    return out


def test_layout_and_dgl_config_keys(written):
    assert sorted(p.name for p in written.iterdir()) == ["karate.json", "part0", "part1"]
    cfg = json.loads((written / "karate.json").read_text())
    for key in [
        "graph_name",
        "part_method",
        "num_parts",
        "halo_hops",
        "num_nodes",
        "num_edges",
        "node_map",
        "edge_map",
        "ntypes",
        "etypes",
        "part-0",
        "part-1",
    ]:
        assert key in cfg
    assert cfg["node_map"]["_N"][0][0] == 0 and cfg["node_map"]["_N"][-1][1] == 34
    assert cfg["etypes"] == {"_N:_E:_N": 0}
    assert cfg["part-1"] == {
        "part_graph": "part1/graph.pt",
        "node_feats": "part1/node_feats.pt",
        "edge_feats": "part1/edge_feats.pt",
    }


def test_load_partition_fields_and_feats(written):
    data = gp.load_partition(written / "karate.json", 1)
    assert data.graph_name == "karate" and data.book.part_id == 1
    nf, ef = gp.load_partition_feats(written / "karate.json", 1, load_edges=False)
    assert ef is None and torch.equal(nf["_N/feat"], data.node_feats["_N/feat"])
    book, name, ntypes, etypes = gp.load_partition_book(written / "karate.json", 0)
    assert (name, ntypes, etypes) == ("karate", ["_N"], [("_N", "_E", "_N")])
    assert gp.load_partition(written / "karate.json", 0, load_feats=False).node_feats is None


def test_hetero_feature_keys(tmp_path):
    g = hetero_graph()
    gp.partition_graph(g, "shop", 2, tmp_path, seed=0)
    nf, ef = gp.load_partition_feats(tmp_path / "shop.json", 0)
    assert "user/feat" in nf and "item/train_mask" in nf
    assert "user:buys:item/w" in ef


def test_rewrite_replaces_earlier_output(written):
    gp.partition_graph(karate(), "karate", 3, written, seed=0)
    assert gp.load_partition_book(written / "karate.json", 2).book.num_partitions() == 3
    assert not (written / "part3").exists()
    assert not [p for p in written.parent.iterdir() if p.name.startswith(".")]


def test_failure_keeps_earlier_output(written, monkeypatch):
    before = (written / "karate.json").read_text()

    calls = []
    save = torch.save

    def boom(obj, f, *a, **k):  # every partition file goes through torch.save: fail in partition 1
        calls.append(str(getattr(f, "name", f)))
        if len(calls) > 3:
            raise RuntimeError("disk full")
        save(obj, f, *a, **k)

    monkeypatch.setattr(torch, "save", boom)
    with pytest.raises(RuntimeError, match="disk full"):
        gp.partition_graph(karate(), "karate", 3, written, seed=0)
    monkeypatch.undo()
    assert len(calls) == 4  # partition 0's three files were written before the failure
    assert (written / "karate.json").read_text() == before
    gp.load_partition(written / "karate.json", 1)
    assert not [p for p in written.parent.iterdir() if p.name.startswith(".")]


def test_kill_mid_write_keeps_earlier_output(written):
    code = (
        "import os, torch, graphpart as gp\n"
        "from tests.graphs import karate\n"
        "orig = torch.save\n"
        "def save(obj, f, *a, **k):\n"
        "    orig(obj, f, *a, **k)\n"
        "    if 'part1' in str(getattr(f, 'name', f)): os._exit(9)\n"
        "torch.save = save\n"
        f"gp.partition_graph(karate(), 'karate', 3, {str(written)!r}, seed=0)\n"
    )
    rc = subprocess.run([sys.executable, "-c", code], cwd=os.getcwd()).returncode
    assert rc == 9
    assert gp.load_partition_book(written / "karate.json", 0).book.num_partitions() == 2
    gp.load_partition(written / "karate.json", 1)


def test_refuses_foreign_folder(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(gp.GraphpartError, match="not empty"):
        gp.partition_graph(karate(), "k", 2, tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("name", ["my graph", "../evil", "a/b", "", "é"])
def test_bad_graph_name_leaves_nothing(tmp_path, name):
    with pytest.raises(gp.GraphpartError, match="letters, digits and underscores"):
        gp.partition_graph(karate(), name, 2, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def _edit(path, fn):
    cfg = json.loads(path.read_text())
    fn(cfg)
    path.write_text(json.dumps(cfg))


@pytest.mark.parametrize(
    "edit,match",
    [
        (lambda c: c.pop("node_map"), "missing keys"),
        (lambda c: c["node_map"]["_N"].reverse(), "sorted, contiguous"),
        (lambda c: c.__setitem__("num_nodes", 99), "cover"),
        (lambda c: c["part-1"].__setitem__("node_feats", "../../etc/passwd"), "outside"),
        (lambda c: c.__setitem__("num_parts", "2"), "num_parts"),
        (lambda c: c.__setitem__("etypes", {"_N:_E:_X": 0}), "edge type"),
    ],
)
def test_corrupted_config(written, edit, match):
    _edit(written / "karate.json", edit)
    with pytest.raises(gp.FormatError, match=match):
        gp.load_partition(written / "karate.json", 1)


def test_not_json(written):
    (written / "karate.json").write_text("{nope")
    with pytest.raises(gp.FormatError, match="not a JSON document"):
        gp.load_partition(written / "karate.json", 0)


def test_missing_partition_file(written):
    (written / "part1" / "edge_feats.pt").unlink()
    with pytest.raises(gp.FormatError, match="its edge_feats file .* is missing"):
        gp.load_partition(written / "karate.json", 1)
    gp.load_partition(written / "karate.json", 0)


def test_missing_config():
    with pytest.raises(gp.FormatError, match="does not exist"):
        gp.load_partition("/nonexistent/x.json", 0)


def test_bad_part_id(written):
    with pytest.raises(gp.GraphpartError, match="part_id"):
        gp.load_partition(written / "karate.json", 2)


class Evil:
    def __reduce__(self):
        return (os.system, ("touch /tmp/graphpart_pwned",))


def test_never_unpickles_arbitrary_objects(written):
    with open(written / "part0" / "node_feats.pt", "wb") as f:
        pickle.dump({"_N/feat": Evil()}, f)
    with pytest.raises(gp.FormatError, match="not a readable"):
        gp.load_partition(written / "karate.json", 0)
    assert not os.path.exists("/tmp/graphpart_pwned")


def test_tampered_feature_shape(written):
    feats = torch.load(written / "part0" / "node_feats.pt", weights_only=True)
    feats["_N/feat"] = feats["_N/feat"][:-1]
    torch.save(feats, written / "part0" / "node_feats.pt")
    with pytest.raises(gp.FormatError, match="rows but partition 0 owns"):
        gp.load_partition(written / "karate.json", 0)


def test_tampered_graph(written):
    obj = torch.load(written / "part1" / "graph.pt", weights_only=True)
    obj["ndata"]["_ID"] = obj["ndata"]["_ID"] + 1
    torch.save(obj, written / "part1" / "graph.pt")
    with pytest.raises(gp.FormatError, match="inner nodes are not the range"):
        gp.load_partition(written / "karate.json", 1)


def test_features_load_memory_mapped(written):
    maps = "/proc/self/maps"
    if not os.path.exists(maps):
        pytest.skip("needs /proc/self/maps (Linux) to see memory mappings")
    nf, _ = gp.load_partition_feats(written / "karate.json", 0)
    ptr = nf["_N/feat"].data_ptr()
    path = str((written / "part0" / "node_feats.pt").resolve())
    spans = [line.split()[0].split("-") for line in open(maps) if line.rstrip().endswith(path)]
    # The tensor's memory lies inside a mapping of the file: it was not copied.
    assert any(int(a, 16) <= ptr < int(b, 16) for a, b in spans)


def test_a_folder_with_the_users_files_is_never_replaced(written):
    (written / "train.py").write_text("print('my training script')")
    (written / "data").mkdir()
    before = (written / "karate.json").read_text()
    with pytest.raises(gp.GraphpartError, match=r"did not write \('data', 'train.py'\)"):
        gp.partition_graph(karate(), "karate", 3, written, seed=0)
    assert (written / "train.py").read_text() == "print('my training script')"
    assert (written / "data").is_dir() and (written / "karate.json").read_text() == before


def test_an_earlier_output_alone_is_replaced(written):
    gp.partition_graph(karate(), "karate", 2, written, seed=1, num_hops=2)
    assert json.loads((written / "karate.json").read_text())["halo_hops"] == 2


def test_a_users_file_inside_a_part_folder_is_never_deleted(written):
    (written / "part0" / "embeddings.npy").write_bytes(b"mine")
    with pytest.raises(gp.GraphpartError, match=r"did not write \('part0/embeddings.npy'\)"):
        gp.partition_graph(karate(), "karate", 3, written, seed=0)
    assert (written / "part0" / "embeddings.npy").read_bytes() == b"mine"


def test_a_file_under_graphparts_name_that_is_not_what_graphpart_writes_is_the_users(written):
    (written / "part1" / "graph.pt").write_text("my notes, not a torch file")
    with pytest.raises(gp.GraphpartError, match=r"did not write \('part1/graph.pt'\)"):
        gp.partition_graph(karate(), "karate", 3, written, seed=0)
    assert (written / "part1" / "graph.pt").read_text() == "my notes, not a torch file"


def test_a_config_naming_a_users_folder_does_not_make_it_graphparts(written):
    cfg = json.loads((written / "karate.json").read_text())
    cfg["part-1"]["node_feats"] = "data/labels.csv"
    (written / "karate.json").write_text(json.dumps(cfg))
    (written / "data").mkdir()
    (written / "data" / "labels.csv").write_text("1,2,3")
    with pytest.raises(gp.GraphpartError, match=r"did not write \('data', 'part1'\)"):
        gp.partition_graph(karate(), "karate", 3, written, seed=0)
    assert (written / "data" / "labels.csv").read_text() == "1,2,3"


def test_a_symlink_inside_a_part_folder_is_never_followed_or_removed(written, tmp_path):
    (tmp_path / "elsewhere.txt").write_text("outside")
    (written / "part0" / "node_feats.pt").unlink()
    (written / "part0" / "node_feats.pt").symlink_to(tmp_path / "elsewhere.txt")
    with pytest.raises(gp.GraphpartError, match=r"did not write \('part0/node_feats.pt'\)"):
        gp.partition_graph(karate(), "karate", 3, written, seed=0)
    assert (written / "part0" / "node_feats.pt").is_symlink()
    assert (tmp_path / "elsewhere.txt").read_text() == "outside"


@pytest.mark.parametrize("kind", ["node", "edge"])
def test_a_data_name_with_a_slash_is_refused_before_any_work(tmp_path, kind):
    # "_N/x/y" read back as type "_N/x": once written, and refused by every reader after
    g = gp.datasets.load_karate_club()
    data = g.ndata if kind == "node" else g.edata
    data["x/y"] = torch.zeros(g.num_nodes() if kind == "node" else g.num_edges())
    with pytest.raises(gp.GraphpartError, match=f"{kind} data of type .* 'x/y': partition files"):
        gp.partition_graph(g, "k", 2, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_chunked_metadata_naming_data_with_a_slash_is_refused(tmp_path):
    import json

    from graphpart.chunked import read_metadata, write_chunked

    g = gp.datasets.load_karate_club()
    meta_path = write_chunked(g, tmp_path / "c", 1)
    meta = json.loads(meta_path.read_text())
    meta["node_data"]["_N"]["x/y"] = meta["node_data"]["_N"]["label"]
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(gp.GraphpartError, match="node data 'x/y': partition files key"):
        read_metadata(meta_path)

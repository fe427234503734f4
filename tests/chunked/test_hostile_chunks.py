"""Hostile chunked graphs: each metadata value or chunk file the issue found, planted in a real
chunked graph; every one is a one-line GraphpartError before anything is sized by it, and a
dispatch over a lying chunk leaves the earlier output as it was."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.chunked import assign, load_chunked, read_metadata, write_chunked
from graphpart.chunked.dispatch import dispatch
from graphpart.datasets import sbm

from ..helpers import runs_within


def _graph():
    g = sbm(block_sizes=[30, 30], p_in=0.2, p_out=0.02, seed=0, feat_dim=3, train_frac=0.3)
    g.edata["w"] = torch.rand(g.num_edges(), dtype=torch.float32)
    return g


@pytest.fixture
def chunked(tmp_path):
    write_chunked(_graph(), tmp_path / "g", 2, node_data_format="numpy")
    return tmp_path / "g"


def _edit(folder, change):
    meta = json.loads((folder / "metadata.json").read_text())
    change(meta)
    (folder / "metadata.json").write_text(json.dumps(meta))


def _feat(meta):
    return meta["node_data"]["_N"]["feat"]


HOSTILE = {
    "node_data as a list": (
        lambda m: m.__setitem__("node_data", [1, 2]),
        "node_data must map node types to their data",
    ),
    "shape 5": (lambda m: _feat(m).__setitem__("shape", 5), "shape must list at most 8"),
    "shape 'abc'": (lambda m: _feat(m).__setitem__("shape", "abc"), "shape must list"),
    "shape [1000000]": (
        lambda m: _feat(m).__setitem__("shape", [1000000]),
        r"holds rows of 3 values, but the metadata's shape \[1000000\] needs 1000000",
    ),
    "dtype object": (
        lambda m: _feat(m).__setitem__("dtype", "object"),
        "must name a numpy dtype of numbers",
    ),
    "dtype U10": (
        lambda m: _feat(m).__setitem__("dtype", "U10"),
        "must name a numpy dtype of numbers",
    ),
    "dtype i4,i4": (
        lambda m: _feat(m).__setitem__("dtype", "i4,i4"),
        "must name a numpy dtype of numbers",
    ),
    "dtype 5": (lambda m: _feat(m).__setitem__("dtype", 5), "must name a numpy dtype of numbers"),
    "dtype float128": (
        lambda m: _feat(m).__setitem__("dtype", "longdouble"),
        "must name a numpy dtype of numbers",
    ),
    "num_nodes 2^62": (
        lambda m: m.__setitem__("num_nodes_per_type", [2**62]),
        r"integers in \[0, 2\^62\)",
    ),
    "counts of a bool": (
        lambda m: _feat(m).__setitem__("counts", [True, 30]),
        "counts must list one row count",
    ),
    "deeply nested": (
        lambda m: m.__setitem__("edge_data", "__DEEP__"),
        "not a JSON document .nested too deeply",
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_metadata_is_one_clear_error(chunked, name):
    change, pattern = HOSTILE[name]
    _edit(chunked, change)
    if name == "deeply nested":
        text = (chunked / "metadata.json").read_text()
        deep = "[" * 100_000 + "]" * 100_000
        (chunked / "metadata.json").write_text(text.replace('"__DEEP__"', deep))
    with pytest.raises(gp.GraphpartError, match=pattern):
        load_chunked(chunked)


def test_text_in_a_csv_data_chunk_is_refused(tmp_path):
    write_chunked(_graph(), tmp_path / "g", 2, node_data_format="csv")
    meta = read_metadata(tmp_path / "g")
    path = meta.node_data["_N"]["feat"].paths[0]
    lines = path.read_text().splitlines()
    path.write_text("\n".join(["\x1b[2Jabc def ghi"] + lines[1:]) + "\n")
    with pytest.raises(gp.GraphpartError, match=r"column 0 holds string values") as e:
        load_chunked(tmp_path / "g")
    assert str(e.value).isprintable() and "abc" not in str(e.value)  # the content is not quoted


@pytest.mark.parametrize("fmt", ["csv", "numpy"])
def test_a_chunk_path_to_a_system_file_never_quotes_it(chunked, tmp_path, fmt):
    """The errors quoted the file read: 'got 3: list:x:38:38:Mailing List Manager:...'."""
    secret = tmp_path / "secret"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\nlist:x:38:38:Mailing List Manager\n")

    def point(m):
        m["edges"]["_N:_E:_N"]["data"][0] = str(secret)
        m["edges"]["_N:_E:_N"]["format"] = {"name": fmt, "delimiter": " "}

    _edit(chunked, point)
    with pytest.raises(gp.GraphpartError) as e:
        load_chunked(chunked)
    assert "root:" not in str(e.value) and "Mailing" not in str(e.value), str(e.value)


def test_a_npy_header_of_2_40_rows_is_refused_before_sizing(chunked):
    path = read_metadata(chunked).node_data["_N"]["feat"].paths[0]
    raw = path.read_bytes()
    rows = np.load(path).shape[0]
    header_end = raw.index(b"\n") + 1
    header = raw[:header_end].decode("latin1").replace(f"({rows}, 3)", f"({2**40}, 3)")
    header = header[: header_end - 1].ljust(header_end - 1) + "\n"  # keep the header length
    path.write_bytes(header.encode("latin1") + raw[header_end:])
    run = runs_within(
        "import resource, graphpart as gp\n"
        "from graphpart.chunked import load_chunked\n"
        "resource.setrlimit(resource.RLIMIT_AS, (8 * 2**30, 8 * 2**30))\n"
        "try:\n"
        f"    load_chunked({str(chunked)!r})\n"
        "except gp.GraphpartError as e:\n"
        "    print(e)\n",
        60,
    )
    assert f"declares shape ({2**40}, 3)" in run.stdout, run.stdout + run.stderr[-1000:]


def test_dispatch_over_a_chunk_with_the_wrong_row_count_keeps_the_earlier_output(
    tmp_path, dask_client
):
    write_chunked(_graph(), tmp_path / "ch", 2, node_data_format="csv")
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    cfg = dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client)
    before = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()}
    path = read_metadata(tmp_path / "ch").node_data["_N"]["feat"].paths[1]
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines + lines[:1]) + "\n")  # one row more than the counts say
    with pytest.raises(gp.GraphpartError, match="at least 31 rows, but the metadata allows 30"):
        dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client)
    after = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()}
    assert after == before and cfg.exists()


def test_assign_refuses_a_folder_with_the_users_files(chunked, tmp_path, dask_client):
    out = tmp_path / "mine"
    assign(chunked, out, 2, "random", seed=0, client=dask_client)
    (out / "notes.md").write_text("mine")
    with pytest.raises(gp.GraphpartError, match="holds files graphpart did not write .'notes.md'"):
        assign(chunked, out, 2, "fennel", seed=0)
    assert (out / "notes.md").read_text() == "mine"


def test_parmetis_export_refuses_a_folder_with_the_users_files(chunked, tmp_path):
    from graphpart.chunked.parmetis import export_parmetis

    out = tmp_path / "pm"
    export_parmetis(chunked, out)
    (out / "run.sh").write_text("mpirun ...")
    with pytest.raises(gp.GraphpartError, match="holds files graphpart did not write .'run.sh'"):
        export_parmetis(chunked, out)
    (out / "run.sh").unlink()
    export_parmetis(chunked, out)  # an earlier output alone is replaced
    other = tmp_path / "other"
    other.mkdir()
    (other / "data.bin").write_bytes(b"1")
    with pytest.raises(gp.GraphpartError, match="holds no earlier output of this step"):
        export_parmetis(chunked, other)


def test_a_node_count_no_machine_can_hold_is_refused_up_front(chunked):
    _edit(chunked, lambda m: m.__setitem__("num_nodes_per_type", [2**61]))
    with pytest.raises(gp.GraphpartError, match="the pipeline holds 8 bytes per node"):
        read_metadata(chunked)


def _planted(out, rel, content=b"mine"):
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    "rel, content",
    [
        ("edges/notes.txt", b"my notes"),  # a user's file inside a chunk folder
        ("node_data/extra/emb.npy", b"\x93NUMPY"),  # a folder of the user's, at depth 2
        ("extra.json", b"{}"),  # beside metadata.json
    ],
)
def test_write_chunked_refuses_the_users_files_at_any_depth(tmp_path, rel, content):
    """Only the top-level names were vetted: a file inside edges/ was deleted without a word."""
    out = tmp_path / "g"
    write_chunked(_graph(), out, 2, node_data_format="numpy")
    planted = _planted(out, rel, content)
    with pytest.raises(gp.GraphpartError, match="holds files graphpart did not write"):
        write_chunked(_graph(), out, 2)
    assert planted.read_bytes() == content


def test_a_chunk_file_that_is_not_what_its_name_says_is_the_users(chunked):
    """A listed chunk name holding something else (the user's text under a .npy name)."""
    feat = chunked / _feat(json.loads((chunked / "metadata.json").read_text()))["data"][0]
    feat.write_text("my embeddings, as text")
    with pytest.raises(gp.GraphpartError, match="did not write .'node_data/"):
        write_chunked(_graph(), chunked, 2)
    assert feat.read_text() == "my embeddings, as text"


def test_a_symlink_inside_a_chunked_folder_is_never_followed_or_removed(chunked, tmp_path):
    target = tmp_path / "keep"
    target.mkdir()
    (target / "data.bin").write_bytes(b"1")
    (chunked / "edges" / "link").symlink_to(target)
    with pytest.raises(gp.GraphpartError, match="did not write .'edges/link'"):
        write_chunked(_graph(), chunked, 2)
    assert (target / "data.bin").read_bytes() == b"1"


def test_a_chunked_folder_another_tool_wrote_is_not_replaced(chunked):
    """DGL's own chunk writer leaves no counts: its folders are the user's, not graphpart's."""
    _edit(chunked, lambda m: [s.pop("counts") for s in m["edges"].values()])
    with pytest.raises(gp.GraphpartError, match="holds no chunked graph graphpart wrote"):
        write_chunked(_graph(), chunked, 2)
    write_chunked(_graph(), chunked.parent / "fresh", 2)  # a new folder is fine


def test_an_earlier_chunked_graph_alone_is_replaced(chunked):
    write_chunked(_graph(), chunked, 3, edge_format="parquet")
    assert len(read_metadata(chunked).edges[("_N", "_E", "_N")].paths) == 3


@pytest.mark.parametrize(
    "rel, content",
    [
        ("notes.txt", b"call Ann about the cut"),  # a .txt that is not an assignment
        ("my_ids.txt", b"1\n2\n3\n"),  # integers, but not a node type's assignment
        ("sub/_N.txt", b"0\n1\n"),  # any folder is the user's
    ],
)
def test_assign_refuses_the_users_files_by_what_they_are(
    chunked, tmp_path, dask_client, rel, content
):
    out = assign(chunked, tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    planted = _planted(out, rel, content)
    with pytest.raises(gp.GraphpartError, match="holds files graphpart did not write"):
        assign(chunked, out, 2, "random", seed=1, client=dask_client)
    assert planted.read_bytes() == content


def test_assign_replaces_only_assignments_graphpart_marked(chunked, tmp_path, dask_client):
    out = assign(chunked, tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    assign(chunked, out, 2, "random", seed=1, client=dask_client)  # its own: replaced
    meta = json.loads((out / "partition_meta.json").read_text())
    del meta["written_by"]  # as DGL's own tools write it: the same keys, no mark
    (out / "partition_meta.json").write_text(json.dumps(meta))
    with pytest.raises(gp.GraphpartError, match="holds no assignment graphpart wrote"):
        assign(chunked, out, 2, "random", seed=2, client=dask_client)


def test_parmetis_export_refuses_a_users_file_under_its_names(chunked, tmp_path):
    from graphpart.chunked.parmetis import export_parmetis

    out = export_parmetis(chunked, tmp_path / "pm")
    name = next(out.glob("*_nodes.txt"))
    name.write_text("my ParMETIS notes")
    with pytest.raises(gp.GraphpartError, match="did not write"):
        export_parmetis(chunked, out)
    assert name.read_text() == "my ParMETIS notes"


def test_a_users_csv_at_a_chunks_name_is_not_replaced(tmp_path):
    out = tmp_path / "g"
    write_chunked(_graph(), out, 2, edge_format="csv", node_data_format="csv")
    mine = next((out / "edges").glob("*-part1.csv"))
    mine.write_text("name,age\nbob,5\n")
    with pytest.raises(gp.GraphpartError, match="did not write .'edges/"):
        write_chunked(_graph(), out, 2)
    assert mine.read_text() == "name,age\nbob,5\n"
    mine.unlink()
    write_chunked(_graph(), tmp_path / "h", 2, edge_format="csv", node_data_format="csv")
    write_chunked(_graph(), tmp_path / "h", 2, edge_format="csv")  # its own CSV: replaced

"""Chunked graph format: round trips in every format, and every validation error."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.chunked import load_chunked, read_metadata, write_chunked
from graphpart.datasets import load_karate_club, sbm

from ..graphs import hetero_graph

FORMATS = ["csv", "numpy", "parquet"]


def assert_same_graph(a, b):
    assert a.ntypes == b.ntypes and a.canonical_etypes == b.canonical_etypes
    for t in a.ntypes:
        assert a.num_nodes(t) == b.num_nodes(t)
        assert set(a.node_data(t)) == set(b.node_data(t))
        for k, v in a.node_data(t).items():
            w = b.node_data(t)[k]
            assert w.dtype == v.dtype and w.shape == v.shape and torch.equal(w, v), (t, k)
    for e in a.canonical_etypes:
        for x, y in zip(a.edges(e), b.edges(e)):
            assert torch.equal(x, y)
        for k, v in a.edge_data(e).items():
            assert torch.equal(b.edge_data(e)[k], v), (e, k)


def featured_sbm():
    g = sbm(block_sizes=[30, 30], p_in=0.2, p_out=0.02, seed=0, feat_dim=5, train_frac=0.3)
    g.edata["w"] = torch.rand(g.num_edges(), dtype=torch.float32)
    g.edata["pair"] = torch.arange(2 * g.num_edges()).reshape(-1, 2)
    return g


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("num_chunks", [1, 3, 7])
def test_homogeneous_round_trip(tmp_path, fmt, num_chunks):
    g = featured_sbm()
    meta = write_chunked(
        g, tmp_path / "g", num_chunks, edge_format=fmt, node_data_format=fmt, edge_data_format=fmt
    )
    assert_same_graph(g, load_chunked(meta))


@pytest.mark.parametrize("fmt", FORMATS)
def test_heterogeneous_round_trip(tmp_path, fmt):
    g = hetero_graph()
    meta = write_chunked(
        g, tmp_path / "h", 4, edge_format=fmt, node_data_format=fmt, edge_data_format=fmt
    )
    assert_same_graph(g, load_chunked(tmp_path / "h"))
    m = read_metadata(meta)
    assert m.num_nodes == {t: g.num_nodes(t) for t in g.ntypes}


def test_metadata_follows_the_spec(tmp_path):
    g = load_karate_club()
    meta = json.loads(write_chunked(g, tmp_path / "karate", 2).read_text())
    assert meta["graph_name"] == "karate" and meta["node_type"] == ["_N"]
    assert meta["num_nodes_per_type"] == [34] and meta["num_edges_per_type"] == [156]
    assert meta["edge_type"] == ["_N:_E:_N"]
    spec = meta["edges"]["_N:_E:_N"]
    assert spec["format"] == {"name": "csv", "delimiter": " "} and spec["counts"] == [78, 78]
    assert all(not p.startswith("/") for p in spec["data"])
    first = (tmp_path / "karate" / spec["data"][0]).read_text().splitlines()[0]
    s, d = g.edges()
    assert first == f"{int(s[0])} {int(d[0])}"


def test_more_chunks_than_rows_writes_empty_chunks(tmp_path):
    g = gp.Graph.from_edges([0, 1], [1, 0], num_nodes=2)
    assert_same_graph(g, load_chunked(write_chunked(g, tmp_path / "tiny", 5)))


def test_absolute_paths_are_allowed(tmp_path):
    meta = write_chunked(load_karate_club(), tmp_path / "k", 2)
    raw = json.loads(meta.read_text())
    spec = raw["edges"]["_N:_E:_N"]
    spec["data"] = [str((tmp_path / "k" / p).resolve()) for p in spec["data"]]
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    (moved / "metadata.json").write_text(json.dumps({**raw, "node_data": {}, "edge_data": {}}))
    assert load_chunked(moved).num_edges() == 156


@pytest.fixture
def chunked(tmp_path):
    g = featured_sbm()
    write_chunked(g, tmp_path / "g", 3)
    return tmp_path / "g"


def edit(folder, change):
    meta = json.loads((folder / "metadata.json").read_text())
    change(meta)
    (folder / "metadata.json").write_text(json.dumps(meta))


EDGES = "_N:_E:_N"


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda m: m.pop("num_nodes_per_type"), "'num_nodes_per_type' is missing"),
        (
            lambda m: m.update(num_edges_per_type=[1, 2]),
            r"must be a list of 1 integers in \[0, 2\^62\)",
        ),
        (lambda m: m.update(edge_type=["_N:_E"]), "must be 'src:rel:dst'"),
        (lambda m: m.update(edge_type=["_N:_E:paper"]), "joins a node type not in node_type"),
        (
            lambda m: m["edges"][EDGES].update(format={"name": "hdf5"}),
            "unknown chunk format 'hdf5'",
        ),
        (
            lambda m: m["edges"][EDGES]["data"].append("edges/nope.csv"),
            r"chunk file .*nope.csv is missing",
        ),
        (
            lambda m: m["edges"][EDGES].update(format={"name": "csv", "delimiter": "::"}),
            "one character",
        ),
        (lambda m: m.update(graph_name=""), "'graph_name' must be a plain name"),
        (lambda m: m["node_data"].update(paper={}), "unknown node type 'paper'"),
        (
            lambda m: (
                m["edge_data"][EDGES]["w"]["data"].pop(),
                m["edge_data"][EDGES]["w"].pop("counts"),
            ),
            "edge features must be chunked like their edges",
        ),
    ],
)
def test_metadata_errors_name_the_file_and_the_problem(chunked, change, match):
    edit(chunked, change)
    with pytest.raises(gp.GraphpartError, match=match) as err:
        load_chunked(chunked)
    assert "metadata.json" in str(err.value)


def test_malformed_json(chunked):
    (chunked / "metadata.json").write_text("{ not json")
    with pytest.raises(gp.GraphpartError, match="metadata.json is not a JSON document"):
        read_metadata(chunked)


def test_missing_metadata(tmp_path):
    with pytest.raises(gp.GraphpartError, match="does not exist"):
        read_metadata(tmp_path)


def test_edge_ids_out_of_range(chunked):
    path = chunked / json.loads((chunked / "metadata.json").read_text())["edges"][EDGES]["data"][1]
    lines = path.read_text().splitlines()
    lines[0] = "0 60"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(
        gp.GraphpartError,
        match=r"destination id 60 is out of range for node type '_N', "
        r"which has 60 nodes",
    ):
        load_chunked(chunked)


def test_row_counts_must_match_the_metadata(chunked):
    path = chunked / json.loads((chunked / "metadata.json").read_text())["edges"][EDGES]["data"][0]
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(
        gp.GraphpartError, match="holds 124 rows, but the metadata.s counts say 125"
    ):
        load_chunked(chunked)


def test_edge_totals_must_match_num_edges_per_type(chunked):
    edit(chunked, lambda m: m["num_edges_per_type"].__setitem__(0, m["num_edges_per_type"][0] + 1))
    with pytest.raises(gp.GraphpartError, match="num_edges_per_type says"):
        load_chunked(chunked)


def test_edge_feature_rows_must_match_their_edge_chunk(chunked):
    meta = json.loads((chunked / "metadata.json").read_text())
    spec = meta["edge_data"][EDGES]["w"]
    path = chunked / spec["data"][0]
    np.save(path, np.load(path)[:-1])
    spec.pop("counts")
    (chunked / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(gp.GraphpartError, match="chunk 0 has .* rows but its edge chunk has"):
        load_chunked(chunked)


def test_node_feature_rows_must_cover_the_nodes(chunked):
    meta = json.loads((chunked / "metadata.json").read_text())
    spec = meta["node_data"]["_N"]["feat"]
    spec["data"] = spec["data"][:2]
    spec.pop("counts")
    (chunked / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(
        gp.GraphpartError, match=r"node_data\['_N'\]\['feat'\] has 40 rows, but node type"
    ):
        load_chunked(chunked)


def test_unreadable_chunk(chunked):
    path = (
        chunked
        / json.loads((chunked / "metadata.json").read_text())["node_data"]["_N"]["feat"]["data"][0]
    )
    path.write_bytes(b"garbage")
    with pytest.raises(gp.GraphpartError, match="cannot be read as numpy"):
        load_chunked(chunked)


def test_write_refuses_a_foreign_folder_and_leaves_it(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(gp.GraphpartError, match="holds no chunked graph graphpart wrote"):
        write_chunked(load_karate_club(), tmp_path / "mine", 2)
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]


def test_failed_write_keeps_the_earlier_output(tmp_path, monkeypatch):
    g = load_karate_club()
    write_chunked(g, tmp_path / "k", 2)
    before = sorted(p.relative_to(tmp_path) for p in (tmp_path / "k").rglob("*"))
    import graphpart.chunked.write as w

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(w, "write_array", boom)
    with pytest.raises(OSError):
        write_chunked(g, tmp_path / "k", 5)
    assert sorted(p.relative_to(tmp_path) for p in (tmp_path / "k").rglob("*")) == before
    assert [p.name for p in tmp_path.iterdir()] == ["k"]  # no temporary sibling left behind


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"num_chunks": 0}, "num_chunks"),
        ({"num_chunks": 2, "edge_format": "xml"}, "unknown chunk format 'xml'"),
    ],
)
def test_write_rejects_bad_options(tmp_path, kwargs, match):
    with pytest.raises(gp.GraphpartError, match=match):
        write_chunked(load_karate_club(), tmp_path / "k", **kwargs)
    assert not (tmp_path / "k").exists()


@pytest.mark.parametrize("ntype", ["../../NT", "a/b", "x\x1by", "u:v"])
def test_node_type_names_that_would_leave_the_folder_are_refused(tmp_path, ntype):
    from graphpart.chunked import write_chunked
    from graphpart.datasets import load_karate_club

    folder = write_chunked(load_karate_club(), tmp_path / "ch", 2, graph_name="karate").parent
    meta = json.loads((folder / "metadata.json").read_text())
    old = meta["node_type"][0]
    text = json.dumps(meta).replace(json.dumps(old), json.dumps(ntype))
    (folder / "metadata.json").write_text(text)
    with pytest.raises(gp.GraphpartError, match="node type .* becomes a file name"):
        read_metadata(folder)


def test_types_and_fields_whose_names_once_shared_a_file_keep_their_own(tmp_path):
    # "a:r_x:b" and "a_r:x:b" were both edges/a_r_x_b-part0; node type "t-a" field "b" and
    # node type "t" field "a-b" were both node_data/t-a-b-part0: the second replaced the first
    import torch

    from graphpart import Graph
    from graphpart.chunked import load_chunked

    counts = {"a": 3, "a_r": 3, "b": 4, "t": 2, "t-a": 2}
    edges = {("a", "r_x", "b"): ([0, 1], [2, 3]), ("a_r", "x", "b"): ([2], [0])}
    ndata = {
        "t": {"a-b": torch.tensor([1.0, 2.0])},
        "t-a": {"b": torch.tensor([7.0, 8.0]), "é" * 200: torch.tensor([5.0, 6.0])},
    }
    g = Graph.from_typed_edges(edges, num_nodes=counts, ndata=ndata)
    back = load_chunked(write_chunked(g, tmp_path / "c", 1, edge_format="numpy"))
    for e in edges:
        assert [x.tolist() for x in back.edges(e)] == [x.tolist() for x in g.edges(e)]
    for t, fields in ndata.items():
        for name, values in fields.items():
            assert back.node_data(t)[name].tolist() == values.tolist()


def _renamed(meta, ntype=None, rel=None):
    """The metadata with its one node type or relation renamed everywhere."""
    nt = ntype or "_N"
    e = f"{nt}:{rel or '_E'}:{nt}"
    meta.update(node_type=[nt], edge_type=[e])
    meta["edges"] = {e: meta["edges"][EDGES]}
    meta["edge_data"] = {e: meta["edge_data"][EDGES]}
    meta["node_data"] = {nt: meta["node_data"]["_N"]}


LONG_NAMES = {
    "a node type of 101 two-byte characters": {"ntype": "é" * 101},
    "a relation making the edge type 205 bytes": {"rel": "r" * 201},
    "a relation with a slash": {"rel": "x/../../y"},
    "a relation with '..'": {"rel": ".."},
}


@pytest.mark.parametrize("names", LONG_NAMES.values(), ids=list(LONG_NAMES))
def test_type_names_that_cannot_be_file_names_are_refused_on_reading(chunked, names):
    """A 200-character name past 255 bytes ran the whole of assign and dispatch, then failed
    with ENAMETOOLONG in the temporary folder; a '/' in a relation reached merged map paths."""
    edit(chunked, lambda m: _renamed(m, **names))
    with pytest.raises(gp.GraphpartError, match="becomes a file name") as err:
        read_metadata(chunked)
    assert "metadata.json" in str(err.value) and "\n" not in str(err.value)


def test_names_of_200_bytes_are_file_names(chunked, tmp_path):
    edit(chunked, lambda m: _renamed(m, ntype="é" * 25, rel="r" * 98))  # 200-byte edge type
    assert read_metadata(chunked).ntypes == ["é" * 25]


@pytest.mark.parametrize("names", LONG_NAMES.values(), ids=list(LONG_NAMES))
def test_write_chunked_refuses_names_the_reader_refuses(tmp_path, names):
    nt, rel = names.get("ntype", "a"), names.get("rel", "r")
    g = gp.Graph.from_typed_edges(
        {(nt, rel, nt): (torch.tensor([0]), torch.tensor([1]))}, num_nodes={nt: 2}
    )
    with pytest.raises(gp.GraphpartError, match="becomes a file name"):
        write_chunked(g, tmp_path / "g", 1)
    assert not (tmp_path / "g").exists()


_SHORT = st.lists(
    st.sampled_from(["a", "b", "_", "-", ":", ".", "\u00e9", "e\u0301", "\U0001f600"]),
    min_size=1,
    max_size=6,
).map("".join)
_NAME = st.one_of(
    _SHORT,
    _SHORT.map(lambda s: s * 40),  # 40 to 960 bytes in UTF-8: both sides of 200
    st.sampled_from(["x/y", "..", "tab\there", "\x1b[2J"]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ntypes=st.lists(_NAME.filter(lambda s: ":" not in s), min_size=1, max_size=3, unique=True),
    rels=st.lists(_NAME, min_size=1, max_size=2, unique=True),
    fields=st.lists(_NAME, min_size=1, max_size=2, unique=True),
)
def test_any_names_round_trip_or_are_refused_in_one_line(tmp_path_factory, ntypes, rels, fields):
    """Names colliding once escaped, long in bytes, unicode or control characters: every type's
    edges and every field's values come back as written, or the writer refuses before writing."""
    from graphpart import Graph

    root = tmp_path_factory.mktemp("names")
    counts = {t: 2 for t in ntypes}
    edges = {
        (ntypes[i % len(ntypes)], r, ntypes[(i + 1) % len(ntypes)]): ([0, 1], [1, i % 2])
        for i, r in enumerate(rels)
    }
    ndata = {ntypes[0]: {f: torch.tensor([float(k), k + 0.5]) for k, f in enumerate(fields)}}
    try:
        g = Graph.from_typed_edges(edges, num_nodes=counts, ndata=ndata)
    except gp.GraphpartError:
        event("refused by the graph")
        return
    try:
        meta = write_chunked(g, root / "c", 1, edge_format="numpy")
    except gp.GraphpartError as e:
        assert "\n" not in str(e) and not (root / "c").exists()
        event("refused by write_chunked")
        return
    back = load_chunked(meta)
    event("round trip")
    for e in edges:
        assert [x.tolist() for x in back.edges(e)] == [x.tolist() for x in g.edges(e)]
    for name, values in ndata[ntypes[0]].items():
        assert back.node_data(ntypes[0])[name].tolist() == values.tolist()


@pytest.mark.parametrize("kind", ["node", "edge"])
def test_write_chunked_refuses_a_data_name_the_reader_refuses(tmp_path, kind):
    """A field named 'x/y' was written, then refused by read_metadata (found by the names fuzz
    test): each step checks what the next one requires, before it writes."""
    g = gp.Graph.from_edges([0, 1], [1, 2], num_nodes=3)
    if kind == "node":
        g.ndata["x/y"] = torch.zeros(3)
    else:
        g.edata["x/y"] = torch.zeros(2)
    with pytest.raises(gp.GraphpartError, match=f"{kind} data of '.*' 'x/y': partition files"):
        write_chunked(g, tmp_path / "g", 1)
    assert not (tmp_path / "g").exists()

"""IDConverter: boundaries, empty types, round trips, metadata, errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart import FormatError, GraphpartError, IDConverter, IDRangeError, UnknownTypeError
from graphpart.lookup import locate_node

from .strategies import typed_graphs


@pytest.fixture
def conv():
    # T1 is empty, T2 has one node: the boundary cases the reference's bisect_left gets wrong.
    return IDConverter(["T0", "T1", "T2", "T3"], [3, 0, 1, 2], ["T0:R0:T2", "T3:R1:T0"], [4, 0])


def test_offsets_and_ranges(conv):
    assert conv.nid_offsets.tolist() == [0, 3, 3, 4, 6]
    assert conv.nid_range("T1") == (3, 3)
    assert conv.nid_range("T2") == (3, 4)
    assert conv.num_nodes() == 6 and conv.num_nodes("T3") == 2
    assert conv.eid_range("R1") == (4, 4)


def test_hom2het_at_every_boundary(conv):
    types, local = conv.nid_hom2het(torch.arange(6))
    assert types.tolist() == [0, 0, 0, 2, 3, 3]  # never the empty type 1
    assert local.tolist() == [0, 1, 2, 0, 0, 1]


def test_scalar_conversions(conv):
    assert conv.nid_hom2het(0) == ("T0", 0)
    assert conv.nid_hom2het(2) == ("T0", 2)
    assert conv.nid_hom2het(3) == ("T2", 0)
    assert conv.nid_hom2het(np.int64(5)) == ("T3", 1)
    assert conv.nid_het2hom("T2", 0) == 3
    assert conv.nid_het2hom("T3", torch.tensor(1)) == 5
    assert conv.eid_hom2het(3) == (("T0", "R0", "T2"), 3)
    assert conv.eid_het2hom("T0:R0:T2", 2) == 2


def test_het2hom_type_arrays(conv):
    out = conv.nid_het2hom(torch.tensor([3, 2, 0]), torch.tensor([1, 0, 2]))
    assert out.tolist() == [5, 3, 2]


@pytest.mark.parametrize(
    "ntype, ids, match",
    [
        ("T0", [3], r"node ids of type 'T0' must be within \[0, 3\), got 3"),
        ("T0", [-1], r"got -1"),
        ("T1", [0], r"type 'T1' must be within \[0, 0\), got 0"),
        ("T2", [1], r"type 'T2' must be within \[0, 1\), got 1"),
    ],
)
def test_het2hom_out_of_range(conv, ntype, ids, match):
    with pytest.raises(IDRangeError, match=match):
        conv.nid_het2hom(ntype, torch.tensor(ids))


def test_het2hom_out_of_range_with_type_array(conv):
    with pytest.raises(IDRangeError, match=r"type 'T2' must be within \[0, 1\), got 1"):
        conv.nid_het2hom(torch.tensor([0, 2]), torch.tensor([0, 1]))
    with pytest.raises(IDRangeError, match=r"node type ids must be within \[0, 4\), got 7"):
        conv.nid_het2hom(torch.tensor([7]), torch.tensor([0]))
    with pytest.raises(GraphpartError, match="same length"):
        conv.nid_het2hom(torch.tensor([0, 0]), torch.tensor([0]))


@pytest.mark.parametrize("ids", [[6], [-1], [0, 6]])
def test_hom2het_out_of_range(conv, ids):
    with pytest.raises(IDRangeError, match=r"homogeneous node ids must be within \[0, 6\)"):
        conv.nid_hom2het(torch.tensor(ids))


def test_edge_out_of_range(conv):
    with pytest.raises(IDRangeError, match=r"edge ids of type 'T3:R1:T0' must be within \[0, 0\)"):
        conv.eid_het2hom("R1", 0)
    with pytest.raises(IDRangeError, match=r"homogeneous edge ids must be within \[0, 4\), got 4"):
        conv.eid_hom2het(4)


def test_unknown_types(conv):
    with pytest.raises(UnknownTypeError, match=r"unknown node type 'T9'.*'T0', 'T1'"):
        conv.nid_het2hom("T9", [0])
    with pytest.raises(UnknownTypeError, match="unknown edge type 'R7'"):
        conv.eid_het2hom("R7", [0])
    with pytest.raises(UnknownTypeError, match=r"node type id must be within \[0, 4\), got 4"):
        conv.id2ntype(4)


def test_type_maps(conv):
    assert conv.ntype2id("T3") == 3 and conv.id2ntype(2) == "T2"
    assert conv.etype2id(("T3", "R1", "T0")) == 1 and conv.etype2id("R0") == 0
    assert conv.id2etype(0) == ("T0", "R0", "T2")


def test_empty_id_arrays(conv):
    assert conv.nid_het2hom("T1", torch.zeros(0, dtype=torch.int64)).numel() == 0
    t, local = conv.nid_hom2het(np.zeros(0, dtype=np.int64))
    assert t.numel() == 0 and local.numel() == 0


def test_float_ids_rejected(conv):
    with pytest.raises(GraphpartError, match="must hold integers"):
        conv.nid_hom2het(torch.tensor([1.0]))


def test_counts_validated():
    with pytest.raises(GraphpartError, match="one count per type"):
        IDConverter(["a"], [1, 2], [], [])
    with pytest.raises(GraphpartError, match="non-negative integer"):
        IDConverter(["a"], [-1], [], [])


def test_vectorised_on_a_million_ids():
    conv = IDConverter([f"t{i}" for i in range(10)], [100_000] * 10, [], [])
    ids = torch.randint(0, 1_000_000, (1_000_000,))
    types, local = conv.nid_hom2het(ids)
    assert torch.equal(conv.nid_het2hom(types, local), ids)


# ------------------------------------------------------------------ agreement with the graph


@settings(max_examples=60, deadline=None)
@given(typed_graphs())
def test_matches_to_homogeneous(g):
    conv = IDConverter.from_graph(g)
    h = g.to_homogeneous()
    types, local = conv.nid_hom2het(torch.arange(h.num_nodes()))
    assert torch.equal(types, h.ndata[gp.NTYPE])
    assert torch.equal(local, h.ndata[gp.NID])
    etypes, elocal = conv.eid_hom2het(torch.arange(h.num_edges()))
    assert torch.equal(etypes, h.edata[gp.ETYPE])
    assert torch.equal(elocal, h.edata[gp.EID])
    for e in g.canonical_etypes:
        s, d = g.edges(e)
        lo, hi = conv.eid_range(e)
        hs, hd = h.edges()
        assert torch.equal(hs[lo:hi], conv.nid_het2hom(e[0], s))
        assert torch.equal(hd[lo:hi], conv.nid_het2hom(e[2], d))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=6), st.data())
def test_het_hom_round_trip(counts, data):
    conv = IDConverter([f"t{i}" for i in range(len(counts))], counts, [], [])
    total = sum(counts)
    if total == 0:
        return
    ids = torch.tensor(
        data.draw(st.lists(st.integers(0, total - 1), max_size=20)), dtype=torch.int64
    )
    types, local = conv.nid_hom2het(ids)
    assert bool((local < torch.tensor(counts)[types]).all())
    assert torch.equal(conv.nid_het2hom(types, local), ids)


# ------------------------------------------------------------------ metadata.json

META = {
    "graph_name": "mag",
    "node_type": ["author", "paper", "institution"],
    "num_nodes_per_type": [5, 7, 0],
    "edge_type": ["author:writes:paper", "paper:cites:paper"],
    "num_edges_per_type": [9, 4],
    "edges": {},
    "node_data": {},
    "edge_data": {},
}


def test_from_metadata_dict_keeps_file_order():
    conv = IDConverter.from_metadata(META)
    assert conv.ntypes == ["author", "paper", "institution"]
    assert conv.nid_hom2het(5) == ("paper", 0)
    assert conv.eid_het2hom("cites", 0) == 9


def test_from_metadata_file(tmp_path):
    p = tmp_path / "metadata.json"
    p.write_text(json.dumps(META))
    assert IDConverter.from_metadata(p).num_nodes() == 12
    assert IDConverter.from_metadata(str(p)).num_edges("writes") == 9


def test_from_metadata_per_chunk_counts():
    meta = {k: v for k, v in META.items() if not k.startswith("num_")}
    meta["num_nodes_per_chunk"] = [[2, 3], [3, 4], [0]]
    meta["num_edges_per_chunk"] = [[9], [1, 3]]
    conv = IDConverter.from_metadata(meta)
    assert conv.nid_offsets.tolist() == [0, 5, 12, 12]


@pytest.mark.parametrize(
    "change, match",
    [
        ({"node_type": "author"}, "'node_type' must be a list of strings"),
        ({"num_nodes_per_type": [5, 7]}, "must be a list of 3 non-negative integers"),
        ({"num_edges_per_type": [9, -4]}, "must be a list of 2 non-negative integers"),
        ({"edge_type": ["author:writes", "paper:cites:paper"]}, "canonical edge type"),
        ({"edge_type": ["author:writes:venue", "paper:cites:paper"]}, "node type 'venue'"),
    ],
)
def test_from_metadata_invalid(change, match):
    with pytest.raises(GraphpartError, match=match):
        IDConverter.from_metadata({**META, **change})


def test_from_metadata_missing_counts():
    meta = {k: v for k, v in META.items() if k != "num_nodes_per_type"}
    with pytest.raises(FormatError, match="missing 'num_nodes_per_type'"):
        IDConverter.from_metadata(meta)


def test_from_metadata_bad_files(tmp_path):
    bad = tmp_path / "metadata.json"
    bad.write_text("{not json")
    with pytest.raises(FormatError, match="metadata.json is not a JSON document"):
        IDConverter.from_metadata(bad)
    with pytest.raises(FormatError, match="nope.json is missing"):
        IDConverter.from_metadata(tmp_path / "nope.json")
    bad.write_text("[1, 2]")
    with pytest.raises(FormatError, match="must hold a JSON object"):
        IDConverter.from_metadata(bad)


def test_a_one_type_graphs_card_does_not_show_dgls_internal_type_name():
    """The audit read "node type _N" on every card of a homogeneous graph."""
    p = gp.partition(gp.datasets.load_karate_club(), 2, seed=0)
    assert dict(locate_node(p, 5).rows())["node type"] == "(one type)"
    women = gp.partition(gp.datasets.load_davis_southern_women(), 2, seed=0)
    assert dict(locate_node(women, 0).rows())["node type"] == women.graph.ntypes[0]

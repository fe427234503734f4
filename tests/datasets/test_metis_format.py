"""METIS graph file reader and writer."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpart import FormatError, Graph, GraphpartError
from graphpart.datasets import read_metis_graph, write_metis_graph

from ..helpers import edge_multiset


def write(tmp_path, text, name="g.graph"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_plain_graph_with_comments_and_isolated_vertex(tmp_path):
    p = write(tmp_path, "% comment\n4 2\n2\n1 3\n% inside\n2\n\n")
    g = read_metis_graph(p)
    assert g.num_nodes() == 4  # vertex 4 is the empty line
    assert edge_multiset(g) == [(0, 1), (1, 0), (1, 2), (2, 1)]


def test_isolated_last_vertex_without_trailing_newline(tmp_path):
    g = read_metis_graph(write(tmp_path, "3 1\n2\n1\n"))
    assert g.num_nodes() == 3 and g.in_degrees().tolist() == [1, 1, 0]


def test_all_weights(tmp_path):
    # fmt 111: size, 2 vertex weights, edge weights
    p = write(tmp_path, "2 1 111 2\n7 1 2 2 9\n8 3 4 1 9\n")
    g = read_metis_graph(p)
    assert g.ndata["size"].tolist() == [7, 8]
    assert g.ndata["weight"].tolist() == [[1, 2], [3, 4]]
    assert g.edata["weight"].tolist() == [9, 9]


def test_single_vertex_weight_is_a_vector(tmp_path):
    g = read_metis_graph(write(tmp_path, "2 1 10\n5 2\n6 1\n"))
    assert g.ndata["weight"].tolist() == [5, 6]


@pytest.mark.parametrize(
    "text, match",
    [
        ("", "expected a header"),
        ("% only\n", "expected a header"),
        ("3\n", "expected a header"),
        ("x 1\n2\n1\n", "header must hold integers"),
        ("2 1 1 1 1\n", "header has 5 fields"),
        ("2 1 2\n2\n1\n", "fmt must be up to three 0/1 digits"),
        ("2 1 001 1\n2 1\n1 1\n", "ncon=1 given but fmt has no vertex weights"),
        ("3 1\n2\n1\n", None),  # valid: isolated vertex 3 (no trailing line needed)
        ("3 1\n2\n", "header says 1 edges .* found 1"),  # truncated
        ("2 1\n2\n1\n1\n", "data after the 2 vertex lines"),
        ("2 1\n3\n1\n", "neighbour 3 is outside the vertices 1..2"),
        ("2 1\n0\n1\n", "neighbour 0 is outside"),
        ("2 2\n2\n1\n", "header says 2 edges"),
        ("3 1\n2\n3\n\n", "not symmetric"),
        ("2 1 001\n2\n1 5\n", "neighbour without an edge weight"),
        ("2 1 010 2\n1\n1 1 1\n", "fewer than 2 size/weight fields"),
        ("2 1\n2 a\n1\n", "integers only"),
    ],
)
def test_malformed_files(tmp_path, text, match):
    p = write(tmp_path, text)
    if match is None:
        read_metis_graph(p)
        return
    with pytest.raises(FormatError, match=match):
        read_metis_graph(p)


def test_missing_file(tmp_path):
    with pytest.raises(FormatError, match="cannot read METIS graph"):
        read_metis_graph(tmp_path / "absent.graph")


def test_writer_symmetrises_and_drops_loops_and_duplicates(tmp_path):
    g = Graph.from_edges([0, 0, 1, 2, 2], [1, 1, 0, 2, 3], num_nodes=5)
    p = tmp_path / "out.graph"
    write_metis_graph(g, p)
    back = read_metis_graph(p)
    assert back.num_nodes() == 5
    assert edge_multiset(back) == [(0, 1), (1, 0), (2, 3), (3, 2)]


def test_writer_weights_round_trip(tmp_path):
    g = Graph.from_edges(
        [0, 1, 1, 2],
        [1, 0, 2, 1],
        ndata={"w": torch.tensor([[1, 2], [3, 4], [5, 6]])},
        edata={"ew": torch.tensor([4, 4, 7, 7])},
    )
    p = tmp_path / "w.graph"
    write_metis_graph(g, p, node_weight="w", edge_weight="ew")
    assert p.read_text().splitlines()[0] == "3 2 011 2"
    back = read_metis_graph(p)
    assert back.ndata["weight"].tolist() == [[1, 2], [3, 4], [5, 6]]
    pairs = dict(zip(zip(*[t.tolist() for t in back.edges()]), back.edata["weight"].tolist()))
    assert pairs == {(0, 1): 4, (1, 0): 4, (1, 2): 7, (2, 1): 7}


def test_writer_asymmetric_weights_take_largest(tmp_path):
    g = Graph.from_edges([0, 1], [1, 0], edata={"ew": torch.tensor([2, 5])})
    p = tmp_path / "a.graph"
    write_metis_graph(g, p, edge_weight="ew")
    assert read_metis_graph(p).edata["weight"].tolist() == [5, 5]


def test_writer_rejects_bad_weights_and_hetero(tmp_path):
    g = Graph.from_edges(
        [0], [1], ndata={"f": torch.tensor([0.5, 1.0])}, edata={"z": torch.tensor([0])}
    )
    with pytest.raises(GraphpartError, match="node data 'f' must be integers"):
        write_metis_graph(g, tmp_path / "x.graph", node_weight="f")
    with pytest.raises(GraphpartError, match="edge data 'z' must be >= 1"):
        write_metis_graph(g, tmp_path / "x.graph", edge_weight="z")
    h = Graph.from_typed_edges({("a", "r", "b"): ([0], [0])})
    with pytest.raises(GraphpartError, match="homogeneous graph"):
        write_metis_graph(h, tmp_path / "x.graph")


def test_failed_write_keeps_earlier_file(tmp_path):
    p = tmp_path / "keep.graph"
    write_metis_graph(Graph.from_edges([0], [1]), p)
    before = p.read_text()
    g = Graph.from_edges([0], [1], edata={"z": torch.tensor([0])})
    with pytest.raises(GraphpartError):
        write_metis_graph(g, p, edge_weight="z")
    assert p.read_text() == before
    assert [q.name for q in tmp_path.iterdir()] == ["keep.graph"]


@settings(max_examples=50, deadline=None)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=30),
        )
    )
)
def test_write_read_round_trip(tmp_path_factory, case):
    n, pairs = case
    src = np.array([p[0] for p in pairs], dtype=np.int64)
    dst = np.array([p[1] for p in pairs], dtype=np.int64)
    g = Graph.from_edges(src, dst, num_nodes=n)
    p = tmp_path_factory.mktemp("rt") / "g.graph"
    write_metis_graph(g, p)
    back = read_metis_graph(p)
    expected = sorted({(u, v) for u, v in pairs if u != v} | {(v, u) for u, v in pairs if u != v})
    assert back.num_nodes() == n
    assert edge_multiset(back) == expected

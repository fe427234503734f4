"""networkx / scipy conversions and the homogeneous view, with round trips."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import torch
from hypothesis import given, settings

import graphpart as gp
from graphpart import Graph, GraphpartError
from graphpart.graph.convert import from_homogeneous, to_homogeneous

from .helpers import assert_same_graph, edge_multiset
from .strategies import typed_graphs

# ------------------------------------------------------------------ networkx


def test_from_networkx_undirected_gives_both_directions():
    G = nx.Graph([(0, 1), (1, 2)])
    g = Graph.from_networkx(G)
    assert edge_multiset(g) == [(0, 1), (1, 0), (1, 2), (2, 1)]


def test_from_networkx_undirected_self_loop_once():
    G = nx.Graph([(0, 0), (0, 1)])
    assert edge_multiset(Graph.from_networkx(G)) == [(0, 0), (0, 1), (1, 0)]


def test_from_networkx_directed_multigraph_keeps_parallel_edges():
    G = nx.MultiDiGraph([(0, 1), (0, 1), (1, 0)])
    assert edge_multiset(Graph.from_networkx(G)) == [(0, 1), (0, 1), (1, 0)]


def test_from_networkx_attributes_follow_edges():
    G = nx.Graph()
    G.add_edge(0, 1, w=5)
    G.add_edge(1, 2, w=7)
    G.nodes[0]["x"], G.nodes[1]["x"], G.nodes[2]["x"] = [1, 2], [3, 4], [5, 6]
    g = Graph.from_networkx(G, node_attrs=["x"], edge_attrs=["w"])
    s, d = g.edges()
    w = dict(zip(zip(s.tolist(), d.tolist()), g.edata["w"].tolist()))
    assert w == {(0, 1): 5, (1, 0): 5, (1, 2): 7, (2, 1): 7}
    assert g.ndata["x"].tolist() == [[1, 2], [3, 4], [5, 6]]


def test_from_networkx_labels_become_names():
    G = nx.Graph([("b", "a"), ("b", "c")])
    g = Graph.from_networkx(G)
    assert list(g.node_names()) == ["a", "b", "c"]  # sorted labels
    assert edge_multiset(g) == [(0, 1), (1, 0), (1, 2), (2, 1)]


def test_from_networkx_integer_labels_keep_ids():
    G = nx.Graph()
    G.add_nodes_from([3, 0, 2, 1])
    G.add_edge(3, 0)
    g = Graph.from_networkx(G)
    assert g.node_names() is None
    assert edge_multiset(g) == [(0, 3), (3, 0)]


def test_from_networkx_errors():
    G = nx.Graph([(0, 1)])
    G.nodes[0]["c"] = "red"
    G.nodes[1]["c"] = "blue"
    with pytest.raises(GraphpartError, match="'c' must be numeric"):
        Graph.from_networkx(G, node_attrs=["c"])
    with pytest.raises(GraphpartError, match="'w' is missing on edges"):
        Graph.from_networkx(G, edge_attrs=["w"])
    with pytest.raises(GraphpartError, match="expected a networkx graph, got dict"):
        Graph.from_networkx({0: [1]})


def test_networkx_round_trip_homogeneous():
    g = Graph.from_edges(
        [0, 0, 2, 3, 3],
        [1, 1, 2, 0, 4],
        num_nodes=6,
        ndata={"x": torch.arange(6.0)},
        edata={"w": torch.arange(5)},
    )
    G = g.to_networkx()
    assert isinstance(G, nx.MultiDiGraph)
    assert G.number_of_nodes() == 6 and G.number_of_edges() == 5
    back = Graph.from_networkx(G, node_attrs=["x"], edge_attrs=["w", "id"])
    order = torch.argsort(back.edata["id"])
    assert torch.equal(back.edges()[0][order], g.edges()[0])
    assert torch.equal(back.edges()[1][order], g.edges()[1])
    assert torch.equal(back.edata["w"][order], g.edata["w"])
    assert torch.equal(back.ndata["x"], g.ndata["x"])


def test_networkx_round_trip_from_nx_side():
    G = nx.karate_club_graph()
    back = Graph.from_networkx(G).to_networkx()
    assert nx.is_isomorphic(nx.DiGraph(G.to_directed()), nx.DiGraph(back))


def test_to_networkx_heterogeneous_marks_types():
    g = Graph.from_typed_edges({("a", "r", "b"): ([1], [0])}, num_nodes={"a": 2, "b": 1})
    G = g.to_networkx()
    assert G.nodes[2] == {"ntype": "b", "_ID": 0}
    ((u, v, data),) = G.edges(data=True)
    assert (u, v, data["etype"], data["id"]) == (1, 2, ("a", "r", "b"), 0)


# ------------------------------------------------------------------ scipy


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil"])
def test_from_scipy_formats(fmt):
    dense = np.array([[0, 2, 0], [0, 0, 3], [4, 0, 0]])
    m = sp.coo_matrix(dense).asformat(fmt)
    g = Graph.from_scipy(m, eweight_name="w")
    pairs = dict(zip(zip(*[t.tolist() for t in g.edges()]), g.edata["w"].tolist()))
    assert pairs == {(0, 1): 2, (1, 2): 3, (2, 0): 4}
    assert g.num_nodes() == 3


def test_from_scipy_keeps_isolated_nodes():
    g = Graph.from_scipy(sp.csr_array((5, 5)))
    assert (g.num_nodes(), g.num_edges()) == (5, 0)


def test_from_scipy_errors():
    with pytest.raises(GraphpartError, match=r"square, got shape \(2, 3\)"):
        Graph.from_scipy(sp.csr_array((2, 3)))
    with pytest.raises(GraphpartError, match="scipy sparse matrix, got ndarray"):
        Graph.from_scipy(np.eye(2))


# ------------------------------------------------------------------ homogeneous view


def test_to_homogeneous_follows_dgl_convention():
    g = Graph.from_typed_edges(
        {("user", "follows", "user"): ([0, 1], [1, 2]), ("user", "plays", "game"): ([2], [1])},
        num_nodes={"user": 3, "game": 2},
    )
    h = g.to_homogeneous()
    # ntypes sorted: game (ids 0-1) then user (ids 2-4); etypes: follows then plays
    assert h.ndata[gp.NTYPE].tolist() == [0, 0, 1, 1, 1]
    assert h.ndata[gp.NID].tolist() == [0, 1, 0, 1, 2]
    assert h.edges()[0].tolist() == [2, 3, 4]
    assert h.edges()[1].tolist() == [3, 4, 1]
    assert h.edata[gp.ETYPE].tolist() == [0, 0, 1]
    assert h.edata[gp.EID].tolist() == [0, 1, 0]


def test_to_homogeneous_concatenates_named_data():
    g = Graph.from_typed_edges(
        {("a", "r", "b"): ([0], [0])},
        num_nodes={"a": 1, "b": 2},
        ndata={"a": {"x": torch.tensor([1.0])}, "b": {"x": torch.tensor([2.0, 3.0])}},
    )
    assert g.to_homogeneous(ndata=["x"]).ndata["x"].tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(GraphpartError, match="'y' is missing on type 'a'"):
        g.to_homogeneous(ndata=["y"])


@settings(max_examples=60, deadline=None)
@given(typed_graphs())
def test_homogeneous_round_trip(g):
    h = to_homogeneous(g, ndata=["x"], edata=["w"])
    assert h.num_nodes() == g.num_nodes() and h.num_edges() == g.num_edges()
    back = from_homogeneous(h, g.ntypes, g.canonical_etypes)
    assert_same_graph(g, back)


@settings(max_examples=30, deadline=None)
@given(typed_graphs())
def test_from_homogeneous_without_typewise_ids_uses_item_order(g):
    h = to_homogeneous(g)
    del h.ndata[gp.NID], h.edata[gp.EID]
    back = from_homogeneous(h, g.ntypes, g.canonical_etypes)
    for e in g.canonical_etypes:
        assert torch.equal(back.edges(e)[0], g.edges(e)[0])


def test_from_homogeneous_errors():
    h = Graph.from_edges([0], [1], ndata={gp.NTYPE: [0, 5]}, edata={gp.ETYPE: [0]})
    with pytest.raises(GraphpartError, match=r"node type ids must be within \[0, 2\)"):
        from_homogeneous(h, ["a", "b"], [("a", "r", "b")])
    h = Graph.from_edges([0], [1], ndata={gp.NTYPE: [0, 0]}, edata={gp.ETYPE: [0]})
    with pytest.raises(GraphpartError, match="join nodes of other types"):
        from_homogeneous(h, ["a", "b"], [("a", "r", "b")])
    with pytest.raises(GraphpartError, match="needs ndata"):
        from_homogeneous(Graph.from_edges([0], [1]), ["a"], [("a", "r", "a")])

"""Helpers shared by the tests."""

from __future__ import annotations


import torch

from graphpart import Graph


def edge_multiset(g: Graph, etype=None) -> list[tuple[int, int]]:
    s, d = g.edges(etype)
    return sorted(zip(s.tolist(), d.tolist()))


def assert_same_graph(a: Graph, b: Graph) -> None:
    """Same schema, counts, edges in order, data and node names."""
    assert a.ntypes == b.ntypes
    assert a.canonical_etypes == b.canonical_etypes
    for t in a.ntypes:
        assert a.num_nodes(t) == b.num_nodes(t)
        assert set(a.node_data(t)) == set(b.node_data(t))
        for k in a.node_data(t):
            assert torch.equal(a.node_data(t)[k], b.node_data(t)[k]), (t, k)
        na, nb = a.node_names(t), b.node_names(t)
        assert (na is None) == (nb is None)
        if na is not None:
            assert list(na) == list(nb)
    for e in a.canonical_etypes:
        assert torch.equal(a.edges(e)[0], b.edges(e)[0])
        assert torch.equal(a.edges(e)[1], b.edges(e)[1])
        assert set(a.edge_data(e)) == set(b.edge_data(e))
        for k in a.edge_data(e):
            assert torch.equal(a.edge_data(e)[k], b.edge_data(e)[k]), (e, k)

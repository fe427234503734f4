"""networkx teaching graphs and the dataset registry."""

from __future__ import annotations

import networkx as nx
import pytest

from graphpart import GraphpartError
from graphpart.datasets import (
    load,
    load_davis_southern_women,
    load_karate_club,
    load_les_miserables,
    names,
)
from graphpart.datasets.classics import KARATE_CLUBS


def test_karate_club():
    g = load_karate_club()
    assert (g.num_nodes(), g.num_edges()) == (34, 156)
    assert g.is_homogeneous
    G = nx.karate_club_graph()
    assert [KARATE_CLUBS[i] for i in g.ndata["label"].tolist()] == [
        G.nodes[v]["club"] for v in range(34)
    ]
    assert g.ndata["label"][0] == 0 and g.ndata["label"][33] == 1  # Mr. Hi and the officer
    assert g.in_degrees().tolist() == [d for _, d in sorted(G.degree())]


def test_les_miserables():
    g = load_les_miserables()
    assert (g.num_nodes(), g.num_edges()) == (77, 508)
    names_ = list(g.node_names())
    valjean = names_.index("Valjean")
    assert int(g.out_degrees()[valjean]) == 36  # the most connected character
    assert int(g.edata["weight"].sum()) == 2 * 820


def test_davis_southern_women():
    g = load_davis_southern_women()
    assert g.ntypes == ["event", "woman"]
    assert g.canonical_etypes == [("event", "attended_by", "woman"), ("woman", "attends", "event")]
    assert (g.num_nodes("woman"), g.num_nodes("event")) == (18, 14)
    assert g.num_edges("attends") == g.num_edges("attended_by") == 89
    s, d = g.edges("attends")
    rs, rd = g.edges("attended_by")
    assert sorted(zip(s.tolist(), d.tolist())) == sorted(zip(rd.tolist(), rs.tolist()))
    assert "Evelyn Jefferson" in list(g.node_names("woman"))


def test_registry():
    assert {"karate_club", "wordnet", "rmat", "sbm", "4elt", "mdual"} <= set(names())
    assert load("les_miserables").num_nodes() == 77
    assert load("rmat", scale=5, seed=0).num_nodes() == 32
    with pytest.raises(GraphpartError, match="unknown dataset 'cora'.*karate_club"):
        load("cora")

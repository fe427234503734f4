"""locate_node: every id of a node, its owner, local id and HALO copies."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.lookup import locate_node

from .graphs import hetero_graph


@pytest.fixture(scope="module")
def hetero3():
    return gp.partition(hetero_graph(), 3, part_method="random", num_hops=1, seed=0)


def test_every_kind_of_id_finds_the_same_node(karate3):
    for node in range(34):
        loc = locate_node(karate3, node)
        assert locate_node(karate3, loc.shuffled_id, "shuffled") == loc
        assert locate_node(karate3, loc.orig_id, "typed") == loc


def test_owner_and_local_id_agree_with_the_local_graph(karate3):
    loc = locate_node(karate3, 33)
    assert loc.owner == karate3.node_part[33]
    lg = karate3.local_graph(loc.owner)
    assert int(lg.ndata["_ID"][loc.local_id]) == loc.shuffled_id
    assert bool(lg.ndata["inner_node"][loc.local_id])


def test_halo_copies_are_exactly_where_the_local_graphs_hold_it(karate3):
    for node in (0, 16, 33):
        loc = locate_node(karate3, node)
        expect = []
        for q in range(3):
            lg = karate3.local_graph(q)
            hit = np.flatnonzero(
                (lg.ndata["_ID"] == loc.shuffled_id).numpy() & ~lg.ndata["inner_node"].numpy()
            )
            expect += [(q, int(i), int(lg.ndata["halo_hop"][i])) for i in hit]
        assert list(loc.halo) == expect


def test_heterograph_typed_lookup(hetero3):
    loc = locate_node(hetero3, 5, "typed", ntype="item")
    g = hetero3.graph
    offset = sum(g.num_nodes(t) for t in g.ntypes[: g.ntypes.index("item")])
    assert loc.ntype == "item" and loc.orig_id == 5 and loc.orig_homo_id == offset + 5
    typ, typed = hetero3.book.map_to_per_ntype(torch.tensor([loc.shuffled_id]))
    assert int(typed[0]) == loc.shuffled_typed_id
    assert hetero3.graph.ntypes[int(typ[0])] == "item"
    # orig_nids maps the type-wise new id back to the type-wise original id
    assert int(hetero3.orig_nids["item"][loc.shuffled_typed_id]) == 5


@pytest.mark.parametrize(
    "args, match",
    [
        ((34,), "has 34 nodes"),
        ((-1,), "has 34 nodes"),
        ((0, "bogus"), "kind must be one of"),
        ((1.5,), "must be an integer"),
        ((True,), "must be an integer"),
    ],
)
def test_bad_lookups_say_what_was_expected(karate3, args, match):
    with pytest.raises(gp.GraphpartError, match=match):
        locate_node(karate3, *args)


def test_typed_lookup_on_a_heterograph_needs_a_known_type(hetero3):
    with pytest.raises(gp.GraphpartError, match="needs ntype"):
        locate_node(hetero3, 0, "typed")
    with pytest.raises(gp.GraphpartError, match="unknown node type"):
        locate_node(hetero3, 0, "typed", ntype="nope")
    with pytest.raises(gp.GraphpartError, match="'tag' has 12 nodes"):
        locate_node(hetero3, 12, "typed", ntype="tag")


@pytest.mark.parametrize("hops", [0, 1, 2])
def test_node_table_equals_locate_node_for_every_node(hops):
    from graphpart.lookup import node_table

    from .graphs import hetero_graph

    p = gp.partition(hetero_graph(), 3, num_hops=hops, seed=0)
    table = node_table(p)
    n = p.graph.num_nodes()
    assert [table.location(i) for i in range(n)] == [locate_node(p, i) for i in range(n)]
    assert len(table.halo) == sum(
        len(p.view(q).nodes) - p.view(q).num_inner_nodes for q in range(3)
    )

"""RangePartitionBook: conversions agree with the shuffle, errors are clear."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp

from ..graphs import hetero_graph


@pytest.fixture(scope="module")
def part():
    return gp.partition(hetero_graph(), 3, seed=0)


def test_per_type_round_trip(part):
    book = part.book
    n = sum(part.graph.num_nodes(t) for t in part.graph.ntypes)
    tid, typed = book.map_to_per_ntype(torch.arange(n))
    for i, t in enumerate(book.ntypes):
        sel = tid == i
        assert torch.equal(typed[sel], torch.arange(int(sel.sum())))
        assert torch.equal(book.map_to_homo_nid(typed[sel], t), torch.arange(n)[sel])


def test_edge_round_trip(part):
    book = part.book
    m = sum(part.graph.num_edges(e) for e in part.graph.canonical_etypes)
    tid, typed = book.map_to_per_etype(torch.arange(m))
    for i, e in enumerate(part.graph.canonical_etypes):
        sel = tid == i
        assert torch.equal(book.map_to_homo_eid(typed[sel], e), torch.arange(m)[sel])
        assert torch.equal(book.map_to_homo_eid(typed[sel], ":".join(e)), torch.arange(m)[sel])


def test_typed_partid_matches_homogeneous(part):
    book = part.book
    for p in range(3):
        for t in book.ntypes:
            typed = book.partid2nids(p, t)
            assert bool((book.nid2partid(typed, t) == p).all())
            assert bool((book.nid2partid(book.map_to_homo_nid(typed, t)) == p).all())


def test_relation_name_resolves_when_unique(part):
    assert torch.equal(
        part.book.partid2eids(1, "buys"), part.book.partid2eids(1, ("user", "buys", "item"))
    )


def test_errors(part):
    book = part.book
    with pytest.raises(gp.UnknownTypeError, match="unknown node type 'movie'"):
        book.partid2nids(0, "movie")
    with pytest.raises(gp.IDRangeError, match=r"\[0, 40\)"):
        book.nid2partid([40], "user")
    with pytest.raises(gp.GraphpartError, match="part_id must be"):
        book.partid2nids(3)
    foreign = book.partid2nids(1)[:1]
    with pytest.raises(gp.IDRangeError, match="not owned by partition 0"):
        book.nid2localnid(foreign, 0)


def test_scalar_metadata(part):
    md = part.book.metadata()
    assert [m["machine_id"] for m in md] == [0, 1, 2]
    assert sum(m["num_edges"] for m in md) == sum(
        part.graph.num_edges(e) for e in part.graph.canonical_etypes
    )
    assert np.array(list(part.book.node_map.values())).shape == (3, 3, 2)

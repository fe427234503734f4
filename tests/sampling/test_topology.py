"""Topology: layouts, conversions and edge ids."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.sampling import Topology, sample_neighbors


def edge_set(t: Topology) -> list[tuple[int, int, int]]:
    s, d, e = t.to_coo()
    return sorted(zip(s.tolist(), d.tolist(), e.tolist()))


def test_csc_rows_hold_in_neighbours_in_input_order():
    t = Topology.from_coo([3, 1, 2, 1], [0, 0, 1, 0], num_nodes=4)
    assert t.layout == "CSC" and t.indptr.tolist() == [0, 3, 4, 4, 4]
    assert t.indices[:3].tolist() == [3, 1, 1] and t.edge_ids[:3].tolist() == [0, 1, 3]
    assert t.degree().tolist() == [3, 1, 0, 0]


def test_csr_rows_hold_out_neighbours():
    t = Topology.from_coo([3, 1, 2, 1], [0, 0, 1, 0], num_nodes=4, layout="CSR")
    assert t.degree().tolist() == [0, 2, 1, 1]
    assert t.indices[t.indptr[1] : t.indptr[2]].tolist() == [0, 0]


def test_isolated_nodes_and_the_empty_graph():
    t = Topology.from_coo([], [], num_nodes=3)
    assert t.num_nodes == 3 and t.num_edges == 0 and t.indptr.tolist() == [0, 0, 0, 0]
    assert Topology.from_coo([], []).num_nodes == 0


def test_from_compressed_converts_and_keeps_edge_ids():
    csr = Topology.from_coo([0, 0, 2], [1, 2, 1], layout="CSR")
    csc = Topology.from_compressed(
        csr.indptr, csr.indices, csr.edge_ids, input_layout="CSR", layout="CSC"
    )
    assert csc.layout == "CSC" and edge_set(csc) == edge_set(csr) == [
        (0, 1, 0),
        (0, 2, 1),
        (2, 1, 2),
    ]


def test_from_graph_uses_the_graph_edge_ids():
    g = gp.datasets.load_karate_club()
    t = Topology.from_graph(g)
    s, d = g.edges()
    assert edge_set(t) == sorted(zip(s.tolist(), d.tolist(), range(g.num_edges())))
    assert torch.equal(t.degree(), g.in_degrees())


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"src": [0, 1], "dst": [1]}, "same length"),
        ({"src": [0, 5], "dst": [1, 1], "num_nodes": 3}, r"src must be within \[0, 3\), got 5"),
        ({"src": [0], "dst": [1], "layout": "COO"}, "layout must be one of"),
        ({"src": [0], "dst": [1], "edge_ids": [0, 1]}, "one id per edge"),
    ],
)
def test_bad_coo_input(kwargs, match):
    with pytest.raises(gp.GraphpartError, match=match):
        Topology.from_coo(**kwargs)


def test_bad_compressed_input():
    with pytest.raises(gp.GraphpartError, match="indptr must start at 0"):
        Topology.from_compressed([0, 2, 1], [0, 1])
    with pytest.raises(gp.GraphpartError, match="indices must be within"):
        Topology.from_compressed([0, 1], [4])


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=20),
        )
    )
)
def test_every_conversion_keeps_every_edge_with_its_id(case):
    n, edges = case
    src, dst = [e[0] for e in edges], [e[1] for e in edges]
    want = sorted(zip(src, dst, range(len(edges))))
    for layout in ("CSC", "CSR"):
        t = Topology.from_coo(src, dst, n, layout=layout)
        assert edge_set(t) == want
        other = t.to_layout("CSR" if layout == "CSC" else "CSC")
        assert edge_set(other) == want and edge_set(other.to_layout(layout)) == want
        assert int(t.indptr[-1]) == len(edges) and bool((torch.diff(t.indptr) >= 0).all())


def star():
    """Node 0 has in-neighbours 1..4; node 5 has one (0); node 6 none."""
    return Topology.from_coo([1, 2, 3, 4, 0], [0, 0, 0, 0, 5], num_nodes=7)


def test_without_replacement_draws_distinct_neighbours():
    t = star()
    for s in range(20):
        nbr, seed, eid = sample_neighbors(
            t, torch.tensor([0, 5, 6]), 2, generator=torch.Generator().manual_seed(s)
        )
        assert seed.tolist() == [0, 0, 5]
        assert len(set(nbr[:2].tolist())) == 2 and set(nbr[:2].tolist()) <= {1, 2, 3, 4}
        assert nbr[2].item() == 0 and eid[2].item() == 4
        assert eid[:2].tolist() == [x - 1 for x in nbr[:2].tolist()]  # each edge keeps its id


def test_with_replacement_draws_exactly_fanout():
    nbr, seed, _ = sample_neighbors(
        star(), torch.tensor([0, 5, 6]), 6, replace=True, generator=torch.Generator().manual_seed(0)
    )
    assert seed.tolist() == [0] * 6 + [5] * 6 and set(nbr[:6].tolist()) <= {1, 2, 3, 4}


def test_fanout_minus_one_or_large_takes_all():
    for fanout in (-1, 10):
        nbr, seed, _ = sample_neighbors(star(), torch.tensor([0]), fanout)
        assert sorted(nbr.tolist()) == [1, 2, 3, 4]


def test_same_seed_same_sample():
    a = sample_neighbors(
        star(), torch.tensor([0, 0, 5]), 2, generator=torch.Generator().manual_seed(3)
    )
    b = sample_neighbors(
        star(), torch.tensor([0, 0, 5]), 2, generator=torch.Generator().manual_seed(3)
    )
    assert all(torch.equal(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize("replace", [False, True])
def test_draws_are_uniform(replace):
    seeds = torch.zeros(20000, dtype=torch.int64)
    nbr, _, _ = sample_neighbors(
        star(), seeds, 1, replace=replace, generator=torch.Generator().manual_seed(1)
    )
    freq = torch.bincount(nbr, minlength=5)[1:].double() / len(nbr)
    assert torch.allclose(freq, torch.full((4,), 0.25, dtype=torch.float64), atol=0.015)


def test_seeds_out_of_range():
    with pytest.raises(gp.GraphpartError, match=r"seeds must be within \[0, 7\)"):
        sample_neighbors(star(), torch.tensor([7]), 2)


def test_every_subset_is_equally_likely_without_replacement():
    seeds = torch.zeros(30000, dtype=torch.int64)
    nbr, _, _ = sample_neighbors(star(), seeds, 2, generator=torch.Generator().manual_seed(2))
    pairs = torch.sort(nbr.reshape(-1, 2), 1).values
    codes = torch.bincount(pairs[:, 0] * 5 + pairs[:, 1], minlength=25)
    freq = codes[codes > 0].double() / len(pairs)
    assert len(freq) == 6 and torch.allclose(
        freq, torch.full((6,), 1 / 6, dtype=torch.float64), atol=0.012
    )

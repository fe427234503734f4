"""METIS through ctypes: symmetric input, multi-constraint balance, isolated nodes, options."""

from __future__ import annotations

import numpy as np
import pymetis
import pytest

import graphpart as gp
from graphpart.datasets.rmat import rmat
from graphpart.partitioning._metis_ctypes import part_graph
from graphpart.partitioning.balance import balance_weights, water_fill
from graphpart.partitioning.metis import metis_assignment, metis_csr
from graphpart.partitioning.options import MetisOptions


def grid(n: int):
    idx = np.arange(n * n).reshape(n, n)
    src = np.concatenate([idx[:, :-1].ravel(), idx[:-1, :].ravel()])
    dst = np.concatenate([idx[:, 1:].ravel(), idx[1:, :].ravel()])
    return src, dst, n * n


def test_csr_symmetrises_and_drops_loops_and_duplicates():
    xadj, adj = metis_csr(np.array([0, 0, 0, 1, 2, 2]), np.array([1, 1, 0, 0, 2, 1]), 4)
    rows = np.repeat(np.arange(4), np.diff(xadj))
    pairs = set(zip(rows.tolist(), adj.tolist()))
    assert pairs == {(0, 1), (1, 0), (1, 2), (2, 1)}
    assert len(adj) == len(pairs)


def test_ctypes_matches_pymetis_on_single_constraint():
    src, dst, n = grid(20)
    xadj, adj = metis_csr(src, dst, n)
    cut, part = part_graph(xadj, adj, 4, seed=1)
    assert cut == int(np.count_nonzero(part[src] != part[dst]))
    ref_cut, _ = pymetis.part_graph(4, adjacency=pymetis.CSRAdjacency(xadj, adj))
    assert cut <= 1.3 * ref_cut


def test_two_constraints_are_each_balanced():
    src, dst, n = grid(40)
    xadj, adj = metis_csr(src, dst, n)
    # Constraint 2 is concentrated in one corner: balancing nodes alone would not balance it.
    w2 = ((np.arange(n) % 40 < 10) & (np.arange(n) // 40 < 10)).astype(np.int64)
    vwgt = np.stack([np.ones(n, dtype=np.int64), w2], axis=1)
    _, part = part_graph(xadj, adj, 4, vwgt=vwgt, ubvec=np.array([1.05, 1.05]), seed=0)
    for c in range(2):
        loads = np.bincount(part, weights=vwgt[:, c], minlength=4)
        assert loads.max() <= 1.05 * loads.mean() + 1, (c, loads)
    _, part1 = part_graph(xadj, adj, 4, seed=0)
    loads1 = np.bincount(part1, weights=w2, minlength=4)
    assert loads1.max() > 1.5 * loads1.mean()  # the single-constraint run leaves it unbalanced


def test_rmat16_train_mask_balance():
    g = rmat(16, seed=0, train_frac=0.1)
    mask = g.ndata["train_mask"].numpy()

    def spread(**kw):
        p = gp.partition(g, 8, seed=0, **kw)
        tr = np.bincount(p.node_part[mask], minlength=8)
        return np.abs(tr / tr.mean() - 1).max()

    assert spread(balance_ntypes=g.ndata["train_mask"]) <= 0.05
    assert spread() > 0.05


def test_balance_edges_balances_in_degrees():
    g = rmat(14, seed=1)
    p = gp.partition(g, 4, seed=0, balance_edges=True)
    assert p.metrics.balance["in-degree"] <= 1.06
    assert p.metrics.balance["nodes"] <= 1.06


def test_balance_weights_follow_dgl():
    w, cls = balance_weights(4, np.array([2, 2, 5, 7]), False, None)
    assert w.tolist() == [[1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] and cls.tolist() == [
        0,
        0,
        1,
        2,
    ]
    assert balance_weights(3, None, False, None) == (None, None)


@pytest.mark.parametrize("current,m", [([5, 1, 3], 4), ([0, 0, 0], 7), ([9, 0], 3), ([2, 2], 0)])
def testwater_fill(current, m):
    cur = np.array(current)
    quota = water_fill(cur, m)
    assert quota.sum() == m and quota.min() >= 0
    final = cur + quota
    lifted = quota > 0
    if lifted.any():  # every part that got items ends at most one above the lowest part
        assert final[lifted].max() <= final.min() + 1


def test_isolated_nodes_fill_the_parts():
    # Two triangles and 10 isolated nodes.
    src = np.array([0, 1, 2, 3, 4, 5])
    dst = np.array([1, 2, 0, 4, 5, 3])
    part = metis_assignment(src, dst, 16, 2, seed=0)
    assert np.bincount(part).tolist() == [8, 8]
    assert len(set(part[:3])) == 1 and len(set(part[3:6])) == 1


def test_only_isolated_nodes():
    part = metis_assignment(np.zeros(0, np.int64), np.zeros(0, np.int64), 7, 3, seed=0)
    assert sorted(np.bincount(part).tolist()) == [2, 2, 3]


def test_options_and_recursive_run():
    src, dst, n = grid(16)
    for kw in [
        dict(recursive=True),
        dict(options=MetisOptions(niter=2, ncuts=2, ufactor=50, ctype="rm")),
    ]:
        part = metis_assignment(src, dst, n, 4, seed=0, **kw)
        assert np.bincount(part, minlength=4).max() <= 1.06 * n / 4


def test_vol_objective_runs():
    src, dst, n = grid(12)
    p = gp.partition(gp.Graph.from_edges(src, dst), 3, objtype="vol", seed=0)
    assert p.metrics.communication_volume > 0


def test_seeded_metis_is_deterministic():
    src, dst, n = grid(20)
    a = metis_assignment(src, dst, n, 4, seed=5)
    b = metis_assignment(src, dst, n, 4, seed=5)
    assert np.array_equal(a, b)


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(niter=0), "niter"),
        (dict(ctype="hem"), "ctype"),
        (dict(ncuts=10**6), "ncuts is at most 100"),  # once ran past 40 s
        (dict(niter=10**6), "niter is at most 100"),
        (dict(ufactor=2**70), "ufactor"),
    ],
)
def test_bad_metis_options(kw, match):
    with pytest.raises(gp.GraphpartError, match=match):
        MetisOptions(**kw)


def test_bad_ubvec():
    src, dst, n = grid(4)
    with pytest.raises(gp.GraphpartError, match="ubvec"):
        metis_assignment(src, dst, n, 2, ubvec=[0.9])


def _pairs(xadj, adj):
    rows = np.repeat(np.arange(len(xadj) - 1), np.diff(xadj))
    return set(zip(rows.tolist(), adj.tolist()))


@pytest.mark.parametrize("by_degree", [False, True])
def test_sample_keeps_about_the_budget_and_stays_symmetric(by_degree):
    g = rmat(14, seed=2)
    s, d = (x.numpy() for x in g.edges())
    n = g.num_nodes()
    budget = len(s) // 5
    xadj, adj = metis_csr(s, d, n, budget, seed=0, by_degree=by_degree)
    pairs = _pairs(xadj, adj)
    assert 0.85 * budget <= len(pairs) / 2 <= 1.1 * budget
    assert all((b, a) in pairs for a, b in pairs)
    assert pairs <= _pairs(*metis_csr(s, d, n))  # only edges of the graph


def test_degree_sample_keeps_every_edge_of_low_degree_nodes():
    # a dense core (100 nodes of degree ~40) and a path of 50 degree-2 nodes hanging off it
    rng = np.random.default_rng(0)
    core = rng.integers(0, 100, (2000, 2))
    path = np.arange(100, 150)
    src = np.concatenate([core[:, 0], [0], path[:-1]])
    dst = np.concatenate([core[:, 1], [100], path[1:]])
    path_pairs = [(a, b) for a, b in zip(src[-50:].tolist(), dst[-50:].tolist())]
    xadj, adj = metis_csr(src, dst, 150, max_edges=600, seed=1, by_degree=True)
    kept = _pairs(xadj, adj)
    assert all(pair in kept for pair in path_pairs)
    assert len(kept) / 2 < 0.5 * len(_pairs(*metis_csr(src, dst, 150))) / 2  # the core was thinned
    uniform = _pairs(*metis_csr(src, dst, 150, max_edges=600, seed=1, by_degree=False))
    assert sum(pair in uniform for pair in path_pairs) < 35


def test_sample_is_seeded_and_never_keeps_self_loops():
    rng = np.random.default_rng(0)
    s, d = rng.integers(0, 300, 3000), rng.integers(0, 300, 3000)
    s[:100] = d[:100]
    a = metis_csr(s, d, 300, 500, seed=7)
    b = metis_csr(s, d, 300, 500, seed=7)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert all(u != v for u, v in _pairs(*a))


def test_metis_refines_itself_once_when_the_full_graph_refinement_follows(monkeypatch):
    import graphpart.partitioning.metis as metis_module

    seen = []
    real = metis_module.part_graph

    def spy(*args, options, **kwargs):
        seen.append(options.niter)
        return real(*args, options=options, **kwargs)

    monkeypatch.setattr(metis_module, "part_graph", spy)
    g = rmat(14, seed=3)  # no communities: METIS sees a sample of the edges
    s, d = (x.numpy() for x in g.edges())
    n = g.num_nodes()
    metis_assignment(s, d, n, 4, seed=0, max_edges=len(s) // 2)
    metis_assignment(s, d, n, 4, seed=0, max_edges=len(s) // 2, refine_rounds=0)
    metis_assignment(s, d, n, 4, seed=0, max_edges=len(s) // 2, options=MetisOptions(niter=5))
    metis_assignment(s, d, n, 4, seed=0, max_edges=None)
    m, gs, gn = grid(150)  # a mesh is coarsened: METIS refines the coarse graph its own way,
    metis_assignment(m, gs, gn, 4, seed=0, max_edges=len(m) // 8)  # at two tolerances
    assert seen == [1, None, 5, None, None, None]


@pytest.mark.parametrize("by_degree", [False, True])
def test_self_loops_do_not_eat_the_sample_budget(by_degree):
    g = rmat(14, seed=3)
    s, d = (x.numpy() for x in g.edges())
    n = g.num_nodes()
    s, d = (
        np.concatenate([s, np.arange(n)]),
        np.concatenate([d, np.arange(n)]),
    )  # a loop on every node
    budget = len(s) // 5
    kept = len(
        metis_csr(s, d, n, budget, seed=0, by_degree=by_degree)[1]
    )  # both directions of each pair
    plain = len(metis_csr(s[:-n], d[:-n], n, budget, seed=0, by_degree=by_degree)[1])
    assert 0.9 * plain <= kept <= 1.1 * plain


def test_negative_edge_budget_is_refused():
    with pytest.raises(gp.GraphpartError, match="max_edges"):
        metis_assignment(np.array([0, 1]), np.array([1, 2]), 3, 2, max_edges=-1)

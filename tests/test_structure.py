"""Cut matrix, quotient graph and HALO growth agree with the partitioning they describe."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.datasets import load_karate_club, sbm
from graphpart.metrics.structure import cut_matrix, halo_growth, quotient_graph

from .graphs import hetero_graph


@pytest.fixture(scope="module")
def karate4():
    return gp.partition(load_karate_club(), 4, seed=0)


def test_cut_matrix_counts_every_edge_once(karate4):
    m = cut_matrix(karate4)
    assert m.sum() == karate4.graph.num_edges()
    assert m.sum() - np.trace(m) == karate4.metrics.edge_cut


def test_cut_matrix_rows_are_sources_columns_are_owners(karate4):
    src, dst = (x.numpy() for x in karate4.graph.edges())
    part = karate4.node_part
    expect = np.zeros((4, 4), dtype=np.int64)
    np.add.at(expect, (part[src], part[dst]), 1)
    assert (cut_matrix(karate4) == expect).all()
    # column j sums to the edges partition j owns
    assert (cut_matrix(karate4).sum(axis=0) == karate4.metrics.owned_edges).all()


def test_quotient_graph_is_the_symmetrised_cut(karate4):
    q = quotient_graph(karate4)
    m = cut_matrix(karate4)
    assert (q.src < q.dst).all()
    assert q.weight.sum() == m.sum() - np.trace(m)
    assert (q.weight == (m + m.T)[q.src, q.dst]).all()
    assert (q.sizes == np.bincount(karate4.node_part)).all()


def test_quotient_graph_of_one_part_has_no_edges():
    q = quotient_graph(gp.partition(load_karate_club(), 1))
    assert q.sizes.tolist() == [34] and len(q.src) == 0


@settings(max_examples=15, deadline=None)
@given(k=st.integers(1, 5), seed=st.integers(0, 10))
def test_halo_growth_matches_partitions_built_with_each_hop_count(k, seed):
    g = sbm(block_sizes=[15, 15, 15], p_in=0.2, p_out=0.03, seed=seed)
    base = gp.partition(g, k, part_method="random", seed=seed)
    growth = halo_growth(base, max_hops=3)
    for h in range(4):
        again = gp.partition(g, k, part_method=base.trainer_id, num_hops=h)
        assert (growth.halo[:, h] == again.metrics.halo_nodes).all(), h
    assert (growth.inner == np.bincount(base.node_part, minlength=k)).all()
    assert growth.replication[0] == 1.0


def test_halo_growth_on_a_heterograph():
    p = gp.partition(hetero_graph(), 3, part_method="random", seed=0)
    growth = halo_growth(p, max_hops=2)
    assert growth.halo.shape == (3, 3) and (np.diff(growth.halo, axis=1) >= 0).all()
    assert (growth.halo[:, 1] == p.metrics.halo_nodes).all()


def test_halo_growth_rejects_negative_hops(karate4):
    with pytest.raises(gp.GraphpartError, match="max_hops"):
        halo_growth(karate4, -1)


def test_halo_growth_takes_partitions_on_disk(tmp_path):
    import graphpart as gp
    from graphpart.datasets import load_karate_club

    p = gp.partition(load_karate_club(), 2, seed=0)
    gp.storage.save_partitions(p, "k", tmp_path / "out")
    on_disk = halo_growth(tmp_path / "out" / "k.json", max_hops=2)
    assert np.array_equal(on_disk.halo, halo_growth(p, max_hops=2).halo)

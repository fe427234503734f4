"""Partition-aware accounting: each lookup is of an inner, HALO or remote node, and served where
the named system's rule says (DGL: owned rows only; GLT: and a remote cache); features and
training count the same."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.datasets import load_karate_club, sbm
from graphpart.features import Trace, access_by_partition, node_locality, partition_access
from graphpart.features.partition import HALO, INNER, REMOTE
from graphpart.sampling import Topology


@pytest.fixture(scope="module")
def karate_parts():
    return gp.partition(load_karate_club(), 3, num_hops=1, seed=0)


def test_locality_matches_the_partition_views(karate_parts):
    p = karate_parts
    for part in range(3):
        loc = node_locality(p, part)
        local = p.local_graph(part)
        orig = local.ndata["orig_id"]
        inner = local.ndata["inner_node"].bool()
        assert set(torch.nonzero(loc == INNER).reshape(-1).tolist()) == set(orig[inner].tolist())
        assert set(torch.nonzero(loc == HALO).reshape(-1).tolist()) == set(orig[~inner].tolist())
        assert int((loc == REMOTE).sum()) == 34 - len(orig)


def test_without_halo_every_non_inner_lookup_is_remote():
    p = gp.partition(load_karate_club(), 2, num_hops=0, seed=0)
    loc = node_locality(p, 0)
    assert set(loc.unique().tolist()) == {INNER, REMOTE}


def test_counts_per_batch_by_brute_force(karate_parts):
    p = karate_parts
    trace = Trace.from_batches([[0, 1, 2, 33], [5, 6, 32], list(range(34))], 34)
    acc = partition_access(p, 1, trace)
    loc = node_locality(p, 1).tolist()
    for i in range(3):
        b = trace.batch(i).tolist()
        assert acc.inner[i] == sum(loc[x] == INNER for x in b)
        assert acc.halo[i] == sum(loc[x] == HALO for x in b)
        assert acc.remote[i] == sum(loc[x] == REMOTE for x in b)
    assert acc.remote_cached.sum() == 0 and acc.remote_saved == 0.0


def test_remote_cache_holds_the_hottest_remote_nodes():
    p = gp.partition(load_karate_club(), 3, num_hops=0, seed=0)
    loc = node_locality(p, 0)
    remote = torch.nonzero(loc == REMOTE).reshape(-1)
    hot = torch.zeros(34)
    hot[remote[:2]] = 10.0
    trace = Trace.from_batches([remote.tolist(), remote[:3].tolist()], 34)
    acc = partition_access(p, 0, trace, remote_cache=2 / 34, hotness=hot, rule="glt")
    assert acc.remote_cache_rows == 2
    assert acc.remote_cached.tolist() == [2, 2]
    assert acc.remote_saved == pytest.approx(4 / (len(remote) + 3))


def test_a_bigger_remote_cache_never_saves_less():
    g = sbm(block_sizes=[80] * 4, p_in=0.1, p_out=0.01, seed=0)
    p = gp.partition(g, 4, num_hops=1, seed=0)
    topo = Topology.from_graph(g)
    saved = [
        np.mean(
            [
                a.remote_saved
                for a in access_by_partition(
                    p, topo, [5, 5], batch_size=32, remote_cache=r, seed=0, rule="glt"
                )
            ]
        )
        for r in (0.0, 0.05, 0.2)
    ]
    assert saved[0] == 0.0 and saved[0] <= saved[1] <= saved[2] and saved[2] > 0.3


def test_metis_leaves_fewer_non_inner_lookups_than_random():
    """Without HALO copies (with them, random's huge HALO makes almost every lookup local, at a
    memory cost)."""
    g = sbm(block_sizes=[100] * 4, p_in=0.1, p_out=0.005, seed=1)
    topo = Topology.from_graph(g)
    frac = {}
    for method in ("random", "metis"):
        p = gp.partition(g, 4, part_method=method, num_hops=0, seed=0)
        frac[method] = np.mean(
            [a.remote_fraction for a in access_by_partition(p, topo, [5, 5], batch_size=50)]
        )
    assert frac["metis"] < 0.85 * frac["random"]


def test_trace_and_partitioning_must_agree(karate_parts):
    with pytest.raises(gp.GraphpartError, match="34 nodes"):
        partition_access(karate_parts, 0, Trace.from_batches([[0]], 40))
    with pytest.raises(gp.GraphpartError, match="part_id"):
        node_locality(karate_parts, 3)


def test_locality_table_rows_split_every_lookup_and_sum_to_100_percent():
    import graphpart as gp
    from graphpart.datasets import sbm
    from graphpart.features import access_by_partition, locality_table
    from graphpart.features.partition import SERVED_BY
    from graphpart.sampling import Topology

    g = sbm([150] * 4, 0.05, 0.005, seed=0)
    topo = Topology.from_graph(g)
    runs = {}
    for hops in (0, 1):
        p = gp.partition(g, 4, num_hops=hops, seed=0)
        for cache in (0.0, 0.1):
            acc = access_by_partition(
                p, topo, [5, 5], batch_size=32, remote_cache=cache, seed=0, rule="glt"
            )
            runs[f"hops={hops} cache={cache}"] = (p, acc)
    table = locality_table(runs)
    for i, (p, acc) in enumerate(runs.values()):
        shares = [float(table.columns[k][i].rstrip("%")) for k in SERVED_BY]
        assert round(10 * sum(shares)) == 1000  # each row accounts for every lookup: 100.0%
        total = sum(int(a.inner.sum() + a.halo.sum() + a.remote.sum()) for a in acc)
        cached = sum(int(a.remote_cached.sum()) for a in acc)
        served = float(table.columns["served by remote cache"][i].rstrip("%"))
        assert abs(served - 100 * cached / total) < 0.1 + 1e-9
        assert table.columns["HALO nodes (all parts)"][i] == int(p.metrics.halo_nodes.sum())
    assert table.columns["served by remote cache"][0] == "0.0%"  # no cache, nothing served by it
    assert float(table.columns["served by remote cache"][1].rstrip("%")) > 0


def test_locality_table_rows_print_100_percent_where_each_share_rounds_down():
    from graphpart.features import PartitionAccess, locality_table
    from graphpart.features.partition import SERVED_BY

    class Parts:  # what locality_table reads of a partitioning
        class metrics:
            halo_nodes = np.array([0])

    def one(*n):  # one trainer, one batch: inner, halo, remote (cached included), cached
        return PartitionAccess(0, *(np.array([k]) for k in n), 1, "halo-copies")

    runs = {"thirds": (Parts, [one(1, 1, 1, 0)]), "cached thirds": (Parts, [one(0, 1, 2, 1)])}
    table = locality_table(runs)
    rows = [[table.columns[k][i] for k in SERVED_BY] for i in range(2)]
    assert rows == [["33.4%", "33.3%", "0.0%", "33.3%"], ["0.0%", "33.4%", "33.3%", "33.3%"]]


def test_percent_tenths_sum_to_exactly_1000_and_stay_within_a_tenth():
    from graphpart.features.partition import percent_tenths

    counts = np.random.default_rng(0).integers(0, 1000, (500, 4))
    counts[::7, 1:] = 0  # rows with one nonzero share
    counts[3] = 0  # a row without lookups stays zeros
    tenths = percent_tenths(counts)
    total = counts.sum(axis=1, keepdims=True)
    exact = 1000 * counts / np.maximum(total, 1)
    assert (tenths.sum(axis=1) == np.where(total[:, 0] > 0, 1000, 0)).all()
    assert (np.abs(tenths - exact) < 1).all() and tenths[3].tolist() == [0, 0, 0, 0]
    for bad in ([1, 2], [[1, -1]], [[np.nan, 1]]):
        with pytest.raises(gp.GraphpartError, match="counts"):
            percent_tenths(bad)


def test_under_dgl_s_rule_halo_rows_are_fetched_from_their_owner(karate_parts):
    """DGL keeps the feature rows of owned nodes only: a HALO copy serves sampling, never a
    feature lookup (notebook 06 once counted them local, notebook 08 fetched: one rule now)."""
    trace = Trace.from_batches([list(range(34))], 34)
    dgl = partition_access(karate_parts, 1, trace)
    copies = partition_access(karate_parts, 1, trace, rule="halo-copies")
    t, c = dgl.totals, copies.totals
    assert t["halo"] > 0 and t["local_halo"] == 0
    assert t["remote_fetched"] == t["halo"] + t["remote"]
    assert c["local_halo"] == c["halo"] and c["remote_fetched"] == c["remote"]


def test_a_rule_is_named_and_dgl_has_no_remote_cache(karate_parts):
    trace = Trace.from_batches([[0, 1]], 34)
    with pytest.raises(gp.GraphpartError, match="rule must name a system"):
        partition_access(karate_parts, 0, trace, rule="mine")
    for rule in ("dgl", "halo-copies"):
        with pytest.raises(gp.GraphpartError, match=f"'{rule}' keeps no cache of remote rows"):
            partition_access(karate_parts, 0, trace, remote_cache=0.1, rule=rule)


def test_features_and_training_fetch_the_same_rows():
    """The trainer's inputs that the epoch replay fetched from another machine are the lookups
    the feature accounting sends away under the same (DGL's) rule, HALO copies included."""
    from graphpart.training import replay_epochs

    g = sbm([60] * 3, 0.1, 0.01, seed=0)
    p = gp.partition(g, 3, num_hops=1, seed=0)
    assert int(np.asarray(p.metrics.halo_nodes).sum()) > 0
    c = replay_epochs(p, fanouts=[4, 4], batch_size=16, train=None, num_trainers_per_machine=1,
                      seed=0, record_trainer=1)  # fmt: skip
    reads = c.reads
    new2old = torch.from_numpy(np.asarray(p.shuffle.new2old_nid))
    per_node = torch.from_numpy(reads.reads.astype(np.int64))
    batches = [new2old[per_node >= k].tolist() for k in range(1, int(per_node.max()) + 1)]
    acc = partition_access(p, reads.machine, Trace.from_batches(batches, g.num_nodes()))
    t = acc.totals
    assert t["halo"] > 0
    assert t["remote_fetched"] == int(reads.fetched.sum())
    assert t["local_inner"] == int(reads.reads.sum() - reads.fetched.sum())

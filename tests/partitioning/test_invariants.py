"""DGL's partition invariants for metis and random, 1-4 parts, 0-2 hops, homo- and heterographs."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import torch
from hypothesis import event, given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart import Graph
from graphpart.datasets import load_wordnet

from ..graphs import hetero_graph, karate
from ..strategies import typed_graphs
from .invariants import check_partitioning, check_parts


@pytest.mark.parametrize("method", ["metis", "random"])
@pytest.mark.parametrize("num_parts", [1, 2, 3, 4])
@pytest.mark.parametrize("num_hops", [0, 1, 2])
@pytest.mark.parametrize("make", [karate, hetero_graph], ids=["homogeneous", "heterogeneous"])
def test_invariants(make, method, num_parts, num_hops):
    p = gp.partition(make(), num_parts, part_method=method, num_hops=num_hops, seed=1)
    check_partitioning(p)


def _labels(data, n: int) -> np.ndarray:
    return np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int64)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_invariants_hold_on_random_typed_graphs(data):
    """partition() on fuzzed graphs (empty and one-node types, empty edge types), both methods."""
    homogeneous = data.draw(st.booleans(), label="homogeneous")
    g = data.draw(
        typed_graphs(max_types=1, min_relations=1, max_relations=1)
        if homogeneous
        else typed_graphs(),
        label="graph",
    )
    assert g.is_homogeneous or not homogeneous  # typed_graphs() may draw one too
    k = data.draw(st.integers(1, 4), label="num_parts")
    method = data.draw(st.sampled_from(["random", "metis"]), label="part_method")
    num_hops = data.draw(st.integers(0, 2), label="num_hops")
    balance_edges = data.draw(st.booleans(), label="balance_edges")
    balance = None
    if data.draw(st.booleans(), label="balance_ntypes"):
        if g.is_homogeneous:
            balance = _labels(data, g.num_nodes())
        else:
            types = data.draw(st.lists(st.sampled_from(g.ntypes), unique=True))
            balance = {t: _labels(data, g.num_nodes(t)) for t in types}
    counts = [g.num_nodes(t) for t in g.ntypes]
    refused = method == "metis" and (
        sum(counts) < k or (balance is None and not g.is_homogeneous and min(counts) < k)
    )
    kw = {
        "part_method": method,
        "num_hops": num_hops,
        "balance_ntypes": balance,
        "balance_edges": balance_edges,
        "seed": 0,
    }
    event(f"{method}, {'refused' if refused else 'partitioned'}")
    if refused:  # METIS: fewer nodes than parts, or a type to balance with fewer nodes than parts
        with pytest.raises(gp.GraphpartError, match="METIS"):
            gp.partition(g, k, **kw)
        return
    p = gp.partition(g, k, **kw)
    assert p.num_parts == k and p.num_hops == num_hops
    check_partitioning(p)


def test_no_edge_types():
    g = Graph.from_typed_edges({}, num_nodes={"a": 3})
    p = gp.partition(g, 2, part_method="random", seed=0)
    check_partitioning(p)
    assert p.book.num_partitions() == 2 and p.local_graph(1).num_edges() == 0


@pytest.mark.parametrize("trainers", [2, 3])
def test_trainer_ids(trainers):
    p = gp.partition(hetero_graph(), 2, num_trainers_per_machine=trainers, seed=0)
    check_partitioning(p)
    assert len(np.unique(p.trainer_id)) == 2 * trainers


def test_disk_round_trip_matches_memory(tmp_path):
    g = hetero_graph()
    nmap, emap = gp.partition_graph(
        g, "shop", 3, tmp_path, num_hops=2, seed=3, return_mapping=True, num_trainers_per_machine=2
    )
    parts = []
    for i in range(3):
        lg, nf, ef, book, name, ntypes, etypes = gp.load_partition(tmp_path / "shop.json", i)
        assert (name, ntypes, etypes) == ("shop", g.ntypes, g.canonical_etypes)
        parts.append((lg, nf, ef, book))
    check_parts(g, parts, nmap, emap, num_hops=2, trainers=2)
    mem = gp.partition(g, 3, num_hops=2, seed=3, num_trainers_per_machine=2)
    for t in g.ntypes:
        assert torch.equal(mem.orig_nids[t], nmap[t])


def test_return_mapping_homogeneous_is_tensor(tmp_path):
    nmap, emap = gp.partition_graph(
        karate(), "k", 2, tmp_path, part_method="random", seed=0, return_mapping=True
    )
    assert isinstance(nmap, torch.Tensor) and isinstance(emap, torch.Tensor)


def small_type_graph() -> Graph:
    # A node type with fewer nodes than partitions, an edge type with 2 edges.
    return Graph.from_typed_edges(
        {
            ("a", "r", "b"): ([0, 1, 2, 3, 4, 5], [0, 1, 0, 1, 0, 1]),
            ("b", "s", "a"): ([0, 1], [2, 3]),
            ("a", "t", "a"): ([0, 1, 2, 3, 4], [1, 2, 3, 4, 5]),
        },
        num_nodes={"a": 6, "b": 2},
        ndata={"b": {"x": torch.ones(2, 1)}},
    )


@pytest.mark.parametrize("num_hops", [0, 1, 2])
def test_tiny_types_work_with_random(num_hops):
    check_partitioning(
        gp.partition(small_type_graph(), 4, part_method="random", num_hops=num_hops, seed=0)
    )


def test_tiny_types_raise_clear_error_with_metis():
    with pytest.raises(
        gp.GraphpartError, match=r"node type\(s\) \['b'\] have fewer nodes than the 4 parts"
    ):
        gp.partition(small_type_graph(), 4)


def test_tiny_edge_type_works_with_metis():
    check_partitioning(gp.partition(small_type_graph(), 2, seed=0))


def test_random_is_balanced_per_type():
    p = gp.partition(hetero_graph(), 4, part_method="random", seed=0)
    for t, parts in p.assignment.items():
        counts = np.bincount(parts.numpy(), minlength=4)
        assert counts.max() - counts.min() <= 1, t


def test_custom_assignment_array_and_dict():
    g = hetero_graph()
    rng = np.random.default_rng(0)
    as_dict = {t: rng.integers(0, 3, g.num_nodes(t)) for t in g.ntypes}
    p = gp.partition(g, 3, part_method=as_dict)
    assert p.part_method == "custom"
    for t in g.ntypes:
        assert np.array_equal(p.assignment[t].numpy(), as_dict[t])
    check_partitioning(p)
    flat = np.concatenate([as_dict[t] for t in g.ntypes])
    q = gp.partition(g, 3, part_method=flat)
    assert np.array_equal(q.node_part, p.node_part)


@pytest.mark.needs_dataset("wordnet")
@pytest.mark.parametrize(
    "method,num_parts,num_hops", [("metis", 4, 1), ("random", 3, 2), ("metis", 2, 0)]
)
def test_wordnet(method, num_parts, num_hops):
    g = load_wordnet()
    p = gp.partition(g, num_parts, part_method=method, num_hops=num_hops, seed=0)
    check_partitioning(p)
    if method == "metis":  # every node type is balanced by default
        for t, parts in p.assignment.items():
            counts = np.bincount(parts.numpy(), minlength=num_parts)
            assert counts.max() <= 1.1 * counts.mean(), t


def test_more_hops_than_the_graph_has_end_at_its_diameter():
    code = (
        "import graphpart as gp, numpy as np\n"
        "n = 300\n"  # a path: the far end is 299 hops away
        "a, b = np.arange(n - 1), np.arange(1, n)\n"
        "g = gp.Graph.from_edges(np.r_[a, b], np.r_[b, a], num_nodes=n)\n"
        "p = gp.partition(g, 2, part_method=np.r_[np.zeros(1, int), np.ones(n - 1, int)],"
        " num_hops=10**9)\n"
        "hop = p.local_graph(0).ndata['halo_hop']\n"
        "m = p.metrics\n"
        "print(int(hop.min()), int(hop.max()), m.halo_by_hop.shape[1], int(m.halo_nodes[0]))\n"
    )
    try:
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
        )
    except subprocess.TimeoutExpired:
        pytest.fail("partition(num_hops=10**9) did not stop at the graph's diameter")
    assert run.returncode == 0, run.stderr[-2000:]
    low, high, columns, halo0 = map(int, run.stdout.split())
    # partition 0 is node 0 alone: every other node is a HALO node, node k at hop k (> 127 too)
    assert (low, high, halo0) == (0, 299, 299) and columns <= 300

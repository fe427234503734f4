"""open_partitioning: a Partitioning rebuilt from partitions on disk."""

from __future__ import annotations

import logging

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.datasets import load_karate_club
from graphpart.storage import open_partitioning


def _karate():
    g = load_karate_club()
    g.edata["w"] = torch.arange(g.num_edges(), dtype=torch.float32)
    return g


def test_reopened_partitioning_equals_the_one_written(tmp_path):
    g = _karate()
    p = gp.partition(g, 3, num_hops=2, seed=0)
    gp.partition_graph(g, "k", 3, tmp_path, num_hops=2, seed=0)
    q = open_partitioning(tmp_path)
    assert q.num_hops == 2
    assert q.metrics.edge_cut == p.metrics.edge_cut
    assert np.array_equal(np.bincount(q.node_part), np.bincount(p.node_part))
    # the files' ids are the shuffled ids, and edge data follows its edge
    w = q.graph.edata["w"].long()
    assert torch.equal(torch.sort(w).values, torch.arange(g.num_edges()))
    s, d = g.edges()
    qs, qd = q.graph.edges()
    new = torch.from_numpy(p.shuffle.old2new_nid)
    assert torch.equal(new[s[w]], qs) and torch.equal(new[d[w]], qd)


def test_zero_hop_files_reopen_as_zero_hops_with_a_warning(tmp_path, caplog):
    g = _karate()
    gp.partition_graph(g, "k", 2, tmp_path, num_hops=0, seed=0)
    with caplog.at_level(logging.WARNING, logger="graphpart.storage.reopen"):
        q = open_partitioning(tmp_path)
    assert q.num_hops == 0
    assert "halo_hops=0" in caplog.text
    p = gp.partition(g, 2, seed=0)
    inner = g.num_edges() - p.metrics.edge_cut
    assert q.graph.num_edges() == inner and q.metrics.edge_cut == 0
    # every kept edge carries its own data row
    w = q.graph.edata["w"].long()
    s, d = g.edges()
    qs, qd = q.graph.edges()
    new = torch.from_numpy(p.shuffle.old2new_nid)
    assert torch.equal(new[s[w]], qs) and torch.equal(new[d[w]], qd)


def test_an_inner_edge_outside_the_partitions_block_is_refused(tmp_path):
    gp.partition_graph(_karate(), "k", 2, tmp_path, seed=0)
    path = tmp_path / "part0" / "graph.pt"
    obj = torch.load(path, weights_only=True)
    inner = obj["edata"]["inner_edge"].bool()
    eid = obj["edata"]["_ID"].clone()
    eid[torch.nonzero(inner)[0, 0]] = int(eid.max()) + 1  # an edge id partition 1 owns
    obj["edata"]["_ID"] = eid
    torch.save(obj, path)
    with pytest.raises(gp.FormatError, match="edge ids do not match"):
        open_partitioning(tmp_path)


def test_a_graph_without_edge_types_is_written_and_read_back(tmp_path):
    g = gp.Graph.from_typed_edges({}, num_nodes={"a": 4, "b": 3})
    gp.partition_graph(g, "x", 2, tmp_path, part_method="random", seed=0)
    parts = [gp.load_partition(tmp_path / "x.json", i) for i in range(2)]
    assert sum(int(p.graph.ndata["inner_node"].sum()) for p in parts) == 7
    assert gp.metrics.metrics_from_disk(tmp_path).num_edges == 0


def test_reopened_partitioning_keeps_the_recorded_balance(tmp_path):
    g = _karate()
    kw = dict(balance_ntypes=g.ndata["label"], balance_edges=True, seed=0)
    p = gp.partition(g, 3, **kw)
    gp.partition_graph(g, "k", 3, tmp_path / "a", **kw)
    q = open_partitioning(tmp_path / "a")
    assert set(q.metrics.constraints) == set(p.metrics.constraints)
    for name, load in p.metrics.constraints.items():
        assert np.array_equal(q.metrics.constraints[name], load), name
    gp.storage.save_partitions(q, "k", tmp_path / "b")  # written again, the record stays
    again = gp.metrics.metrics_from_disk(tmp_path / "b")
    assert again.balance == p.metrics.balance

"""Helpers shared by the tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import graphpart as gp
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


#: dispatch's options that make it write what partition_graph writes by default: graphpart's
#: files, and each partition copying the edges leaving it (dispatch's defaults are GraphBolt's
#: files and each edge stored once, at its destination's owner).
LIKE_PARTITION_GRAPH = {"format": "graphpart", "out_edges": True}


def assert_same_partitions(a: Path, b: Path, same_method: bool = True) -> None:
    """Two partition outputs are equal: config (bar the graph name, and the method unless
    asked), every partition's local graph with its data, node and edge features."""
    ca, cb = json.loads(Path(a).read_text()), json.loads(Path(b).read_text())
    # dispatch's GraphBolt config records the assignment it read, for verify
    ignore = {"graph_name", "assignment"} | (set() if same_method else {"part_method"})
    assert {k: v for k, v in ca.items() if k not in ignore} == {
        k: v for k, v in cb.items() if k not in ignore
    }
    for p in range(ca["num_parts"]):
        x, y = gp.load_partition(a, p), gp.load_partition(b, p)
        assert x.graph.num_nodes() == y.graph.num_nodes(), p
        for u, v in zip(x.graph.edges(), y.graph.edges()):
            assert torch.equal(u, v), p
        for got, want in (
            (x.graph.ndata, y.graph.ndata),
            (x.graph.edata, y.graph.edata),
            (x.node_feats, y.node_feats),
            (x.edge_feats, y.edge_feats),
        ):
            assert sorted(got) == sorted(want), p
            for k in want:
                assert got[k].dtype == want[k].dtype and torch.equal(got[k], want[k]), (p, k)


def runs_within(code: str, seconds: float) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter; a hang is a failure, not a stuck suite."""
    try:
        return subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=seconds
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {seconds} s")

"""A Dask client shared by the chunked-pipeline tests (threads in this process: quick to start)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

import graphpart as gp


@pytest.fixture(scope="session")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


def assert_same_partitions(a: Path, b: Path, same_method: bool = True) -> None:
    """Two partition outputs are equal: config (bar the graph name, and the method unless asked), every
    partition's local graph with its data, node and edge features."""
    ca, cb = json.loads(Path(a).read_text()), json.loads(Path(b).read_text())
    # the balance record comes from partition(); the chunked pipeline writes none
    ignore = {"graph_name", "balance"} | (set() if same_method else {"part_method"})
    assert {k: v for k, v in ca.items() if k not in ignore} == {k: v for k, v in cb.items() if k not in ignore}
    for p in range(ca["num_parts"]):
        x, y = gp.load_partition(a, p), gp.load_partition(b, p)
        assert x.graph.num_nodes() == y.graph.num_nodes(), p
        for u, v in zip(x.graph.edges(), y.graph.edges()):
            assert torch.equal(u, v), p
        for got, want in ((x.graph.ndata, y.graph.ndata), (x.graph.edata, y.graph.edata),
                          (x.node_feats, y.node_feats), (x.edge_feats, y.edge_feats)):
            assert sorted(got) == sorted(want), p
            for k in want:
                assert got[k].dtype == want[k].dtype and torch.equal(got[k], want[k]), (p, k)

"""Real PyG 2.8 (its LocalGraphStore / LocalFeatureStore, in the peer venv) loads export_pyg's
folders."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.interop import export_pyg

from ..graphs import rare_hetero_graph
from .fixture_graphs import GRAPHS
from .peers import load_dump, run_peer

pytestmark = pytest.mark.peers


def _dump(tmp_path, p) -> dict[str, np.ndarray]:
    export_pyg(p, tmp_path / "pyg")
    run_peer(
        "pyg_dump.py", tmp_path / "pyg", tmp_path / "dump.npz", module="torch_geometric.distributed"
    )
    return load_dump(tmp_path / "dump.npz")


def _check_dump(g, p, dump) -> None:
    """What PyG's stores hold of every partition is the source graph's: edges, ids, rows; a group
    the partition owns nothing of is absent."""
    assign = p.assignment if not g.is_homogeneous else {g.ntypes[0]: p.assignment}
    for t in g.ntypes:
        key = t if not g.is_homogeneous else "_"
        assert np.array_equal(dump[f"node_pb/{key}"], assign[t].numpy())
    for i in range(p.num_parts):
        for e in g.canonical_etypes:
            key = "__".join(e) if not g.is_homogeneous else "_"
            s, d = g.edges(e)
            mine = torch.nonzero(assign[e[2]][d] == i).flatten()
            ei, eid = dump[f"p{i}/edge_index/{key}"], dump[f"p{i}/edge_id/{key}"]
            assert sorted(zip(ei[0].tolist(), ei[1].tolist(), eid.tolist())) == sorted(
                zip(s[mine].tolist(), d[mine].tolist(), mine.tolist())
            )
            assert np.all(np.diff(ei[1]) >= 0)  # sorted by destination, as META says
            gid = dump.get(f"p{i}/edge_global_id/{key}")
            if not len(mine) or not g.edge_data(e):
                assert gid is None, (i, e)  # left out: PyG cannot load an empty group
                continue
            assert sorted(gid.tolist()) == mine.tolist()
            for fname, v in g.edge_data(e).items():
                assert np.array_equal(
                    dump[f"p{i}/edge_attr/{key}/{fname}"], v[torch.from_numpy(gid)].numpy()
                )
        for t in g.ntypes:
            key = t if not g.is_homogeneous else "_"
            owned = torch.nonzero(assign[t] == i).flatten().numpy()
            gid = dump.get(f"p{i}/global_id/{key}")
            if not len(owned):
                assert gid is None, (i, t)
                continue
            assert np.array_equal(gid, owned)
            for fname, v in g.node_data(t).items():
                # PyG's store maps the (type-wise) ids it is given to rows: the rows are the graph's
                assert np.array_equal(
                    dump[f"p{i}/lookup/{key}/{fname}"],
                    v[torch.from_numpy(gid[::-1].copy())].numpy(),
                )


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_pyg_stores_load_export_pyg(tmp_path, name):
    g = GRAPHS[name]()
    p = gp.partition(g, 2, seed=0, num_hops=1)
    _check_dump(g, p, _dump(tmp_path, p))


def test_pyg_stores_load_partitions_without_a_rare_relation_or_a_tiny_type(tmp_path):
    g = rare_hetero_graph()
    balance = torch.cat([g.node_data(t)["train_mask"] for t in g.ntypes])
    p = gp.partition(g, 3, seed=0, balance_ntypes=balance)
    tiny = torch.bincount(p.assignment["tiny"], minlength=3)
    rare = torch.bincount(p.assignment["item"][g.edges("recalls")[1]], minlength=3)
    assert (tiny == 0).any() and (rare == 0).any()  # the case: groups some partition lacks
    dump = _dump(tmp_path, p)
    _check_dump(g, p, dump)
    for i in range(3):  # every partition loaded, with every type it owns
        assert f"p{i}/global_id/user" in dump and f"p{i}/global_id/item" in dump


def test_pyg_stores_load_a_homogeneous_partition_without_edges_or_nodes(tmp_path):
    g = gp.Graph.from_edges(
        torch.tensor([0, 1, 2, 3]),
        torch.tensor([1, 2, 3, 0]),
        num_nodes=8,
        ndata={"x": torch.arange(24, dtype=torch.float32).reshape(8, 3)},
        edata={"w": torch.arange(4, dtype=torch.float32)},
    )
    # partition 2 owns nodes 4, 5 (no edge ends there); partition 3 owns nothing
    p = gp.partition(g, 4, part_method=torch.tensor([0, 0, 1, 1, 2, 2, 0, 1]))
    dump = _dump(tmp_path, p)
    _check_dump(g, p, dump)
    assert "p3/global_id/_" not in dump and "p2/edge_global_id/_" not in dump

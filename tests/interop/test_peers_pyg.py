"""Real PyG 2.8 (its LocalGraphStore / LocalFeatureStore, in the peer venv) loads export_pyg's
folders."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.interop import export_pyg

from .fixture_graphs import GRAPHS
from .peers import load_dump, run_peer

pytestmark = pytest.mark.peers


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_pyg_stores_load_export_pyg(tmp_path, name):
    g = GRAPHS[name]()
    p = gp.partition(g, 2, seed=0, num_hops=1)
    export_pyg(p, tmp_path / "pyg")
    run_peer(
        "pyg_dump.py", tmp_path / "pyg", tmp_path / "dump.npz", module="torch_geometric.distributed"
    )
    dump = load_dump(tmp_path / "dump.npz")
    assign = p.assignment if not g.is_homogeneous else {g.ntypes[0]: p.assignment}
    for t in g.ntypes:
        key = t if not g.is_homogeneous else "_"
        assert np.array_equal(dump[f"node_pb/{key}"], assign[t].numpy())
    for i in range(2):
        for e in g.canonical_etypes:
            key = "__".join(e) if not g.is_homogeneous else "_"
            s, d = g.edges(e)
            mine = torch.nonzero(assign[e[2]][d] == i).flatten()
            ei, eid = dump[f"p{i}/edge_index/{key}"], dump[f"p{i}/edge_id/{key}"]
            assert sorted(zip(ei[0].tolist(), ei[1].tolist(), eid.tolist())) == sorted(
                zip(s[mine].tolist(), d[mine].tolist(), mine.tolist())
            )
            assert np.all(np.diff(ei[1]) >= 0)  # sorted by destination, as META says
            for fname, v in g.edge_data(e).items():
                gid = dump[f"p{i}/edge_global_id/{key}"]
                assert np.array_equal(
                    dump[f"p{i}/edge_attr/{key}/{fname}"], v[torch.from_numpy(gid)].numpy()
                )
        for t in g.ntypes:
            key = t if not g.is_homogeneous else "_"
            gid = dump[f"p{i}/global_id/{key}"]
            assert np.array_equal(gid, torch.nonzero(assign[t] == i).flatten().numpy())
            for fname, v in g.node_data(t).items():
                # PyG's store maps the (type-wise) ids it is given to rows: the rows are the graph's
                assert np.array_equal(
                    dump[f"p{i}/lookup/{key}/{fname}"],
                    v[torch.from_numpy(gid[::-1].copy())].numpy(),
                )

"""Partitions in DGL's format: open what real DGL 2.1 wrote; write what DGL loads (peer tests in
test_peers_dgl.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.metrics import metrics_from_disk

from .fixture_graphs import GRAPHS
from .peers import FIXTURES


def _maps(name):
    with np.load(FIXTURES / name / "dgl_maps.npz") as z:
        return {k: torch.from_numpy(z[k]) for k in z.files}


def _orig(maps, prefix, book, ids):
    """Type name and type-wise original id of shuffled homogeneous ids, by DGL's own maps."""
    if prefix in maps:  # homogeneous
        return [None] * len(ids), maps[prefix][ids]
    tids, typed = (
        book.map_to_per_ntype(ids) if prefix == "orig_nids" else book.map_to_per_etype(ids)
    )
    names = book.ntypes if prefix == "orig_nids" else [":".join(e) for e in book.canonical_etypes]
    out = torch.empty_like(typed)
    kinds = [names[int(t)] for t in tids]
    for t in set(kinds):
        mask = torch.tensor([k == t for k in kinds])
        out[mask] = maps[f"{prefix}/{t}"][typed[mask]]
    return kinds, out


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_dgl_written_partitions_load_exactly(name):
    """Every local edge and every feature row of DGL's files is the source graph's, by DGL's own
    maps."""
    g, maps = GRAPHS[name](), _maps(name)
    config = FIXTURES / name / "dgl" / f"{name}.json"
    seen_edges = []
    for i in range(2):
        lg, nfeat, efeat, book, gname, ntypes, etypes = gp.load_partition(config, i)
        assert gname == name and ntypes == g.ntypes and etypes == g.canonical_etypes
        nid, eid = lg.ndata["_ID"], lg.edata["_ID"]
        s, d = lg.edges()
        ntype_of, orig_n = _orig(maps, "orig_nids", book, nid)
        etype_of, orig_e = _orig(maps, "orig_eids", book, eid)
        for k in range(lg.num_edges()):  # small fixtures: an explicit check per edge
            e = etype_of[k]
            et = g.to_canonical_etype(tuple(e.split(":"))) if e else g.canonical_etypes[0]
            gs, gd = g.edges(et)
            assert (int(gs[orig_e[k]]), int(gd[orig_e[k]])) == (
                int(orig_n[s[k]]),
                int(orig_n[d[k]]),
            )
            assert ntype_of[s[k]] in (None, et[0]) and ntype_of[d[k]] in (None, et[2])
        inner = lg.edata["inner_edge"].bool()
        seen_edges += [
            (etype_of[k], int(orig_e[k])) for k in torch.nonzero(inner).flatten().tolist()
        ]
        for key, value in nfeat.items():
            t, _, fname = key.rpartition("/")
            typed = book.partid2nids(i, t)
            orig = (
                maps["orig_nids"][typed] if "orig_nids" in maps else maps[f"orig_nids/{t}"][typed]
            )
            expect = g.node_data(t)[fname][orig]
            assert torch.equal(
                value, expect.to(torch.uint8) if expect.dtype == torch.bool else expect
            ), key
        for key, value in efeat.items():
            e, _, fname = key.rpartition("/")
            ids = book.partid2eids(i, tuple(e.split(":")))
            orig = maps["orig_eids"][ids] if "orig_eids" in maps else maps[f"orig_eids/{e}"][ids]
            assert torch.equal(value, g.edge_data(tuple(e.split(":")))[fname][orig]), key
    assert len(seen_edges) == len(set(seen_edges)) == g.num_edges()


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_metrics_of_dgl_written_partitions(name):
    m = metrics_from_disk(FIXTURES / name / "dgl" / f"{name}.json")
    g = GRAPHS[name]()
    assert m.num_nodes == g.num_nodes() and m.num_edges == g.num_edges()
    assert m.edge_cut > 0


@pytest.mark.parametrize("fmt", ["dgl", "graphpart"])
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_dgl_format_holds_what_the_graphpart_format_holds(tmp_path, name, fmt):
    g = GRAPHS[name]()
    nmap, emap = gp.partition_graph(g, name, 2, tmp_path / "a", seed=0, return_mapping=True)
    nmap2, emap2 = gp.partition_graph(
        g, name, 2, tmp_path / "b", seed=0, return_mapping=True, format="dgl"
    )
    cfg = json.loads((tmp_path / "b" / f"{name}.json").read_text())
    assert cfg["part-0"]["part_graph"] == "part0/graph.dgl" and cfg["file_format"] == "dgl"
    for i in range(2):
        a, b = (
            gp.load_partition(tmp_path / "a" / f"{name}.json", i),
            gp.load_partition(tmp_path / "b" / f"{name}.json", i),
        )
        assert torch.equal(a.graph.edges()[0], b.graph.edges()[0]) and torch.equal(
            a.graph.edges()[1], b.graph.edges()[1]
        )
        for k in a.graph.ndata:
            assert torch.equal(
                a.graph.ndata[k].to(torch.int64), b.graph.ndata[k].to(torch.int64)
            ), k
        assert (
            b.graph.ndata["inner_node"].dtype == torch.uint8
            and b.graph.ndata["_ID"].dtype == torch.int64
        )
        for k, v in a.node_feats.items():
            assert torch.equal(v.to(torch.uint8) if v.dtype == torch.bool else v, b.node_feats[k])
        for k, v in a.edge_feats.items():
            assert torch.equal(v, b.edge_feats[k])
    assert (
        metrics_from_disk(tmp_path / "a" / f"{name}.json").edge_cut
        == metrics_from_disk(tmp_path / "b" / f"{name}.json").edge_cut
    )


def test_edge_trainer_ids_follow_the_destination(tmp_path):
    g = GRAPHS["karate"]()
    p = gp.partition(g, 2, num_trainers_per_machine=2, seed=0)
    for i in range(2):
        ef, nf = p.edge_feats(i), p.node_feats(i)
        assert "_N:_E:_N/trainer_id" in ef and "_N/trainer_id" in nf
        ids = p.book.partid2eids(i)
        orig = p.orig_eids[ids]
        _, dst = g.edges()
        assert torch.equal(ef["_N:_E:_N/trainer_id"], torch.from_numpy(p.trainer_id)[dst[orig]])
        assert set(ef["_N:_E:_N/trainer_id"].tolist()) <= {2 * i, 2 * i + 1}

"""verify: a correct output passes; each kind of damage is reported."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from graphpart.chunked import dispatch, verify, write_assignment, write_chunked

from ..graphs import hetero_graph
from ..helpers import LIKE_PARTITION_GRAPH


@pytest.fixture
def written(tmp_path, dask_client):
    g = hetero_graph()
    write_chunked(g, tmp_path / "ch", 3, graph_name="h")
    rng = np.random.default_rng(0)
    write_assignment(
        tmp_path / "asg", {t: rng.integers(0, 3, g.num_nodes(t)) for t in g.ntypes}, 3, "custom"
    )
    return dispatch(
        tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client,
        **LIKE_PARTITION_GRAPH,
    ), tmp_path / "ch"  # fmt: skip


def test_a_correct_output_passes(written):
    result = verify(*written)
    assert result.ok, str(result)
    assert (
        result.checked["nodes (ownership)"] == 82
        and result.checked["local edges, owned and HALO (endpoints)"] >= 340
    )


def _edit(path, change):
    obj = torch.load(path, weights_only=True)
    change(obj)
    torch.save(obj, path)


def test_a_wrong_edge_endpoint_is_reported(written):
    cfg, chunks = written

    def change(obj):
        obj["dst"][0] = (obj["dst"][0] + 1) % obj["num_nodes"]

    _edit(cfg.parent / "part1" / "graph.pt", change)
    assert any("endpoints differ" in p for p in verify(cfg, chunks).problems)


def test_a_node_owned_twice_is_reported(written):
    cfg, chunks = written

    def change(obj):
        ids = obj["ndata"]["orig_id"]
        ids[1] = ids[0]

    _edit(cfg.parent / "part0" / "graph.pt", change)
    assert any("not owned by exactly one partition" in p for p in verify(cfg, chunks).problems)


def test_an_edge_feature_change_is_reported(written):
    cfg, chunks = written

    def change(obj):
        obj["user:buys:item/w"][0] += 1

    _edit(cfg.parent / "part2" / "edge_feats.pt", change)
    assert verify(cfg, chunks).problems == [
        "partition 2: edge feature user:buys:item/w differs from the chunks"
    ]


def test_counts_that_disagree_with_the_chunks(written, tmp_path):
    cfg, chunks = written
    meta = json.loads((chunks / "metadata.json").read_text())
    meta["num_nodes_per_type"] = [n + 1 for n in meta["num_nodes_per_type"]]
    (chunks / "metadata.json").write_text(json.dumps(meta))
    from graphpart.errors import GraphpartError

    with pytest.raises(GraphpartError, match="records 30 rows but num_nodes_per_type says 31"):
        verify(cfg, chunks)  # the declared counts disagree with the rows the chunks record
    for specs in meta["node_data"].values():  # DGL's metadata records no rows per chunk
        for spec in specs.values():
            del spec["counts"]
    (chunks / "metadata.json").write_text(json.dumps(meta))
    problems = verify(cfg, chunks).problems
    assert problems and all("in the partitions" in p for p in problems)


@pytest.mark.parametrize("peer", ["dgl", "pyg", "glt"])
def test_partitions_without_original_ids_are_a_clear_error(tmp_path, peer):
    from graphpart.datasets import load_karate_club, peer_partitions
    from graphpart.errors import GraphpartError

    write_chunked(load_karate_club(), tmp_path / "ch", 2, graph_name="karate")
    with pytest.raises(
        GraphpartError, match="holds none and (there is no orig_nids|graphpart did)"
    ):
        verify(peer_partitions("karate", peer), tmp_path / "ch")


def test_a_wrong_halo_edge_endpoint_is_reported(written):
    cfg, chunks = written

    def change(obj):
        halo = np.flatnonzero(~obj["edata"]["inner_edge"].numpy().astype(bool))
        obj["src"][halo[0]] = obj["dst"][halo[0]]

    _edit(cfg.parent / "part1" / "graph.pt", change)
    problems = verify(cfg, chunks).problems
    assert any(p.startswith("partition 1: HALO") and "endpoints differ" in p for p in problems)


def test_an_edge_dropped_from_its_owner_is_reported(written):
    cfg, chunks = written

    def change(obj):
        own = np.flatnonzero(obj["edata"]["inner_edge"].numpy().astype(bool))
        obj["edata"]["orig_id"][own[0]] = obj["edata"]["orig_id"][own[1]]

    _edit(cfg.parent / "part0" / "graph.pt", change)
    problems = verify(cfg, chunks).problems
    assert any(p.startswith("partition 0: owned") for p in problems)


def test_edge_fingerprints_tell_edges_apart():
    from graphpart.chunked.verify import edge_hash

    eid = np.arange(100_000)
    h = edge_hash(eid, eid % 7, eid % 11)
    assert len(np.unique(h)) == len(h)
    assert not np.array_equal(edge_hash(eid, eid % 11, eid % 7), h)  # direction matters


def test_a_correct_output_without_halo_passes_and_a_lost_halo_edge_is_reported(tmp_path):
    from graphpart.chunked import assign
    from graphpart.datasets import rmat

    write_chunked(rmat(8, seed=0), tmp_path / "ch", 2)
    assign(tmp_path / "ch", tmp_path / "asg", 3, "fennel")
    cfg0 = dispatch(
        tmp_path / "ch", tmp_path / "asg", tmp_path / "o0", num_hops=0, workers=1, processes=False,
        **LIKE_PARTITION_GRAPH,
    )  # fmt: skip
    assert verify(cfg0, tmp_path / "ch").ok
    cfg1 = dispatch(
        tmp_path / "ch", tmp_path / "asg", tmp_path / "o1", workers=1, processes=False,
        **LIKE_PARTITION_GRAPH,
    )  # fmt: skip

    def drop_halo(obj):  # keep only the owned edges, as if HALO edges were never written
        own = obj["edata"]["inner_edge"].bool()
        obj["src"], obj["dst"] = obj["src"][own], obj["dst"][own]
        obj["edata"] = {k: v[own] for k, v in obj["edata"].items()}

    _edit(cfg1.parent / "part0" / "graph.pt", drop_halo)
    assert any(p.startswith("partition 0: HALO") for p in verify(cfg1, tmp_path / "ch").problems)


@pytest.fixture
def small_slices(monkeypatch):
    """Slices of 5 edges: a partition's edges are read and fingerprinted in many pieces."""
    import importlib

    monkeypatch.setattr(importlib.import_module("graphpart.chunked.verify"), "SLICE", 5)


def test_checked_in_small_slices_a_correct_output_passes(written, small_slices):
    assert verify(*written).ok


def test_checked_in_small_slices_an_edge_feature_change_late_in_a_partition_is_reported(
    written, small_slices
):
    cfg, chunks = written

    def change(obj):
        obj["user:buys:item/w"][-1] += 1

    _edit(cfg.parent / "part1" / "edge_feats.pt", change)
    assert verify(cfg, chunks).problems == [
        "partition 1: edge feature user:buys:item/w differs from the chunks"
    ]


def test_an_edge_between_the_wrong_node_types_is_reported(written):
    cfg, chunks = written

    def change(obj):
        t = obj["ndata"]["_TYPE"]
        other = int(np.flatnonzero(t.numpy() != t[obj["src"][0]].item())[0])
        obj["src"][0] = other

    _edit(cfg.parent / "part0" / "graph.pt", change)
    assert "partition 0: edges between the wrong node types" in verify(cfg, chunks).problems


@pytest.mark.parametrize(
    "change,match",
    [
        (lambda obj: obj["dst"].__setitem__(0, obj["num_nodes"] + 5), "not among its"),
        (lambda obj: obj["edata"].__setitem__("orig_id", obj["edata"]["orig_id"][:-1]), "vector"),
        (lambda obj: obj["ndata"].__setitem__("orig_id", obj["ndata"]["orig_id"][:-1]), "vector"),
    ],
    ids=["end past the nodes", "short edge array", "short node array"],
)
def test_a_partition_whose_arrays_do_not_fit_together_is_one_clear_error(written, change, match):
    from graphpart.errors import GraphpartError

    cfg, chunks = written
    _edit(cfg.parent / "part2" / "graph.pt", change)
    with pytest.raises(GraphpartError, match=match):
        verify(cfg, chunks)


def test_dgl_files_are_checked_too(tmp_path, dask_client):
    g = hetero_graph()
    write_chunked(g, tmp_path / "ch", 2, graph_name="h")
    rng = np.random.default_rng(1)
    parts = {t: rng.integers(0, 2, g.num_nodes(t)) for t in g.ntypes}
    write_assignment(tmp_path / "asg", parts, 2, "custom")
    cfg = dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client,
                   format="dgl")  # fmt: skip
    assert verify(cfg, tmp_path / "ch").ok


# GraphBolt's files, dispatch's default: edges in CSC order keyed by their new ids, original node
# ids from the assignment (or the merged maps), edge features gathered by edge id.


@pytest.fixture(params=[False, True], ids=["each edge once", "out_edges"])
def graphbolt(request, tmp_path, dask_client):
    g = hetero_graph()
    write_chunked(g, tmp_path / "ch", 3, graph_name="h")
    rng = np.random.default_rng(0)
    parts = {t: rng.integers(0, 3, g.num_nodes(t)) for t in g.ntypes}
    write_assignment(tmp_path / "asg", parts, 3, "custom")
    cfg = dispatch(
        tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client,
        out_edges=request.param,
    )  # fmt: skip
    return cfg, tmp_path / "ch", tmp_path / "asg"


def _edit_graphbolt(path, change):
    """Rewrite a GraphBolt file after ``change`` edits its arrays (numpy, by name)."""
    from graphpart.fs.atomic import atomic_write
    from graphpart.interop.graphbolt import NAMES, graphbolt_tree, load_graphbolt
    from graphpart.interop.torch_zip import TorchZipWriter

    gb = load_graphbolt(path)
    a = {"indptr": gb.indptr.numpy().copy(), "indices": gb.indices.numpy().copy()}
    a.update({f"node/{k}": v.numpy().copy() for k, v in gb.node_attributes.items()})
    a.update({f"edge/{k}": v.numpy().copy() for k, v in gb.edge_attributes.items()})
    tpe = None if gb.type_per_edge is None else gb.type_per_edge.numpy().copy()
    change(a)
    tree = graphbolt_tree(
        a["indptr"], a["indices"],
        {k[5:]: v for k, v in a.items() if k.startswith("node/")},
        {k[5:]: v for k, v in a.items() if k.startswith("edge/")},
        tpe, gb.node_type_to_id, gb.edge_type_to_id,
    )  # fmt: skip
    with atomic_write(path) as f:
        TorchZipWriter(f, tree, NAMES).close()


def test_graphbolt_partitions_pass_with_their_assignment(graphbolt):
    cfg, chunks, asg = graphbolt
    result = verify(cfg, chunks, asg)
    assert result.ok, str(result)
    assert result.checked["nodes (ownership)"] == 82


def test_graphbolt_partitions_need_original_node_ids_from_somewhere(graphbolt):
    from graphpart.errors import GraphpartError

    cfg, chunks, asg = graphbolt
    assert verify(cfg, chunks).ok  # the assignment dispatch recorded in the config
    asg.rename(asg.with_name("moved"))  # gone from where dispatch read it
    with pytest.raises(GraphpartError, match="give the assignment it was written from"):
        verify(cfg, chunks)


def _with_merged_maps(tmp_path, client):
    """GraphBolt partitions of a heterograph, dispatched with their merged orig_nids/ maps."""
    g = hetero_graph()
    write_chunked(g, tmp_path / "ch", 2, graph_name="h")
    rng = np.random.default_rng(3)
    write_assignment(
        tmp_path / "asg", {t: rng.integers(0, 2, g.num_nodes(t)) for t in g.ntypes}, 2, "x"
    )
    cfg = dispatch(
        tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=client, save_orig_nids=True
    )
    return g, cfg


def test_graphbolt_partitions_pass_with_their_merged_id_maps(tmp_path, dask_client):
    _, cfg = _with_merged_maps(tmp_path, dask_client)
    assert verify(cfg, tmp_path / "ch").ok


def test_graphbolt_with_another_assignment_is_reported(graphbolt, tmp_path):
    cfg, chunks, _ = graphbolt
    g = hetero_graph()
    rng = np.random.default_rng(9)
    other = {t: rng.integers(0, 3, g.num_nodes(t)) for t in g.ntypes}
    write_assignment(tmp_path / "other", other, 3, "custom")
    assert not verify(cfg, chunks, tmp_path / "other").ok


@pytest.mark.parametrize(
    "change,problem",
    [
        (lambda a: a["indices"].__setitem__(0, (a["indices"][0] + 1) % len(a["node/_ID"])),
         "endpoints differ"),
        (lambda a: a["edge/_ID"].__setitem__(0, a["edge/_ID"][1]), "endpoints differ"),
    ],
    ids=["a source", "an edge id"],
)  # fmt: skip
def test_a_damaged_graphbolt_partition_is_reported(graphbolt, change, problem):
    cfg, chunks, asg = graphbolt
    _edit_graphbolt(cfg.parent / "part1" / "fused_csc_sampling_graph.pt", change)
    problems = verify(cfg, chunks, asg).problems
    assert any(p.startswith("partition 1") and problem in p for p in problems), problems


def test_a_graphbolt_edge_feature_change_is_reported(graphbolt):
    from graphpart.interop.dgl_tensors import load_tensors, save_tensors

    cfg, chunks, asg = graphbolt
    path = cfg.parent / "part2" / "edge_feat.dgl"
    feats = {k: v.clone() for k, v in load_tensors(path).items()}
    feats["user:buys:item/w"][-1] += 1
    save_tensors(path, feats)
    assert verify(cfg, chunks, asg).problems == [
        "partition 2: edge feature user:buys:item/w differs from the chunks"
    ]


def test_graphbolt_checked_in_small_slices(graphbolt, small_slices):
    assert verify(*graphbolt).ok


def test_merged_id_maps_that_name_nodes_outside_the_graph_are_one_clear_error(
    tmp_path, dask_client
):
    from graphpart.errors import GraphpartError

    g, cfg = _with_merged_maps(tmp_path, dask_client)
    path = cfg.parent / "orig_nids" / f"{g.ntypes[0]}.npy"
    ids = np.load(path)
    ids[0] = len(ids) + 7
    np.save(path, ids)
    with pytest.raises(GraphpartError, match="node ids outside"):
        verify(cfg, tmp_path / "ch")


@pytest.mark.parametrize("where", ["dask", "three tasks here"])
def test_verify_shared_out_finds_what_one_task_finds(graphbolt, where, dask_client):
    # the partitions a task each, the chunks in shares: GraphBolt's new-id keys need each
    # chunk's offsets from the chunks before it
    cluster = {"client": dask_client} if where == "dask" else {"workers": 3}
    cfg, chunks, asg = graphbolt
    one = verify(cfg, chunks, asg, workers=1)
    shared = verify(cfg, chunks, asg, **cluster)
    assert shared.ok and shared.checked == one.checked
    _edit_graphbolt(
        cfg.parent / "part1" / "fused_csc_sampling_graph.pt",
        lambda a: a["edge/_ID"].__setitem__(0, a["edge/_ID"][1]),
    )
    assert verify(cfg, chunks, asg, **cluster).problems == verify(cfg, chunks, asg).problems != []


def test_verify_shared_out_checks_original_ids_too(written, dask_client):
    cfg, chunks = written
    one, shared = verify(cfg, chunks, workers=1), verify(cfg, chunks, client=dask_client)
    assert shared.ok and shared.checked == one.checked

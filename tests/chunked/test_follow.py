"""Following one node through the chunked pipeline: every step's file and row is the node's."""

from __future__ import annotations

import numpy as np
import pytest

import graphpart as gp
from graphpart import chunked, datasets
from graphpart.chunked.follow import follow_node
from graphpart.errors import GraphpartError
from graphpart.lookup import node_table


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory, dask_client):
    w = tmp_path_factory.mktemp("follow")
    g = datasets.sbm(block_sizes=[30] * 3, p_in=0.2, p_out=0.02, seed=0, feat_dim=5)
    chunked.write_chunked(g, w / "chunks", num_chunks=3)
    a = chunked.assign(w / "chunks", w / "assign", 3, "random")
    config = chunked.dispatch(
        w / "chunks", a, w / "parts", num_hops=1, client=dask_client, save_orig_nids=True
    )
    parts, _ = chunked.read_assignment(a, w / "chunks")
    p = gp.partition(g, 3, part_method=parts["_N"], num_hops=1)  # the in-memory twin
    return w, g, a, config, parts["_N"], p


@pytest.mark.parametrize("node", [0, 29, 30, 58, 89])
def test_every_step_names_the_nodes_own_row(pipeline, node):
    w, g, a, config, parts, p = pipeline
    j = follow_node(config, w / "chunks", a, node)
    feat = next(r for r in j.feature_rows if r.name == "feat")
    chunk = np.load(w / "chunks" / feat.file)
    assert np.array_equal(chunk[feat.row], g.ndata["feat"][node].numpy())
    assert feat.values == tuple(g.ndata["feat"][node, :4].tolist())
    lines = (w / "assign" / j.assignment_file).read_text().split()
    assert int(lines[j.assignment_line - 1]) == j.part == parts[node]
    src, dst = (x.numpy() for x in g.edges())
    count = {"source": 0, "destination": 0}
    for e in j.edge_rows:
        rows = np.loadtxt(w / "chunks" / e.file, dtype=np.int64, ndmin=2)
        col = 0 if e.side == "source" else 1
        assert all(rows[r, col] == node for r in e.rows) and e.count == (rows[:, col] == node).sum()
        count[e.side] += e.count
    assert count == {"source": int((src == node).sum()), "destination": int((dst == node).sum())}
    loc = node_table(p).location(node)
    assert (j.new_id, j.new_typed_id, j.owner.part) == (
        loc.shuffled_id,
        loc.shuffled_typed_id,
        loc.owner,
    )
    assert j.owner.local_id == loc.local_id
    assert j.owner.values["feat"] == feat.values  # the row travelled intact
    assert {(c.part, c.local_id, c.hop) for c in j.copies} == set(loc.halo)


def test_a_heterograph_node_is_followed_in_its_own_type(tmp_path, dask_client):
    g = datasets.load_davis_southern_women()
    chunked.write_chunked(g, tmp_path / "chunks", num_chunks=2)
    a = chunked.assign(tmp_path / "chunks", tmp_path / "assign", 2, "random")
    config = chunked.dispatch(tmp_path / "chunks", a, tmp_path / "parts", num_hops=1,
                              client=dask_client)  # fmt: skip
    parts, _ = chunked.read_assignment(a, tmp_path / "chunks")
    p = gp.partition(g, 2, part_method=parts, num_hops=1)
    j = follow_node(config, tmp_path / "chunks", a, 3, "woman")
    homo = p.homogeneous.node_offsets[p.graph.ntypes.index("woman")] + 3
    loc = node_table(p).location(int(homo))
    assert (j.ntype, j.assignment_file, j.part) == ("woman", "woman.txt", loc.owner)
    assert (j.new_id, j.new_typed_id) == (loc.shuffled_id, loc.shuffled_typed_id)
    assert {e.etype for e in j.edge_rows} == {"woman:attends:event", "event:attended_by:woman"}
    with pytest.raises(GraphpartError, match="say which one with ntype="):
        follow_node(config, tmp_path / "chunks", a, 3)


@pytest.mark.parametrize(
    "node, ntype, match",
    [(90, None, r"an int in \[0, 90\), got 90"), (-1, None, "got -1"), (True, None, "got True"),
     (1, "paper", "ntype must be one of")],
)  # fmt: skip
def test_a_node_outside_the_graph_is_refused(pipeline, node, ntype, match):
    w, _, a, config, _, _ = pipeline
    with pytest.raises(GraphpartError, match=match):
        follow_node(config, w / "chunks", a, node, ntype)


def test_partitions_from_another_assignment_are_refused(pipeline, tmp_path):
    w, g, _, config, _, _ = pipeline
    other = chunked.assign(w / "chunks", tmp_path / "assign2", 2, "random")
    with pytest.raises(GraphpartError, match="not one pipeline's"):
        follow_node(config, w / "chunks", other, 3)


def test_partitions_from_another_draw_of_the_same_size_are_refused(pipeline, tmp_path):
    from graphpart.chunked.follow import pipeline_partitioning

    w, _, _, config, _, _ = pipeline
    other = chunked.assign(w / "chunks", tmp_path / "assign3", 3, "random", seed=5)
    with pytest.raises(GraphpartError, match="not written from this assignment"):
        for node in range(90):  # some node is owned elsewhere than this draw says
            follow_node(config, w / "chunks", other, node)
    with pytest.raises(GraphpartError, match="not written from this assignment"):
        pipeline_partitioning(config, w / "chunks", other)


def test_the_partitions_of_an_unrelated_graph_are_refused_for_every_node(pipeline, tmp_path):
    # same partition count and node type, another graph: journeys came back for some nodes
    w, _, _, config, _, _ = pipeline
    g = datasets.sbm(block_sizes=[40] * 3, p_in=0.2, p_out=0.02, seed=1, feat_dim=5)
    chunked.write_chunked(g, tmp_path / "chunks", num_chunks=3)
    other = chunked.assign(tmp_path / "chunks", tmp_path / "assign", 3, "random", seed=0)
    for node in (0, 60, 119):
        with pytest.raises(GraphpartError, match="holds {'_N': 90} nodes per type, but the"):
            follow_node(config, tmp_path / "chunks", other, node)


def test_ids_paths_and_short_chunks(pipeline, tmp_path):
    w, g, a, config, _, _ = pipeline
    j = follow_node(config, w / "chunks" / "metadata.json", a, np.int64(89))
    assert type(j.orig_id) is int and j.assignment_line == 90
    assert not j.feature_rows[0].file.startswith("/")  # relative to the chunks' folder

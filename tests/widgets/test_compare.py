"""PartitioningComparison, and figures / widgets opened on partitions made by DGL, PyG and GLT."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.collections import PathCollection

import graphpart as gp
from graphpart import viz
from graphpart.datasets import load_karate_club, peer_partitions
from graphpart.widgets import HaloInspector, PartitioningComparison

PNG = b"\x89PNG"


def test_side_by_side_of_peer_written_partitionings():
    cmp = PartitioningComparison(
        {
            "DGL (METIS)": peer_partitions("karate", "dgl"),
            "PyG": peer_partitions("karate", "pyg"),
            "GLT (random)": peer_partitions("karate", "glt"),
        }
    )
    assert cmp.shown == "balance" and all(bytes(i.value).startswith(PNG) for i in cmp.images)
    before = [bytes(i.value) for i in cmp.images]
    cmp.controls["figure"].value = "cut matrix"
    assert cmp.shown == "cut matrix" and [bytes(i.value) for i in cmp.images] != before
    assert cmp.table.labels == ["DGL (METIS)", "PyG", "GLT (random)"]
    cuts = cmp.table.columns["edge cut"]
    assert cuts[0] < cuts[2]  # METIS cuts fewer edges than random
    assert "DGL (METIS)" in cmp.metrics_html.value


def test_comparison_refuses_different_graphs():
    with pytest.raises(gp.GraphpartError, match="one graph"):
        PartitioningComparison(
            {
                "karate": peer_partitions("karate", "dgl"),
                "hetero": peer_partitions("hetero3", "dgl"),
            }
        )
    with pytest.raises(gp.GraphpartError, match="at least two"):
        PartitioningComparison({"one": gp.partition(load_karate_club(), 2, seed=0)})


def _on_disk(path):
    """Inner node counts, the cut matrix (source partition x destination partition) and the node
    types, read from the partitions' own files: each cut edge is an inner edge of one partition."""
    k = gp.load_partition(path, 0).book.num_partitions()
    parts = [gp.load_partition(path, i) for i in range(k)]
    inner = np.array([md["num_nodes"] for md in parts[0].book.metadata()], dtype=float)
    cut = np.zeros((k, k), dtype=np.int64)
    for x in parts:
        s, d = x.graph.edges()
        own = x.graph.edata["inner_edge"].bool()
        part = x.graph.ndata["part_id"]
        np.add.at(cut, (part[s[own]].numpy(), part[d[own]].numpy()), 1)
    return inner, cut, parts[0].ntypes


@pytest.mark.parametrize("peer", ["dgl", "pyg", "glt"])
def test_figures_and_halo_inspector_take_paths(peer):
    path = peer_partitions("hetero3", peer)
    inner, cut, ntypes = _on_disk(path)
    k = len(inner)
    assert k == 2 and inner.sum() == 15
    # Balance: one bar per partition and quantity; the first quantity is inner nodes / mean.
    ax = viz.plot_balance(path)
    names = [t.get_text().split(" (")[0] for t in ax.get_legend().get_texts()][1:]  # 1st: mean
    assert names[0] == "nodes" and len(ax.patches) == k * len(names)
    assert np.allclose([b.get_height() for b in ax.patches[:k]], inner / inner.mean())
    assert f"over {k} partitions" in ax.get_title()
    # Cut matrix: the off-diagonal cells are the cut edges between each pair of partitions.
    ax = viz.plot_cut_matrix(path)
    shown = ax.images[0].get_array()
    off = ~np.eye(k, dtype=bool)
    assert shown.shape == (k, k) and shown.mask.diagonal().all()
    assert np.array_equal(shown.data[off], cut[off]) and cut[off].sum() > 0
    assert ax.get_title() == f"Cut edges between partitions: {cut[off].sum()} in all"
    # HALO growth: inner and HALO bars per partition for 0..3 hops; inner bars are the owned nodes.
    ax = viz.plot_halo_growth(path)
    assert len(ax.patches) == k * 4 * 2
    assert np.allclose([b.get_height() for b in ax.patches[:k]], inner)
    # Drawing: one marker set per node type, every node once, in its partition's colour.
    ax = viz.draw_partition(path)
    sets = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert len(sets) == len(ntypes) and sum(len(c.get_offsets()) for c in sets) == inner.sum()
    faces = np.concatenate([c.get_facecolors()[:, :3] for c in sets])
    colour_of = np.abs(faces[:, None] - viz.part_colors(k)[None, :, :3]).sum(-1).argmin(1)
    assert np.array_equal(np.bincount(colour_of, minlength=k), inner)
    title = f"{k} partitions: {int(inner.sum())} nodes, edge cut {cut[off].sum()} of"
    assert title in ax.get_title()
    h = HaloInspector(path)
    h.controls["part"].value = 1
    assert h.counts["inner"] == gp.load_partition(path, 1).book.metadata()[1]["num_nodes"]
    with pytest.raises(gp.GraphpartError, match="expected a Partitioning"):
        HaloInspector(42)


def test_comparison_views_are_linked_by_camera_and_selection():
    g = load_karate_club()
    sources = {
        "metis": gp.partition(g, 2, seed=0),
        "random": gp.partition(g, 3, part_method="random", seed=0),
        "PyG": peer_partitions("karate", "pyg"),
        "DGL": peer_partitions("karate", "dgl"),  # DGL's files hold its shuffled ids only
    }
    cmp = PartitioningComparison(sources)
    assert cmp.linked == [True, True, True, False]
    linked = cmp.graphs[:3]
    assert len({v.sigma.sync_key for v in linked}) == 1 and cmp.graphs[3].sigma.sync_key is None
    assert all(v.sigma.layout == linked[0].sigma.layout for v in linked)
    assert all({"camera", "selection", "hover"} <= set(v.sigma.sync_targets) for v in linked)
    for v in linked:  # a click in one view: ipysigma selects node 12 in every linked view
        v.sigma.selected_node = "12"
    for v, p in zip(linked, list(cmp.partitionings.values())[:3]):
        assert v.selected == "12" and v.location.owner == int(p.node_part[12])
        assert f"part {int(p.node_part[12])} (local id" in v.card.value
    cmp.select("20")  # from Python: every linked view drawn again with it selected
    assert [v.selected for v in cmp.graphs] == ["20", "20", "20", None]


def test_three_views_abreast_leave_out_the_search_box_two_keep_it():
    g = load_karate_club()
    parts = {f"seed {s}": gp.partition(g, 2, seed=s) for s in range(3)}
    cmp = PartitioningComparison(parts)
    assert cmp.graphs and all(v.sigma.ui_settings["hideSearch"] for v in cmp.graphs)
    two = PartitioningComparison(dict(list(parts.items())[:2]))
    assert not any(v.sigma.ui_settings["hideSearch"] for v in two.graphs)

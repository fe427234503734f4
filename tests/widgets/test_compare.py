"""PartitioningComparison, and figures / widgets opened on partitions made by DGL, PyG and GLT."""

from __future__ import annotations

import pytest

import graphpart as gp
from graphpart import viz
from graphpart.datasets import load_karate_club, peer_partitions
from graphpart.widgets import HaloInspector, PartitioningComparison

PNG = b"\x89PNG"


def test_side_by_side_of_peer_written_partitionings():
    cmp = PartitioningComparison({"DGL (METIS)": peer_partitions("karate", "dgl"),
                                  "PyG": peer_partitions("karate", "pyg"),
                                  "GLT (random)": peer_partitions("karate", "glt")})
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
        PartitioningComparison({"karate": peer_partitions("karate", "dgl"), "hetero": peer_partitions("hetero3", "dgl")})
    with pytest.raises(gp.GraphpartError, match="at least two"):
        PartitioningComparison({"one": gp.partition(load_karate_club(), 2, seed=0)})


@pytest.mark.parametrize("peer", ["dgl", "pyg", "glt"])
def test_figures_and_halo_inspector_take_paths(peer):
    path = peer_partitions("hetero3", peer)
    for draw in (viz.plot_balance, viz.plot_cut_matrix, viz.plot_halo_growth, viz.draw_partition):
        ax = draw(path)
        assert ax.figure is not None
    h = HaloInspector(path)
    h.controls["part"].value = 1
    assert h.counts["inner"] == gp.load_partition(path, 1).book.metadata()[1]["num_nodes"]
    with pytest.raises(gp.GraphpartError, match="expected a Partitioning"):
        HaloInspector(42)

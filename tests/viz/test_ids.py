"""The id views: the blocks are the partition book's ranges, the edges keep their ends through
the reshuffle, and the interactive view's selection gives every id of the point."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import graphpart as gp  # noqa: E402
from graphpart.datasets import load_davis_southern_women, load_karate_club  # noqa: E402
from graphpart.viz.ids import id_data, plot_adjacency, plot_id_line  # noqa: E402


@pytest.fixture(scope="module")
def davis():
    return gp.partition(load_davis_southern_women(), 3, num_hops=1, seed=0)


def test_new_id_blocks_are_the_books_ranges_per_partition_and_type(davis):
    d = id_data(davis)
    expected = sorted(
        (a, b, q, t)
        for t, ranges in enumerate(davis.book.node_map.values())
        for q, (a, b) in enumerate(np.asarray(ranges).tolist())
        if b > a
    )
    assert d.blocks.tolist() == [list(r) for r in expected]
    assert d.blocks[0, 0] == 0 and d.blocks[-1, 1] == d.num_nodes
    assert (d.blocks[1:, 0] == d.blocks[:-1, 1]).all()  # the blocks tile the id line
    owner_of_new = np.empty(d.num_nodes, dtype=np.int64)
    owner_of_new[d.table.shuffled_id] = d.table.owner
    for a, b, q, _ in d.blocks.tolist():
        assert (owner_of_new[a:b] == q).all()


def test_edges_keep_their_ends_through_the_reshuffle(davis):
    d = id_data(davis)
    new2old = np.asarray(davis.shuffle.new2old_nid)
    assert (new2old[d.new_src] == d.src).all() and (new2old[d.new_dst] == d.dst).all()
    assert len(d.src) == d.num_edges == davis.graph.num_edges()


def test_inner_edges_fall_in_the_diagonal_blocks_after_the_reshuffle():
    p = gp.partition(load_karate_club(), 3, seed=0)
    d = id_data(p)
    bounds = d.part_bounds
    block = np.searchsorted(bounds, d.new_src, side="right") - 1
    inner = d.table.owner[d.src] == d.table.owner[d.dst]
    assert (block[inner] == (np.searchsorted(bounds, d.new_dst, side="right") - 1)[inner]).all()
    assert (~inner).sum() == p.metrics.edge_cut


def test_a_large_graph_is_sampled_and_the_figure_says_so():
    p = gp.partition(gp.datasets.sbm([200, 200], 0.1, 0.01, seed=0), 2, seed=0)
    d = id_data(p, max_points=1000)
    assert len(d.src) == 1000 < d.num_edges
    before, _ = plot_adjacency(d)
    assert f"1,000 of {d.num_edges:,} edges" in before.get_title()


def test_the_id_line_draws_one_box_per_type_and_per_block(davis):
    ax = plot_id_line(davis)
    d = id_data(davis)
    assert len(ax.patches) == len(d.type_bounds) + len(d.blocks)


def test_the_interactive_view_gives_every_id_of_a_clicked_node_or_edge(davis):
    from graphpart.lookup import locate_node
    from graphpart.widgets import IdView

    view = IdView(davis)
    row = int(np.flatnonzero(view._nodes["new id"].to_numpy() == 5)[0])
    view.nodes_after.widget.selection = [row]  # a click on the point at new id 5
    node = int(view._nodes["original homogeneous id"].iloc[row])
    loc = locate_node(davis, node)
    assert loc.shuffled_id == 5 and view.selected["new id"] == 5
    assert f"<td>{loc.shuffled_typed_id}</td>" in view.card.value
    view.edges_before.widget.selection = [3]
    d = id_data(davis)
    assert view.selected["source id"] == d.src[3] and view.selected["new source id"] == d.new_src[3]
    assert view.selected["stored by"] == f"part {d.table.owner[d.dst[3]]}"
    view.nodes_before.widget.selection = []
    assert view.selected is None and view.card.value == ""

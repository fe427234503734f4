"""The id views: the blocks are the partition book's ranges, the edges keep their ends through
the reshuffle, and the interactive view's selection gives every id of the point."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import graphpart as gp  # noqa: E402
from graphpart.datasets import load_davis_southern_women, load_karate_club  # noqa: E402
from graphpart.errors import GraphpartError  # noqa: E402
from graphpart.views.ids import CUT_LABEL, id_view_data  # noqa: E402
from graphpart.viz.ids import plot_adjacency, plot_id_line, plot_ids  # noqa: E402
from graphpart.viz.ids_data import id_data  # noqa: E402


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
    assert len(d.src) == 1000 < d.num_edges and d.sampled
    before, after = plot_adjacency(d)
    assert f"1,000 of {d.num_edges:,} edges sampled" in before.get_title()
    assert "sampled" in after.get_title()
    assert not id_data(p).sampled


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
    assert view.selected["owner"] == f"part {d.table.owner[d.dst[3]]}"
    assert "edge type" in view.selected and "colour" not in view.selected
    view.nodes_before.widget.selection = []
    assert view.selected is None and view.card.value == ""


def test_the_id_lines_boxes_and_range_labels_are_the_books_ranges(davis):
    ax = plot_id_line(davis)
    d = id_data(davis)
    new_line = sorted(
        (round(r.get_x()), round(r.get_x() + r.get_width())) for r in ax.patches if r.get_y() == 0
    )
    assert new_line == [(a, b) for a, b, _, _ in d.blocks.tolist()]
    old_line = sorted(
        (round(r.get_x()), round(r.get_x() + r.get_width())) for r in ax.patches if r.get_y() == 1
    )
    assert old_line == [(0, 14), (14, 32)]  # events, then women
    ranges = np.stack([np.asarray(v) for v in davis.book.node_map.values()])  # types x parts
    sizes = (ranges[..., 1] - ranges[..., 0]).sum(axis=0)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    texts = [t.get_text() for t in ax.texts]
    for q in range(3):
        assert f"part {q}: ids {starts[q]}-{starts[q + 1] - 1}" in texts


def test_the_after_spy_draws_inner_edges_inside_their_partitions_diagonal_block():
    p = gp.partition(load_karate_club(), 3, seed=0)
    d = id_data(p)
    _, after = plot_adjacency(p)
    (dots,) = after.collections
    x, y = dots.get_offsets().T
    bounds = d.part_bounds
    bx = np.searchsorted(bounds, x, side="right") - 1
    by = np.searchsorted(bounds, y, side="right") - 1
    colors = matplotlib.colors.to_rgba_array(dots.get_facecolors())
    parts = gp.viz.part_colors(3)
    for q in range(3):
        mine = np.isclose(colors, parts[q]).all(axis=1)
        assert mine.any() and (bx[mine] == q).all() and (by[mine] == q).all()
    black = np.isclose(colors[:, :3], 0.0667, atol=0.01).all(axis=1)  # cut edges
    assert black.sum() == (~d.inner).sum() and (bx[black] != by[black]).all()
    vertical = [
        line.get_xdata() for line in after.lines if line.get_xdata()[0] == line.get_xdata()[1]
    ]
    lines = sorted(round(x[0] + 0.5) for x in vertical)
    assert lines == bounds[1:-1].tolist()  # the dashed partition boundaries


def test_a_dense_graph_is_drawn_as_a_histogram_whose_inner_cells_lie_in_the_blocks():
    p = gp.partition(gp.datasets.sbm([200, 200], 0.3, 0.005, seed=0), 2, seed=0)
    d = id_data(p)
    assert len(d.src) > 20_000
    _, after = plot_adjacency(d, which="both")
    (image,) = after.images
    rgba = image.get_array()
    assert rgba.shape == (400, 400, 4)  # one cell per id
    bounds = d.part_bounds
    parts = gp.viz.part_colors(2)
    for q in range(2):
        cells = np.isclose(rgba[..., :3], parts[q][:3]).all(axis=-1) & (rgba[..., 3] > 0)
        rows, cols = np.nonzero(cells)
        assert len(rows) and ((rows >= bounds[q]) & (rows < bounds[q + 1])).all()
        assert ((cols >= bounds[q]) & (cols < bounds[q + 1])).all()
    filled = (rgba[..., 3] > 0).sum()
    cells = np.unique(d.new_src * 400 + d.new_dst).size
    assert filled == cells


def test_which_draws_one_side_and_bad_arguments_are_refused(davis):
    import matplotlib.pyplot as plt

    ax = plot_adjacency(davis, which="after")
    assert ax.get_title().startswith("after")
    _, axes = plt.subplots(1, 2)
    assert plot_adjacency(davis, ax=axes[1], which="before") is axes[1]
    with pytest.raises(GraphpartError, match="which must be one of"):
        plot_adjacency(davis, which="middle")
    with pytest.raises(GraphpartError, match="draws on 2 axes, got 1"):
        plot_adjacency(davis, ax=[axes[0]])
    fig = plot_ids(davis)
    assert [a.get_title().split(":")[0] for a in fig.axes[1:]] == ["before", "after"]
    plt.close("all")


def test_the_view_tables_carry_every_id_and_colour_cut_edges_apart(davis):
    f = id_view_data(davis)
    d = f.data
    t = d.table
    assert (f.nodes["new id"].to_numpy() == t.shuffled_id).all()
    assert (f.nodes["original id"].to_numpy() == t.orig_id).all()
    cut = f.edges["edge"].to_numpy() == CUT_LABEL
    assert (cut == ~d.inner).all() and (f.edges["colour"][cut] == CUT_LABEL).all()
    inner_owner = f.edges["owner"][~cut].astype(str)
    assert (f.edges["colour"][~cut].astype(str) == inner_owner).all()
    src_typed = f.edges["new source type-wise id"].to_numpy()
    assert (src_typed == t.shuffled_typed_id[d.src]).all()
    assert set(f.edges["edge type"]) == {"event:attended_by:woman", "woman:attends:event"}
    homo = id_view_data(gp.partition(load_karate_club(), 2, seed=0))
    assert "edge type" not in homo.edges and homo.nodes["node"][5] == "5"


def test_the_view_forgets_the_hovered_point_when_the_mouse_leaves(davis):
    from graphpart.widgets import IdView

    view = IdView(davis, max_points=10)
    assert len(view._edges) == 10
    view.nodes_before.widget.hovering = 3
    assert view.hovered["original homogeneous id"] == 3 and view.hovered["node"] == "event:3"
    view.nodes_before.widget.hovering = None
    assert view.hovered is None


def test_the_interactive_view_of_a_graph_without_edges_says_what_it_needs():
    from graphpart.widgets import IdView

    p = gp.partition(gp.Graph.from_edges([], [], num_nodes=4), 2, part_method="random", seed=0)
    with pytest.raises(gp.GraphpartError, match="4 nodes and 0 edges"):
        IdView(p)
    plot_id_line(p)  # the figure still draws

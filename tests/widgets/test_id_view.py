"""IdView without a browser: linked plots, named rows, cards that do not run together."""

from __future__ import annotations

import pytest

pytest.importorskip("jscatter")

import graphpart as gp  # noqa: E402
from graphpart.datasets import load_davis_southern_women  # noqa: E402
from graphpart.widgets import IdView  # noqa: E402


@pytest.fixture(scope="module")
def view():
    return IdView(gp.partition(load_davis_southern_women(), 2, num_hops=1, seed=0))


@pytest.mark.parametrize("pair", [("nodes_after", "nodes_before"), ("edges_before", "edges_after")])
def test_a_selection_is_mirrored_in_the_linked_plot(view, pair):
    a, b = (getattr(view, name).widget for name in pair)
    a.selection = [5]
    assert [int(i) for i in b.selection] == [5]
    a.selection = []
    assert len(b.selection) == 0 and view.selected is None


def test_the_node_rows_are_named_by_type_and_owner(view):
    names = view._nodes["row name"]
    assert list(names.cat.categories) == [
        "event in part 0", "event in part 1", "woman in part 0", "woman in part 1"
    ]  # fmt: skip
    row = view._nodes.loc[20]
    assert names[20] == f"{row['type']} in {row['owner']}"
    assert view.nodes_after.label()["by"] == "row name"  # drawn beside the rows


def test_an_edge_card_keeps_each_name_apart_from_its_value(view):
    view.edges_after.widget.selection = [0]
    assert "padding:1px 14px 1px 0" in view.card.value and "<th style=" in view.card.value


def test_the_edge_plots_name_their_y_in_the_title_not_beside_the_next_plot(view):
    """jupyter-scatter writes a y name right of its plot, next to the neighbour's buttons: an
    audit read the left plot's "source id" as the right plot's."""
    titles = [b.children[0].value for b in view.children[2].children]
    for plot, title in zip((view.edges_before, view.edges_after), titles):
        assert plot.widget.axes_labels[1] == ""
        assert "source id up" in title

"""JourneyView without a browser: a click (a selection) follows the node through the files."""

from __future__ import annotations

import pytest

import graphpart as gp
from graphpart import chunked, datasets
from graphpart.errors import GraphpartError
from graphpart.widgets import JourneyView


@pytest.fixture(scope="module")
def view(tmp_path_factory):
    w = tmp_path_factory.mktemp("journey")
    g = datasets.load_davis_southern_women()
    chunked.write_chunked(g, w / "chunks", num_chunks=2)
    a = chunked.assign(w / "chunks", w / "assign", 2, "random")
    parts, _ = chunked.read_assignment(a, w / "chunks")
    gp.partition_graph(g, "dsw", 2, w / "parts", part_method=parts, num_hops=1)
    return JourneyView(w / "parts" / "dsw.json", w / "chunks", a)


def test_a_click_follows_that_node_and_sets_the_id_controls(view):
    view.graph.selected = "woman:4"
    j = view.journey
    loc = view.graph.location
    assert (j.ntype, j.orig_id) == ("woman", 4) == (view.ntype.value, view.node.value)
    assert (j.new_id, j.new_typed_id, j.owner.part) == (
        loc.shuffled_id,
        loc.shuffled_typed_id,
        loc.owner,
    )
    assert "woman.txt</code> line 5:" in view.panel.value


def test_an_id_typed_in_is_followed_in_its_type(view):
    view.ntype.value, view.node.value = "event", 13
    j = view.follow(view.node.value, view.ntype.value)
    assert (j.ntype, j.orig_id, j.assignment_line) == ("event", 13, 14)
    assert "event node 13" in view.panel.value


def test_a_bad_id_is_said_in_the_panel(view):
    with pytest.raises(GraphpartError):
        view.follow(99, "event")
    assert "an int in [0, 14), got 99" in view.panel.value


def test_following_from_python_sets_the_id_controls(view):
    j = view.follow(7, "event")
    assert (view.ntype.value, view.node.value) == ("event", 7) == (j.ntype, j.orig_id)


def test_an_id_followed_is_selected_in_the_drawing(view):
    view.graph.selected = "woman:4"
    view.follow(5, "event")  # typed in: the drawing shows that node, not the one clicked before
    assert view.graph.selected == "event:5"
    assert (view.graph.location.ntype, view.graph.location.orig_id) == ("event", 5)
    assert (view.journey.ntype, view.journey.orig_id) == ("event", 5)

"""METIS example graphs shipped by Debian's libmetis-doc."""

from __future__ import annotations

import pytest

from graphpart import DatasetNotFoundError, GraphpartError
from graphpart.datasets import load, load_metis_graph
from graphpart.datasets.meshes import metis_graphs_dir

pytestmark = pytest.mark.needs_dataset("4elt", "mdual", "copter2", "test.mgraph")


def header(name):
    with open(metis_graphs_dir() / name) as f:
        return [int(x) for x in f.readline().split()]


@pytest.mark.parametrize(
    "name, file", [("4elt", "4elt.graph"), ("mdual", "mdual.graph"), ("copter2", "copter2.graph")]
)
def test_mesh_counts_match_header(name, file):
    n, m = header(file)[:2]
    g = load_metis_graph(name, cache=False)
    assert g.num_nodes() == n
    assert g.num_edges() == 2 * m
    assert int(g.in_degrees().min()) >= 1  # meshes have no isolated vertices


def test_known_sizes():
    assert load("4elt").num_nodes() == 7434
    assert load("mdual").num_nodes() == 258569
    assert load("mdual").num_edges() == 2 * 513132


def test_multi_constraint_example():
    g = load_metis_graph("test.mgraph")
    assert (g.num_nodes(), g.num_edges()) == (766, 2 * 1314)
    assert g.ndata["weight"].shape == (766, 2)


def test_cached_copy_is_identical():
    fresh = load_metis_graph("4elt", cache=False)
    first = load_metis_graph("4elt")  # writes the cache
    again = load_metis_graph("4elt")  # reads it
    for g in (first, again):
        assert all((a == b).all() for a, b in zip(g.edges(), fresh.edges()))


def test_unknown_name():
    with pytest.raises(GraphpartError, match="unknown METIS example 'nope'"):
        load_metis_graph("nope")


def test_missing_folder_names_package(tmp_path):
    with pytest.raises(DatasetNotFoundError, match="libmetis-doc"):
        load_metis_graph("4elt", path=tmp_path)

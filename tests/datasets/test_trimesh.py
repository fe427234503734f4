"""The generated triangle mesh: a planar mesh (E = 3n - 2(rows + cols) + 1 undirected edges),
degree 6 inside, coordinates for drawing, and METIS cuts it the way meshes are cut."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import graphpart as gp
from graphpart.datasets import triangle_mesh


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 5), (4, 4), (7, 3)])
def test_counts_and_degrees(rows, cols):
    g = triangle_mesh(rows, cols)
    n = rows * cols
    undirected = (rows * (cols - 1)) + (cols * (rows - 1)) + (rows - 1) * (cols - 1)
    assert g.num_nodes() == n and g.num_edges() == 2 * undirected
    deg = g.in_degrees().numpy().reshape(rows, cols)
    if rows > 2 and cols > 2:
        assert (deg[1:-1, 1:-1] == 6).all()
    assert np.array_equal(g.in_degrees().numpy(), g.out_degrees().numpy())  # both directions


def test_it_is_planar_and_connected_with_its_own_coordinates():
    g = triangle_mesh(6, 7)
    nxg = nx.Graph(g.to_networkx().to_undirected())
    assert nx.is_connected(nxg) and nx.check_planarity(nxg)[0]
    pos = g.ndata["pos"].numpy()
    assert pos.shape == (42, 2) and np.ptp(pos[:, 0]) > 5  # spread like the grid


def test_metis_cuts_a_mesh_far_less_than_random_and_parts_border_few_others():
    g = triangle_mesh(40, 40)
    metis = gp.partition(g, 8, seed=0)
    rand = gp.partition(g, 8, part_method="random", seed=0)
    assert metis.metrics.edge_cut_fraction < 0.1 < 0.5 < rand.metrics.edge_cut_fraction
    from graphpart.metrics.structure import quotient_graph

    q = quotient_graph(metis)
    assert len(q.src) < 8 * 7 / 2  # not every pair of parts shares an edge


def test_bad_sizes_are_refused():
    with pytest.raises(gp.GraphpartError, match="rows"):
        triangle_mesh(0, 3)

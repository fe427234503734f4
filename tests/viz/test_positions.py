"""Node positions of large graphs: the grid repulsion equals the exact one, communities apart."""

from __future__ import annotations

import numpy as np

from graphpart.viz.layout import node_positions


def test_the_grid_repulsion_matches_the_exact_sum_of_pairs():
    from graphpart.viz.layout import _mesh_repulsion, _pair_repulsion

    rng = np.random.default_rng(0)
    x, y = rng.random(1500), rng.random(1500)
    k2 = 1.0 / 1500
    ex, ey = _pair_repulsion(x, y, k2)
    mx, my = _mesh_repulsion(x, y, k2)
    err = np.hypot(mx - ex, my - ey) / np.hypot(ex, ey).mean()
    assert np.median(err) < 0.1


def test_a_large_graph_is_laid_out_in_linear_memory_with_its_communities_apart():
    from graphpart.datasets import sbm

    g = sbm([3000, 3000], 0.004, 0.00005, seed=0)  # above EXACT_LAYOUT_NODES
    pos = node_positions(g)
    a, b = pos[:3000].mean(axis=0), pos[3000:].mean(axis=0)
    spread = max(pos[:3000].std(axis=0).mean(), pos[3000:].std(axis=0).mean())
    assert np.hypot(*(a - b)) > 2 * spread
    assert np.abs(pos).max() <= 1.2
    cells = np.unique(np.floor((pos + 1.2) * 20).astype(int), axis=0)
    assert len(cells) > 300, len(cells)  # repulsion spreads nodes out instead of piling them

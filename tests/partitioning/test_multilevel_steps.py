"""multilevel_steps: levels that add up, METIS on the coarsest, refinement that never cuts more."""

from __future__ import annotations

import numpy as np
import pytest

from graphpart import datasets
from graphpart.errors import GraphpartError
from graphpart.partitioning import multilevel_steps


@pytest.fixture(scope="module")
def steps():
    return multilevel_steps(datasets.sbm([30] * 4, p_in=0.25, p_out=0.02, seed=0), 4, coarsest=6)


def test_each_level_is_smaller_and_its_weights_add_up_to_the_input(steps):
    sizes = [lv.num_nodes for lv in steps.levels]
    assert sizes[0] == 120 and all(a > b for a, b in zip(sizes, sizes[1:]))
    for lv in steps.levels:
        assert lv.weight.sum() == 120
        assert np.array_equal(np.bincount(lv.node_of, minlength=lv.num_nodes), lv.weight)
        assert (lv.src < lv.dst).all()  # each pair once, no merged-away edge left as a loop


def test_a_projected_partition_cuts_what_the_coarse_one_cut(steps):
    levels = steps.levels
    for i in range(len(levels) - 1):
        assert levels[i].cut(steps.projected[i]) == levels[i + 1].cut(steps.refined[i + 1])
        fine_to_coarse = np.empty(levels[i].num_nodes, dtype=np.int64)
        fine_to_coarse[levels[i].node_of] = levels[i + 1].node_of
        assert np.array_equal(steps.projected[i], steps.refined[i + 1][fine_to_coarse])


def test_refinement_never_cuts_more_and_keeps_balance(steps):
    for lv, before, after in zip(steps.levels, steps.projected, steps.refined):
        assert lv.cut(after) <= lv.cut(before)
    assert steps.levels[0].cut(steps.refined[0]) < steps.levels[-1].cut(steps.refined[-1])
    loads = np.bincount(steps.assignment, minlength=4)
    assert loads.max() <= 1.1 * 120 / 4


def test_every_partition_gets_nodes_and_bad_input_is_refused():
    s = multilevel_steps(datasets.load_karate_club(), 2, coarsest=6)
    assert set(s.assignment.tolist()) == {0, 1}
    with pytest.raises(GraphpartError, match="num_parts must be an integer >= 2"):
        multilevel_steps(datasets.load_karate_club(), 1)
    with pytest.raises(GraphpartError, match="at most"):
        multilevel_steps(datasets.rmat(13, seed=0), 2)

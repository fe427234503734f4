"""plot_break_even: a line per setting from its partitioning time, crossings marked."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest

from graphpart import viz
from graphpart.datasets import sbm
from graphpart.errors import GraphpartError
from graphpart.sweep import grid, sweep
from graphpart.training import TrainingSetup


def test_each_setting_starts_at_its_partitioning_time_and_rises_by_its_epoch():
    import matplotlib.pyplot as plt

    g = sbm([100] * 4, 0.1, 0.005, seed=0)
    results = sweep(
        g,
        grid(part_method=["random", "metis"], num_parts=4),
        training=TrainingSetup(fanouts=(5, 5), batch_size=16, train=None),
    )
    ax = viz.plot_break_even(results, "random k=4", max_epochs=100)
    lines = [ln for ln in ax.get_lines() if ln.get_label() in {"random k=4", "metis k=4"}]
    assert len(lines) == 2
    for ln, r in zip(lines, results):
        x, y = ln.get_data()
        assert y[0] == pytest.approx(r.seconds) and y[-1] == pytest.approx(
            r.seconds + 100 * r.epoch_s
        )
    with pytest.raises(GraphpartError, match="baseline"):
        viz.plot_break_even(results, "nope")
    plt.close("all")

"""Cost figures: plot_break_even, draw_volume, draw_vertex_cut draw what they count."""

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


def test_the_volume_and_vertex_cut_drawings_count_what_they_show():
    import matplotlib.pyplot as plt

    from graphpart import datasets, partition
    from graphpart.partitioning import vertex_cut

    karate = datasets.load_karate_club()
    p = partition(karate, 3, seed=0)
    ax = viz.draw_volume(p)
    assert ax.get_title().startswith(f"communication volume {p.metrics.communication_volume}:")
    # the cut in the notebooks' unit (directed edges), which the volume never exceeds
    assert f"edge cut {p.metrics.edge_cut} (directed edges)" in ax.get_title()
    assert p.metrics.communication_volume <= p.metrics.edge_cut
    labels = [t.get_text() for t in ax.texts]
    assert sum(map(int, labels)) == p.metrics.communication_volume
    vc = vertex_cut(karate, 3, seed=0)
    ax = viz.draw_vertex_cut(karate, vc)
    assert f"{vc.mirrors} mirrors" in ax.get_title()
    assert len(ax.texts) == int((vc.copies > 1).sum())
    plt.close("all")


def test_the_break_even_label_counts_whole_epochs_rounded_up_as_the_notebook_prints():
    """An audit read "82 epochs" on the figure and "paid back after 83 epochs" printed."""
    from types import SimpleNamespace as R

    import matplotlib.pyplot as plt

    from graphpart.partitioning import PartitionOptions
    from graphpart.sweep import Setting

    random, plain = (Setting(4, PartitionOptions(part_method=m)) for m in ("random", "metis"))
    base = R(setting=random, seconds=0.0, epoch_s=0.01)
    metis = R(setting=plain, seconds=0.0648, epoch_s=0.01 - 0.00079)
    ax = viz.plot_break_even([base, metis], "random k=4", max_epochs=200)
    assert [t.get_text() for t in ax.texts] == ["83 epochs"]  # 0.0648 / 0.00079 = 82.03
    plt.close("all")

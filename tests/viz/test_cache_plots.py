"""Feature-cache figures draw the numbers of the runs they are given."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

import graphpart as gp  # noqa: E402
from graphpart import viz  # noqa: E402
from graphpart.features import Feature, PartitionAccess, Trace, hit_rate_table, make_cache, simulate  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def trace():
    g = torch.Generator().manual_seed(0)
    return Trace.from_batches(
        [torch.randint(0, 50, (20,), generator=g) for _ in range(12)], 50, epochs=[0] * 6 + [1] * 6
    )


def test_hit_rate_trace_draws_running_rate_ending_at_the_total():
    run = simulate(trace(), make_cache("lru", 50, 10))
    ax = viz.plot_hit_rate_trace([run])
    per_batch, running = ax.get_lines()
    assert np.allclose(per_batch.get_ydata(), run.batch_hit_rate())
    assert running.get_ydata()[-1] == pytest.approx(run.hit_rate)
    assert f"{run.hit_rate:.1%}" in ax.get_legend().get_texts()[0].get_text()


def test_hit_rate_trace_takes_a_features_stats():
    f = Feature(torch.zeros(10, 2), split_ratio=0.5, device="cpu")
    f[[0, 1, 9]], f[[2, 8]]
    ax = viz.plot_hit_rate_trace(f.stats, per_batch=False)
    assert ax.get_lines()[0].get_ydata().tolist() == pytest.approx([2 / 3, 3 / 5])


def test_hit_rate_curve_has_one_line_per_policy_and_the_reference_points():
    t = trace()
    table = hit_rate_table(t, [0.1, 0.2, 0.4], {"in-degree": torch.arange(50)}, dynamic=("lru",))
    ax = viz.plot_hit_rate_curve(table, reference={"GNNLab degree": (0.1, 0.496)})
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["in-degree", "oracle", "lru", "belady"]
    assert np.allclose(ax.get_lines()[3].get_ydata(), table.rates["belady"])
    assert len(ax.collections) == 1


def test_hit_rate_curves_legend_covers_no_curve():
    t = trace()
    table = hit_rate_table(t, [0.1, 0.2, 0.4], {"in-degree": torch.arange(50)}, dynamic=("lru",))
    ax = viz.plot_hit_rate_curve(table)
    ax.figure.canvas.draw()
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.get_window_extent().x1  # beside the axes, not over the lines


def test_bytes_per_epoch_bars_count_misses_times_row_bytes():
    t = trace()
    run = simulate(t, make_cache("fifo", 50, 10))
    ax = viz.plot_bytes_per_epoch([run], row_bytes=512)
    heights = [b.get_height() for b in ax.patches]
    unit = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9}[ax.get_ylabel().split()[0]]
    assert heights[0] * unit == pytest.approx(t.num_lookups / 2 * 512)
    assert heights[1] * unit == pytest.approx((run.lookups - run.hits).sum() / 2 * 512)


def test_byte_labels_tell_different_sizes_apart():
    from graphpart.features import make_cache

    t = trace()
    runs = [simulate(t, make_cache(p, 50, 10)) for p in ("fifo", "lru")]
    ax = viz.plot_bytes_per_epoch(runs, row_bytes=4096)
    values = [b.get_height() for b in ax.patches]
    labels = [a.get_text() for a in ax.texts]
    assert len(set(labels)) == len(set(round(v, 6) for v in values))  # 1.5x apart, read apart
    assert all(label.split()[1] in ("B", "KB", "MB", "GB") for label in labels)


def test_hit_rate_trace_counts_batches_in_whole_numbers():
    g = torch.Generator().manual_seed(0)
    few = Trace.from_batches([torch.randint(0, 50, (20,), generator=g) for _ in range(3)], 50)
    run = simulate(few, make_cache("lru", 50, 10))  # 3 batches: matplotlib would tick 1.5, 2.5
    ax = viz.plot_hit_rate_trace([run])
    ax.figure.canvas.draw()
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks)


def test_partition_access_bars_stack_to_one():
    acc = [
        PartitionAccess(0, np.array([5]), np.array([2]), np.array([3]), np.array([1]), 4),
        PartitionAccess(1, np.array([1]), np.array([0]), np.array([1]), np.array([0]), 4),
    ]
    ax = viz.plot_partition_access(acc)
    tops = {}
    for b in ax.patches:
        tops[round(b.get_x(), 3)] = max(
            tops.get(round(b.get_x(), 3), 0), b.get_y() + b.get_height()
        )
    assert all(v == pytest.approx(1.0) for v in tops.values())
    fetched = [b for b in ax.patches][-2].get_height()
    # part 0 under DGL's rule: its 2 HALO and 3 remote lookups leave, 1 cached -> 4 of 10 fetched
    assert fetched == pytest.approx(0.4)


def test_plots_refuse_what_they_cannot_draw():
    with pytest.raises(gp.GraphpartError, match="CacheRun"):
        viz.plot_hit_rate_trace(["not a run"])


@pytest.mark.parametrize(
    "nbytes, text",
    [
        (0, "0 B"),
        (512, "512 B"),
        (999.7, "1.00 KB"),  # rounds up into the next unit, not "1000 B"
        (10_240_000, "10.2 MB"),
        (15_360_000, "15.4 MB"),
        (999_600, "1.00 MB"),  # not "1e+03 KB"
        (9_996_000, "10.0 MB"),  # three significant digits after rounding, not "10.00 MB"
        (123_456, "123 KB"),
        (2.5e9, "2.50 GB"),
        (-2048, "-2.05 KB"),
    ],
)
def test_fmt_bytes_shows_three_significant_digits_in_an_adaptive_unit(nbytes, text):
    from graphpart.utils.units import fmt_bytes

    assert fmt_bytes(nbytes) == text


def test_fmt_bytes_reads_sizes_apart_and_back_and_agrees_with_the_axis_unit():
    from graphpart.utils.units import byte_unit, fmt_bytes

    scale = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15}
    sizes = np.geomspace(1, 1e15, 400)
    for x in sizes:
        number, unit = fmt_bytes(x).split()
        assert float(number) * scale[unit] == pytest.approx(x, rel=0.006)
        assert 1 <= float(number) < 1000 and unit == byte_unit(x)[0]
        assert fmt_bytes(x) != fmt_bytes(1.5 * x) and fmt_bytes(x) != fmt_bytes(1.02 * x)


def test_partition_access_legend_uses_the_locality_tables_names():
    from graphpart.features.partition import SERVED_BY

    acc = [PartitionAccess(0, np.array([5]), np.array([2]), np.array([3]), np.array([1]), 4)]
    ax = viz.plot_partition_access(acc)
    assert tuple(t.get_text() for t in ax.get_legend().get_texts()) == SERVED_BY


def test_one_batch_is_a_point_on_an_axis_of_whole_batches():
    from graphpart.features.simulate import CacheRun
    from graphpart.viz import plot_hit_rate_trace

    run = CacheRun("in-degree", 10, np.array([100]), np.array([40]), np.array([0]))
    ax = plot_hit_rate_trace([run])
    assert ax.get_xlim() == (0.5, 1.5)
    assert [t for t in ax.get_xticks() if 0.5 <= t <= 1.5] == [1.0]
    running = [ln for ln in ax.get_lines() if ln.get_label().startswith("in-degree")]
    assert running[0].get_marker() == "o"


def test_policies_with_the_same_rates_both_stay_in_sight():
    from graphpart.features.simulate import CacheRun
    from graphpart.viz import plot_hit_rate_trace

    lookups, hits, epochs = np.array([100, 100]), np.array([40, 40]), np.array([0, 0])
    runs = [CacheRun(p, 10, lookups, hits, epochs) for p in ("in-degree", "presample")]
    ax = plot_hit_rate_trace(runs)
    widths = {ln.get_label().split(":")[0]: ln.get_linewidth() for ln in ax.get_lines()}
    assert widths["in-degree"] > widths["presample"] + 1  # the first drawn is wider, beneath


def test_box_bars_split_each_gpu_s_reads_by_place():
    from graphpart.features import DeviceGroup, FeatureBox, replay_box

    box = FeatureBox(8, 0.5, [DeviceGroup(0, [0, 1])])  # GPU 0: rows 0-1, GPU 1: rows 2-3
    run = replay_box({0: [[0, 2, 3, 7]], 1: [[2, 6]]}, box, "group")
    fig = viz.plot_box([run])
    (ax,) = fig.axes
    heights = [round(b.get_height(), 3) for b in ax.patches]
    # own, peer, host per GPU: GPU 0 reads 1 own, 2 from GPU 1, 1 from the host; GPU 1 1 / 0 / 1
    assert heights == [0.25, 0.5, 0.5, 0.0, 0.25, 0.5]
    assert "hit rate" in ax.get_title()
    with pytest.raises(gp.GraphpartError, match="BoxRun"):
        viz.plot_box(["not a run"])


def test_hit_rate_curves_ticks_at_whole_percents_carry_no_decimals():
    t = trace()
    table = hit_rate_table(t, [0.02, 0.05, 0.4], {"in-degree": torch.arange(50)})
    ax = viz.plot_hit_rate_curve(table)
    ax.figure.canvas.draw()
    assert [x.get_text() for x in ax.get_xticklabels()] == ["2%", "5%", "40%"]

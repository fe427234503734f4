"""A page that reloads asks the kernel for every live widget's state in one request
(ipywidgets' ``request_states``, answered by ``Widget.get_manager_state``). One live widget
holding a closed one fails that request, and every view of the notebook then stays on
"Loading widget...". So whatever a view does (freeze, wake, select, redraw, repartition), the
widgets it made either report their state or are closed; and what it replaces is closed, not
left in the kernel to be sent again on every reload."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import ipywidgets as w  # noqa: E402
import pytest  # noqa: E402

import graphpart as gp  # noqa: E402
from graphpart.datasets import load_karate_club, sbm  # noqa: E402
from graphpart.widgets import (  # noqa: E402
    CacheSimulator,
    EpochCostView,
    HaloInspector,
    PartitionExplorer,
    PartitionGraph,
    PartitioningComparison,
    PartitionViews,
)

from ..graphs import masked_sbm  # noqa: E402


@pytest.fixture
def made():
    """Every widget made while the test runs."""
    widgets: list = []
    w.Widget.on_widget_constructed(widgets.append)
    try:
        yield widgets
    finally:
        w.Widget.on_widget_constructed(None)


def _live(made: list) -> list:
    return [x for x in made if x.comm is not None]


def _views(made: list) -> int:
    """Live widgets other than layouts and styles (ipywidgets leaves those open when it closes
    their widget, as they may be shared)."""
    return sum(not isinstance(x, (w.Layout, w.Style)) for x in _live(made))


def _check_states(made: list) -> int:
    """What the kernel does for a reloading page; the number of live widgets."""
    w.Widget.get_manager_state(widgets=_live(made))  # raises on a live one holding a closed one
    return _views(made)


def _budget(view):
    return view.freezer.budget


def _cycle_views(views, select) -> list:
    seat = _budget(views)

    def grant(reason: str, live: bool):
        return lambda: setattr(seat, "reason", reason) or setattr(seat, "live", live)

    return [
        grant("room", True),  # the page grants contexts
        lambda: select("5"),
        grant("budget", False),  # out of sight, over the budget: still pictures
        lambda: select("7"),  # while frozen
        grant("seen", True),  # drawn live again
        grant("lost", False),
        lambda: views.freezer.frozen.children[0].children[0].click(),  # "draw live"
    ]


def _partition_graph(made) -> list:
    view = PartitionGraph(gp.partition(load_karate_club(), 3, num_hops=1, seed=0), height=300)
    return _cycle_views(view, lambda k: setattr(view, "selected", k))


def _partition_views(made) -> list:
    views = PartitionViews(gp.partition(load_karate_club(), 3, num_hops=1, seed=0))
    # a view of the row selected from Python: drawn again, in its row too
    return [*_cycle_views(views, views.select), lambda: setattr(views.views[1], "selected", "9")]


def _comparison(made) -> list:
    g = load_karate_club()
    cmp = PartitioningComparison(
        {m: gp.partition(g, 3, part_method=m, seed=0) for m in ("random", "metis")}
    )
    return [*_cycle_views(cmp, cmp.select), lambda: setattr(cmp.graphs[1], "selected", "9")]


def _halo_inspector(made) -> list:
    view = HaloInspector(gp.partition(load_karate_club(), 3, num_hops=2, seed=0))

    c = view.controls
    return [lambda p=p, h=h: setattr(c["part"], "value", p) or setattr(c["hops"], "value", h)
            for p, h in ((1, 1), (2, 2), (0, 2))]  # fmt: skip


def _explorer(made) -> list:
    view = PartitionExplorer(masked_sbm(), num_parts=2, threaded=False)

    return [
        lambda: setattr(view.controls["num_parts"], "value", 3),
        lambda: setattr(view.halo_part, "value", 1),
        lambda: setattr(view.controls["num_parts"], "value", 2),
    ]


def _cache_simulator(made) -> list:
    g = sbm(block_sizes=[60, 60, 60], p_in=0.15, p_out=0.02, seed=0, train_frac=0.5)
    sim = CacheSimulator(gp.partition(g, 3, num_hops=1, seed=0), batch_size=16)

    return [
        lambda: setattr(sim.controls["partition"], "value", 1),
        lambda: sim.step(2),
        lambda: setattr(sim.controls["partition"], "value", 0),  # a fresh session: graph gone
        lambda: sim.step(1),
    ]


def _epoch_cost(made) -> list:
    from graphpart.sweep import grid, sweep
    from graphpart.training import TrainingSetup

    setup = TrainingSetup(fanouts=(4, 3), batch_size=6, train=None, num_trainers_per_machine=2)
    results = sweep(load_karate_club(), grid(part_method=["random", "metis"], num_parts=2),
                    training=setup)  # fmt: skip
    view = EpochCostView.from_sweep(results, setup, threaded=False)
    labels = [r.setting.label for r in results]

    return [
        lambda: setattr(view.trainer_graph.bars, "hovered", 1),
        lambda: setattr(view.setting, "value", labels[1]),  # another partitioning's view
        lambda: setattr(view.trainer_graph.bars, "hovered", 2),
        lambda: setattr(view.setting, "value", labels[0]),
    ]


@pytest.mark.parametrize(
    "build",
    [
        _partition_graph,
        _partition_views,
        _comparison,
        _halo_inspector,
        _explorer,
        _cache_simulator,
        _epoch_cost,
    ],
)
def test_every_live_widget_reports_its_state_and_nothing_replaced_lingers(made, build):
    actions = build(made)
    _check_states(made)
    counts = []
    for _ in range(2):  # the same twice: replaced widgets closed, none piling up
        for act in actions:
            act()
            _check_states(made)  # after every step: a page may reload at any time
        counts.append(_check_states(made))
    assert counts[0] == counts[1]


def test_a_closed_widget_in_a_live_box_fails_the_reload_request(made):
    """The fault guarded against, planted: the request fails, as the page's did."""
    inner = w.HTML("x")
    box = w.VBox([inner])
    inner.close()
    with pytest.raises(AttributeError):
        _check_states(made)
    box.close()  # not left to fail the tests after this one

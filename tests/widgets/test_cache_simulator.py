"""CacheSimulator without a browser: set controls, step or play, assert on the session and
outputs."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

import graphpart as gp  # noqa: E402
from graphpart.datasets import load_karate_club, sbm  # noqa: E402
from graphpart.widgets import CacheSimulator  # noqa: E402


def graph():
    return sbm(block_sizes=[60, 60, 60], p_in=0.15, p_out=0.02, seed=0, train_frac=0.5)


def test_starts_empty_and_steps_one_batch_per_click():
    sim = CacheSimulator(graph(), batch_size=16)
    assert sim.session.num_batches == 0
    sim.step_button.click()
    assert sim.session.num_batches == 1 and sim.plot.value[:4] == b"\x89PNG"
    assert "batch 1" in sim.status.value


def test_play_ticks_stream_batches_and_the_plot_follows():
    sim = CacheSimulator(graph(), batch_size=16)
    sim.controls["per_tick"].value = 3
    sim.play.value += 1
    first = sim.plot.value
    sim.play.value += 2
    assert sim.session.num_batches == 9 and sim.plot.value != first


def test_seeds_default_to_the_train_mask():
    g = graph()
    sim = CacheSimulator(g)
    assert (
        sorted(sim.session.loader.seeds.tolist())
        == g.ndata["train_mask"].nonzero().reshape(-1).tolist()
    )


@pytest.mark.parametrize(
    "control, value, check",
    [
        ("cache_ratio", 0.3, lambda s: s.capacity == 54),
        ("policies", ("random", "sieve"), lambda s: list(s.caches) == ["random", "sieve"]),
        ("fanouts", "4,3,2", lambda s: s.loader.fanouts == (4, 3, 2)),
        ("batch_size", 7, lambda s: s.loader.batch_size == 7),
    ],
)
def test_each_control_starts_a_fresh_session(control, value, check):
    sim = CacheSimulator(graph())
    sim.step(2)
    sim.controls[control].value = value
    assert sim.session.num_batches == 0 and check(sim.session)


def test_bad_fanouts_show_an_error_instead_of_raising():
    sim = CacheSimulator(graph())
    sim.controls["fanouts"].value = "ten"
    assert sim.session is None and "fanouts" in sim.status.value
    sim.step()  # nothing to step, nothing raised
    sim.controls["fanouts"].value = "5"
    assert sim.session.loader.fanouts == (5,) and sim.error is None
    assert "fanouts must be" not in sim.status.value


def test_with_a_partitioning_the_trainer_view_counts_locality():
    p = gp.partition(load_karate_club(), 2, num_hops=1, seed=0)
    sim = CacheSimulator(p, batch_size=4)
    assert sim.controls["partition"].label == "all nodes"  # a choice shown, not a blank box
    assert sim.where.value == b"" and sim.where.layout.display == "none"  # no broken image
    sim.controls["partition"].value = 1
    assert sim.where.layout.display == "none"  # no batch yet: no empty plot (an audit's -4..4%)
    sim.step(3)
    acc = sim.session.access()
    assert set(sim.session.loader.seeds.tolist()) <= set((p.node_part == 1).nonzero()[0].tolist())
    assert acc.totals["inner"] > 0 and sim.where.value[:4] == b"\x89PNG"
    assert sim.where.layout.display is None
    assert sum(acc.totals[k] for k in ("inner", "halo", "remote")) == sum(sim.session.lookups)


def test_policies_chosen_at_the_start_random_included():
    sim = CacheSimulator(graph(), policies=("random", "in-degree"), batch_size=16)
    assert sim.controls["policies"].value == ("random", "in-degree")
    sim.step(2)
    assert list(sim.session.hit_rates()) == ["random", "in-degree"]
    for bad in (("in-degree", "mru"), ()):
        with pytest.raises(gp.GraphpartError, match="policies must be"):
            CacheSimulator(graph(), policies=bad)


def test_seeds_choice_names_what_the_seeds_are():
    assert CacheSimulator(graph()).controls["partition"].label == "all training nodes"
    assert CacheSimulator(load_karate_club()).controls["partition"].label == "all nodes"


def _dark_center(png: bytes) -> bool:
    import io

    from matplotlib.image import imread

    rgb = imread(io.BytesIO(png))[..., :3]
    h, w = rgb.shape[:2]
    center = rgb[int(0.45 * h) : int(0.55 * h), int(0.3 * w) : int(0.7 * w)]
    return bool((center.mean(axis=-1) < 0.6).any())


def test_the_empty_plot_says_how_to_fill_it():
    sim = CacheSimulator(graph(), policies=("random",), batch_size=16)
    assert sim.plot.layout.display is None and _dark_center(sim.plot.value)  # the hint
    sim.controls["cache_ratio"].value = 0.0  # random at 0%: a line along the bottom only
    sim.step(2)
    assert not _dark_center(sim.plot.value)  # the hint is gone once batches are drawn


def _partitioned():
    return CacheSimulator(gp.partition(graph(), 3, num_hops=1, seed=0), batch_size=16)


def test_the_batch_graph_follows_every_step_and_is_cleared_by_a_fresh_session():
    sim = _partitioned()
    assert sim.batch_graph.view is None  # nothing looked up yet
    sim.controls["partition"].value = 1
    sim.step_button.click()
    assert sim.batch_graph.view.title.startswith("trainer of part 1, batch 1:")
    sim.step_button.click()
    assert sim.batch_graph.view.title.startswith("trainer of part 1, batch 2:")
    sim.controls["batch_size"].value = 8  # a fresh session
    assert sim.batch_graph.view is None


def test_the_batch_graph_waits_while_playing_and_draws_when_play_pauses():
    sim = _partitioned()
    sim.play.playing = True
    sim.play.value += 2
    assert sim.session.num_batches == 2 and sim.batch_graph.view is None
    sim.play.playing = False
    assert sim.batch_graph.view.title.startswith("all training nodes, batch 2:")


def test_the_batch_graph_colours_by_the_policy_chosen_for_it():
    sim = _partitioned()
    sim.controls["policies"].value = ("random", "lru")
    sim.step()
    assert sim.batch_graph.policy.value == "lru"  # random is the baseline, not the default
    sim.batch_graph.policy.value = "random"
    assert "by where random served" in sim.batch_graph.view.title


def test_a_graph_without_partitions_has_no_batch_graph():
    assert CacheSimulator(graph()).batch_graph is None

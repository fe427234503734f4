"""recommend: the Pareto set over (epoch, cut, replication), the winner and why (issue 31)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.recommend import recommend
from graphpart.sweep import grid, sweep
from graphpart.training import TIE, TrainingSetup

from .graphs import train_in_two_communities


@pytest.fixture(scope="module")
def results():
    """Notebook 08's graph: the train nodes concentrated in two of eight communities."""
    g = train_in_two_communities(300, 0.03, 0.001)
    setup = TrainingSetup(fanouts=(10, 5), batch_size=64, num_trainers_per_machine=2)
    settings = grid(
        part_method=["random", "metis"], num_parts=4, balance_ntypes=[None, "train_mask"]
    )
    return sweep(g, settings, training=setup)


def test_no_setting_in_the_pareto_set_is_beaten_on_all_three(results):
    rec = recommend(results)
    figs = {
        r.setting.label: (r.epoch_s, r.edge_cut_fraction, r.partitioning.metrics.replication_factor)
        for r in results
    }
    for a in rec.pareto:
        fa = figs[a.setting.label]
        for label, fb in figs.items():
            assert not (all(b <= x for b, x in zip(fb, fa)) and fb != fa), (a.setting.label, label)
    for loser, winner in rec.dominated.items():
        assert all(w <= x for w, x in zip(figs[winner], figs[loser])), (loser, winner)
    assert {r.setting.label for r in rec.pareto} | set(rec.dominated) == set(figs)


def test_the_pick_is_the_fastest_within_a_tie_and_says_why(results):
    rec = recommend(results)
    fastest = min(r.epoch_s for r in results)
    assert rec.best.epoch_s <= fastest * (1 + TIE)
    assert rec.best is rec.pareto[0] and rec.why.startswith(rec.best.setting.label)
    assert "estimated epoch" in rec.why and "slowest trainer" in rec.why
    assert "fastest settings (Pareto set)" in str(rec)


def test_recommend_needs_priced_settings():
    res = sweep(gp.datasets.load_karate_club(), grid(part_method="metis", num_parts=2))
    with pytest.raises(gp.GraphpartError, match="training=TrainingSetup"):
        recommend(res)
    with pytest.raises(gp.GraphpartError, match="results of graphpart.sweep.sweep"):
        recommend([])


def _priced(parts: int, epoch_s: float, cut: float):
    from types import SimpleNamespace

    from graphpart.sweep import Setting, SweepResult

    epoch = SimpleNamespace(epoch_s=epoch_s, straggler_ratio=1.0, why=lambda: "even")
    return SweepResult(Setting(parts), 0, cut, {}, 0.0, None, epoch)


def test_a_pick_that_wins_a_tie_on_cut_names_the_slightly_faster_setting(monkeypatch):
    """The playground showed 1.33 ms beside a pick of 1.36 ms and never said why."""
    import graphpart.recommend as module

    monkeypatch.setattr(module, "_replication", lambda r: 2.0)
    low_cut, fast = _priced(2, 1.36e-3, 0.12), _priced(3, 1.34e-3, 0.28)
    rec = recommend([low_cut, fast])
    assert rec.best is low_cut and rec.fastest is fast  # 1.5% slower: a tie, won on cut
    assert "metis k=3 is the fastest at 1.34 ms: this one takes 1.5% longer" in rec.why
    assert "a tie within the model's 3%, and cuts fewer edges than its 28.0%" in rec.why
    assert rec.headline.startswith("Pick: metis k=2 (1.36 ms), a tie with the fastest, metis k=3")
    assert (
        "best trade-off, metis k=3" not in rec.why
    )  # named once, as the fastest (03's playground)
    three = recommend([low_cut, fast, _priced(5, 1.5e-3, 0.08), _priced(6, 2e-3, 0.01)])
    assert "best trade-off, metis k=5" in three.why and three.why.count("metis k=3") == 1
    alone = recommend([low_cut, _priced(4, 1.5e-3, 0.3)])
    assert "is the fastest" not in alone.why and alone.headline == "Fastest: metis k=2 (1.36 ms)"


def test_a_runner_up_that_is_also_the_slowest_is_named_once(monkeypatch):
    """08's exercise read "the slowest setting, metis k=4, ...; the runner-up, metis k=4": one
    setting named twice, as if two."""
    import graphpart.recommend as module

    monkeypatch.setattr(module, "_replication", lambda r: 2.0)
    rec = recommend([_priced(2, 1.0, 0.30), _priced(3, 1.2, 0.10)])
    assert rec.why.count("metis k=3") == 1, rec.why
    assert "best trade-off, metis k=3, also the slowest (1.20x as long), takes" in rec.why


def test_ties_do_not_chain(monkeypatch):
    """The playground's pick was 2.3% slower than a setting it called within 2%: a tie with a
    tie. The pick ties with the fastest of all settings, dominated ones included."""
    import graphpart.recommend as module

    monkeypatch.setattr(module, "_replication", lambda r: 2.0)
    x, y, z = _priced(2, 1.000, 0.30), _priced(3, 1.025, 0.20), _priced(4, 1.05, 0.10)
    rec = recommend([x, y, z])
    # z ties with y, y with x, but z is 5% slower than x: the pick is y
    assert rec.fastest is x and rec.best is y and "takes 2.5% longer" in rec.why


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(1.0, 1.2), st.floats(0.0, 1.0)), min_size=1, max_size=8))
def test_the_pick_ties_with_the_fastest_and_nothing_beats_it(figures):
    import graphpart.recommend as module

    saved, module._replication = module._replication, lambda r: 2.0
    try:
        results = [_priced(k + 2, e, cut) for k, (e, cut) in enumerate(figures)]
        rec = recommend(results)
    finally:
        module._replication = saved
    fastest = min(e for e, _ in figures)
    assert rec.fastest.epoch_s == fastest and rec.best.epoch_s <= fastest * (1 + TIE)
    assert not any(
        r.epoch_s <= rec.best.epoch_s * (1 + TIE)
        and r.edge_cut_fraction < rec.best.edge_cut_fraction
        and r.epoch_s <= fastest * (1 + TIE)
        for r in results
    )
    assert rec.best.setting.label not in rec.dominated


def test_break_even_is_the_extra_partitioning_time_over_the_epoch_time_saved():
    from types import SimpleNamespace as R

    from graphpart.errors import GraphpartError
    from graphpart.recommend import break_even

    assert break_even(R(seconds=3.0, epoch_s=1.0), R(seconds=1.0, epoch_s=1.5)) == 4.0
    assert break_even(R(seconds=1.0, epoch_s=1.0), R(seconds=2.0, epoch_s=1.5)) == 0.0
    assert break_even(R(seconds=3.0, epoch_s=1.5), R(seconds=1.0, epoch_s=1.5)) is None
    # quicker to partition but slower per epoch: ahead at first, behind for good later (an
    # audit saw notebook 08 print "ahead after 0.0 epochs" for such a setting)
    assert break_even(R(seconds=0.5, epoch_s=1.6), R(seconds=1.0, epoch_s=1.5)) is None
    with pytest.raises(GraphpartError, match="epoch estimates"):
        break_even(R(seconds=1.0, epoch_s=None), R(seconds=1.0, epoch_s=1.0))

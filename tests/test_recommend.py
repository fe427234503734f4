"""recommend: the Pareto set over (epoch, cut, replication), the winner and why (issue 31)."""

from __future__ import annotations

import pytest

import graphpart as gp
from graphpart.recommend import TIE, recommend
from graphpart.sweep import grid, sweep
from graphpart.training import TrainingSetup

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
            assert not (
                fb[0] <= fa[0] * (1 - TIE) and fb[1] <= fa[1] and fb[2] <= fa[2] and fb != fa
            ), (a.setting.label, label)
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
    assert rec.best is low_cut  # 1.5% slower: a tie, won on cut
    assert "metis k=3 is estimated 1.5% faster" in rec.why
    assert "within the model's 2%, but cuts 28.0% of edges" in rec.why
    assert "is estimated" not in recommend([low_cut, _priced(4, 1.5e-3, 0.3)]).why

"""recommend: the Pareto set over (epoch, cut, replication), the winner and why (issue 31)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.datasets import sbm
from graphpart.recommend import TIE, recommend
from graphpart.sweep import grid, sweep
from graphpart.training import TrainingSetup


@pytest.fixture(scope="module")
def results():
    """Notebook 08's graph: the train nodes concentrated in two of eight communities."""
    g = sbm([300] * 8, 0.03, 0.001, seed=0)
    rng = np.random.default_rng(0)
    train = np.zeros(g.num_nodes(), bool)
    train[:600] = rng.random(600) < 0.5
    train[600:] = rng.random(1800) < 0.05
    g.ndata["train_mask"] = torch.from_numpy(train)
    setup = TrainingSetup(fanouts=(10, 5), batch_size=64, num_trainers_per_machine=2)
    settings = grid(method=["random", "metis"], num_parts=4, balance=["none", "train_mask"])
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
    res = sweep(gp.datasets.load_karate_club(), grid(method="metis", num_parts=2))
    with pytest.raises(gp.GraphpartError, match="training=TrainingSetup"):
        recommend(res)
    with pytest.raises(gp.GraphpartError, match="results of graphpart.sweep.sweep"):
        recommend([])

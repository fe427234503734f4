"""Balance figures at trainer level (issue 31): a bar per trainer, machines told apart."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

import graphpart as gp  # noqa: E402
from graphpart.datasets import sbm  # noqa: E402
from graphpart.viz import plot_balance  # noqa: E402


@pytest.fixture(scope="module")
def two_trainers():
    g = sbm([200] * 3, 0.05, 0.003, seed=0)
    g.ndata["train_mask"] = torch.from_numpy(np.random.default_rng(0).random(600) < 0.3)
    return gp.partition(g, 3, balance_ntypes="train_mask", num_trainers_per_machine=2, seed=0)


def test_a_trainer_level_figure_has_a_bar_per_trainer(two_trainers):
    ax = plot_balance(two_trainers, level="trainer", quantities=["nodes", "train nodes"])
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "0.0",
        "0.1",
        "1.0",
        "1.1",
        "2.0",
        "2.1",
    ]
    assert len(ax.patches) == 2 * 6 and "6 trainers on 3 machines" in ax.get_title()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    ratio = two_trainers.metrics.trainer_balance["train nodes"]
    assert f"train nodes (max/mean {ratio:.3f})" in legend


def test_the_trainer_level_is_read_back_from_disk(two_trainers, tmp_path):
    gp.storage.save_partitions(two_trainers, "g", tmp_path / "o")
    ax = plot_balance(tmp_path / "o" / "g.json", level="trainer", quantities=["in-degree"])
    assert len(ax.patches) == 6


def test_one_trainer_per_machine_has_no_trainer_level():
    p = gp.partition(sbm([50, 50], 0.1, 0.01, seed=0), 2, seed=0)
    with pytest.raises(gp.GraphpartError, match="one trainer per machine"):
        plot_balance(p, level="trainer")
    with pytest.raises(gp.GraphpartError, match="level must be one of"):
        plot_balance(p, level="gpu")

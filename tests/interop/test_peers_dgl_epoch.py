"""graphpart's epoch replay against real DGL 2.1: the seeds every trainer gets.

DGL's own ``node_split`` (run in the peer venv over graphpart's DGL-format files, see
``peer/dgl_node_split.py``) must give every trainer exactly the seeds graphpart's
:func:`graphpart.training.node_split` gives it: force_even on and off, one and two trainers per
machine, random within a machine and by the files' trainer ids, with the training nodes balanced
and unbalanced across machines.
"""

from __future__ import annotations

import numpy as np
import pytest

import graphpart as gp
from graphpart.datasets import sbm
from graphpart.training import node_split, train_set

from .peers import load_dump, run_peer


def _graph(skewed: bool):
    g = sbm([60, 60, 60, 60], 0.2, 0.01, seed=3)
    rng = np.random.default_rng(0)
    mask = rng.random(240) < (np.r_[np.full(60, 0.8), np.full(180, 0.1)] if skewed else 0.3)
    g.ndata["train_mask"] = mask
    g.ndata["feat"] = np.zeros((240, 2), np.float32)
    return g


@pytest.mark.parametrize("skewed", [False, True], ids=["even-mask", "skewed-mask"])
@pytest.mark.parametrize("trainers", [1, 2, 3])
def test_every_trainer_gets_the_seeds_dgls_node_split_gives_it(tmp_path, trainers, skewed):
    g = _graph(skewed)
    gp.partition_graph(
        g, "g", 2, tmp_path / "p", format="dgl", num_trainers_per_machine=trainers, seed=0
    )
    config = tmp_path / "p" / "g.json"
    run_peer("dgl_node_split.py", config, tmp_path / "out.npz", trainers, timeout=300)
    got = load_dump(tmp_path / "out.npz")
    ts = train_set(gp.storage.open_partitioning(config))
    modes = {"even": {}, "local": {"force_even": False}}
    if trainers > 1:
        modes["by_trainer"] = {"by_trainer_id": True}
    for mode, kwargs in modes.items():
        ours = node_split(ts, trainers, **kwargs)
        for rank, seeds in enumerate(ours):
            assert np.array_equal(seeds, got[f"{mode}/r{rank}"]), (mode, rank)
    if skewed:  # the check means something: force_even hands some machine remote seeds
        owner = gp.storage.open_partitioning(config).shuffle.node_part()
        even = node_split(ts, trainers)
        assert any((owner[s] != r // trainers).any() for r, s in enumerate(even))

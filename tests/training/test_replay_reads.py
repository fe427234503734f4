"""A trainer's reads node by node add up to the replay's counts, and recording changes none."""

from __future__ import annotations

import numpy as np
import pytest

import graphpart as gp
from graphpart.datasets import sbm
from graphpart.errors import GraphpartError
from graphpart.training import replay_epochs


@pytest.fixture(scope="module")
def p():
    g = sbm(block_sizes=[80] * 3, p_in=0.08, p_out=0.01, seed=0)
    return gp.partition(g, 3, seed=0)


@pytest.mark.parametrize("cache", [None, "lru"])
@pytest.mark.parametrize("trainer", [0, 3, 5])
def test_reads_add_up_to_the_counts_of_that_trainer(p, cache, trainer):
    kw = dict(batch_size=16, train=None, num_trainers_per_machine=2, epochs=2, seed=0,
              cache=cache, cache_ratio=0.1)  # fmt: skip
    plain = replay_epochs(p, fanouts=[4, 3], **kw)
    c = replay_epochs(p, fanouts=[4, 3], record_trainer=trainer, **kw)
    for f in plain.step:  # recording changes no count
        assert np.array_equal(plain.step[f], c.step[f])
    r = c.reads
    assert (r.trainer, r.machine) == (trainer, trainer // 2)
    assert np.array_equal(r.seeds, c.seeds[trainer])
    assert r.reads.sum() == c.step["inputs"][:, trainer].sum()
    assert r.fetched.sum() == c.step["inputs_remote"][:, trainer].sum()
    assert (r.reads[r.seeds] >= 2).all()  # a seed is an input of its own batch every epoch
    owner = p.shuffle.node_part()
    assert (r.fetched[owner == r.machine] == 0).all()
    assert plain.reads is None


def test_a_trainer_past_the_last_is_refused(p):
    with pytest.raises(GraphpartError, match="record_trainer"):
        replay_epochs(p, fanouts=[4], train=None, record_trainer=3)

"""LookupSession: one cache per policy, fed batch by batch by a NeighborLoader."""

from __future__ import annotations

import pytest

from graphpart.datasets import rmat
from graphpart.features import LookupSession
from graphpart.sampling import Topology


@pytest.fixture(scope="module")
def topo():
    return Topology.from_graph(rmat(12, edge_factor=8, seed=0))


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_a_random_cache_does_not_hold_the_next_batches_seeds(topo, seed):
    # every node a seed: the loader's shuffle is a permutation of all ids, as the random order is
    s = LookupSession(topo, [5, 5], policies=["random"], cache_ratio=0.1, batch_size=64, seed=seed)
    s.step(8)
    cached = s.caches["random"]
    first = next(iter(s.loader)).seeds  # a fresh pass starts with the same shuffle
    assert (cached.slot_of[first] >= 0).float().mean() < 0.3  # not every seed (it was 100%)
    assert s.hit_rates()["random"] == pytest.approx(0.1, abs=0.04)  # the cache ratio


def test_policies_and_batches(topo):
    s = LookupSession(topo, [5], policies=["in-degree", "random", "lru"], batch_size=64)
    assert s.step(3) == 3 and s.num_batches == 3
    rates = s.hit_rates()
    assert list(rates) == ["in-degree", "random", "lru"]
    assert rates["in-degree"] > 2 * rates["random"]  # R-MAT's hubs are in every sample

"""A lookup session: mini-batches streamed one at a time through several caches at once.

What :class:`~graphpart.widgets.CacheSimulator` shows, as plain computation:
each :meth:`LookupSession.step` samples the next mini-batch and looks its
nodes up in every cache, so hit rates grow batch by batch. Oracles need the
whole run in advance and are not streamed (see :func:`hit_rate_table`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from ..errors import GraphpartError
from ..sampling import MiniBatch, NeighborLoader, Topology
from ..typing import IdArray, Seed
from .caches import DYNAMIC_POLICIES, Cache, StaticCache, make_cache
from .orderings import hotness_order, node_degree, presample_order, random_order
from .partition import HALO, INNER, REMOTE, PartitionAccess, node_locality
from .simulate import CacheRun, capacity_for

__all__ = ["LookupSession", "STREAM_POLICIES", "StaticReason", "LastBatch"]

#: Policies a session can stream: static orderings, then dynamic caches.
STREAM_POLICIES = ("random", "in-degree", "out-degree", "presample", *DYNAMIC_POLICIES)


@dataclass(frozen=True)
class StaticReason:
    """Why a static cache holds what it holds: the score its order ranks nodes by
    (``score_name``: ``"in-degree"``, ``"out-degree"``, ``"pre-sampling lookups"``, or
    ``"random draw"`` with no score) and every node's ``rank`` in that order (0: hottest); the
    cache keeps the ranks below its capacity.

    Attributes
    ----------
    score_name : str
        What the order ranks by.
    score : Tensor or None
        One score per node (degrees or pre-sampling lookup counts); ``None`` for the random order.
    rank : Tensor
        int64, every node's position in the order, 0 for the hottest.
    """

    score_name: str
    score: torch.Tensor | None
    rank: torch.Tensor


@dataclass(frozen=True)
class LastBatch:
    """The latest mini-batch looked up: its ``sample``, each policy's hit mask over
    ``sample.input_nodes``, the batch each of those nodes was last looked up in before (``-1``:
    never) and, for each dynamic policy, the batch its cache last admitted the node in before
    (``-1``: never) and whether it admitted the node now: why it did or did not hold it.

    Attributes
    ----------
    index : int
        The batch's number in the session, from 0.
    sample : MiniBatch
        The sampled mini-batch; its ``input_nodes`` are the ids looked up.
    hit : dict of str to Tensor
        Policy to a boolean mask over ``sample.input_nodes``: found in that policy's cache.
    seen_before : Tensor
        int64, per input node: the last earlier batch that looked it up, ``-1`` if none.
    admitted_before : dict of str to Tensor
        Dynamic policy to int64, per input node: the last earlier batch in which its cache
        admitted the node, ``-1`` if none.
    admitted : dict of str to Tensor
        Dynamic policy to a boolean mask over ``sample.input_nodes``: missed and admitted by this
        batch.
    """

    index: int
    sample: MiniBatch
    hit: dict[str, torch.Tensor]
    seen_before: torch.Tensor
    admitted_before: dict[str, torch.Tensor]
    admitted: dict[str, torch.Tensor]


class LookupSession:
    """Stream mini-batches of ``topo`` through one cache per policy.

    Parameters
    ----------
    topo : Topology
    fanouts : sequence of int
    policies : sequence of str
        From :data:`STREAM_POLICIES`.
    cache_ratio : float
        Each cache holds this share of all rows.
    batch_size : int
    seeds : ids, mask or None
        Training nodes (``None``: all).
    partitioning, part_id :
        Sample one trainer's seeds and count where its lookups land.
    presample_epochs : int
        Epochs of pre-sampling behind the ``presample`` ordering (and to warm nothing else).
    seed : int, numpy.random.Generator or None

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> topo = Topology.from_graph(load_karate_club())
    >>> s = LookupSession(topo, [3, 3], policies=["in-degree", "lru"], cache_ratio=0.2,
    ...                   batch_size=4, seed=0)
    >>> s.step(3)
    3
    >>> sorted(s.hit_rates()), len(s.lookups)
    (['in-degree', 'lru'], 3)
    """

    def __init__(
        self,
        topo: Topology,
        fanouts: Sequence[int],
        *,
        policies: Sequence[str] = ("in-degree", "lru"),
        cache_ratio: float = 0.1,
        batch_size: int = 1024,
        seeds: IdArray | None = None,
        partitioning=None,
        part_id: int | None = None,
        presample_epochs: int = 1,
        seed: Seed = 0,
    ) -> None:
        bad = [p for p in policies if p not in STREAM_POLICIES]
        if bad or not policies:
            raise GraphpartError(
                f"policies must be a non-empty selection of {list(STREAM_POLICIES)}, got "
                f"{list(policies)}"
            )
        self.topo = topo
        self.loader = NeighborLoader(
            topo,
            fanouts,
            seeds=seeds,
            batch_size=batch_size,
            seed=seed,
            partitioning=partitioning,
            part_id=part_id,
        )
        self.capacity = capacity_for(cache_ratio, topo.num_nodes)
        self.cache_ratio = cache_ratio
        self.reasons: dict[str, StaticReason] = {}  # the static policies'
        self.caches: dict[str, Cache] = {
            p: self._cache(p, presample_epochs, seed) for p in dict.fromkeys(policies)
        }
        self.locality = node_locality(partitioning, part_id) if partitioning is not None else None
        self.rule = "dgl"  # which rows the machine holds: DGL's (features.locality), as training
        self.part_id = part_id
        self.lookups: list[int] = []
        self.hits: dict[str, list[int]] = {p: [] for p in self.caches}
        self.where: list[np.ndarray] = []  # inner, HALO, remote per batch
        self.epochs: list[int] = []
        self.epoch, self._batches = 0, iter(self.loader)
        self.last: LastBatch | None = None
        self._last_seen = torch.full((topo.num_nodes,), -1, dtype=torch.int64)
        self._admitted_at = {  # a dynamic cache's last admission of each node
            p: torch.full((topo.num_nodes,), -1, dtype=torch.int64)
            for p in self.caches
            if p in DYNAMIC_POLICIES
        }

    def _cache(self, policy: str, presample_epochs: int, seed: Seed) -> Cache:
        n = self.topo.num_nodes
        if policy in DYNAMIC_POLICIES:
            return make_cache(policy, n, self.capacity)
        score = None
        if policy == "random":
            # its own stream: with the loader's seed, the order would be the loader's shuffle, and
            # the cache would hold exactly the seeds of the next batches
            order, name = random_order(n, _other(seed, stream=2)), "random draw"
        elif policy == "presample":
            pre = NeighborLoader(
                self.topo,
                self.loader.fanouts,
                seeds=self.loader.seeds,
                batch_size=self.loader.batch_size,
                seed=_other(seed),
            )
            order, trace = presample_order(pre, presample_epochs)
            score, name = trace.counts(), "pre-sampling lookups"
        else:
            score, name = node_degree(self.topo, policy.split("-")[0]), policy
            order = hotness_order(score)
        rank = torch.empty(n, dtype=torch.int64)
        rank[order] = torch.arange(n)
        self.reasons[policy] = StaticReason(name, score, rank)
        return StaticCache(order, self.capacity)

    @property
    def num_batches(self) -> int:
        return len(self.lookups)

    def step(self, n: int = 1) -> int:
        """Sample and look up ``n`` more mini-batches (epochs roll over); returns how many ran."""
        if len(self.loader) == 0:
            return 0
        for _ in range(n):
            mb = next(self._batches, None)
            if mb is None:
                self.epoch += 1
                self._batches = iter(self.loader)
                mb = next(self._batches)
            ids = mb.input_nodes
            self.lookups.append(len(ids))
            self.epochs.append(self.epoch)
            index = len(self.lookups) - 1
            hit, admitted, before = {}, {}, {}
            for p, cache in self.caches.items():
                h, _, miss_slots = cache.access(ids)
                hit[p] = h
                self.hits[p].append(int(h.sum()))
                if p in self._admitted_at:
                    now = torch.zeros(len(ids), dtype=torch.bool)
                    now[~h] = miss_slots >= 0
                    before[p] = self._admitted_at[p][ids].clone()
                    admitted[p] = now
                    self._admitted_at[p][ids[now]] = index
            self.last = LastBatch(index, mb, hit, self._last_seen[ids].clone(), before, admitted)
            self._last_seen[ids] = index
            if self.locality is not None:
                self.where.append(torch.bincount(self.locality[ids], minlength=3).numpy())
        return n

    def hit_rates(self) -> dict[str, float]:
        total = max(sum(self.lookups), 1)
        return {p: sum(h) / total for p, h in self.hits.items()}

    def runs(self) -> list[CacheRun]:
        """One :class:`CacheRun` per policy, over the batches so far."""
        lookups, epochs = (
            np.asarray(self.lookups, dtype=np.int64),
            np.asarray(self.epochs, dtype=np.int64),
        )
        return [
            CacheRun(p, self.capacity, lookups, np.asarray(h, dtype=np.int64), epochs)
            for p, h in self.hits.items()
        ]

    def access(self) -> PartitionAccess | None:
        """Where this trainer's lookups so far landed (``None`` without a partitioning)."""
        if self.locality is None:
            return None
        w = np.asarray(self.where, dtype=np.int64).reshape(-1, 3)
        return PartitionAccess(  # no remote cache in a session
            self.part_id,
            w[:, INNER],
            w[:, HALO],
            w[:, REMOTE],
            np.zeros(len(w), np.int64),
            0,
            self.rule,
        )


def _other(seed: Seed, stream: int = 1) -> Seed:
    """A seed for another random stream than the measured run's (1: pre-sampling, 2: the random
    order); a Generator is shared, each draw moving it on."""
    from ..utils.seeds import check_random_state

    if isinstance(seed, np.random.Generator):
        return seed
    return int(check_random_state(seed).integers(2**31, size=stream)[-1])

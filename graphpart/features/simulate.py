"""Replay a trace through a cache and count hits per batch; compare policies across cache sizes."""

from __future__ import annotations

import numbers
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from ..errors import GraphpartError
from ..utils.check import short_repr
from ..utils.report import Report
from .caches import DYNAMIC_POLICIES, Cache, StaticCache, make_cache
from .oracles import BeladyCache, oracle_order
from .trace import Trace

__all__ = ["CacheRun", "simulate", "capacity_for", "HitRateTable", "hit_rate_table"]


@dataclass(frozen=True)
class CacheRun:
    """Hits of one cache over a trace, batch by batch.

    Attributes
    ----------
    policy : str
    capacity : int
    lookups, hits : ndarray
        Per batch.
    epochs : ndarray
        Epoch of each batch.
    seconds : float
        Wall time of the replay.
    """

    policy: str
    capacity: int
    lookups: np.ndarray
    hits: np.ndarray
    epochs: np.ndarray
    seconds: float = 0.0

    @property
    def hit_rate(self) -> float:
        total = int(self.lookups.sum())
        return int(self.hits.sum()) / total if total else 0.0

    def batch_hit_rate(self) -> np.ndarray:
        return self.hits / np.maximum(self.lookups, 1)

    def running_hit_rate(self) -> np.ndarray:
        """Hit rate over all batches so far, after each batch."""
        return np.cumsum(self.hits) / np.maximum(np.cumsum(self.lookups), 1)

    def misses_per_epoch(self) -> np.ndarray:
        n = int(self.epochs.max()) + 1 if len(self.epochs) else 0
        return np.bincount(self.epochs, weights=self.lookups - self.hits, minlength=n)

    def bytes_per_epoch(self, row_bytes: int) -> np.ndarray:
        """Bytes copied from the cold (host) part per epoch: one row per miss."""
        return self.misses_per_epoch() * row_bytes

    @property
    def lookups_per_second(self) -> float:
        return float(self.lookups.sum()) / self.seconds if self.seconds > 0 else float("inf")


def simulate(trace: Trace, cache: Cache, policy: str | None = None) -> CacheRun:
    """Replay every batch of ``trace`` through ``cache`` (which it changes) and count the hits.

    Parameters
    ----------
    trace : Trace
        The lookups, batch after batch.
    cache : Cache
        Any cache over ``trace.num_nodes`` nodes, in whatever state it is; it is left in the
        state after the last batch.
    policy : str, optional
        The run's label; ``None``: the cache's ``name``.

    Returns
    -------
    CacheRun
        Lookups and hits per batch, each batch's epoch, and the wall time of the replay.

    Raises
    ------
    GraphpartError
        When the cache and the trace cover different numbers of nodes.

    Examples
    --------
    >>> from graphpart.features import LRUCache
    >>> t = Trace.from_batches([[0, 1], [1, 2], [0, 1]], num_nodes=3)
    >>> run = simulate(t, LRUCache(3, 2))
    >>> run.hits.tolist(), run.hit_rate
    ([0, 1, 1], 0.333...)
    """
    if cache.num_nodes != trace.num_nodes:
        raise GraphpartError(
            f"the cache covers {cache.num_nodes} nodes, the trace {trace.num_nodes}"
        )
    hits = np.zeros(trace.num_batches, dtype=np.int64)
    off = trace.offsets.tolist()
    start = time.perf_counter()
    for i in range(trace.num_batches):
        hit, _, _ = cache.access(trace.ids[off[i] : off[i + 1]])
        hits[i] = int(hit.sum())
    seconds = time.perf_counter() - start
    return CacheRun(
        policy or cache.name,
        cache.capacity,
        trace.batch_sizes().numpy(),
        hits,
        trace.epochs.numpy(),
        seconds,
    )


def capacity_for(ratio: float, num_nodes: int) -> int:
    """Rows a cache of ``ratio`` (a share of all rows, in [0, 1]) holds.

    Parameters
    ----------
    ratio : float
        Share of all rows, a real number in [0, 1] (``bool`` is refused).
    num_nodes : int
        Rows in all.

    Returns
    -------
    int
        ``ratio * num_nodes`` rounded to the nearest integer (Python's ``round``: a half goes
        to the even neighbour).

    Raises
    ------
    GraphpartError
        When ``ratio`` is not a number in [0, 1].
    """
    if isinstance(ratio, bool) or not (isinstance(ratio, numbers.Real) and 0.0 <= ratio <= 1.0):
        raise GraphpartError(f"a cache ratio must be a number in [0, 1], got {short_repr(ratio)}")
    return int(round(ratio * num_nodes))


@dataclass(frozen=True, repr=False)
class HitRateTable:
    """Hit rate of every policy at every cache ratio (``rates[policy][i]`` for ``ratios[i]``).

    Attributes
    ----------
    ratios : tuple of float
        The cache sizes, as shares of all rows.
    rates : dict of str to ndarray
        Policy to its hit rate at each ratio (0 to 1), in the order policies were run.
    kinds : dict of str to str
        Policy to ``"static"``, ``"dynamic"`` or ``"oracle"``.
    runs : dict of str to list of CacheRun
        Policy to its replay at each ratio.
    """

    ratios: tuple[float, ...]
    rates: dict[str, np.ndarray]
    kinds: dict[str, str]  # policy -> "static", "dynamic" or "oracle"
    runs: dict[str, list[CacheRun]]

    def report(self) -> Report:
        """Policies as rows, cache ratios as columns, hit rates in percent."""
        cols = {
            f"{r:.0%}": [f"{self.rates[p][i]:.1%}" for p in self.rates]
            for i, r in enumerate(self.ratios)
        }
        cols["kind"] = [self.kinds[p] for p in self.rates]
        return Report("hit rate by cache ratio", cols, {}, index="policy", labels=list(self.rates))

    def __repr__(self) -> str:
        return str(self.report())

    def _repr_html_(self) -> str:
        return self.report()._repr_html_()


def hit_rate_table(
    trace: Trace,
    ratios: Sequence[float],
    orders: Mapping[str, torch.Tensor] | None = None,
    dynamic: Sequence[str] = tuple(DYNAMIC_POLICIES),
    oracles: bool = True,
    warmup: Trace | None = None,
) -> HitRateTable:
    """Replay ``trace`` through every static ordering in ``orders``, every ``dynamic`` policy and
    the oracles.

    ``warmup`` batches (e.g. the pre-sampling epochs) run through each dynamic
    cache before the measured trace, so they start warm, as in training.

    Parameters
    ----------
    trace : Trace
        The measured lookups.
    ratios : sequence of float
        Cache sizes, as shares of all rows in [0, 1].
    orders : mapping of str to Tensor, optional
        Name to a permutation of node ids, hot first: each is replayed as a
        :class:`~graphpart.features.caches.StaticCache`.
    dynamic : sequence of str, default every key of ``DYNAMIC_POLICIES``
        Dynamic policies to replay (see :func:`~graphpart.features.caches.make_cache`).
    oracles : bool, default True
        Also replay ``"oracle"`` (the static order by ``trace``'s own counts, unless ``orders``
        already has that name) and ``"belady"`` (:class:`~graphpart.features.oracles.BeladyCache`).
    warmup : Trace, optional
        Batches run through each dynamic cache, uncounted, before ``trace``; static caches and
        Belady do not see them.

    Returns
    -------
    HitRateTable
        Every policy's hit rate at every ratio, with the runs behind them.

    Raises
    ------
    GraphpartError
        When a ratio is not in [0, 1] or a dynamic policy is unknown.
    """
    orders = dict(orders or {})
    rates: dict[str, list[float]] = {}
    runs: dict[str, list[CacheRun]] = {}
    kinds: dict[str, str] = {}
    n = trace.num_nodes
    if oracles:
        orders.setdefault("oracle", oracle_order(trace))
    for ratio in ratios:
        cap = capacity_for(ratio, n)
        caches: dict[str, tuple[str, Cache]] = {}
        for name, order in orders.items():
            caches[name] = ("oracle" if name == "oracle" else "static", StaticCache(order, cap))
        for name in dynamic:
            cache = make_cache(name, n, cap)
            if warmup is not None:
                simulate(warmup, cache)
            caches[name] = ("dynamic", cache)
        if oracles:
            caches["belady"] = ("oracle", BeladyCache(trace, cap))
        for name, (kind, cache) in caches.items():
            run = simulate(trace, cache, name)
            rates.setdefault(name, []).append(run.hit_rate)
            runs.setdefault(name, []).append(run)
            kinds[name] = kind
    return HitRateTable(tuple(ratios), {k: np.array(v) for k, v in rates.items()}, kinds, runs)

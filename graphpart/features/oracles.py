"""Upper bounds that know the whole trace: the static optimum and Belady's replacement.

* :func:`oracle_order` orders nodes by their true access count over the
  trace; its first ``k`` are the best fixed cache of ``k`` rows for that trace
  (each hit is one access of a cached node, so no other set of ``k`` scores more).
* :class:`BeladyCache` keeps, after every batch, the ``capacity`` nodes (among
  what it held and what the batch fetched) whose next use is soonest, and
  starts warm with the nodes used first. Any cache whose content after a batch
  comes from its previous content and that batch, whatever it held at the
  start (every policy here, static ones included), scores at most as many hits.
"""

from __future__ import annotations

import torch

from ..errors import GraphpartError
from .caches import Cache
from .trace import Trace

__all__ = ["oracle_order", "hotness_order", "BeladyCache"]


def hotness_order(counts: torch.Tensor) -> torch.Tensor:
    """Node ids by decreasing ``counts`` (ties: smaller id first).

    Parameters
    ----------
    counts : Tensor, ndarray or sequence of numbers
        One score per node (access counts, degrees), indexed by node id.

    Returns
    -------
    Tensor
        The int64 permutation of ``0 .. len(counts) - 1``, hottest first.

    Examples
    --------
    >>> hotness_order(torch.tensor([1, 5, 0, 5])).tolist()
    [1, 3, 0, 2]
    """
    return torch.sort(torch.as_tensor(counts), descending=True, stable=True).indices


def oracle_order(trace: Trace) -> torch.Tensor:
    """The static optimum's order: nodes by their access count over ``trace``.

    Parameters
    ----------
    trace : Trace
        The lookups to rank nodes by (the measured run itself: an upper bound).

    Returns
    -------
    Tensor
        The int64 permutation of the ``trace.num_nodes`` node ids, most accessed first (ties:
        smaller id first); its first ``k`` are the best static cache of ``k`` rows for ``trace``.
    """
    return hotness_order(trace.counts())


def next_use(trace: Trace) -> torch.Tensor:
    """For every trace entry, the batch where its node is looked up next (``num_batches``: never).

    Parameters
    ----------
    trace : Trace
        The lookups, batch after batch.

    Returns
    -------
    Tensor
        int64, one entry per entry of ``trace.ids`` (length ``trace.num_lookups``): the index of
        the next batch that looks up the same node, or ``trace.num_batches`` when none does.

    Examples
    --------
    >>> next_use(Trace.from_batches([[0, 1], [1], [0]], 2)).tolist()
    [2, 1, 3, 3]
    """
    order = torch.sort(trace.ids, stable=True).indices  # by node, then batch (the trace's order)
    batch = trace.batch_index()[order]
    node = trace.ids[order]
    nxt = torch.full((trace.num_lookups,), trace.num_batches, dtype=torch.int64)
    same = node[1:] == node[:-1]
    nxt[order[:-1][same]] = batch[1:][same]
    return nxt


class BeladyCache(Cache):
    """Belady's optimal replacement (with bypass) for the batches of ``trace``, replayed in order.

    After each batch it keeps the ``capacity`` nodes, among those it held and those the batch
    missed, whose next use is soonest; a missed node that is never used again is not admitted.

    Parameters
    ----------
    trace : Trace
        The run to replay. :meth:`access` must be called with ``trace.batch(0)``,
        ``trace.batch(1)``, ... in order; another batch, or one past the last, raises
        :class:`~graphpart.errors.GraphpartError`.
    capacity : int
        Slots, at most ``trace.num_nodes``.
    warm : bool, default True
        Start with the (at most ``capacity``) nodes whose first use comes soonest; ``False``:
        start empty.

    Examples
    --------
    >>> t = Trace.from_batches([[0, 1], [2], [0], [1]], 3)
    >>> c = BeladyCache(t, capacity=1)
    >>> # node 0 or node 1 can be kept, not both
    >>> [int(c.access(t.batch(i))[0].sum()) for i in range(4)]
    [1, 0, 1, 0]
    """

    name = "belady"

    def __init__(self, trace: Trace, capacity: int, warm: bool = True) -> None:
        super().__init__(trace.num_nodes, capacity)
        self.trace = trace
        self._next = next_use(trace)
        self.never = never = trace.num_batches
        self.nxt = torch.full(
            (self.capacity,), never, dtype=torch.int64
        )  # next use of each slot's node
        self.step = 0
        if warm and self.capacity:
            first = torch.full((self.num_nodes,), never, dtype=torch.int64)
            first.scatter_reduce_(0, trace.ids, trace.batch_index(), "amin")
            k = min(self.capacity, int((first < never).sum()))
            if k:
                hot = torch.nonzero(_soonest_mask(first, k, never)).reshape(-1)
                self._place(torch.arange(k), hot, first[hot])
                self.size = k

    def _place(self, slots: torch.Tensor, nodes: torch.Tensor, nxt: torch.Tensor) -> None:
        self.node_in[slots] = nodes
        self.slot_of[nodes] = slots
        self.nxt[slots] = nxt

    def access(self, ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        if self.step >= self.trace.num_batches:
            raise GraphpartError(
                f"BeladyCache replays its trace's {self.trace.num_batches} batches; "
                "it was asked for one more"
            )
        a, b = int(self.trace.offsets[self.step]), int(self.trace.offsets[self.step + 1])
        if not torch.equal(ids, self.trace.ids[a:b]):
            raise GraphpartError(
                f"BeladyCache: batch {self.step} differs from the trace it was built on"
            )
        self.step += 1
        nxt = self._next[a:b]
        slots = self.slot_of[ids]
        hit = slots >= 0
        self.nxt[slots[hit]] = nxt[hit]
        miss_pos = torch.nonzero(~hit).reshape(-1)
        out = torch.full((len(miss_pos),), -1, dtype=torch.int64)
        if self.capacity == 0 or len(miss_pos) == 0:
            return hit, slots, out
        filled = torch.nonzero(self.node_in >= 0).reshape(-1)
        n_in = len(filled)
        cand = torch.cat([self.nxt[filled], nxt[miss_pos]])
        keep = _soonest_mask(cand, min(self.capacity, len(cand)), self.never)
        keep &= cand < self.never  # a node never used again is not worth a slot
        evicted = filled[~keep[:n_in]]
        admitted = torch.nonzero(keep[n_in:]).reshape(-1)
        self.slot_of[self.node_in[evicted]] = -1
        self.node_in[evicted] = -1
        self.nxt[evicted] = self.never
        free = torch.nonzero(self.node_in < 0).reshape(-1)[: len(admitted)]
        self._place(free, ids[miss_pos[admitted]], nxt[miss_pos[admitted]])
        self.size = n_in - len(evicted) + len(admitted)
        out[admitted] = free
        return hit, slots, out


def _soonest_mask(when: torch.Tensor, k: int, never: int) -> torch.Tensor:
    """A mask of ``k`` entries with the smallest ``when`` (batch indices in ``[0, never]``; ties:
    first ones)."""
    count = torch.cumsum(torch.bincount(when, minlength=never + 1), 0)
    if k == 0:
        return torch.zeros(len(when), dtype=torch.bool)
    t = int(torch.searchsorted(count, k))  # the bucket holding the k-th smallest
    below = when < t
    at = torch.nonzero(when == t).reshape(-1)[: k - int(below.sum())]
    below[at] = True
    return below

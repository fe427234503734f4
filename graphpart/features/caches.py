"""Feature caches with a capacity, consulted one mini-batch at a time.

Every cache maps node ids to ``capacity`` slots (``slot_of[node]``, ``-1``
when absent). :meth:`Cache.access` takes one batch of distinct ids: ids
already cached are hits, and the policy marks them used; the misses are then
admitted together, evicting as many victims as the policy chooses. This is a
per-batch (vectorised) form of each policy: within a batch, every access
happens before any eviction, so a batch never evicts what it is using.

=========  ===================================================================
static     a fixed set of hot nodes (an ordering's first ``capacity``); never admits
LRU        evicts the least recently used
FIFO       evicts the oldest admitted (a ring buffer)
CLOCK      a hand sweeps the slots; a used entry gets a second chance, a new one takes its slot
SIEVE      like CLOCK, but new entries join the head of the queue and survivors stay in place
=========  ===================================================================
"""

from __future__ import annotations

import torch

from ..errors import GraphpartError
from ..utils.check import check_count, short_repr
from ..utils.tensors import as_id_tensor

__all__ = [
    "Cache",
    "StaticCache",
    "LRUCache",
    "FIFOCache",
    "ClockCache",
    "SieveCache",
    "DYNAMIC_POLICIES",
    "make_cache",
]


class Cache:
    """Base class: slot bookkeeping shared by every policy (see the module docstring).

    A subclass sets the policy through three hooks: ``_used`` (hits were found),
    ``_victims`` (which slots to evict) and ``_inserted`` (misses were admitted).

    Parameters
    ----------
    num_nodes : int
        Node ids the cache can be asked for: ``0 .. num_nodes - 1``.
    capacity : int
        Slots, from 0 to ``num_nodes``; a cache of capacity 0 never hits and admits nothing.

    Raises
    ------
    GraphpartError
        When either count is not a non-negative integer, or ``capacity`` exceeds
        ``num_nodes``.
    """

    name = "cache"

    def __init__(self, num_nodes: int, capacity: int) -> None:
        self.num_nodes = check_count(num_nodes, "num_nodes")
        self.capacity = check_count(capacity, "capacity")
        if self.capacity > self.num_nodes:
            raise GraphpartError(
                f"capacity ({self.capacity}) cannot exceed the number of nodes ({self.num_nodes})"
            )
        self.slot_of = torch.full((self.num_nodes,), -1, dtype=torch.int64)
        self.node_in = torch.full((self.capacity,), -1, dtype=torch.int64)
        self.size = 0  # slots [0, size) are filled; eviction only happens once full

    def __repr__(self) -> str:
        return f"{type(self).__name__}(capacity={self.capacity}, size={self.size})"

    def cached(self) -> torch.Tensor:
        """The node ids now cached."""
        return self.node_in[self.node_in >= 0].clone()

    def access(self, ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Look up a batch of distinct ``ids``: ``(hit, slots, miss_slots)``.

        ``hit`` is a mask over ``ids``; ``slots[hit]`` are the slots of the
        hits; ``miss_slots[j]`` is the slot the ``j``-th miss was admitted to
        (``-1``: not admitted).
        """
        slots = self.slot_of[ids]
        hit = slots >= 0
        if self.capacity == 0:
            return hit, slots, torch.full((len(ids) - int(hit.sum()),), -1, dtype=torch.int64)
        self._used(slots[hit])
        misses = ids[~hit]
        return hit, slots, self._admit(misses)

    def _admit(self, misses: torch.Tensor) -> torch.Tensor:
        m = len(misses)
        out = torch.full((m,), -1, dtype=torch.int64)
        keep = min(m, self.capacity)  # more misses than slots: the batch's last ones stay
        if keep == 0:
            return out
        new = misses[m - keep :]
        free = min(keep, self.capacity - self.size)
        # victims come from what was cached before this batch, never from slots it fills
        victims = self._victims(keep - free) if keep > free else torch.zeros(0, dtype=torch.int64)
        self.slot_of[self.node_in[victims]] = -1
        slots = torch.cat([torch.arange(self.size, self.size + free), victims])
        self.size += free
        self.node_in[slots] = new
        self.slot_of[new] = slots
        self._inserted(slots)
        out[m - keep :] = slots
        return out

    # policy hooks ---------------------------------------------------------
    def _used(self, slots: torch.Tensor) -> None:
        """Hits were found in ``slots``."""

    def _victims(self, k: int) -> torch.Tensor:
        """``k`` distinct slots among the filled ``[0, size)`` to evict."""
        raise NotImplementedError

    def _inserted(self, slots: torch.Tensor) -> None:
        """New entries were written to ``slots`` (in admission order)."""


class StaticCache(Cache):
    """A fixed set: the first ``capacity`` nodes of ``order`` (hot first); misses are never
    admitted.

    Parameters
    ----------
    order : Tensor, ndarray or sequence of int
        A permutation of the node ids, hot first; its length is the number of nodes. The node at
        position ``i < capacity`` takes slot ``i``.
    capacity : int
        Nodes held, at most ``len(order)``.

    Examples
    --------
    >>> c = StaticCache(torch.tensor([3, 1, 0, 2]), capacity=2)
    >>> hit, slots, _ = c.access(torch.tensor([0, 1, 3]))
    >>> hit.tolist(), slots[hit].tolist()
    ([False, True, True], [1, 0])
    """

    name = "static"

    def __init__(self, order: torch.Tensor, capacity: int) -> None:
        order = as_id_tensor(order, "order")
        super().__init__(len(order), capacity)
        hot = order[: self.capacity]
        self.node_in[:] = hot
        self.slot_of[hot] = torch.arange(self.capacity)
        self.size = self.capacity

    def _admit(self, misses: torch.Tensor) -> torch.Tensor:
        return torch.full((len(misses),), -1, dtype=torch.int64)


def _walk(order, total: int, good, k: int):
    """Walk ``total`` items in ``order(w)`` (its first ``w``) until the ``k``-th ``good`` one.

    Returns ``(items, is_good)`` up to and including it, or ``None`` with the
    whole walk when fewer than ``k`` are good. Windows grow geometrically, so
    a walk that ends early reads little.
    """
    w = min(total, 2 * k + 1024)
    while True:
        items = order(w)
        ok = good(items)
        count = torch.cumsum(ok, 0)
        if w and int(count[-1]) >= k:
            end = int(torch.searchsorted(count, k))
            return items[: end + 1], ok[: end + 1], True
        if w == total:
            return items, ok, False
        w = min(total, 4 * w)


class _Queue:
    """Slots in queue order (oldest first) in a buffer with holes (``-1``), compacted when it
    fills."""

    def __init__(self, capacity: int) -> None:
        self.buf = torch.full((2 * capacity + 16,), -1, dtype=torch.int64)
        self.pos = torch.full((capacity,), -1, dtype=torch.int64)  # where each slot sits in buf
        self.head = self.tail = self.hand = 0

    def push(self, slots: torch.Tensor) -> None:
        m = len(slots)
        if self.tail + m > len(self.buf):
            self._compact(m)
        self.buf[self.tail : self.tail + m] = slots
        self.pos[slots] = torch.arange(self.tail, self.tail + m)
        self.tail += m

    def remove_at(self, positions: torch.Tensor) -> None:
        self.pos[self.buf[positions]] = -1
        self.buf[positions] = -1

    def _compact(self, extra: int) -> None:
        window = self.buf[self.head : self.tail]
        live = window >= 0
        hand = int(live[: max(0, self.hand - self.head)].sum())
        kept = window[live]
        size = max(len(self.buf), 2 * (len(kept) + extra))
        self.buf = torch.full((size,), -1, dtype=torch.int64)
        self.buf[: len(kept)] = kept
        self.pos[kept] = torch.arange(len(kept))
        self.head, self.tail, self.hand = 0, len(kept), hand


class LRUCache(Cache):
    """Least recently used: a queue by last use; a hit moves its entry to the tail, victims leave
    the head.

    Parameters
    ----------
    num_nodes : int
        Node ids the cache can be asked for: ``0 .. num_nodes - 1``.
    capacity : int
        Slots, at most ``num_nodes``. The cache starts empty.
    """

    name = "lru"

    def __init__(self, num_nodes: int, capacity: int) -> None:
        super().__init__(num_nodes, capacity)
        self.queue = _Queue(self.capacity)

    def _used(self, slots: torch.Tensor) -> None:
        self.queue.remove_at(self.queue.pos[slots])
        self.queue.push(slots)

    def _victims(self, k: int) -> torch.Tensor:
        q = self.queue
        items, ok, _ = _walk(
            lambda w: q.buf[q.head : q.head + w], q.tail - q.head, lambda x: x >= 0, k
        )
        victims = items[ok]
        q.remove_at(q.pos[victims])
        q.head += len(items)
        return victims

    def _inserted(self, slots: torch.Tensor) -> None:
        self.queue.push(slots)


class FIFOCache(Cache):
    """First in, first out: slots are a ring, refilled in admission order.

    A hit changes nothing; once the cache is full, each admission takes the slot after the last
    one refilled.

    Parameters
    ----------
    num_nodes : int
        Node ids the cache can be asked for: ``0 .. num_nodes - 1``.
    capacity : int
        Slots, at most ``num_nodes``. The cache starts empty.
    """

    name = "fifo"

    def __init__(self, num_nodes: int, capacity: int) -> None:
        super().__init__(num_nodes, capacity)
        self.head = 0

    def _victims(self, k: int) -> torch.Tensor:
        out = (self.head + torch.arange(k)) % self.capacity
        self.head = (self.head + k) % self.capacity
        return out


def _second_chance(order, total: int, bit: torch.Tensor, k: int) -> tuple[torch.Tensor, int]:
    """A hand meeting the entries ``order(w)`` (slots, ``-1`` for holes): unmarked ones are taken,
    marked
    ones lose their mark. With fewer than ``k`` unmarked, the hand goes all the way round (clearing
    every
    mark) and takes the rest in order. Returns the victims' and the last passed entry's places in
    the walk.
    """
    items, ok, found = _walk(
        order, total, lambda e: (e >= 0) & ~bit[e], k
    )  # a hole reads some bit, masked
    alive = items >= 0
    bit[items[alive]] = False
    if found:
        return torch.nonzero(ok).reshape(-1), len(items) - 1
    first = torch.nonzero(ok).reshape(-1)
    rest = torch.nonzero(alive & ~ok).reshape(-1)[
        : k - len(first)
    ]  # marked before, in the hand's order
    return torch.cat([first, rest]), int(rest[-1])


class ClockCache(Cache):
    """CLOCK (second chance): a hit sets a slot's bit; the hand sweeps slots in ring order.

    Parameters
    ----------
    num_nodes : int
        Node ids the cache can be asked for: ``0 .. num_nodes - 1``.
    capacity : int
        Slots, at most ``num_nodes``. The cache starts empty, every bit clear.
    """

    name = "clock"

    def __init__(self, num_nodes: int, capacity: int) -> None:
        super().__init__(num_nodes, capacity)
        self.ref = torch.zeros(self.capacity, dtype=torch.bool)
        self.hand = 0

    def _used(self, slots: torch.Tensor) -> None:
        self.ref[slots] = True

    def _victims(self, k: int) -> torch.Tensor:
        size = self.size

        def order(w):  # slots from the hand round the ring
            if self.hand + w <= size:
                return torch.arange(self.hand, self.hand + w)
            return torch.cat([torch.arange(self.hand, size), torch.arange(w - (size - self.hand))])

        walk = order(size)
        idx, last = _second_chance(lambda w: walk[:w], size, self.ref, k)
        self.hand = (int(walk[last]) + 1) % self.capacity
        return walk[idx]

    def _inserted(self, slots: torch.Tensor) -> None:
        self.ref[slots] = False


class SieveCache(Cache):
    """SIEVE: entries queue by admission; the hand moves from old to new, survivors keep their
    place.

    Parameters
    ----------
    num_nodes : int
        Node ids the cache can be asked for: ``0 .. num_nodes - 1``.
    capacity : int
        Slots, at most ``num_nodes``. The cache starts empty, no entry visited.
    """

    name = "sieve"

    def __init__(self, num_nodes: int, capacity: int) -> None:
        super().__init__(num_nodes, capacity)
        self.visited = torch.zeros(self.capacity, dtype=torch.bool)
        self.queue = _Queue(self.capacity)

    def _used(self, slots: torch.Tensor) -> None:
        self.visited[slots] = True

    def _victims(self, k: int) -> torch.Tensor:
        q = self.queue
        head, tail, hand = q.head, q.tail, q.hand

        def order(w):  # buffer positions from the hand to the tail, then from the head
            if hand + w <= tail:
                return torch.arange(hand, hand + w)
            return torch.cat(
                [torch.arange(hand, tail), torch.arange(head, head + w - (tail - hand))]
            )

        walk = order(tail - head)
        idx, last = _second_chance(lambda w: q.buf[walk[:w]], tail - head, self.visited, k)
        positions = walk[idx]
        victims = q.buf[positions]
        q.remove_at(positions)
        q.hand = (
            int(walk[last]) + 1
        )  # the next newer entry: an older survivor, or this batch's first admission
        if k == 1 and self.size == self.capacity and not bool((q.buf[q.hand : tail] >= 0).any()):
            q.hand = (
                q.head
            )  # the newest went and the one entry replacing it is not passed: wrap to the oldest
        return victims

    def _inserted(self, slots: torch.Tensor) -> None:
        self.queue.push(slots)
        self.visited[slots] = False


DYNAMIC_POLICIES = {"lru": LRUCache, "fifo": FIFOCache, "clock": ClockCache, "sieve": SieveCache}


def make_cache(policy: str, num_nodes: int, capacity: int) -> Cache:
    """A fresh, empty dynamic cache by name (``"lru"``, ``"fifo"``, ``"clock"``, ``"sieve"``).

    Parameters
    ----------
    policy : {"lru", "fifo", "clock", "sieve"}
        A key of :data:`DYNAMIC_POLICIES`.
    num_nodes : int
        Node ids the cache can be asked for: ``0 .. num_nodes - 1``.
    capacity : int
        Slots, at most ``num_nodes``.

    Returns
    -------
    Cache
        A :class:`LRUCache`, :class:`FIFOCache`, :class:`ClockCache` or :class:`SieveCache`.

    Raises
    ------
    GraphpartError
        When ``policy`` is not one of the four names (or the counts are invalid).
    """
    if policy not in DYNAMIC_POLICIES:
        raise GraphpartError(
            f"policy must be one of {sorted(DYNAMIC_POLICIES)}, got {short_repr(policy)}"
        )
    return DYNAMIC_POLICIES[policy](num_nodes, capacity)

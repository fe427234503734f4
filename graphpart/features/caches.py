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
CLOCK      a hand sweeps the slots; a used entry gets a second chance, a new one takes the victim's slot
SIEVE      like CLOCK, but new entries join the head of the queue and survivors stay in place
=========  ===================================================================
"""

from __future__ import annotations

import torch

from .._check import as_id_tensor, check_count
from ..errors import GraphpartError

__all__ = ["Cache", "StaticCache", "LRUCache", "FIFOCache", "ClockCache", "SieveCache", "DYNAMIC_POLICIES",
           "make_cache"]

_FAR = 2**62  # larger than any stamp or key


class Cache:
    """Base class: slot bookkeeping shared by every policy (see the module docstring)."""

    name = "cache"

    def __init__(self, num_nodes: int, capacity: int) -> None:
        self.num_nodes = check_count(num_nodes, "num_nodes")
        self.capacity = check_count(capacity, "capacity")
        if self.capacity > self.num_nodes:
            raise GraphpartError(f"capacity ({self.capacity}) cannot exceed the number of nodes ({self.num_nodes})")
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
        new = misses[m - keep:]
        free = min(keep, self.capacity - self.size)
        # victims come from what was cached before this batch, never from slots it fills
        victims = self._victims(keep - free) if keep > free else torch.zeros(0, dtype=torch.int64)
        self.slot_of[self.node_in[victims]] = -1
        slots = torch.cat([torch.arange(self.size, self.size + free), victims])
        self.size += free
        self.node_in[slots] = new
        self.slot_of[new] = slots
        self._inserted(slots)
        out[m - keep:] = slots
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
    """A fixed set: the first ``capacity`` nodes of ``order`` (hot first); misses are never admitted.

    >>> c = StaticCache(torch.tensor([3, 1, 0, 2]), capacity=2)
    >>> hit, slots, _ = c.access(torch.tensor([0, 1, 3]))
    >>> hit.tolist(), slots[hit].tolist()
    ([False, True, True], [1, 0])
    """

    name = "static"

    def __init__(self, order: torch.Tensor, capacity: int) -> None:
        order = as_id_tensor(order, "order")
        super().__init__(len(order), capacity)
        hot = order[:self.capacity]
        self.node_in[:] = hot
        self.slot_of[hot] = torch.arange(self.capacity)
        self.size = self.capacity

    def _admit(self, misses: torch.Tensor) -> torch.Tensor:
        return torch.full((len(misses),), -1, dtype=torch.int64)


class LRUCache(Cache):
    """Least recently used: every access stamps its slot; the oldest stamps go first."""

    name = "lru"

    def __init__(self, num_nodes: int, capacity: int) -> None:
        super().__init__(num_nodes, capacity)
        self.stamp = torch.zeros(self.capacity, dtype=torch.int64)
        self.clock = 0

    def _stamp(self, slots: torch.Tensor) -> None:
        self.stamp[slots] = torch.arange(self.clock, self.clock + len(slots))
        self.clock += len(slots)

    _used = _inserted = _stamp

    def _victims(self, k: int) -> torch.Tensor:
        return _smallest(self.stamp[:self.size], k)


class FIFOCache(Cache):
    """First in, first out: slots are a ring, refilled in admission order."""

    name = "fifo"

    def __init__(self, num_nodes: int, capacity: int) -> None:
        super().__init__(num_nodes, capacity)
        self.head = 0

    def _victims(self, k: int) -> torch.Tensor:
        out = (self.head + torch.arange(k)) % self.capacity
        self.head = (self.head + k) % self.capacity
        return out


def _smallest(key: torch.Tensor, k: int, among: torch.Tensor | None = None) -> torch.Tensor:
    """Indices of the ``k`` smallest of distinct ``key`` values (only where ``among``), in no order."""
    vals = key if among is None else key[among]
    threshold = torch.kthvalue(vals, k).values
    mask = key <= threshold
    return torch.nonzero(mask if among is None else mask & among).reshape(-1)


def _sweep(key: torch.Tensor, ref: torch.Tensor, k: int) -> tuple[torch.Tensor, int]:
    """A second-chance hand passing slots in ``key`` order (distinct keys): ``k`` victims, last key passed.

    Unreferenced slots are taken in order; referenced ones the hand passes lose
    their bit. When fewer than ``k`` are unreferenced, the hand goes all the way
    round (clearing every bit) and takes the rest in order again.
    """
    unref = ~ref
    u = int(unref.sum())
    if u >= k:
        victims = _in_order(key, _smallest(key, k, unref))
        last = int(key[victims[-1]])
        ref &= key > last
        return victims, last
    first = _in_order(key, torch.nonzero(unref).reshape(-1))
    was_ref = ref.clone()
    ref.zero_()
    second = _in_order(key, _smallest(key, k - u, was_ref))
    return torch.cat([first, second]), int(key[second[-1]])


def _in_order(key: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    """``idx`` sorted by ``key`` (the order the hand meets them; new entries fill victims in that order)."""
    return idx[torch.argsort(key[idx])]


class ClockCache(Cache):
    """CLOCK (second chance): a hit sets a slot's bit; the hand sweeps slots in ring order."""

    name = "clock"

    def __init__(self, num_nodes: int, capacity: int) -> None:
        super().__init__(num_nodes, capacity)
        self.ref = torch.zeros(self.capacity, dtype=torch.bool)
        self.hand = 0

    def _used(self, slots: torch.Tensor) -> None:
        self.ref[slots] = True

    def _victims(self, k: int) -> torch.Tensor:
        key = (torch.arange(self.size) - self.hand) % self.capacity
        victims, last = _sweep(key, self.ref[:self.size], k)
        self.hand = (self.hand + last + 1) % self.capacity
        return victims

    def _inserted(self, slots: torch.Tensor) -> None:
        self.ref[slots] = False


class SieveCache(Cache):
    """SIEVE: entries queue by admission; the hand moves from old to new, survivors keep their place."""

    name = "sieve"

    def __init__(self, num_nodes: int, capacity: int) -> None:
        super().__init__(num_nodes, capacity)
        self.visited = torch.zeros(self.capacity, dtype=torch.bool)
        self.seq = torch.zeros(self.capacity, dtype=torch.int64)  # admission order: the queue
        self.next_seq = 0
        self.hand = 0  # the hand is at the oldest entry with seq >= hand (wrapping to the oldest)

    def _used(self, slots: torch.Tensor) -> None:
        self.visited[slots] = True

    def _victims(self, k: int) -> torch.Tensor:
        seq = self.seq[:self.size]
        key = torch.where(seq >= self.hand, seq - self.hand, seq - self.hand + _FAR)
        victims, last = _sweep(key, self.visited[:self.size], k)
        last_seq = last + self.hand - (_FAR if last >= _FAR - self.next_seq else 0)
        self.hand = last_seq + 1  # the next newer entry: an older survivor, or this batch's first admission
        if k == 1 and self.size == self.capacity and not bool((seq > last_seq).any()):
            self.hand = 0  # the newest went, and the one entry replacing it is not passed: wrap to the oldest
        return victims

    def _inserted(self, slots: torch.Tensor) -> None:
        self.seq[slots] = torch.arange(self.next_seq, self.next_seq + len(slots))
        self.next_seq += len(slots)
        self.visited[slots] = False


DYNAMIC_POLICIES = {"lru": LRUCache, "fifo": FIFOCache, "clock": ClockCache, "sieve": SieveCache}


def make_cache(policy: str, num_nodes: int, capacity: int) -> Cache:
    """A fresh, empty dynamic cache by name (``"lru"``, ``"fifo"``, ``"clock"``, ``"sieve"``)."""
    if policy not in DYNAMIC_POLICIES:
        raise GraphpartError(f"policy must be one of {sorted(DYNAMIC_POLICIES)}, got {policy!r}")
    return DYNAMIC_POLICIES[policy](num_nodes, capacity)

"""Brute-force, one-access-at-a-time references of the cache policies (per-batch semantics).

Within a batch, hits are marked first; then misses are admitted one by one, in
batch order, the classic way, except that entries admitted in this batch are
never evicted by the same batch (when a batch misses more than the capacity,
only its last ``capacity`` misses are admitted).
"""

from __future__ import annotations

from collections import OrderedDict


def lru(batches, cap):
    cache, hits = OrderedDict(), []
    for b in batches:
        h = [x for x in b if x in cache]
        for x in h:
            cache.move_to_end(x)
        misses = [x for x in b if x not in cache][-cap:] if cap else []
        for x in misses:
            if len(cache) >= cap:
                cache.popitem(last=False)
            cache[x] = True
        hits.append(len(h))
    return hits


def fifo(batches, cap):
    queue, hits = [], []
    for b in batches:
        hits.append(sum(x in queue for x in b))
        for x in [x for x in b if x not in queue][-cap:] if cap else []:
            if len(queue) >= cap:
                queue.pop(0)
            queue.append(x)
    return hits


def clock(batches, cap):
    slots, ref, hand, hits = [], [], 0, []
    for b in batches:
        h = [x for x in b if x in slots]
        for x in h:
            ref[slots.index(x)] = True
        pinned = set()
        for x in [x for x in b if x not in slots][-cap:] if cap else []:
            if len(slots) < cap:
                slots.append(x), ref.append(False)
                pinned.add(len(slots) - 1)
                continue
            while hand in pinned or ref[hand]:
                if hand not in pinned:
                    ref[hand] = False
                hand = (hand + 1) % cap
            slots[hand], ref[hand] = x, False
            pinned.add(hand)
            hand = (hand + 1) % cap
        hits.append(len(h))
    return hits


def sieve(batches, cap):
    queue, visited, hand, hits = [], {}, 0, []  # queue: oldest first; hand: an index into it
    for b in batches:
        h = [x for x in b if x in visited]
        for x in h:
            visited[x] = True
        pinned = set()
        for x in [x for x in b if x not in visited][-cap:] if cap else []:
            if len(queue) >= cap:
                while queue[hand] in pinned or visited[queue[hand]]:
                    if queue[hand] not in pinned:
                        visited[queue[hand]] = False
                    hand = (hand + 1) % len(queue)
                del visited[queue.pop(hand)]
                if hand >= len(queue):
                    hand = 0
            queue.append(x)
            visited[x] = False
            pinned.add(x)
        hits.append(len(h))
    return hits


def best_static(batches, cap):
    from collections import Counter

    counts = Counter(x for b in batches for x in b)
    return sum(c for _, c in counts.most_common(cap))


REFERENCES = {"lru": lru, "fifo": fifo, "clock": clock, "sieve": sieve}

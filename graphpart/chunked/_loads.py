"""The loads a streaming partitioner keeps per part, their hard caps, and batch placement.

Two kinds of constraint, each with a hard cap of ``(1 + slack)`` times its even share:

* nodes per balance class (a node type, or a type crossed with the values of a node field such as
  a train mask), as METIS's ``balance_ntypes`` weights;
* in-degree (``balance_edges``): an edge belongs to its destination's partition (DGL's rule), so a
  partition's edge load is the sum of its nodes' in-degrees.

A batch of nodes is scored against every part at once (rows: nodes, columns: parts); what would
overflow a cap goes round again among the parts with room. Memory: the class and in-degree of
every node (``4 + 8`` bytes) and ``classes x parts`` counters.
"""

from __future__ import annotations

import logging

import numpy as np

from ..index import group_cumsum, group_order, group_rank

__all__ = ["Loads", "part_dtype", "water_fill"]

logger = logging.getLogger(__name__)


def _rank_within(values: np.ndarray, num_groups: int) -> np.ndarray:
    """Position of each value among the equal values before it."""
    return group_rank(*group_order(values, num_groups))


def part_dtype(num_parts: int) -> np.dtype:
    """The smallest signed integer dtype holding ``-1 .. num_parts - 1`` (int16 up to 32,767
    parts): a part per node, ``-1`` while unplaced.

    >>> part_dtype(16), part_dtype(100_000)
    (dtype('int16'), dtype('int32'))
    """
    return np.dtype(np.int16 if num_parts <= np.iinfo(np.int16).max else np.int32)


#: :meth:`Loads.fill` places this many nodes at a time (what it copies per node stays small).
FILL_BLOCK = 1 << 22


def water_fill(load: np.ndarray, room: np.ndarray, count: int, dtype=np.int64) -> np.ndarray:
    """The parts of ``count`` items dealt out by water-filling: each takes the free slot that
    brings its part to the lowest load (ties: the lower part), part ``p`` holding ``load[p]``
    and ``room[p]`` free slots. Built from the at most ``2 k`` levels where the set of parts
    with room changes, each a run of that set repeated: no array of every slot. The parts come
    as ``dtype`` (default int64).

    >>> water_fill(np.array([5, 3, 4]), np.array([2, 9, 9]), 6).tolist()
    [1, 1, 2, 0, 1, 2]
    """
    low = np.asarray(load, dtype=np.int64)
    high = low + np.asarray(room, dtype=np.int64)
    levels = np.unique(np.concatenate([low[high > low], high[high > low]]))
    out, taken = [], 0
    for x, y in zip(levels[:-1].tolist(), levels[1:].tolist()):  # at most 2 k levels
        if taken >= count:
            break
        active = np.flatnonzero((low <= x) & (x < high)).astype(dtype)
        if not len(active):
            continue
        reps = min(y - x, -(-(count - taken) // len(active)))
        run = np.tile(active, reps)[: count - taken]
        out.append(run)
        taken += len(run)
    if taken < count:
        raise ValueError(f"water_fill: {count} items for {int(high.sum() - low.sum())} slots")
    return np.concatenate(out) if out else np.zeros(0, dtype=dtype)


class Loads:
    """Part of every node (-1 while unplaced) and the loads of every constraint per part.

    Parameters
    ----------
    classes : ndarray of int
        The balance class of every node.
    in_degree : ndarray of int or None
        Every node's in-degree, to balance the edges too; ``None``: nodes only.
    num_parts, slack, algorithm, gamma, alpha
        As :func:`~graphpart.chunked.stream.stream_partition`.
    """

    def __init__(
        self,
        classes: np.ndarray,
        in_degree: np.ndarray | None,
        num_parts: int,
        slack: float,
        algorithm: str,
        gamma: float,
        alpha: float,
    ) -> None:
        k = self.k = num_parts
        self.algorithm, self.gamma, self.alpha = algorithm, gamma, alpha
        self.cls = classes.astype(np.int32, copy=False)
        self.n = len(classes)
        self.num_classes = int(classes.max()) + 1 if self.n else 1
        self.count = np.bincount(self.cls, minlength=self.num_classes)
        #: each class's capacity per part (LDG's score); ``ncap`` is the hard cap per (class, part)
        self.capacity = np.ceil((1 + slack) * self.count / k).astype(np.int64)
        self.ncap = np.repeat(self.capacity[:, None], k, axis=1)
        self.nload = np.zeros((self.num_classes, k), dtype=np.int64)
        self.scale = self.n / np.maximum(self.count, 1)  # a class's load in whole-graph node units
        if in_degree is not None and in_degree.dtype.kind != "i":
            in_degree = in_degree.astype(np.int64)  # signed: heaviest first negates them
        self.deg = in_degree
        m = 0 if self.deg is None else int(self.deg.sum())
        self.m = m
        ecap = int(np.ceil((1 + slack) * m / k)) if m else 0
        if self.deg is not None and self.n:
            ecap = max(ecap, int(self.deg.max()))  # a hub alone must fit somewhere
        self.ecapacity = ecap
        self.ecap = np.full(k, ecap, dtype=np.int64)
        self.eload = np.zeros(k, dtype=np.int64)
        self.part = np.full(self.n, -1, dtype=part_dtype(k))
        #: what :meth:`place` does with nodes no part has room for: deal them out over the caps
        #: (one stream), or leave them for a later chunk (a stream with a share of the room)
        self.overflow = True
        #: what a placement adds to the loads: 1, or with ``s`` streams placing at once ``s``
        #: in each stream's view (it counts on the others placing as many meanwhile)
        self.unit = 1

    def share(
        self,
        nodes: np.ndarray,
        unit: int,
        cls: np.ndarray,
        deg: np.ndarray | None,
        part: np.ndarray,
    ) -> Loads:
        """These loads as a stream working on ``nodes`` only sees them: the class, in-degree and
        part of those nodes (taken from ``cls``, ``deg`` and ``part``, which hold every node's;
        local ids ``0 .. len(nodes) - 1``) and every counter and cap as here. ``unit``: the
        number of streams placing at once (:attr:`unit`); with more than one, a stream leaves
        what fits nowhere unplaced (:attr:`overflow`)."""
        view = self.detached()
        view.cls, view.part = np.asarray(cls[nodes]), np.array(part[nodes])
        view.deg = None if deg is None else np.asarray(deg[nodes])
        view.nload, view.eload = self.nload.copy(), self.eload.copy()
        # what the caps leave, as many placements again, each counted ``unit`` times
        view.ncap = self.nload + unit * np.maximum(self.ncap - self.nload, 0)
        view.ecap = self.eload + unit * np.maximum(self.ecap - self.eload, 0)
        view.overflow = unit == 1
        view.unit = unit
        return view

    def detached(self) -> Loads:
        """A copy of the counters and settings without the per-node arrays (small to send)."""
        view = object.__new__(Loads)
        view.__dict__.update(self.__dict__)
        view.cls = view.deg = view.part = None
        return view

    @property
    def balances_edges(self) -> bool:
        return self.deg is not None and self.m > 0

    def _scores(self, t: np.ndarray, d: np.ndarray | None, counts: np.ndarray) -> np.ndarray:
        """Each row's score for every part: its neighbours there, less the load penalty.

        With edges balanced too, each constraint's penalty is weighted by what the node adds to
        it (its in-degree against the mean): a node with no in-edges is drawn to parts light in
        nodes, a hub to parts light in edges, so the two caps fill together instead of some parts
        filling with edges and others with nodes until the last nodes fit nowhere.
        """
        nodes = self.nload[t] * self.scale[t, None]  # in whole-graph node units
        edges = None
        if self.balances_edges:
            edges = (self.eload * (self.n / self.m))[None, :]
            w = (d * (self.n / self.m))[:, None]  # the node's in-degree against the mean
        if self.algorithm == "fennel":
            g = self.gamma - 1
            penalty = nodes**g if edges is None else 0.5 * (nodes**g + w * edges**g)
            score = counts - self.alpha * self.gamma * penalty
        else:  # LDG's product form, one factor per constraint (XtraPuLP)
            score = counts * (1.0 - self.nload[t] / np.maximum(self.capacity[t, None], 1))
            if edges is not None:
                room = np.maximum(1.0 - self.eload / max(self.ecapacity, 1), 0.0)  # full: 0
                score = score * room[None, :] ** np.minimum(w, 8)
        load = nodes if edges is None else nodes + edges
        return score - 1e-9 * load  # ties: the lighter part

    def place(self, nodes: np.ndarray, nbr_counts: np.ndarray) -> None:
        """Place ``nodes`` given their neighbour counts per part (rows: nodes, columns: parts).

        Each round places every node whose choice still has room; the rest are scored again
        (at most ``k`` rounds: each fills a part), and what remains is dealt by :meth:`fill`.
        """
        k = self.k
        todo = np.arange(len(nodes))
        for _ in range(k + 1):
            t = self.cls[nodes[todo]]
            counts = nbr_counts[todo]
            d = self.deg[nodes[todo]] if self.balances_edges else None
            score = self._scores(t, d, counts)
            u = self.unit
            full = self.nload[t] + u > self.ncap[t]
            if d is not None:
                full |= self.eload[None, :] + u * d[:, None] > self.ecap
            score[full] = -np.inf
            choice = np.argmax(score, axis=1)
            stuck = full[np.arange(len(todo)), choice]  # no part has room for these
            key = t.astype(np.int64) * k + choice
            room = (self.ncap - self.nload).ravel()
            over = (_rank_within(key, self.num_classes * k) + 1) * u > room[key]
            if self.balances_edges:
                over |= u * group_cumsum(choice, d) > (self.ecap - self.eload)[choice]
            ok = ~over & ~stuck
            self.add(nodes[todo[ok]], choice[ok])
            todo = todo[~ok]
            if not len(todo) or stuck.all():
                break
        if len(todo) and self.overflow:
            self.fill(nodes[todo])

    def move(self, nodes: np.ndarray, to: np.ndarray) -> int:
        """Move ``nodes`` (placed or not; in order of preference) to parts ``to`` where every cap
        still holds after all the moves into that part; returns how many moved. Moves out are not
        counted as room, so the caps hold whichever moves land."""
        k = self.k
        t = self.cls[nodes].astype(np.int64)
        key = t * k + to
        room = (self.ncap - self.nload).ravel()
        ok = _rank_within(key, self.num_classes * k) < room[key]
        if self.balances_edges:
            d = self.deg[nodes]
            ok &= group_cumsum(to, d * ok) <= (self.ecap - self.eload)[to]
        nodes, to = nodes[ok], to[ok]
        self.remove(nodes[self.part[nodes] >= 0])
        self.add(nodes, to)
        return len(nodes)

    def warn_over_caps(self, who: str) -> None:
        """Log each constraint left over its cap (the last nodes fit under no cap: a best
        effort), with its largest load against the mean."""
        over = [
            (f"nodes of class {c}", self.nload[c].max(), self.count[c] / self.k)
            for c in np.flatnonzero((self.nload > self.ncap).any(axis=1))
        ]
        if self.balances_edges and (self.eload > self.ecap).any():
            over.append(("in-degree", self.eload.max(), self.m / self.k))
        for name, top, mean in over:
            logger.warning(
                "%s: %s over its cap, at %.3f x the mean (the last nodes fit under no cap)",
                who,
                name,
                top / mean,
            )

    def start_from(self, parts: np.ndarray) -> None:
        """Place every node in its part of ``parts`` (e.g. METIS's), whatever the caps."""
        self.add(np.arange(self.n), np.asarray(parts, dtype=self.part.dtype))

    def remove(self, nodes: np.ndarray) -> None:
        """Take placed ``nodes`` out of their parts again."""
        parts = self.part[nodes].astype(np.int64)
        key = self.cls[nodes].astype(np.int64) * self.k + parts
        u = self.unit
        self.nload -= u * np.bincount(key, minlength=self.nload.size).reshape(self.nload.shape)
        if self.deg is not None:
            self.eload -= u * np.bincount(parts, weights=self.deg[nodes], minlength=self.k).astype(
                np.int64
            )
        self.part[nodes] = -1

    def add(self, nodes: np.ndarray, parts: np.ndarray) -> None:
        """Place unplaced ``nodes`` in ``parts``, whatever the caps."""
        self.part[nodes] = parts
        key = self.cls[nodes].astype(np.int64) * self.k + parts
        u = self.unit
        self.nload += u * np.bincount(key, minlength=self.nload.size).reshape(self.nload.shape)
        if self.deg is not None:
            self.eload += u * np.bincount(parts, weights=self.deg[nodes], minlength=self.k).astype(
                np.int64
            )

    def fill(self, nodes: np.ndarray) -> None:
        """Deal ``nodes`` out where there is room: those with in-edges heaviest first, each to the
        part it fills least, by the fuller of its class's and the in-degree's share of their caps
        (greedy LPT, as 2PS places its clusters; rounds of at most one node per part); the rest
        by water-filling each class's free slots."""
        if self.balances_edges:
            light = self.deg[nodes] == 0
            heavy = nodes[~light]
            heavy = heavy[np.argsort(-self.deg[heavy], kind="stable")]
            while len(heavy):  # rounds: the heaviest node per part goes to its best part
                t, d = self.cls[heavy], self.deg[heavy]
                fill = np.maximum(
                    (self.nload[t] + 1) / np.maximum(self.ncap[t], 1),
                    (self.eload[None, :] + d[:, None]) / np.maximum(self.ecap, 1),
                )
                choice = np.argmin(fill, axis=1)  # under both caps if it can, else least over
                first = _rank_within(choice, self.k) == 0
                self.add(heavy[first], choice[first])
                heavy = heavy[~first]
            if len(heavy) or not light.all():  # nodes no chunk reached have none: no copy
                nodes = nodes[light]
            del light
        if self.num_classes == 1:
            groups = [(0, nodes)]
        else:
            order, sizes = group_order(self.cls[nodes], self.num_classes)
            ends = np.cumsum(sizes)
            groups = [
                (c, nodes[order[ends[c] - sizes[c] : ends[c]]]) for c in np.flatnonzero(sizes)
            ]
            del order
        for c, group in groups:  # a loop over classes only
            room = np.maximum(self.ncap[c] - self.nload[c], 0)
            if room.sum() < len(group):  # cannot happen with slack >= 0, but never lose a node
                room = room + int(np.ceil((len(group) - room.sum()) / self.k))
            parts = water_fill(self.nload[c], room, len(group), self.part.dtype)
            for at in range(0, len(group), FILL_BLOCK):  # blocks: add's copies stay small
                self.add(group[at : at + FILL_BLOCK], parts[at : at + FILL_BLOCK])

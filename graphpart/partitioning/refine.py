"""Refine an assignment on the full graph: vectorised moves that lower the cut under every
constraint.

METIS runs on a coarsened graph or on a sample of a large graph's edges (``metis_max_edges``):
fast, but blind to the nodes inside a cluster and to the edges it never saw.
:func:`refine_assignment` looks at *every* node and edge afterwards:

1. :func:`rebalance` moves the cheapest nodes out of any part over its cap in any constraint
   (``ub * total / num_parts``, METIS's rule); where no part has room for one more node,
   :func:`~graphpart.partitioning.swap.swap_moves` swaps heavy nodes for light alike ones;
2. :func:`exchange` repeats: from each node's edges into each part (a table counted once, then
   kept current by :meth:`_Edges.move` from the moved nodes' edges alone), for every pair of
   parts, move the best-gain prefixes of the nodes that want to go each way so that both parts
   stay under every cap (balanced label propagation: Ugander and Backstrom, WSDM 2013, solved
   greedily per pair). A random half of the candidates moves each round, so that neighbours do
   not swap back and forth.

Nodes without any edge are free: they take no part in the moves and are dealt out at the end
class by class, which is what keeps the node-count constraints balanced cheaply.
"""

from __future__ import annotations

import logging

import numpy as np
import torch

from ..index import group_cumsum
from .balance import fill_isolated
from .swap import swap_moves

__all__ = ["refine_assignment", "rebalance", "exchange", "part_sums"]

logger = logging.getLogger(__name__)
#: Refinement keeps an int64 table of nodes x parts (2 GiB at this size); callers skip it above.
MAX_TABLE_CELLS = 1 << 28


def part_sums(part: np.ndarray, weights: np.ndarray, num_parts: int) -> np.ndarray:
    """``(num_parts, ncon)`` load of every constraint in every part.

    Parameters
    ----------
    part : numpy.ndarray of int
        The part, in ``[0, num_parts)``, of every node.
    weights : numpy.ndarray, shape (n, ncon)
        The weight of every node in every constraint.
    num_parts : int
        The number of parts (rows of the result).

    Returns
    -------
    numpy.ndarray of float64, shape (num_parts, ncon)
        The summed weights of each part's nodes, per constraint.
    """
    return np.stack(
        [
            np.bincount(part, weights=weights[:, c], minlength=num_parts)
            for c in range(weights.shape[1])
        ],
        axis=1,
    )


class _Edges:
    """The edge list: the connection table of an assignment, and its updates as nodes move.

    ``conn(part)[u, p]`` counts the edges (either direction) between ``u`` and part ``p``;
    :meth:`move` keeps such a table current, updating only the moved nodes' edges (found with two
    boolean gathers), which costs far less than counting every edge again.
    """

    def __init__(self, src: np.ndarray, dst: np.ndarray, num_nodes: int, num_parts: int) -> None:
        self.src = np.asarray(src, dtype=np.int64)
        self.dst = np.asarray(dst, dtype=np.int64)
        self.n, self.k = num_nodes, num_parts
        self.small = (
            np.int8 if num_parts < 128 else np.int32
        )  # a small part array keeps gathers in cache
        self._moving = np.zeros(num_nodes, dtype=bool)

    def conn(self, part: np.ndarray) -> np.ndarray:
        """``(n, k)``: edges (either direction) between each node and each part."""
        # torch for the edge-sized key: both cores, and its fresh pages fault in far more cheaply
        # than numpy's (which asks for huge pages, each zeroed on first touch)
        p = torch.from_numpy(part.astype(self.small))
        src, dst = torch.from_numpy(self.src), torch.from_numpy(self.dst)
        # counted into int32 in place: two int64 bincounts held 4x the table (32 parts, 2^20 nodes:
        # 0.5 GB more at the peak), in the same time
        out = torch.zeros(self.n * self.k, dtype=torch.int32)
        one = torch.ones(1, dtype=torch.int32).expand(len(src))
        key = torch.mul(src, self.k)
        key += p[dst]
        out.index_add_(0, key, one)
        torch.mul(dst, self.k, out=key)
        key += p[src]
        out.index_add_(0, key, one)
        return out.numpy().reshape(self.n, self.k)

    def move(
        self, conn: np.ndarray, part: np.ndarray, nodes: np.ndarray, targets: np.ndarray
    ) -> None:
        """Move ``nodes`` to ``targets`` in ``part``, updating ``conn`` (from :meth:`conn`) in
        place.

        Only the edges of the moved nodes change the table: each moves one count of its other end
        from the old part to the new one (an edge with both ends moving updates both ends' rows).
        """
        if not conn.flags.c_contiguous:  # the flat view below would be a copy, and the updates lost
            raise ValueError("the connection table must be C-contiguous (as conn() returns it)")
        if not len(nodes):
            return
        moving = self._moving  # all False between calls: no fresh (n,) array per move
        moving[nodes] = True
        hits = [
            (np.flatnonzero(np.take(moving, mover)), mover, other)  # take: faster than []
            for mover, other in ((self.src, self.dst), (self.dst, self.src))
        ]
        moving[nodes] = False
        before = [part[mover[e]] for e, mover, _ in hits]  # read before ``part`` changes
        part[nodes] = targets
        flat = conn.reshape(-1)
        for (e, mover, other), old in zip(hits, before):
            row = other[e] * self.k  # flat indices: about twice as fast as (row, col) in ufunc.at
            np.subtract.at(flat, row + old, 1)
            np.add.at(flat, row + part[mover[e]], 1)


class _Carries:
    """Which constraints each node carries weight in, for picking the nodes of overloaded parts.

    With at most 63 constraints each node's set is one bitmask, so that picking costs one gather
    and an ``&`` per node instead of an ``(n, ncon)`` comparison.
    """

    def __init__(self, w: np.ndarray) -> None:
        self.w = w
        ncon = w.shape[1]
        self.bits = None
        if ncon <= 63:
            self.bits = (w > 0).astype(np.int64) @ (np.int64(1) << np.arange(ncon, dtype=np.int64))

    def nodes_in(self, part: np.ndarray, hot: np.ndarray) -> np.ndarray:
        """Nodes that carry weight in a constraint their part has ``hot`` (``(k, ncon)`` bool)."""
        if self.bits is None:
            return np.flatnonzero(np.any(hot[part] & (self.w > 0), axis=1))
        part_bits = hot.astype(np.int64) @ (np.int64(1) << np.arange(hot.shape[1], dtype=np.int64))
        return np.flatnonzero(part_bits[part] & self.bits)


def rebalance(
    edges: _Edges,
    part: np.ndarray,
    weights: np.ndarray,
    cap: np.ndarray,
    rounds: int = 30,
    conn: np.ndarray | None = None,
) -> np.ndarray:
    """Move nodes out of parts that exceed ``ub * total / num_parts`` in any constraint, cheapest
    first.

    A node's price is the cut it adds (its edges into its part minus those into the target, the
    part with room where it has most neighbours) per unit of overload it removes. Each round takes,
    from every overloaded part, the cheapest nodes until its overload is gone, and lets each target
    part accept them while it stays under the cap. Returns a new assignment; ``conn`` (the table of
    :meth:`_Edges.conn` for ``part``), when given, is kept current in place.

    Parameters
    ----------
    edges : _Edges
        The graph's edges, and the number of parts.
    part : numpy.ndarray of int
        The part, in ``[0, num_parts)``, of every node; not changed.
    weights : numpy.ndarray of int, shape (n, ncon)
        The weight of every node in every constraint.
    cap : numpy.ndarray of float, shape (ncon,)
        The most a part may hold of each constraint.
    rounds : int, default 30
        The most rounds; they stop early once no part is over a cap, no node can move, or two
        rounds in a row (one by neighbours, one by room) move nothing.
    conn : numpy.ndarray of int, shape (n, num_parts), optional
        The connection table of ``part`` (:meth:`_Edges.conn`), C-contiguous; updated in place
        to the returned assignment. ``None``: counted here.

    Returns
    -------
    numpy.ndarray of int
        The new part of every node. Parts may still be over a cap where no node fits elsewhere.

    Examples
    --------
    >>> edges = _Edges(np.array([0, 1, 2, 3]), np.array([1, 2, 3, 0]), 4, 2)
    >>> part = rebalance(edges, np.array([0, 0, 0, 1]), np.ones((4, 1), np.int64), np.array([2.0]))
    >>> np.bincount(part).tolist()
    [2, 2]
    """
    part = part.copy()
    conn_all = edges.conn(part) if conn is None else conn
    num_parts = edges.k
    w = np.asarray(weights, dtype=np.int64)
    carries = _Carries(w)
    loads = part_sums(part, w, num_parts)  # kept current below from the moved nodes alone
    by_room = False
    for r in range(rounds):
        over = np.maximum(loads - cap[None, :], 0)  # (k, ncon)
        if not over.any():
            break
        room = np.maximum(cap[None, :] - loads, 0)
        # candidates: nodes carrying weight of a constraint their part exceeds
        cand = carries.nodes_in(part, over > 0)
        if not len(cand):
            break
        conn = conn_all[cand]  # (m, k)
        own = part[cand]
        wc = w[cand]
        fits = np.ones((len(cand), num_parts), dtype=bool)  # target has room for the node
        for c in range(w.shape[1]):  # a constraint at a time: cheaper than an (m, k, ncon) array
            fits &= wc[:, c, None] <= room[None, :, c]
        fits[np.arange(len(cand)), own] = False
        # a node goes where it has most neighbours; when that jammed the last round (every node
        # queued for the same few parts), where the overloaded constraints have most room
        key = (
            (room[None, :, :] * (over[own] > 0)[:, None, :] / np.maximum(cap, 1)).sum(axis=2)
            if by_room
            else conn
        )
        score = np.where(fits, key, -1)
        target = score.argmax(axis=1)
        ok = fits[np.arange(len(cand)), target]
        cand, own, wc, target, conn = cand[ok], own[ok], wc[ok], target[ok], conn[ok]
        rows = np.arange(len(cand))
        loss = (conn[rows, own] - conn[rows, target]).astype(np.float64)
        over_own = over[own]
        relief = (np.minimum(wc, over_own) / np.maximum(over_own, 1)).sum(axis=1)
        price = loss / np.maximum(relief, 1e-12)
        # from each source part, the cheapest nodes until its overload is covered
        order = np.lexsort((price, own))
        cand, own, wc, target = cand[order], own[order], wc[order], target[order]
        over_own = over_own[order]
        before = group_cumsum(own, wc) - wc
        still_needed = np.any((before < over_own) & (over_own > 0), axis=1)
        cand, own, wc, target, prio = (
            cand[still_needed],
            own[still_needed],
            wc[still_needed],
            target[still_needed],
            np.arange(len(cand))[still_needed],
        )
        # each target accepts while it stays under every cap
        order = np.lexsort((prio, target))
        cand, own, wc, target = cand[order], own[order], wc[order], target[order]
        fit = np.all(group_cumsum(target, wc) <= room[target], axis=1)
        edges.move(conn_all, part, cand[fit], target[fit])
        moved = wc[fit]
        loads += part_sums(target[fit], moved, num_parts) - part_sums(own[fit], moved, num_parts)
        logger.info("rebalance round %d: moved %d nodes", r, int(fit.sum()))
        if not fit.any():
            if by_room:
                break
            by_room = True
        else:
            by_room = False
    return part


def _best_exchange(
    cum_a: np.ndarray,
    cum_b: np.ndarray,
    gain_a: np.ndarray,
    gain_b: np.ndarray,
    load_p: np.ndarray,
    load_q: np.ndarray,
    cap: np.ndarray,
) -> tuple[int, int]:
    """Prefix lengths ``(a, b)`` of the p->q and q->p move lists (best gains first) that keep both
    parts under every cap and gain the most. ``cum_*`` are ``(len + 1, ncon)`` weight prefix
    sums."""
    # for every a: b must satisfy, per constraint c,
    #   load_p - A[a] + B[b] <= cap   (B[b] <= cap - load_p + A[a]: an upper bound on b)
    #   load_q + A[a] - B[b] <= cap   (B[b] >= load_q + A[a] - cap: a lower bound on b)
    hi = np.full(len(cum_a), len(cum_b) - 1)
    lo = np.zeros(len(cum_a), dtype=np.int64)
    for c in range(cum_a.shape[1]):
        hi = np.minimum(
            hi, np.searchsorted(cum_b[:, c], cap[c] - load_p[c] + cum_a[:, c], side="right") - 1
        )
        lo = np.maximum(
            lo, np.searchsorted(cum_b[:, c], load_q[c] + cum_a[:, c] - cap[c], side="left")
        )
    ok = (lo <= hi) & (hi >= 0)
    if not ok.any():
        return 0, 0
    ga = np.concatenate([[0], np.cumsum(gain_a)])
    gb = np.concatenate([[0], np.cumsum(gain_b)])
    total = np.where(ok, ga + gb[np.maximum(hi, 0)], -1)
    a = int(total.argmax())
    return a, int(hi[a])


def exchange(
    edges: _Edges,
    part: np.ndarray,
    weights: np.ndarray,
    cap: np.ndarray,
    rng: np.random.Generator,
    rounds: int = 4,
    conn: np.ndarray | None = None,
    min_gain: float = 0.0,
) -> np.ndarray:
    """Cut-lowering moves between each pair of parts, paired so that both parts stay under every
    cap.

    Where one-sided moves stall because the parts that nodes want to join are full, moves in both
    directions between two parts can still fit: for every pair ``(p, q)`` the best-gain prefixes of
    the p->q and q->p candidates are chosen together (the balanced label propagation of Ugander and
    Backstrom, solved greedily per pair). Pairs are taken in turn with loads kept current. Returns
    a new assignment; ``conn`` (the table of :meth:`_Edges.conn` for ``part``), when given, is kept
    current in place. The rounds stop early once one lowers the cut by less than ``min_gain`` times
    the cut before it (the gains shrink round by round; the last rounds buy little).

    Parameters
    ----------
    edges : _Edges
        The graph's edges, and the number of parts.
    part : numpy.ndarray of int
        The part, in ``[0, num_parts)``, of every node; not changed.
    weights : numpy.ndarray of int, shape (n, ncon)
        The weight of every node in every constraint.
    cap : numpy.ndarray of float, shape (ncon,)
        The most a part may hold of each constraint: each pair's moves leave both parts within
        every cap (a pair that cannot end so moves nothing).
    rng : numpy.random.Generator
        Draws the half of the candidate moves tried each round.
    rounds : int, default 4
        The most rounds; they also stop once no node has more edges into another part than
        into its own.
    conn : numpy.ndarray of int, shape (n, num_parts), optional
        The connection table of ``part`` (:meth:`_Edges.conn`), C-contiguous; updated in place
        to the returned assignment. ``None``: counted here.
    min_gain : float, default 0.0
        Stop after a round that lowers the cut by less than this share of it.

    Returns
    -------
    numpy.ndarray of int
        The new part of every node.
    """
    part = part.copy()
    conn = edges.conn(part) if conn is None else conn
    num_parts = edges.k
    w = np.asarray(weights, dtype=np.int64)
    base = np.arange(0, len(part) * num_parts, num_parts)  # row starts in the flat table
    flat = conn.reshape(-1)
    loads = part_sums(part, w, num_parts)  # kept current by the pairs' moves below
    ends = int(flat.sum())  # edge ends: twice the edges
    inside = int(flat[base + part].sum())  # ends whose edge stays inside a part
    for r in range(rounds):
        best = conn.argmax(axis=1)
        gain = flat[base + best] - flat[base + part]
        cand = np.flatnonzero(gain > 0)
        if not len(cand):
            break
        cand = cand[rng.random(len(cand)) < 0.5]
        pq = part[cand] * num_parts + best[cand]
        order = np.lexsort((-gain[cand], pq))
        cand, pq = cand[order], pq[order]
        bounds = np.searchsorted(pq, np.arange(num_parts * num_parts + 1))
        go, to = [], []
        for p in range(num_parts):
            for q in range(p + 1, num_parts):
                ia = cand[bounds[p * num_parts + q] : bounds[p * num_parts + q + 1]]
                ib = cand[bounds[q * num_parts + p] : bounds[q * num_parts + p + 1]]
                if not len(ia) and not len(ib):
                    continue
                zero = np.zeros((1, w.shape[1]), dtype=np.int64)
                cum_a = np.concatenate([zero, np.cumsum(w[ia], axis=0)])
                cum_b = np.concatenate([zero, np.cumsum(w[ib], axis=0)])
                a, b = _best_exchange(cum_a, cum_b, gain[ia], gain[ib], loads[p], loads[q], cap)
                if a or b:
                    go += [ia[:a], ib[:b]]
                    to += [np.full(a, q), np.full(b, p)]
                    delta = cum_a[a] - cum_b[b]
                    loads[p] -= delta
                    loads[q] += delta
        if go:  # the candidates of different pairs are different nodes: one update for the round
            edges.move(conn, part, np.concatenate(go), np.concatenate(to))
        cut = (ends - inside) // 2
        inside = int(flat[base + part].sum())
        gained = cut - (ends - inside) // 2
        logger.info(
            "exchange round %d: %d of %d candidate moves, cut %d -> %d",
            r,
            sum(map(len, go)),
            len(cand),
            cut,
            cut - gained,
        )
        if gained < min_gain * cut:
            break
    return part


def refine_assignment(
    src: np.ndarray,
    dst: np.ndarray,
    part: np.ndarray,
    num_parts: int,
    weights: np.ndarray | None,
    classes: np.ndarray | None,
    ub: np.ndarray,
    rng: np.random.Generator,
    rounds: int = 4,
    min_gain: float = 0.0,
) -> np.ndarray:
    """:func:`rebalance` then ``rounds`` of :func:`exchange` over every edge; returns a new
    assignment.

    ``weights`` is ``(n, ncon)`` (``None``: node counts), ``classes`` the balance class of each node
    (``None``: one class), used to deal the edgeless nodes back out. The exchange rounds stop early
    once one lowers the cut by less than ``min_gain`` times the cut (0: never).

    Parameters
    ----------
    src, dst : numpy.ndarray of int
        Every edge of the graph; direction does not matter.
    part : numpy.ndarray of int
        The part, in ``[0, num_parts)``, of every node (``n`` of them); not changed.
    num_parts : int
        The number of parts.
    weights : numpy.ndarray of int, shape (n, ncon), or None
        The weight of every node in every constraint; ``None``: one node-count column.
    classes : numpy.ndarray of int or None
        The balance class (a non-negative int) of every node; ``None``: one class.
    ub : numpy.ndarray of float, shape (ncon,)
        The tolerance of each constraint: a part may hold ``ub * total / num_parts``.
    rng : numpy.random.Generator
        Draws the exchange's candidates and the deal of the edgeless nodes.
    rounds : int, default 4
        The most rounds of :func:`exchange`.
    min_gain : float, default 0.0
        Passed on to :func:`exchange`.

    Returns
    -------
    numpy.ndarray of int
        The new part of every node; ``part`` itself when the refined assignment would leave
        some part further over its cap than ``part`` was (or over it at all when ``part`` was
        not), which is logged as a warning.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> src = np.array([0, 1, 2, 3, 4, 5, 2]); dst = np.array([1, 2, 0, 4, 5, 3, 3])
    >>> part = np.array([0, 1, 0, 1, 0, 1, 0, 1])   # two triangles and two lone nodes, split badly
    >>> new = refine_assignment(src, dst, part, 2, None, None, np.array([1.01]), rng, rounds=10)
    >>> int((new[src] != new[dst]).sum()), np.bincount(new).tolist()
    (1, [4, 4])
    """
    n = len(part)
    w = np.ones((n, 1), dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    cap = np.asarray(ub, dtype=np.float64) * w.sum(axis=0) / num_parts
    edges = _Edges(src, dst, n, num_parts)
    free = (np.bincount(edges.src, minlength=n) + np.bincount(edges.dst, minlength=n)) == 0
    moving = np.where(free[:, None], 0, w)  # edgeless nodes carry no load while the others move
    conn = edges.conn(part)  # kept current by both steps
    new = rebalance(edges, part, moving, cap, conn=conn)
    if (part_sums(new, moving, num_parts) > cap[None, :] + 1e-9).any():
        # no part has room for one more node: swap alike nodes (the same class) instead
        nodes, targets = swap_moves(new, moving, cap, num_parts)
        edges.move(conn, new, nodes, targets)
    new = exchange(edges, new, moving, cap, rng, rounds, conn=conn, min_gain=min_gain)
    new[free] = -1
    fill_isolated(new, np.flatnonzero(free), classes, num_parts, rng)
    before, after = (
        float((part_sums(x, w, num_parts) / np.maximum(cap, 1e-12)).max()) for x in (part, new)
    )
    if (
        after > max(before, 1.0) + 1e-9
    ):  # every step keeps to the caps; never hand back worse balance
        logger.warning(
            "refinement left a part at %.3f of its cap (%.3f before): keeping METIS's assignment",
            after,
            before,
        )
        return part
    return new

"""Swaps that move load of one constraint between two parts and nothing else.

:func:`~graphpart.partitioning.refine.rebalance` moves a node out of a part over its cap only into
a part with room in *every* constraint. With node counts balanced to 1.03 and the in-degree of a
class at 1.11, no part has room for one more node, and a hub stays where it is (R-MAT scale 22,
8 parts, a train mask and ``balance_edges``: one part held 3.45M in-degree against 7.5-8M for the
others). A swap does not need that room: a heavy node of the overloaded part goes to the lightest
part, and a light node *alike in every other constraint* (the same class, so every node-count
column stays as it was) comes back. :func:`swap_moves` pairs the heaviest nodes of the overloaded
part with the lightest alike nodes of the part with most room, biggest differences first, until
the overload is gone or the room used up; vectorised per pair of parts, a few rounds.
"""

from __future__ import annotations

import logging

import numpy as np

__all__ = []

logger = logging.getLogger(__name__)


def _alike(w: np.ndarray, c: int) -> np.ndarray:
    """A key per node: equal keys, equal weights in every column but ``c``."""
    rest = np.delete(w, c, axis=1)
    if rest.shape[1] == 0:
        return np.zeros(len(w), dtype=np.int64)
    return np.unique(rest, axis=0, return_inverse=True)[1].reshape(-1)


def swap_moves(
    part: np.ndarray, weights: np.ndarray, cap: np.ndarray, num_parts: int, rounds: int = 16
) -> tuple[np.ndarray, np.ndarray]:
    """Nodes to move and their new parts (``(nodes, targets)``, each node once, last move kept)
    so that constraints over ``cap`` come down through swaps of alike nodes.

    Each round takes the constraint and part furthest over the cap, and the part with most room
    in that constraint; pairs its nodes, heaviest first, with the lightest nodes of the other
    part that weigh the same in every other constraint; and swaps the pairs whose difference is
    largest until the overload is covered, without taking the other part over its cap.

    Parameters
    ----------
    part : numpy.ndarray of int
        The part, in ``[0, num_parts)``, of every node; not changed.
    weights : numpy.ndarray of int, shape (n, ncon)
        The weight of every node in every constraint.
    cap : numpy.ndarray of float, shape (ncon,)
        The most a part may hold of each constraint.
    num_parts : int
        The number of parts.
    rounds : int, default 16
        The most rounds; they stop early once no part is over a cap or a round finds no swap.

    Returns
    -------
    nodes : numpy.ndarray of int
        The nodes whose part changed, in increasing order.
    targets : numpy.ndarray of int
        The new part of each of ``nodes``.

    Examples
    --------
    >>> part = np.array([0, 0, 1, 1])
    >>> w = np.array([[1, 4], [1, 4], [1, 1], [1, 1]])     # nodes, in-degree
    >>> nodes, to = swap_moves(part, w, np.array([2.0, 6.0]), 2)   # no part has room for a node
    >>> new = part.copy(); new[nodes] = to
    >>> new.tolist(), np.bincount(new, weights=w[:, 1]).tolist()
    ([1, 0, 0, 1], [5.0, 5.0])
    """
    part = np.asarray(part, dtype=np.int64).copy()
    w = np.asarray(weights, dtype=np.int64)
    start = part.copy()
    for r in range(rounds):
        loads = np.stack(
            [np.bincount(part, weights=w[:, j], minlength=num_parts) for j in range(w.shape[1])],
            axis=1,
        )
        over = (loads - cap[None, :]) / np.maximum(cap[None, :], 1e-12)
        a, c = np.unravel_index(int(over.argmax()), over.shape)
        if over[a, c] <= 1e-9:
            break
        b = int(loads[:, c].argmin())
        need, room = loads[a, c] - cap[c], cap[c] - loads[b, c]
        key = _alike(w, c)
        ua, ub_ = np.flatnonzero(part == a), np.flatnonzero(part == b)
        # within each key: A's nodes heaviest first, B's lightest first, paired by rank
        oa = ua[np.lexsort((-w[ua, c], key[ua]))]
        ob = ub_[np.lexsort((w[ub_, c], key[ub_]))]
        ka, kb = key[oa], key[ob]
        keys, ca = np.unique(ka, return_counts=True)
        cb = np.bincount(kb, minlength=int(key.max()) + 1)[keys]
        m = np.minimum(ca, cb)
        if not m.sum():
            break
        sa = np.searchsorted(ka, keys)
        sb = np.searchsorted(kb, keys)
        rank = np.arange(int(m.sum())) - np.repeat(np.cumsum(m) - m, m)
        pa = oa[np.repeat(sa, m) + rank]
        pb = ob[np.repeat(sb, m) + rank]
        gain = w[pa, c] - w[pb, c]
        good = gain > 0
        pa, pb, gain = pa[good], pb[good], gain[good]
        if not len(pa):
            break
        order = np.argsort(-gain, kind="stable")
        pa, pb, gain = pa[order], pb[order], gain[order]
        total = np.cumsum(gain)
        fits = total <= room  # B stays within its cap
        enough = np.searchsorted(total, need)  # the prefix that covers the overload
        take = np.flatnonzero(fits)[: enough + 1]
        if not len(take):
            break
        part[pa[take]], part[pb[take]] = b, a
        logger.info(
            "swap round %d: %d pairs between parts %d and %d (constraint %d)", r, len(take), a, b, c
        )
    moved = np.flatnonzero(part != start)
    return moved, part[moved]

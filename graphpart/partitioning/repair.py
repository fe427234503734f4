"""Balance a split can meet, and the last check on an assignment: no empty part, no constraint
far outside its tolerance.

:func:`achievable_tolerance` loosens the tolerance of a constraint no split can meet (a class with
fewer nodes than parts, a node heavier than a part's share); :func:`held_tolerance` does so with a
word, and is what METIS is asked for: asked for a balance no split has, METIS gives up on every
constraint.

METIS balances several constraints at once as well as it can, and on a small graph with many
constraints it can give up on all of them: a heterograph of 800 nodes split in three came back
with one part empty and every class at 1.5 times its mean. :func:`repair_assignment` looks at
every constraint's load in every part and, where a part is empty or a constraint is *far* outside
its tolerance (its heaviest part more than one node, and more than :data:`FAR` of the mean or the
tolerance's own width, above the cap), repairs the assignment:

1. :func:`~graphpart.partitioning.refine.refine_assignment` moves the cheapest nodes (those whose
   move adds the least cut) out of every overloaded part into parts with room, then exchanges
   nodes between parts to win back cut under every cap;
2. :func:`fill_empty` gives every part still empty one node, the one with fewest edges inside its
   part, from the most crowded part.

A constraint still far outside its tolerance after that is loosened to what it reached, in a
defined order (the in-degree of the smallest classes first, then their node counts), and the
others refined again (:func:`_loosened`). The best assignment found is returned and a
:class:`~graphpart.errors.BalanceWarning` names each constraint not held, its ``max / mean`` and
its tolerance: a setting DGL partitions is never refused. Refused is only what no training run can
use: a part left without a node, or a class of at least ``num_parts`` nodes lying whole in one
part. Nothing degenerate is handed back in silence.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import numpy as np

from ..errors import GraphpartError
from ..utils.check import short_repr
from .best_effort import check_spread, report_shortfalls
from .refine import MAX_TABLE_CELLS, part_sums, refine_assignment

__all__ = ["achievable_tolerance", "repair_assignment"]

logger = logging.getLogger(__name__)
#: A constraint is far outside its tolerance when its heaviest part exceeds the cap by more than
#: this share of the mean (METIS's own k-way default tolerance), the tolerance's width, and one
#: node: METIS's near misses are left alone, its failures are not.
FAR = 0.03
#: Exchange rounds after a repair's rebalancing, to win back cut.
REPAIR_ROUNDS = 4


def constraint_totals(weights: np.ndarray | None, num_nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Each constraint's total and heaviest node (``weights`` ``(n, ncon)``; ``None``: node counts).

    Parameters
    ----------
    weights : numpy.ndarray of int, shape (n, ncon), or None
        The weight of every node in every constraint; ``None``: one node-count column.
    num_nodes : int
        The number of nodes; read only when ``weights`` is ``None``.

    Returns
    -------
    total : numpy.ndarray of int64, shape (ncon,)
        The summed weight of each constraint.
    heaviest : numpy.ndarray of int64, shape (ncon,)
        The largest weight of a single node in each constraint (0 without nodes).

    Examples
    --------
    >>> [x.tolist() for x in constraint_totals(np.array([[1, 0], [1, 4], [1, 2]]), 3)]
    [[3, 6], [1, 4]]
    >>> [x.tolist() for x in constraint_totals(None, 5)]
    [[5], [1]]
    """
    if weights is None:
        return np.array([num_nodes], dtype=np.int64), np.array([min(num_nodes, 1)], dtype=np.int64)
    w = np.asarray(weights, dtype=np.int64)
    heaviest = w.max(axis=0) if len(w) else np.zeros(w.shape[1], dtype=np.int64)
    return w.sum(axis=0), heaviest


def achievable_tolerance(
    total: np.ndarray, heaviest: np.ndarray, num_parts: int, ub: np.ndarray
) -> np.ndarray:
    """The tolerance of every constraint that a split can meet, from its total and heaviest node.

    The heaviest of ``num_parts`` parts holds at least ``ceil(total / num_parts)`` of a
    constraint (loads are whole numbers), and at least its heaviest node, so a constraint with
    fewer units than parts, or with one node heavier than a part's share, cannot be held to
    ``ub``: it gets the tolerance of that floor instead (``max load <= tolerance * mean``). METIS
    asked for a balance no split has gives up on every constraint (a part may come back empty).

    Parameters
    ----------
    total : numpy.ndarray of int, shape (ncon,)
        The summed weight of each constraint (:func:`constraint_totals`).
    heaviest : numpy.ndarray of int, shape (ncon,)
        The heaviest node of each constraint.
    num_parts : int
        The number of parts.
    ub : numpy.ndarray of float, shape (ncon,)
        The tolerance asked for: ``max load <= ub * mean``.

    Returns
    -------
    numpy.ndarray of float64, shape (ncon,)
        ``ub`` where a split can meet it, else the floor's ``max load / mean`` raised by a
        factor of ``1 + 1e-6`` (a constraint of total 0 keeps ``ub``).

    Examples
    --------
    >>> # 4 nodes, 1 unit of the second class
    >>> tol = achievable_tolerance(np.array([4, 1]), np.array([1, 1]), 3, np.array([1.03, 1.03]))
    >>> tol.round(3).tolist()
    [1.5, 3.0]
    >>> achievable_tolerance(np.array([300]), np.array([1]), 3, np.array([1.03])).tolist()
    [1.03]
    """
    total = np.asarray(total, dtype=np.int64)
    ub = np.asarray(ub, dtype=np.float64)
    floor = np.maximum(-(-total // num_parts), np.asarray(heaviest, dtype=np.int64))
    need = np.divide(
        floor * num_parts, total, out=np.ones(len(total)), where=total > 0, dtype=np.float64
    )
    # a hair above the floor: METIS compares in float32, and a cap must not round below a load
    return np.where(need > ub, need * (1 + 1e-6), ub)


def held_tolerance(
    weights: np.ndarray | None,
    num_nodes: int,
    num_parts: int,
    ub: np.ndarray,
    names: Callable[[], Sequence[str]] | None = None,
) -> np.ndarray:
    """:func:`achievable_tolerance` of ``weights`` (``None``: node counts), saying which
    constraints it loosened: a warning where a part's share is less than one node (a class with
    fewer nodes than parts, a node heavier than a part's share), else (whole units) info.

    Parameters
    ----------
    weights : numpy.ndarray of int, shape (n, ncon), or None
        The weight of every node in every constraint; ``None``: one node-count column.
    num_nodes : int
        The number of nodes; read only when ``weights`` is ``None``.
    num_parts : int
        The number of parts.
    ub : numpy.ndarray of float, shape (ncon,)
        The tolerance asked for, per constraint.
    names : callable, optional
        Returns a name per constraint, for the log message (called only when a constraint is
        loosened); ``None``: ``"column c"``.

    Returns
    -------
    numpy.ndarray of float64, shape (ncon,)
        The tolerance of each constraint, as :func:`achievable_tolerance` gives it.

    Examples
    --------
    >>> held_tolerance(None, 5, 3, np.array([1.03])).round(3).tolist()
    [1.2]
    """
    ub = np.asarray(ub, dtype=np.float64)
    total, heaviest = constraint_totals(weights, num_nodes)
    tol = achievable_tolerance(total, heaviest, num_parts, ub)
    loose = np.flatnonzero(tol > ub)
    if len(loose):
        short = heaviest[loose] > ub[loose] * total[loose] / num_parts
        labels = list(names()) if names is not None else [f"column {c}" for c in range(len(ub))]
        logger.log(
            logging.WARNING if short.any() else logging.INFO,
            "balance constraint(s) %s cannot be held to %s over %d parts (fewer units than parts, "
            "one node heavier than a part's share, or whole units): held to %s x their mean",
            [labels[c] for c in loose],
            ub[loose].round(3).tolist(),
            num_parts,
            tol[loose].round(3).tolist(),
        )
    return tol


def far_limits(
    total: np.ndarray, heaviest: np.ndarray, num_parts: int, tolerance: np.ndarray
) -> np.ndarray:
    """The load of each constraint above which it is far outside ``tolerance`` (see :data:`FAR`).

    Parameters
    ----------
    total : numpy.ndarray, shape (ncon,)
        The summed weight of each constraint.
    heaviest : numpy.ndarray, shape (ncon,)
        The heaviest node of each constraint.
    num_parts : int
        The number of parts.
    tolerance : numpy.ndarray of float, shape (ncon,)
        The tolerance of each constraint.

    Returns
    -------
    numpy.ndarray of float64, shape (ncon,)
        ``tolerance * mean`` plus the largest of the heaviest node, ``FAR * mean`` and
        ``(tolerance - 1) * mean``, ``mean`` being ``total / num_parts``.

    Examples
    --------
    >>> far_limits(np.array([300]), np.array([1]), 3, np.array([1.03])).round(2).tolist()
    [106.0]
    """
    mean = np.asarray(total) / num_parts
    slack = np.maximum(heaviest, np.maximum(np.asarray(tolerance) - 1, FAR) * mean)
    return np.asarray(tolerance) * mean + slack


def fill_empty(src: np.ndarray, dst: np.ndarray, part: np.ndarray, num_parts: int) -> np.ndarray:
    """Give every empty part one node; returns a new assignment (``part`` when none is empty).

    Each empty part takes the node with the fewest edges inside its own part (the cheapest move),
    from the parts with most nodes, among the nodes of parts that keep at least one. A node fits
    any empty part (no constraint can be over its cap with one node: caps are at least the heaviest
    node, :func:`achievable_tolerance`). One pass per empty part.

    Parameters
    ----------
    src, dst : numpy.ndarray of int
        Every edge of the graph.
    part : numpy.ndarray of int
        The part, in ``[0, num_parts)``, of every node; not changed.
    num_parts : int
        The number of parts.

    Returns
    -------
    numpy.ndarray of int
        A copy of ``part`` in which every part holds a node; ``part`` itself when no part is
        empty or there are fewer nodes than parts. Among the nodes of parts with at least two,
        the one with the fewest edges inside its part moves first, ties going to the node of
        the part with most nodes; a moved node is not moved again.

    Examples
    --------
    >>> src, dst = np.array([0, 1, 2]), np.array([1, 2, 0])   # a triangle and a lone node 3
    >>> fill_empty(src, dst, np.array([0, 0, 0, 0]), 2).tolist()
    [0, 0, 0, 1]
    """
    counts = np.bincount(part, minlength=num_parts)
    empty = np.flatnonzero(counts == 0)
    if not len(empty) or len(part) < num_parts:
        return part
    part = part.copy()
    same = part[src] == part[dst]
    inside = np.bincount(src[same], minlength=len(part)) + np.bincount(
        dst[same], minlength=len(part)
    )
    taken = np.zeros(len(part), dtype=bool)
    for e in empty:  # at most num_parts passes, each over the nodes at once
        cand = np.flatnonzero((counts[part] >= 2) & ~taken)
        pick = cand[np.lexsort((-counts[part[cand]], inside[cand]))[0]]
        counts[part[pick]] -= 1
        counts[e] += 1
        part[pick], taken[pick] = e, True
    logger.info("gave %d empty part(s) a node each", len(empty))
    return part


def _loads(part: np.ndarray, w: np.ndarray | None, num_parts: int) -> np.ndarray:
    """``(num_parts, ncon)`` loads (``w`` ``None``: node counts)."""
    if w is None:
        return np.bincount(part, minlength=num_parts)[:, None]
    return part_sums(part, w, num_parts)


def _problems(
    part: np.ndarray, w: np.ndarray | None, num_parts: int, limit: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty parts, constraints over their far limit, and the loads ``(num_parts, ncon)``."""
    counts = np.bincount(part, minlength=num_parts)
    loads = counts[:, None] if w is None else part_sums(part, w, num_parts)
    empty = np.flatnonzero(counts == 0)
    if len(part) < num_parts:
        empty = empty[:0]
    return empty, np.flatnonzero(loads.max(axis=0) > limit + 1e-9), loads


def _describe(
    empty: np.ndarray, far: np.ndarray, loads: np.ndarray, tolerance: np.ndarray, names: list[str]
) -> str:
    mean = loads.sum(axis=0) / len(loads)
    said = [f"part(s) {short_repr(empty.tolist())} empty"] if len(empty) else []
    said += [
        f"constraint {names[c]!r} at {loads[:, c].max() / mean[c]:.2f} x its mean (loads per "
        f"part {short_repr(loads[:, c].round(2).tolist())}, tolerance {tolerance[c]:.3f}, bound "
        f"{tolerance[c] * mean[c]:.1f})"
        for c in far
    ]
    return "; ".join(said)


def repair_assignment(
    src: np.ndarray,
    dst: np.ndarray,
    part: np.ndarray,
    num_parts: int,
    weights: np.ndarray | None,
    classes: np.ndarray | None,
    tolerance: np.ndarray,
    rng: np.random.Generator,
    names: Callable[[], Sequence[str]] | None = None,
) -> np.ndarray:
    """``part``, or a repair of it where a part is empty or a constraint is far outside its
    tolerance: held as well as possible, with a :class:`~graphpart.errors.BalanceWarning` (or
    into :func:`~.best_effort.shortfalls_collected`) naming what was not held; a
    :class:`~graphpart.errors.GraphpartError` only for an empty part or a class whole in one.

    Parameters
    ----------
    src, dst : ndarray of int
        Every edge of the graph.
    part : ndarray of int
        The assignment (every node in ``[0, num_parts)``); not changed.
    num_parts : int
        The number of parts.
    weights : ndarray or None
        ``(n, ncon)`` load of every node in every constraint (``None``: node counts).
    classes : ndarray or None
        Balance class of every node (deals the edgeless nodes out while repairing).
    tolerance : ndarray
        Allowed ``max load / mean`` per constraint, one a split can meet.
    rng : Generator
        Drives the refinement (:func:`~graphpart.partitioning.refine.refine_assignment`).
    names : callable, optional
        Returns a name per constraint, for the messages (called only when one is needed).

    Returns
    -------
    ndarray of int
        ``part`` itself when no part is empty and no constraint is far outside its tolerance
        (:func:`far_limits`); else a new assignment, with no part empty, that holds each
        constraint as well as the repair could.

    Raises
    ------
    GraphpartError
        Only where a repair is needed: if ``nodes x parts`` exceeds
        :data:`~graphpart.partitioning.refine.MAX_TABLE_CELLS`, if a part stays empty, or if a
        class of at least ``num_parts`` nodes lies whole in one part after the repair
        (:func:`~.best_effort.check_spread`).

    Examples
    --------
    >>> src, dst = np.array([0, 1, 2, 3, 4]), np.array([1, 2, 3, 4, 5])   # a path of 6 nodes
    >>> part = np.array([0, 0, 0, 0, 0, 1])                               # 5 + 1 nodes
    >>> rng = np.random.default_rng(0)
    >>> new = repair_assignment(src, dst, part, 3, None, None, np.array([1.03]), rng)
    >>> np.bincount(new).tolist()
    [2, 2, 2]
    """
    w = None if weights is None else np.asarray(weights, dtype=np.int64)
    tolerance = np.asarray(tolerance, dtype=np.float64)
    limit = far_limits(*constraint_totals(w, len(part)), num_parts, tolerance)
    empty, far, loads = _problems(part, w, num_parts, limit)
    if not len(empty) and not len(far):
        return part

    def said(empty: np.ndarray, far: np.ndarray, loads: np.ndarray) -> str:
        labels = list(names()) if names is not None else [f"column {c}" for c in range(len(limit))]
        return _describe(empty, far, loads, tolerance, labels)

    if len(part) * num_parts > MAX_TABLE_CELLS:
        raise GraphpartError(
            f"the assignment into {num_parts} parts is degenerate ({said(empty, far, loads)}), and "
            f"{len(part)} nodes x {num_parts} parts is too large to repair; loosen the balance "
            "(metis_options ufactor) or balance fewer classes"
        )
    logger.info("repairing the assignment: %s", said(empty, far, loads))
    new = refine_assignment(src, dst, part, num_parts, w, classes, tolerance, rng, REPAIR_ROUNDS)
    new = fill_empty(src, dst, new, num_parts)
    empty, far, loads = _problems(new, w, num_parts, limit)
    if len(far):  # best effort: loosen, in a defined order, what cannot be held, and go on
        new = _loosened(src, dst, new, num_parts, w, classes, tolerance, limit, far, rng)
        empty, far, loads = _problems(new, w, num_parts, limit)
    if len(empty):
        raise GraphpartError(
            f"no assignment into {num_parts} parts leaves every part a node: "
            f"{said(empty, far[:0], loads)}; use fewer parts"
        )
    check_spread(new, classes, num_parts)
    if len(far):
        labels = list(names()) if names is not None else [f"column {c}" for c in range(len(limit))]
        mean = loads.sum(axis=0) / num_parts
        report_shortfalls(
            [(labels[c], float(loads[:, c].max() / mean[c]), float(tolerance[c])) for c in far]
        )
    return new


def _loosen_order(w: np.ndarray | None, far: np.ndarray, ncon: int) -> list[np.ndarray]:
    """Groups of the ``far`` columns, loosened one group after the other where a repair cannot
    hold every constraint: in-degree columns (the second half of
    :func:`~.balance.balance_weights`'s columns when there are two per class), smallest class
    first, then node-count columns (a class of few nodes and hubs has the least room)."""
    if w is None or ncon < 2:
        return [far]
    half = ncon // 2 if ncon % 2 == 0 else ncon
    size = w[:, :half].sum(axis=0) if half < ncon else w.sum(axis=0)
    degree = far[far >= half] if half < ncon else far[:0]
    counts = far[far < half]
    by_size = lambda cols: cols[np.argsort(size[cols % half], kind="stable")]  # noqa: E731
    return [g for g in (by_size(degree), by_size(counts)) if len(g)]


def _loosened(src, dst, part, num_parts, w, classes, tolerance, limit, far, rng) -> np.ndarray:
    """Refine again with the ``far`` constraints loosened to what they reached, group by group
    (:func:`_loosen_order`), until the others hold; returns the best assignment found (fewest
    constraints far outside, then the lowest overshoot)."""
    best, best_key = part, _overshoot(part, w, num_parts, limit)
    tol = np.asarray(tolerance, dtype=np.float64).copy()
    for group in _loosen_order(w, far, len(limit)):
        loads = _loads(part, w, num_parts)
        mean = np.maximum(loads.sum(axis=0) / num_parts, 1e-12)
        tol[group] = np.maximum(tol[group], loads[:, group].max(axis=0) / mean[group] * (1 + 1e-6))
        part = refine_assignment(src, dst, part, num_parts, w, classes, tol, rng, REPAIR_ROUNDS)
        part = fill_empty(src, dst, part, num_parts)
        key = _overshoot(part, w, num_parts, limit)
        if key < best_key:
            best, best_key = part, key
        if key[0] == 0:
            break
    return best


def _overshoot(part, w, num_parts, limit) -> tuple[int, float]:
    """(constraints far outside, their summed overshoot over the far limit as a share of it)."""
    over = _loads(part, w, num_parts).max(axis=0) - limit
    bad = over > 1e-9
    return int(bad.sum()), float((over[bad] / np.maximum(limit[bad], 1)).sum())

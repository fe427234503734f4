"""Trainers within machines: each machine's nodes split into ``num_trainers_per_machine`` parts.

:func:`~graphpart.partitioning.core.partition` balances the machines first (METIS over the whole
graph), then splits every machine here, so machine balance is what METIS gave the machines and
trainer balance is kept inside each machine. DGL splits into ``machines * trainers`` parts at
once and derives machines from trainer ids, which lets the machines drift apart.
"""

from __future__ import annotations

import numpy as np

from ..errors import GraphpartError
from ..typing import Seed
from ..utils.check import short_repr
from ..utils.seeds import check_random_state
from .best_effort import shortfalls_collected, warn_shortfalls
from .metis import metis_assignment

__all__ = ["metis_two_levels"]


def metis_trainers(
    src: np.ndarray,
    dst: np.ndarray,
    machine: np.ndarray,
    num_machines: int,
    trainers: int,
    *,
    balance_ntypes: np.ndarray | None = None,
    balance_edges: bool = False,
    seed: Seed = None,
    **metis_kwargs,
) -> np.ndarray:
    """Split every machine's nodes into ``trainers`` parts; returns ``machine * trainers + local``.

    Each machine's induced subgraph (the edges with both ends on it) goes through
    :func:`metis_assignment` with the same constraints as the machines had: the classes of
    ``balance_ntypes``, and with ``balance_edges`` the in-degrees *in the whole graph*. Machines are
    balanced first, so their balance is what METIS gave them; trainers are balanced inside each.
    A machine with fewer nodes than ``trainers`` deals them out in turn.

    Parameters
    ----------
    src, dst : ndarray of int
        The edges of the whole graph.
    machine : ndarray of int
        Machine of every node, in ``[0, num_machines)``.
    num_machines, trainers : int
        The number of machines, and of trainers per machine.
    balance_ntypes, balance_edges, seed
        As for :func:`metis_assignment` (``balance_ntypes`` over the whole graph's nodes).
    **metis_kwargs
        Passed on to :func:`metis_assignment` (``objtype``, ``options``, ``max_edges``, ...);
        not ``in_degrees`` or ``spread_isolated``, which are set here.

    Returns
    -------
    ndarray of int64
        The trainer of every node, ``machine * trainers + local`` with ``local`` in
        ``[0, trainers)``.

    Examples
    --------
    >>> src = np.array([0, 1, 2, 3, 4, 5, 6, 7]); dst = np.array([1, 0, 3, 2, 5, 4, 7, 6])
    >>> machine = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    >>> t = metis_trainers(src, dst, machine, 2, 2, seed=0)
    >>> bool(np.all(t // 2 == machine)), np.bincount(t).tolist(), bool(np.all(t[src] == t[dst]))
    (True, [2, 2, 2, 2], True)
    """
    rng = check_random_state(seed)
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    machine = np.asarray(machine, dtype=np.int64)
    n = len(machine)
    in_deg = np.bincount(dst, minlength=n) if balance_edges else None
    # nodes, and the edges inside one machine, grouped by machine (stable: ids stay in order)
    order = np.argsort(machine, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(machine, minlength=num_machines))])
    local = np.empty(n, dtype=np.int64)
    local[order] = np.arange(n) - np.repeat(bounds[:-1], np.diff(bounds))
    on = machine[src]
    inside = np.flatnonzero(on == machine[dst])
    inside = inside[np.argsort(on[inside], kind="stable")]
    edge_bounds = np.searchsorted(on[inside], np.arange(num_machines + 1))
    del on
    trainer = np.empty(n, dtype=np.int64)
    for m in range(num_machines):
        nodes = order[bounds[m] : bounds[m + 1]]
        if len(nodes) <= trainers:  # too few for METIS: one each
            trainer[nodes] = m * trainers + rng.permutation(len(nodes))
            continue
        e = inside[edge_bounds[m] : edge_bounds[m + 1]]
        sub = metis_assignment(
            local[src[e]],
            local[dst[e]],
            len(nodes),
            trainers,
            balance_ntypes=None if balance_ntypes is None else np.asarray(balance_ntypes)[nodes],
            balance_edges=balance_edges,
            in_degrees=None if in_deg is None else in_deg[nodes],
            seed=rng,
            spread_isolated=True,  # a trainer's seeds: the isolated ones are work too
            **metis_kwargs,
        )
        trainer[nodes] = m * trainers + sub
    return trainer


def metis_two_levels(
    src: np.ndarray,
    dst: np.ndarray,
    num_nodes: int,
    num_machines: int,
    trainers: int,
    *,
    seed: Seed = None,
    **kwargs,
) -> tuple[np.ndarray, tuple[tuple[str, str, float, float], ...]]:
    """Machines first (METIS over the whole graph), then each machine's trainers inside it
    (:func:`metis_trainers`); returns the trainer of every node (``machine * trainers + local``)
    and the constraints not held, ``(level, constraint, max / mean, tolerance)``.

    What cannot be held is held as well as possible (the repair loosens, in a defined order, what
    no split meets) and said once, in one :class:`~graphpart.errors.BalanceWarning` naming the
    machine- and trainer-level constraints; a trainer-level one missed on several machines is
    named once, at its worst.

    Parameters
    ----------
    src, dst : numpy.ndarray of int
        The edges of the graph.
    num_nodes : int
        The number of nodes.
    num_machines : int
        The number of machines (METIS parts at the first level).
    trainers : int
        Trainers per machine; 1 skips the second level.
    seed : int, numpy.random.Generator or None, default None
        Seeds both levels.
    **kwargs
        Passed on to :func:`metis_assignment` at both levels (``balance_ntypes``,
        ``balance_edges``, ``objtype``, ``options``, ``max_edges``, ...).

    Returns
    -------
    trainer : numpy.ndarray of int64
        The trainer of every node, ``machine * trainers + local``.
    shortfalls : tuple of tuple of (str, str, float, float)
        ``(level, constraint, max / mean, tolerance)`` for each constraint not held, ``level``
        being ``"machine"`` or ``"trainer"``; empty when every constraint was held.

    Raises
    ------
    GraphpartError
        If some trainer gets no node although there are at least as many nodes as trainers.

    Examples
    --------
    >>> src = np.array([0, 1, 2, 3, 4, 5, 6, 7]); dst = np.array([1, 0, 3, 2, 5, 4, 7, 6])
    >>> t, short = metis_two_levels(src, dst, 8, 2, 2, seed=0)
    >>> np.bincount(t).tolist(), short
    ([2, 2, 2, 2], ())
    """
    rng = check_random_state(seed)
    with shortfalls_collected() as machine_short:
        trainer = metis_assignment(src, dst, num_nodes, num_machines, seed=rng, **kwargs)
    trainer_short: list = []
    if trainers > 1:
        with shortfalls_collected() as trainer_short:
            trainer = metis_trainers(src, dst, trainer, num_machines, trainers, seed=rng, **kwargs)
    held = np.bincount(trainer, minlength=num_machines * trainers)
    if num_nodes >= len(held) and held.min() == 0:
        raise GraphpartError(
            f"no assignment found that gives each of the {len(held)} trainers a node (trainer "
            f"{int(held.argmin())} has none; nodes per trainer {short_repr(held[:16].tolist())}); "
            "use fewer machines or trainers"
        )
    worst: dict[tuple[str, str], tuple[float, float]] = {}
    for level, found in (("machine", machine_short), ("trainer", trainer_short)):
        for name, ratio, tol in found:
            if (level, name) not in worst or ratio > worst[level, name][0]:
                worst[level, name] = (ratio, tol)
    short = tuple((level, name, r, t) for (level, name), (r, t) in worst.items())
    if short:
        warn_shortfalls(short, stacklevel=3)
    return trainer, short

"""What a partitioner could not hold, said once; and what it refuses whatever the balance.

A repair that cannot hold a constraint to its tolerance keeps the best assignment it found and
reports ``(constraint, max / mean, tolerance)``: into :func:`shortfalls_collected` when a caller
gathers several repairs (a machine split, then every machine's trainers) to say them together,
else at once in a :class:`~graphpart.errors.BalanceWarning` (:func:`warn_shortfalls`).
:func:`check_spread` refuses the one outcome no training run can use whatever the tolerance: a
class of at least ``num_parts`` nodes lying whole in one part.
"""

from __future__ import annotations

import contextlib
import contextvars
import warnings
from collections.abc import Iterator, Sequence

import numpy as np

from ..errors import BalanceWarning, GraphpartError

__all__ = ["shortfalls_collected"]

#: Where :func:`report_shortfalls` puts them while :func:`shortfalls_collected` is active.
_SINK: contextvars.ContextVar[list | None] = contextvars.ContextVar("shortfalls", default=None)


@contextlib.contextmanager
def shortfalls_collected() -> Iterator[list]:
    """Collect the ``(constraint, max / mean, tolerance)`` that repairs inside the block could
    not hold, instead of warning about each: a caller running several says them once.

    A context manager; blocks may nest (the innermost one collects). Nothing is warned about on
    leaving the block: the caller decides what to say (:func:`warn_shortfalls`).

    Yields
    ------
    list of tuple
        The list that :func:`report_shortfalls` extends inside the block, one
        ``(constraint, max / mean, tolerance)`` per constraint not held; it keeps its entries
        after the block.
    """
    sink: list = []
    token = _SINK.set(sink)
    try:
        yield sink
    finally:
        _SINK.reset(token)


def warn_shortfalls(short: Sequence[tuple], stacklevel: int = 2) -> None:
    """One :class:`~graphpart.errors.BalanceWarning` naming every constraint not held; each of
    ``short`` ends in ``(name, ratio, tolerance)``, anything before the name (a level) is said
    before it.

    Parameters
    ----------
    short : sequence of tuple
        The constraints not held: ``(name, ratio, tolerance)`` or ``(level, name, ratio,
        tolerance)``, ``ratio`` the heaviest part's load over the mean. The warning carries them
        as a tuple in its second argument. Warns even when ``short`` is empty.
    stacklevel : int, default 2
        As for :func:`warnings.warn`, counted from the caller of this function (2: the warning
        points at that caller's caller).
    """
    said = "; ".join(
        " ".join(str(x) for x in s[:-2]) + f" at {s[-2]:.3f} x its mean (tolerance {s[-1]:.3f})"
        for s in short
    )
    warnings.warn(
        BalanceWarning(
            f"balance held as well as possible; not within tolerance: {said} "
            "(p.balance_shortfalls; loosen metis_options ufactor or balance fewer classes)",
            tuple(short),
        ),
        stacklevel=stacklevel + 1,
    )


def report_shortfalls(short: Sequence[tuple[str, float, float]]) -> None:
    """Into the active :func:`shortfalls_collected`, else :func:`warn_shortfalls`.

    Parameters
    ----------
    short : sequence of tuple of (str, float, float)
        ``(constraint, max / mean, tolerance)`` for each constraint not held. Outside
        :func:`shortfalls_collected` an empty ``short`` warns nothing.
    """
    sink = _SINK.get()
    if sink is not None:
        sink.extend(short)
    elif short:
        warn_shortfalls(short, stacklevel=3)


def check_spread(part: np.ndarray, classes: np.ndarray | None, num_parts: int) -> None:
    """Refuse what no training run can use: a class of at least ``num_parts`` nodes held by one
    part alone (every other machine would go without it).

    Parameters
    ----------
    part : numpy.ndarray of int
        The part, in ``[0, num_parts)``, of every node.
    classes : numpy.ndarray of int or None
        The balance class (a non-negative int) of every node; ``None`` checks nothing.
    num_parts : int
        The number of parts; below 2 checks nothing.

    Raises
    ------
    GraphpartError
        If a class of at least ``num_parts`` nodes lies whole in one part (the first such
        class is named).

    Examples
    --------
    >>> check_spread(np.array([0, 1, 0, 1]), np.array([0, 0, 1, 1]), 2)   # each class spread
    >>> check_spread(np.array([0, 0, 1, 1]), np.array([0, 0, 1, 1]), 2)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: no assignment into 2 parts found that spreads every ...
    """
    if classes is None or num_parts < 2 or not len(part):
        return
    cls = np.asarray(classes, dtype=np.int64)
    ncls = int(cls.max()) + 1
    held = np.bincount(cls * num_parts + part, minlength=ncls * num_parts).reshape(ncls, -1)
    size = held.sum(axis=1)
    whole = np.flatnonzero((size >= num_parts) & (held.max(axis=1) == size))
    if len(whole):
        c = int(whole[0])
        raise GraphpartError(
            f"no assignment into {num_parts} parts found that spreads every balance class: class "
            f"{c} ({int(size[c])} nodes) lies whole in part {int(held[c].argmax())}; balance "
            "fewer classes or use fewer parts"
        )

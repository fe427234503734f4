"""Which setting trains fastest: the Pareto set of a sweep over (estimated epoch, edge cut,
replication), the winner and why.

:func:`graphpart.sweep.sweep` with a :class:`~graphpart.training.TrainingSetup` prices every
setting's epoch (a replay of every trainer's mini-batches under a cluster model). A setting is
*dominated* when another is no worse on all three figures and better on one: it is never the one
to pick. The pick is the setting with the lowest cut (then replication) among those whose epoch
ties with the fastest (:func:`~graphpart.training.is_tie`: within
:data:`~graphpart.training.TIE`, the one tie rule of every view): a lower cut leaves more room on
a real cluster, and a gap that small can flip with the sampling seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .errors import GraphpartError
from .sweep import SweepResult
from .training.estimate import TIE, is_tie, seconds
from .utils.report import Report

__all__ = ["Recommendation", "recommend", "break_even"]


@dataclass(frozen=True)
class Recommendation:
    """The outcome of :func:`recommend`.

    Attributes
    ----------
    best : SweepResult
        The setting to pick.
    fastest : SweepResult
        The setting with the shortest estimated epoch (``best`` too, unless a setting that ties
        with it cuts fewer edges).
    pareto : tuple of SweepResult
        Every setting no other beats on epoch, cut and replication at once, fastest first.
    dominated : dict of str to str
        Each other setting's label, and the label of one setting that beats it on all three.
    why : str
        One paragraph: why ``best``, against another best trade-off (the Pareto set's next
        setting) and the slowest setting.
    """

    best: SweepResult
    fastest: SweepResult
    pareto: tuple[SweepResult, ...]
    dominated: dict[str, str]
    why: str

    @property
    def headline(self) -> str:
        """One line for a view's title: the pick, and the fastest when that is another setting.

        Examples
        --------
        >>> from graphpart.datasets import sbm
        >>> from graphpart.sweep import grid, sweep
        >>> from graphpart.training import TrainingSetup
        >>> g = sbm([200] * 4, 0.05, 0.002, seed=0)
        >>> setup = TrainingSetup(fanouts=(5, 5), batch_size=32, train=None)
        >>> settings = grid(part_method=["random", "metis"], num_parts=4)
        >>> recommend(sweep(g, settings, training=setup)).headline
        'Fastest: metis k=4 (...)'
        """
        best, fastest = self.best, self.fastest
        line = f"{best.setting.label} ({seconds(best.epoch_s)})"
        if best is fastest:
            return f"Fastest: {line}"
        return (
            f"Pick: {line}, a tie with the fastest, {fastest.setting.label} "
            f"({seconds(fastest.epoch_s)}, within {100 * TIE:.0f}%), at a lower cut"
        )

    def report(self) -> Report:
        """The Pareto set as a table (the winner first), the reason below it."""
        rows = self.pareto
        cols = {
            "setting": [r.setting.label for r in rows],
            "epoch (est.)": [seconds(r.epoch_s) for r in rows],
            "cut %": [round(100 * r.edge_cut_fraction, 2) for r in rows],
            "replication": [round(_replication(r), 3) for r in rows],
            "straggler": [f"{r.epoch.straggler_ratio:.2f}x" for r in rows],
        }
        return Report("fastest settings (Pareto set)", cols, {"pick": self.why}, index="#")

    def _repr_html_(self) -> str:
        return self.report()._repr_html_()

    def __str__(self) -> str:
        return str(self.report())


def _replication(r: SweepResult) -> float:
    return float(r.partitioning.metrics.replication_factor)


def recommend(results: Sequence[SweepResult]) -> Recommendation:
    """The setting that trains fastest among ``results`` (a :func:`~graphpart.sweep.sweep` run
    with ``training=``), the Pareto set over (estimated epoch, edge cut, replication), and why.

    Parameters
    ----------
    results : sequence of SweepResult
        At least one result, each with an epoch estimate (a sweep run with ``training=``).

    Returns
    -------
    Recommendation
        The winner, the Pareto set (the winner first, then by epoch, cut and replication), each
        dominated setting with one that beats it, and the reason as text.

    Raises
    ------
    GraphpartError
        If ``results`` is empty, holds anything but :class:`SweepResult`, or a result has no
        epoch estimate.

    Examples
    --------
    >>> from graphpart.datasets import sbm
    >>> from graphpart.sweep import grid, sweep
    >>> from graphpart.training import TrainingSetup
    >>> g = sbm([200] * 4, 0.05, 0.002, seed=0)
    >>> setup = TrainingSetup(fanouts=(5, 5), batch_size=32, train=None)
    >>> settings = grid(part_method=["random", "metis"], num_parts=4)
    >>> rec = recommend(sweep(g, settings, training=setup))
    >>> rec.best.setting.label, rec.dominated
    ('metis k=4', {'random k=4': 'metis k=4'})
    """
    results = list(results)
    if not results or not all(isinstance(r, SweepResult) for r in results):
        raise GraphpartError("recommend needs the results of graphpart.sweep.sweep (a list)")
    if any(r.epoch is None for r in results):
        raise GraphpartError(
            "recommend needs every setting's epoch estimate: run sweep(g, settings, "
            "training=TrainingSetup(...))"
        )
    figures = np.array([[r.epoch_s, r.edge_cut_fraction, _replication(r)] for r in results])
    dominated: dict[str, str] = {}
    keep = []
    for i, r in enumerate(results):
        beats = np.all(figures <= figures[i], axis=1) & np.any(figures < figures[i], axis=1)
        if beats.any():
            dominated[r.setting.label] = results[int(np.flatnonzero(beats)[0])].setting.label
        else:
            keep.append(i)
    order = sorted(keep, key=lambda i: (figures[i, 0], figures[i, 1], figures[i, 2]))
    fastest_i = order[0]  # the fastest of all: a faster setting would not be dominated
    # the lowest cut, then replication, then epoch, among the ties: never a dominated one
    ties = [i for i in order if is_tie(figures[i, 0], figures[fastest_i, 0])]
    best_i = min(ties, key=lambda i: (figures[i, 1], figures[i, 2], figures[i, 0]))
    pareto = tuple(results[i] for i in [best_i, *(i for i in order if i != best_i)])
    why = _why(results, figures, best_i, fastest_i, pareto)
    return Recommendation(pareto[0], results[fastest_i], pareto, dominated, why)


def _why(results, figures, best_i: int, fastest: int, pareto) -> str:
    best = results[best_i]
    e, cut, rep = figures[best_i]
    text = (
        f"{best.setting.label}: estimated epoch {seconds(e)} with {100 * cut:.1f}% of edges cut "
        f"and replication {rep:.2f}; its slowest trainer is {best.epoch.straggler_ratio:.2f}x the "
        f"mean ({best.epoch.why()})"
    )
    if fastest != best_i:  # a tie, at a higher cut
        f = figures[fastest, 0]
        text += (
            f". {results[fastest].setting.label} is the fastest at {seconds(f)}: this one takes "
            f"{100 * (e / f - 1):.1f}% longer, a tie within the model's {100 * TIE:.0f}%, and "
            f"cuts fewer edges than its {100 * figures[fastest, 1]:.1f}%"
        )
    slowest = int(figures[:, 0].argmax())
    said = (results[best_i], results[fastest])  # the fastest, if not the pick, is named above
    runner = next((r for r in pareto[1:] if all(r is not s for s in said)), None)
    named_slowest = slowest != best_i and runner is not results[slowest]
    if named_slowest:  # the next best trade-off, when also the slowest, is said so once, below
        text += (
            f". The slowest setting, {results[slowest].setting.label}, takes "
            f"{figures[slowest, 0] / e:.2f}x as long"
        )
    if runner is not None:
        re_ = runner.epoch_s
        tie = " (a tie within the model's accuracy)" if is_tie(max(re_, e), min(re_, e)) else ""
        also = f", also the slowest ({re_ / e:.2f}x as long)" if runner is results[slowest] else ""
        which = "other" if len(pareto) == 2 else "next"  # a setting no other beats on all three
        text += (
            f"{'; the' if named_slowest else '. The'} {which} best trade-off, "
            f"{runner.setting.label}{also}, takes {seconds(re_)}{tie} and cuts "
            f"{100 * runner.edge_cut_fraction:.1f}%"
        )
    return text + "."


def break_even(result: SweepResult, baseline: SweepResult) -> float | None:
    """After how many epochs ``result`` is ahead of ``baseline`` for good, partitioning included.

    ``result`` took ``result.seconds - baseline.seconds`` more to partition (wall clock, this
    machine) and saves ``baseline.epoch_s - result.epoch_s`` per epoch (estimated, the cluster
    model): the ratio is the number of epochs after which it is ahead. A setting slower per
    epoch is never ahead for good, even when it was quicker to partition (it is ahead at first,
    then falls behind).

    Parameters
    ----------
    result, baseline : SweepResult
        Two settings of a sweep run with ``training=``.

    Returns
    -------
    float or None
        ``0.0`` when ``result`` is no slower to partition and no slower per epoch; ``None`` when
        it is never ahead for good: slower per epoch, or as fast per epoch but slower to
        partition.

    Examples
    --------
    >>> from types import SimpleNamespace as R
    >>> break_even(R(seconds=2.0, epoch_s=0.5), R(seconds=0.5, epoch_s=1.0))
    3.0
    >>> break_even(R(seconds=2.0, epoch_s=0.9), R(seconds=0.5, epoch_s=0.8)) is None
    True
    >>> break_even(R(seconds=0.4, epoch_s=0.9), R(seconds=0.5, epoch_s=0.8)) is None  # behind later
    True
    """
    if result.epoch_s is None or baseline.epoch_s is None:
        raise GraphpartError("break_even needs epoch estimates: run sweep(..., training=...)")
    extra = result.seconds - baseline.seconds
    saved = baseline.epoch_s - result.epoch_s
    if saved < 0 or (saved == 0 and extra > 0):
        return None
    return max(extra, 0.0) / saved if saved > 0 else 0.0

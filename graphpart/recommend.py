"""Which setting trains fastest: the Pareto set of a sweep over (estimated epoch, edge cut,
replication), the winner and why.

:func:`graphpart.sweep.sweep` with a :class:`~graphpart.training.TrainingSetup` prices every
setting's epoch (a replay of every trainer's mini-batches under a cluster model). A setting is
*dominated* when another is no worse on all three figures and better on one: it is never the one
to pick. Among the rest, the shortest estimated epoch wins (ties within :data:`TIE`: the lower
cut, then the lower replication, which leave more room on a real cluster).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .errors import GraphpartError
from .sweep import SweepResult
from .training.estimate import seconds
from .utils.report import Report

__all__ = ["Recommendation", "recommend", "TIE"]

#: Epoch estimates within this share of each other are a tie (the model is an estimate).
TIE = 0.02


@dataclass(frozen=True)
class Recommendation:
    """The outcome of :func:`recommend`.

    Attributes
    ----------
    best : SweepResult
        The setting to pick.
    pareto : tuple of SweepResult
        Every setting no other beats on epoch, cut and replication at once, fastest first.
    dominated : dict of str to str
        Each other setting's label, and the label of one setting that beats it on all three.
    why : str
        One paragraph: why ``best``, against the runner-up and the slowest setting.
    """

    best: SweepResult
    pareto: tuple[SweepResult, ...]
    dominated: dict[str, str]
    why: str

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
    # a setting within TIE of a faster one's epoch counts as no slower
    slack = figures.copy()
    slack[:, 0] *= 1 - TIE
    dominated: dict[str, str] = {}
    keep = []
    for i, r in enumerate(results):
        beats = np.all(slack <= figures[i], axis=1) & np.any(figures < figures[i], axis=1)
        beats[i] = False
        if beats.any():
            dominated[r.setting.label] = results[int(np.flatnonzero(beats)[0])].setting.label
        else:
            keep.append(i)
    order = sorted(keep, key=lambda i: (figures[i, 0], figures[i, 1], figures[i, 2]))
    fastest = figures[order[0], 0]
    ties = [i for i in order if figures[i, 0] <= fastest * (1 + TIE)]
    best_i = min(ties, key=lambda i: (figures[i, 1], figures[i, 2]))
    pareto = tuple(results[i] for i in [best_i, *(i for i in order if i != best_i)])
    return Recommendation(pareto[0], pareto, dominated, _why(results, figures, best_i, pareto))


def _why(results, figures, best_i: int, pareto) -> str:
    best = results[best_i]
    e, cut, rep = figures[best_i]
    text = (
        f"{best.setting.label}: estimated epoch {seconds(e)} with {100 * cut:.1f}% of edges cut "
        f"and replication {rep:.2f}; its slowest trainer is {best.epoch.straggler_ratio:.2f}x the "
        f"mean ({best.epoch.why()})"
    )
    fastest = int(figures[:, 0].argmin())
    if figures[fastest, 0] < e:  # faster within the model's accuracy, at a higher cut
        gain = 100 * (1 - figures[fastest, 0] / e)
        text += (
            f". {results[fastest].setting.label} is estimated {gain:.1f}% "
            f"faster ({seconds(figures[fastest, 0])}), within the model's {100 * TIE:.0f}%, but "
            f"cuts {100 * figures[fastest, 1]:.1f}% of edges"
        )
    slowest = int(figures[:, 0].argmax())
    if slowest != best_i:
        text += (
            f". The slowest setting, {results[slowest].setting.label}, takes "
            f"{figures[slowest, 0] / e:.2f}x as long"
        )
    if len(pareto) > 1:
        runner = pareto[1]
        re_ = runner.epoch_s
        tie = " (a tie within the model's accuracy)" if re_ <= e * (1 + TIE) else ""
        text += (
            f"; the runner-up, {runner.setting.label}, takes {seconds(re_)}{tie} and cuts "
            f"{100 * runner.edge_cut_fraction:.1f}%"
        )
    return text + "."

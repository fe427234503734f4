"""Epoch estimates drawn: each trainer's sampling / fetch / compute, and settings side by side."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ..palette import PHASE_COLORS
from ..utils.check import short_repr
from ..utils.units import sig3
from ._style import balance_colors, balance_key, get_axes

if TYPE_CHECKING:  # pragma: no cover
    from ..training.estimate import EpochEstimate

__all__ = ["plot_trainer_times", "plot_epoch_estimates", "plot_break_even"]


def _unit(seconds: float) -> tuple[str, float]:
    return ("ms", 1e3) if seconds < 1 else ("s", 1.0)


def plot_trainer_times(estimate: EpochEstimate, *, ax=None):
    """One stacked bar per trainer: its sampling, fetch and compute seconds per epoch.

    Trainers are grouped by machine (dotted lines between machines); the slowest trainer's
    label is bold, and a dashed line marks the epoch estimate (the slowest trainer of every step,
    summed: a trainer below it waits the difference).

    Parameters
    ----------
    estimate : EpochEstimate
        One setting's estimate (:meth:`~graphpart.training.TrainingSetup.estimate`); each bar
        is a trainer's busy time averaged over the replayed epochs.
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.training import TrainingSetup
    >>> setup = TrainingSetup(fanouts=(5,), train=None)
    >>> est = setup.estimate(gp.partition(load_karate_club(), 2, seed=0))
    >>> ax = plot_trainer_times(est)
    >>> len(ax.patches), ax.get_xlabel()
    (6, 'trainer (machine)')
    """
    from ..training import PARTS

    c = estimate.counts
    unit, scale = _unit(max(estimate.epoch_s, float(estimate.per_trainer().max(initial=0))))
    ax = get_axes(ax, (max(5.0, 0.55 * c.num_trainers + 2.5), 3.8))
    x = np.arange(c.num_trainers)
    bottom = np.zeros(c.num_trainers)
    for part in PARTS:
        h = estimate.per_trainer(part) * scale
        ax.bar(x, h, bottom=bottom, color=PHASE_COLORS[part], label=part, width=0.7)
        bottom += h
    ax.axhline(estimate.epoch_s * scale, color="black", ls="--", lw=1, label="epoch (estimate)")
    per = c.num_trainers_per_machine
    for b in range(per, c.num_trainers, per):
        ax.axvline(b - 0.5, color="grey", ls=":", lw=1)
    ax.set_xticks(x, [f"{r}\n(m{r // per})" for r in x], fontsize=8)
    ax.get_xticklabels()[estimate.straggler].set_fontweight("bold")
    ax.set_xlabel("trainer (machine)")
    ax.set_ylabel(f"busy time per epoch ({unit})")
    name = f"{estimate.label}: " if estimate.label else ""
    ax.set_title(
        f"{name}time per trainer; slowest is trainer {estimate.straggler}, "
        f"{estimate.straggler_ratio:.2f}x the mean",
        fontsize=10,
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)
    return ax


def plot_epoch_estimates(estimates: Sequence[EpochEstimate], *, ax=None):
    """One stacked bar per setting: its estimated epoch split into sampling, fetch and compute
    (the slowest trainer's parts at every step). The fastest setting's bar is outlined.

    Parameters
    ----------
    estimates : sequence of EpochEstimate
        At least one; each bar is labelled with its estimate's ``label`` (else its position).
        The title gives the first one's network speed.
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Raises
    ------
    GraphpartError
        When ``estimates`` is empty.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.training import TrainingSetup
    >>> g, setup = load_karate_club(), TrainingSetup(fanouts=(5,), train=None)
    >>> ests = [setup.estimate(gp.partition(g, 2, part_method=m, seed=0), label=m)
    ...         for m in ("random", "metis")]
    >>> ax = plot_epoch_estimates(ests)
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['random', 'metis']
    """
    from ..training import PARTS

    if not estimates:
        raise GraphpartError("plot_epoch_estimates needs at least one estimate, got none")
    epochs = np.array([e.epoch_s for e in estimates])
    unit, scale = _unit(float(epochs.max()))
    ax = get_axes(ax, (max(5.0, 1.3 * len(estimates) + 2.5), 3.8))
    x = np.arange(len(estimates))
    bottom = np.zeros(len(estimates))
    for part in PARTS:
        h = np.array([e.breakdown[part] for e in estimates]) * scale
        ax.bar(x, h, bottom=bottom, color=PHASE_COLORS[part], label=part, width=0.6)
        bottom += h
    best = int(np.argmin(epochs))
    ax.bar(x[best], bottom[best], width=0.6, fill=False, edgecolor="black", lw=2, label="fastest")
    for i, v in enumerate(bottom):
        text = f"{v:#.3g}".rstrip(".") + f" {unit}"  # 6.10 ms, as the verdict writes it
        ax.annotate(text, (x[i], v), ha="center", va="bottom", fontsize=8,
                    xytext=(0, 2), textcoords="offset points")  # fmt: skip
    names = ["\n".join(textwrap.wrap(e.label or str(i), 18)) for i, e in enumerate(estimates)]
    ax.set_xticks(x, names, fontsize=8)
    ax.set_ylabel(f"estimated epoch ({unit})")
    ax.margins(y=0.12)
    net = estimates[0].model.network_gbit_s
    ax.set_title(f"Estimated epoch per setting ({sig3(net)} Gb/s network)", fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)
    return ax


def plot_break_even(results: Sequence, baseline: str, *, max_epochs: int = 1000, ax=None):
    """Total time against epochs trained, per setting: partitioning once, then every epoch.

    Each line starts at the setting's partitioning time (``SweepResult.seconds``) and rises by
    its estimated epoch; where a line crosses the ``baseline``'s, it has paid back its
    partitioning (:func:`graphpart.recommend.break_even`, marked and labelled).

    Parameters
    ----------
    results : sequence of SweepResult
        A sweep run with ``training=``.
    baseline : str
        The label of the setting to compare with (e.g. ``"random k=4"``).
    max_epochs : int, default 1000
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    from ..recommend import break_even

    ax = get_axes(ax, (7, 4))
    by_label = {r.setting.label: r for r in results}
    if baseline not in by_label:
        raise GraphpartError(
            f"baseline must be one of {sorted(by_label)}, got {short_repr(baseline)}"
        )
    base = by_label[baseline]
    epochs = np.linspace(0, max_epochs, 200)
    colors = balance_colors([r.setting for r in results])  # as in plot_tradeoff's
    for r in results:
        total = r.seconds + epochs * r.epoch_s
        (line,) = ax.plot(
            epochs,
            total,
            lw=2 if r is base else 1.4,
            ls="--" if r.setting.method == "random" else "-",  # tradeoff's cross, its circle
            color=colors[balance_key(r.setting)],
            label=r.setting.label,
        )
        n = None if r is base else break_even(r, base)
        if n is not None and 0 < n <= max_epochs:
            y = r.seconds + n * r.epoch_s
            ax.plot([n], [y], "o", color=line.get_color())
            ax.annotate(
                # whole epochs, rounded up: paid back after 82.03 epochs is after the 83rd
                f"{math.ceil(n):,} epochs",
                (n, y),
                xytext=(6, -12),
                textcoords="offset points",
                fontsize=8,
            )
    ax.set(
        xlabel="epochs trained",
        ylabel="seconds: partitioning + epochs",
        title=f"When does partitioning pay back? (against {baseline})",
    )
    ax.legend(fontsize=8, frameon=False)
    return ax

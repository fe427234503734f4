"""``TrainerBars``: each trainer's busy time per epoch as a stacked bar you can point at.

The bars :func:`graphpart.viz.plot_trainer_times` draws, as HTML (anywidget, no build step):
hovering or clicking a bar sets :attr:`TrainerBars.hovered`, which Python follows (the
:class:`~graphpart.widgets.EpochCostView` then shows that trainer's reads on the graph).
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from ..palette import PHASE_COLORS

__all__ = ["TrainerBars"]


class TrainerBars(anywidget.AnyWidget):
    """Stacked bars, one per trainer (``bars``: label, machine and seconds of each part);
    ``hovered`` is the trainer the mouse last pointed at (kept when it leaves the chart, so
    what it shows stays while you look at it), synced both ways."""

    _esm = Path(__file__).with_name("trainer_bars.js")
    bars = traitlets.List(traitlets.Dict()).tag(sync=True)
    colors = traitlets.Dict(PHASE_COLORS).tag(sync=True)
    epoch_s = traitlets.Float(0.0).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    hovered = traitlets.Int(-1).tag(sync=True)


def bars_of(estimate) -> dict:
    """The traits of :class:`TrainerBars` for an :class:`~graphpart.training.EpochEstimate`.

    Parameters
    ----------
    estimate : EpochEstimate
        What :meth:`graphpart.training.TrainingSetup.estimate` returns.

    Returns
    -------
    dict
        ``"bars"``: one dict per trainer (``label``, ``machine``, seconds per part of its busy
        time under ``parts``, and whether it is the ``slowest``); ``"epoch_s"``: the epoch's
        estimated seconds; ``"title"``: the chart's title.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.training import TrainingSetup
    >>> setup = TrainingSetup(fanouts=(5,), train=None)
    >>> est = setup.estimate(gp.partition(load_karate_club(), 2, seed=0))
    >>> b = bars_of(est)
    >>> len(b["bars"]), sorted(b["bars"][0]["parts"])
    (2, ['compute', 'fetch', 'sampling'])
    """
    from ..training import PARTS

    c = estimate.counts
    per = {part: estimate.per_trainer(part) for part in PARTS}
    bars = [
        {
            "label": str(r),
            "machine": int(r // c.num_trainers_per_machine),
            "parts": {part: float(per[part][r]) for part in PARTS},
            "slowest": r == estimate.straggler,
        }
        for r in range(c.num_trainers)
    ]
    name = f"{estimate.label}: " if estimate.label else ""
    title = f"{name}busy time per trainer (hover a bar: its seeds and what it reads, on the graph)"
    return {"bars": bars, "epoch_s": float(estimate.epoch_s), "title": title}

"""The epoch's trainers to point at, in :class:`~graphpart.widgets.EpochCostView`: hover a
trainer's bar and the graph shows its seeds, the rows it read on its own machine and those it
fetched from others (:func:`graphpart.views.epoch.trainer_view_data` over the replay's
:class:`~graphpart.training.TrainerReads`)."""

from __future__ import annotations

import html
from collections.abc import Mapping

import ipywidgets as w
import numpy as np

from ..errors import GraphpartError
from ..storage.reopen import as_partitioning
from ..training import TrainingSetup
from ..utils.check import short_repr
from ..views.epoch import trainer_view_data
from ..views.graph import graph_data
from ._common import discard
from .graph_view import PartitionGraph
from .trainer_bars import TrainerBars, bars_of

__all__ = ["TrainerGraph"]


class TrainerGraph:
    """Bars of one setting's trainers and the graph of what the hovered one reads.

    Parameters
    ----------
    partitionings : dict of str to Partitioning
        By setting label, as the view's counts.
    setup : TrainingSetup
        The one the counts were replayed with: each trainer's reads are replayed with it again,
        node by node (once per trainer, kept).

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.training import TrainingSetup
    >>> setup = TrainingSetup(fanouts=(3,), batch_size=8, train=None)
    >>> p = gp.partition(load_karate_club(), 2, seed=0)
    >>> tg = TrainerGraph({"metis": p}, setup)
    >>> tg.show("metis", setup.estimate(p, "metis"))
    >>> tg.bars.hovered == tg.trainer, tg.view.title.endswith("reads")
    (True, True)
    >>> tg.bars.hovered = 1 - tg.trainer
    >>> tg.view.title
    '34 nodes in 2 partitions: what trainer 1 (machine 1) reads'
    """

    def __init__(self, partitionings: Mapping, setup: TrainingSetup, height: int = 420) -> None:
        if not isinstance(setup, TrainingSetup):
            raise GraphpartError(
                f"setup must be the TrainingSetup the counts were replayed with, got "
                f"{type(setup).__name__}"
            )
        if not isinstance(partitionings, Mapping):
            raise GraphpartError(
                f"partitionings must map each setting label to its partitioning, got "
                f"{type(partitionings).__name__}"
            )
        self.partitionings = {k: as_partitioning(p) for k, p in partitionings.items()}
        self.setup, self.height = setup, height
        self.label: str | None = None
        self.trainer = -1
        self._reads: dict = {}
        self._data: dict = {}
        self._counts: dict = {}  # each setting's counts, as the bars show them
        self.error: str | None = None
        self.note = w.HTML()
        self.note.add_class("graphpart-trainer-graph-error")
        self.bars = TrainerBars()
        self.bars.observe(lambda c: self._draw(c["new"]), "hovered")
        self.view: PartitionGraph | None = None
        self.widget = w.VBox([self.bars], layout=w.Layout(width="100%"))
        self.widget.add_class("graphpart-trainer-graph")

    def show(self, label: str, estimate) -> None:
        """The bars of ``label``'s trainers; the graph of its slowest trainer, or (the same
        setting, a new model: what a trainer reads does not depend on it) the graph kept."""
        if label not in self.partitionings:
            raise GraphpartError(
                f"no partitioning for {short_repr(label)}: {sorted(self.partitionings)}"
            )
        keep = label == self.label and 0 <= self.trainer < estimate.counts.num_trainers
        self.label = label
        self._counts[label] = estimate.counts
        with self.bars.hold_sync():
            for name, value in bars_of(estimate).items():
                setattr(self.bars, name, value)
        if keep:
            return
        trainer = int(estimate.straggler)
        if self.bars.hovered == trainer:
            self._draw(trainer)
        else:
            self.bars.hovered = trainer  # draws

    def _replayed(self, p, trainer: int):
        """The trainer's reads, replayed with the setup; refused unless that replay gives the
        very counts the bars show (another seed or trainer count would show another epoch)."""
        shown = self._counts[self.label]
        if trainer >= shown.num_trainers:
            raise GraphpartError(f"trainer {trainer} is not one of {shown.num_trainers}")
        try:
            counts = self.setup.replay(p, trainer)
        except GraphpartError as e:
            raise GraphpartError(f"the setup does not replay {self.label}'s counts: {e}") from None
        same = counts.num_trainers == shown.num_trainers and all(
            np.array_equal(counts.step[f], shown.step[f]) for f in shown.step
        )
        if not same:
            raise GraphpartError(
                f"the setup replays other counts than those shown for {self.label} (another "
                "seed, split or trainer count?): pass the TrainingSetup the counts came from, "
                "with a fixed seed"
            )
        return counts.reads

    def _draw(self, trainer: int) -> None:
        if trainer < 0 or self.label is None:
            return
        self.trainer = trainer
        p = self.partitionings[self.label]
        key = (self.label, trainer)
        if key not in self._reads:
            try:
                self._reads[key] = self._replayed(p, trainer)
            except GraphpartError as e:  # said on the view (a hover has no caller to raise to)
                self.error = str(e)
                self.note.value = f"<span style='color:#b00020'>{html.escape(self.error)}</span>"
                self.widget.children = [self.bars, self.note]
                return
        self.error = None
        if self.label not in self._data:
            self._data[self.label] = graph_data(p)
        data = trainer_view_data(p, self._data[self.label], self._reads[key])
        if self.view is None:
            self.view = PartitionGraph(p, data=data, height=self.height, panel=False)
            self.widget.children = [self.bars, self.view]
        elif self.view.p is not p:  # another setting: its own partitioning's cards
            old = self.view
            self.view = PartitionGraph(p, data=data, height=self.height, panel=False)
            self.widget.children = [self.bars, self.view]
            discard(old)
        else:
            self.view.draw(data)

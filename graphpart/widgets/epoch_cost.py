"""``EpochCostView``: set the machine model with sliders and see which setting trains fastest.

A thin view over :mod:`graphpart.training`: the counts of every setting are replayed once (the
slow part); every slider change re-prices them with :func:`~graphpart.training.estimate_epoch`,
which is array arithmetic, and redraws.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping

from ..errors import GraphpartError
from ..training import (
    TIE,
    ClusterModel,
    EpochCounts,
    EpochEstimate,
    TrainingSetup,
    calibrate,
    estimate_epoch,
    is_tie,
    seconds,
)
from ..utils.units import sig3
from ..viz import plot_epoch_estimates, plot_trainer_times
from ._common import form, image, render, status_widgets
from ._task import Task

__all__ = ["EpochCostView", "PRESETS"]

#: Network presets (Gbit/s) the view offers as buttons.
PRESETS = (1, 10, 100)

#: Slider per model field: (label, min, max, step, log scale).
_SLIDERS = {
    "network_gbit_s": ("network Gb/s", 0.0, 2.6, 0.05, True),
    "rpc_latency_us": ("RPC latency us", 0.0, 2000.0, 10.0, False),
    "pcie_gbyte_s": ("PCIe GB/s", 1.0, 64.0, 0.5, False),
    "gather_gbyte_s": ("gather GB/s", 0.1, 50.0, 0.1, False),
    "sample_medges_s": ("sampling M edges/s", 0.1, 100.0, 0.1, False),
    "gpu_tflops": ("GPU TFLOPS", 0.5, 100.0, 0.5, False),
}


class EpochCostView:
    """Sliders for a :class:`~graphpart.training.ClusterModel`, the estimated epoch of every
    setting, and one setting's trainers.

    Parameters
    ----------
    counts : dict of str to EpochCounts
        Replayed epochs by setting label (``replay_epochs`` or ``TrainingSetup.replay``).
    setup : TrainingSetup, optional
        The setup the counts were replayed with; its ``model`` is where the sliders start
        (``None``: the defaults).
    threaded : bool
        ``False`` runs ``calibrate`` in the caller's thread (scripts, tests).
    partitionings : dict of str to Partitioning, optional
        The partitioning of each setting; with ``setup``, the trainers' bars can be pointed at:
        hovering one shows on the graph its seeds, the rows it read on its machine and those it
        fetched from others (:attr:`trainer_graph`). :meth:`from_sweep` gives both.

    Attributes
    ----------
    model : ClusterModel
        The current model; setting it moves the sliders, moving a slider sets it.
    estimates : dict of str to EpochEstimate
    fastest : str
        The label of the setting with the shortest estimated epoch.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.training import replay_epochs
    >>> g = load_karate_club()
    >>> counts = {m: replay_epochs(gp.partition(g, 2, part_method=m, seed=0), fanouts=[5],
    ...                            train=None) for m in ("random", "metis")}
    >>> view = EpochCostView(counts, threaded=False)
    >>> view.model = view.model.with_(network_gbit_s=1.0)
    >>> view.sliders["network_gbit_s"].value, view.fastest in counts
    (1.0, True)
    """

    def __init__(
        self,
        counts: Mapping[str, EpochCounts],
        setup: TrainingSetup | None = None,
        *,
        threaded: bool = True,
        partitionings: Mapping | None = None,
    ) -> None:
        import ipywidgets as w

        from .trainer_graph import TrainerGraph

        if (
            not isinstance(counts, Mapping)
            or not counts
            or not all(isinstance(c, EpochCounts) for c in counts.values())
            or not all(isinstance(label, str) for label in counts)
        ):
            raise GraphpartError(
                "EpochCostView needs {str label: EpochCounts} (graphpart.training.replay_epochs), "
                f"got {type(counts).__name__}"
                + (f" of {len(counts)}" if isinstance(counts, Mapping) else "")
            )
        if setup is not None and not isinstance(setup, TrainingSetup):
            raise GraphpartError(
                f"setup must be a graphpart.training.TrainingSetup or None, got "
                f"{type(setup).__name__}"
            )
        self.counts = dict(counts)
        self._model = ClusterModel() if setup is None else setup.model
        self.estimates: dict[str, EpochEstimate] = {}
        field = form("130px", "330px")
        self.sliders = {}
        for name, (label, lo, hi, step, log) in _SLIDERS.items():
            kind = w.FloatLogSlider if log else w.FloatSlider
            extra = {"base": 10} if log else {}
            self.sliders[name] = field(
                kind, label, value=getattr(self._model, name), min=lo, max=hi, step=step,
                readout_format=".4", **extra,
            )  # fmt: skip
            self.sliders[name].observe(self._slid, "value")
        self._sync_sliders()  # a model past a slider's range widens it (no clamped readout)
        self.presets = [w.Button(description=f"{g:g} Gb/s", layout=w.Layout(width="90px"))
                        for g in PRESETS]  # fmt: skip
        for g, b in zip(PRESETS, self.presets):
            b.on_click(lambda _, g=g: self._set(network_gbit_s=float(g)))
        self.calibrate_button = w.Button(description="calibrate", icon="stopwatch")
        self.calibrate_button.on_click(lambda _: self.calibrate())
        self.setting = field(w.Dropdown, "show trainers of", options=list(self.counts))
        self.setting.observe(lambda _: self._draw(), "value")
        self.status, self.progress = status_widgets()
        self.task = Task(self.status, self.progress, threaded)
        self.verdict = w.HTML()
        self.verdict.add_class("graphpart-epoch-verdict")
        self.settings_plot = image("graphpart-epoch-settings")
        self.trainers_plot = image("graphpart-epoch-trainers")
        self.trainer_graph = None
        if partitionings is not None:
            self.trainer_graph = TrainerGraph(partitionings, setup)
            missing = sorted(set(self.counts) - set(self.trainer_graph.partitionings))
            if missing:
                raise GraphpartError(f"partitionings lacks the settings {missing}")
            self.trainers_plot = self.trainer_graph.widget
        left = w.VBox([*self.sliders.values(), w.HBox(self.presets), self.calibrate_button,
                       self.setting, self.progress, self.status],
                      layout=w.Layout(width="340px", flex="0 0 340px"))  # fmt: skip
        plots = w.VBox([self.verdict, self.settings_plot, self.trainers_plot])
        self.widget = w.HBox([left, plots], layout=w.Layout(align_items="flex-start"))
        self.widget.add_class("graphpart-epoch-cost")
        self._update()

    @classmethod
    def from_sweep(cls, results, setup: TrainingSetup, **kw):
        """The view of :func:`graphpart.sweep.sweep`'s results (run with ``training=setup``):
        every setting's counts priced with ``setup.model`` (the sweep's prices), and its
        partitioning for the trainers' graph."""
        if not results or any(getattr(r, "epoch", None) is None for r in results):
            raise GraphpartError(
                "from_sweep needs sweep results priced with training=setup (each has .epoch)"
            )
        counts = {r.setting.label: r.epoch.counts for r in results}
        parts = {r.setting.label: r.partitioning for r in results}
        return cls(counts, setup, partitionings=parts, **kw)

    # ------------------------------------------------------------- state
    @property
    def model(self) -> ClusterModel:
        return self._model

    @model.setter
    def model(self, model: ClusterModel) -> None:
        if not isinstance(model, ClusterModel):
            raise GraphpartError(f"model must be a ClusterModel, got {type(model).__name__}")
        self._model = model
        self._sync_sliders()
        self._update()

    @property
    def fastest(self) -> str:
        return min(self.estimates, key=lambda k: self.estimates[k].epoch_s)

    def _set(self, **changes) -> None:
        self.model = self._model.with_(**changes)

    def _slid(self, change) -> None:
        if getattr(self, "_syncing", False):
            return
        name = next(n for n, s in self.sliders.items() if s is change["owner"])
        self._set(**{name: float(change["new"])})

    def _sync_sliders(self) -> None:
        import ipywidgets as w

        self._syncing = True
        try:
            for name, s in self.sliders.items():
                v = getattr(self._model, name)
                # a model set from Python may lie past a slider's range: widen it, so the slider
                # shows the value the estimate uses rather than a clamped one
                if isinstance(s, w.FloatLogSlider) and v > 0:
                    s.max, s.min = max(s.max, math.log10(v)), min(s.min, math.log10(v))
                elif not isinstance(s, w.FloatLogSlider):
                    s.max, s.min = max(s.max, v), min(s.min, v)
                s.value = v
        finally:
            self._syncing = False

    def calibrate(self) -> None:
        """Measure this machine's gather and sampling speed (in the background) and use them."""

        def work(report) -> None:
            report(0, "measuring gather and sampling speed...")
            self.model = calibrate(self._model)

        self.task.start(work, 1)

    def wait(self, timeout: float | None = 120.0) -> None:
        self.task.wait(timeout)

    # ------------------------------------------------------------- drawing
    def _update(self) -> None:
        self.estimates = {k: estimate_epoch(c, self._model, k) for k, c in self.counts.items()}
        self._draw()

    def _draw(self) -> None:
        ests = list(self.estimates.values())
        best = self.fastest
        ranked = sorted(e.epoch_s for e in ests)
        lead = ""
        if len(ranked) > 1:
            ratio = ranked[1] / ranked[0] if ranked[0] > 0 else 1.0
            tie = f"; the next is within {TIE:.0%}: a tie, as sampling noise goes"
            lead = tie if is_tie(ranked[1], ranked[0]) else f", {ratio:.2f}x ahead of the next"
        chosen = self.estimates[self.setting.value]
        self.verdict.value = (  # words wrap whole (JupyterLab's outputs break anywhere)
            "<div style='word-break:normal;overflow-wrap:normal;white-space:normal'>"
            f"<b>At {sig3(self._model.network_gbit_s)} Gb/s, fastest: {html.escape(best)}</b> "
            f"({seconds(self.estimates[best].epoch_s)} per epoch{lead}).<br>"
            f"Selected {html.escape(chosen.label)}: {html.escape(chosen.why())}</div>"
        )
        self.settings_plot.value = render(lambda ax: plot_epoch_estimates(ests, ax=ax), (7.5, 3.6))
        if self.trainer_graph is not None:
            self.trainer_graph.show(self.setting.value, chosen)
        else:
            self.trainers_plot.value = render(
                lambda ax: plot_trainer_times(chosen, ax=ax), (7.5, 3.6)
            )

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

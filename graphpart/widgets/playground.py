"""``BalancePlayground``: run balance settings side by side, compare imbalance and edge cut."""

from __future__ import annotations

import html
from dataclasses import replace

from ..errors import GraphpartError
from ..graph.core import Graph, check_graph
from ..partitioning import MetisOptions, PartitionOptions
from ..recommend import recommend
from ..sweep import Setting, SweepResult, balance_sources, grid, sweep, sweep_report
from ..training import TrainingSetup
from ..utils.check import check_count
from ..viz import plot_tradeoff
from ._common import form, html_table, image, render, status_widgets, text_html
from ._task import Task
from .explorer import MAX_PARTS

__all__ = ["BalancePlayground"]


class BalancePlayground:
    """Add settings one at a time (or a preset grid); each runs once and joins the comparison.

    Parameters
    ----------
    graph : Graph
    num_parts : int
        Initial number of parts.
    options : PartitionOptions, optional
        Where the controls start, and what every setting shares beyond them (``num_hops``,
        METIS's other options, ...).
    training : TrainingSetup, optional
        How training would run (sampler, features, cluster): every setting's epoch is priced by
        it, with the trainers per machine of the setting (the ``trainers/machine`` control, which
        starts at the setup's when ``options`` leaves it at 1). Default: fanouts 10, 5, batch
        256, the ``train_mask`` field when the graph has one (else every node).
    threaded : bool
        ``False`` runs settings in the caller's thread (scripts, tests).
    **names
        :class:`~graphpart.PartitionOptions` fields by name (``num_trainers_per_machine=2``).

    Attributes
    ----------
    results : list of SweepResult
        One per setting added, in order.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> pg = BalancePlayground(load_karate_club(), num_parts=2, threaded=False)
    >>> pg.controls["part_method"].value = "random"
    >>> pg.add_button.click()
    >>> [r.setting.label for r in pg.results]
    ['random k=2']
    """

    def __init__(
        self,
        graph: Graph,
        num_parts: int = 4,
        options: PartitionOptions | None = None,
        *,
        training: TrainingSetup | None = None,
        threaded: bool = True,
        **names: object,
    ) -> None:
        import ipywidgets as w

        self.graph = check_graph(graph, "graph")
        num_parts = check_count(num_parts, "num_parts", 1, MAX_PARTS)
        if training is not None and not isinstance(training, TrainingSetup):
            raise GraphpartError(
                f"training must be a graphpart.training.TrainingSetup or None, got "
                f"{type(training).__name__}"
            )
        self.results: list[SweepResult] = []
        has_mask = any("train_mask" in graph.node_data(t) for t in graph.ntypes)
        training = training or TrainingSetup(
            fanouts=(10, 5), batch_size=256, train="train_mask" if has_mask else None
        )
        opts = PartitionOptions.of(options, **names)
        trainers = opts.num_trainers_per_machine
        if trainers == 1 and "num_trainers_per_machine" not in names:
            trainers = training.num_trainers_per_machine or 1
        # each setting's own trainers are replayed: one setting, one price
        self.training = replace(training, num_trainers_per_machine=None)
        self._options = opts
        sources = balance_sources(graph)
        balance = opts.balance_ntypes if opts.balance_ntypes in sources else "none"
        method = opts.part_method if opts.part_method in ("metis", "random") else "metis"
        ufactor = getattr(opts.metis_options, "ufactor", None)
        field = form("125px", "290px")
        self.controls = {
            "part_method": field(
                w.Dropdown, "part_method", options=["metis", "random"], value=method
            ),
            "num_parts": field(
                w.BoundedIntText,
                "parts",
                value=num_parts,
                min=1,
                max=MAX_PARTS,
                continuous_update=True,
            ),
            "balance_ntypes": field(w.Dropdown, "balance_ntypes", options=sources, value=balance),
            "balance_edges": w.Checkbox(
                value=bool(opts.balance_edges), description="balance_edges", indent=False
            ),
            "num_trainers_per_machine": field(
                w.BoundedIntText, "trainers/machine", value=trainers, min=1, max=16
            ),
            # METIS's ufactor is in thousandths; the slider reads in percent (13.1 is 13.1%)
            "ufactor": field(
                w.FloatSlider,
                "tolerance (%)",
                value=3.0 if ufactor is None else min(max(ufactor / 10, 0.1), 50.0),
                min=0.1,
                max=50.0,
                step=0.1,
                readout_format=".1f",
            ),
            "x_axis": w.ToggleButtons(
                options=[("imbalance", "max"), ("epoch time", "epoch")],
                value="max",
                description="x axis",
                style={"description_width": "110px", "button_width": "auto"},
            ),
            "network": field(
                w.FloatLogSlider,
                "network Gb/s",
                value=self.training.model.network_gbit_s,
                base=10,
                min=0,
                max=3,  # 1 to 1000 Gb/s (not 10^2.6: 398)
                step=0.1,
            ),
        }
        self._ufactor = self.controls["ufactor"].value
        self.controls["x_axis"].observe(lambda _: self._redraw(), "value")
        self.controls["network"].observe(lambda ch: self._set_network(ch["new"]), "value")
        self.add_button = w.Button(description="Add setting", button_style="primary", icon="plus")
        self.preset_button = w.Button(
            description="Add presets", tooltip="random, METIS, each balance source"
        )
        self.clear_button = w.Button(description="Clear", icon="trash")
        self.add_button.on_click(lambda _: self.add(self._current_setting()))
        self.preset_button.on_click(lambda _: self.add(*self.presets()))
        self.clear_button.on_click(lambda _: self.clear())
        self.status, self.progress = status_widgets()
        # as wide as the notebook (no margin: 100% and a margin ran 2 px past the widget), the
        # columns past it scrolled inside (not the whole widget)
        wide = dict(width="100%", min_width="0", overflow="auto", margin="0")
        self.table = w.HTML(layout=w.Layout(**wide))
        self.table.add_class("graphpart-sweep-table")
        # which setting trains fastest, and why (graphpart.recommend)
        self.pick = w.HTML(layout=w.Layout(**wide))
        self.pick.add_class("graphpart-recommendation")
        self.recommendation = None
        self.plot = image("graphpart-tradeoff")
        self.task = Task(self.status, self.progress, threaded)
        left = w.VBox(
            [
                *self.controls.values(),
                w.HBox([self.add_button, self.preset_button]),
                self.clear_button,
                self.progress,
                self.status,
            ],
            layout=w.Layout(width="300px", flex="0 0 300px"),
        )
        self.widget = w.VBox(
            [
                w.HBox([left, self.plot], layout=w.Layout(align_items="flex-start")),
                self.pick,
                self.table,
            ],
            layout=w.Layout(width="100%", min_width="0"),
        )
        self.widget.add_class("graphpart-playground")

    def _current_setting(self) -> Setting:
        c = self.controls
        balance = c["balance_ntypes"].value
        metis = self._options.metis_options  # the slider untouched: the options given
        if c["ufactor"].value != self._ufactor:
            metis = MetisOptions.of(metis, ufactor=int(round(c["ufactor"].value * 10)))
        options = replace(
            self._options,
            part_method=c["part_method"].value,
            balance_ntypes=None if balance == "none" else balance,
            balance_edges=c["balance_edges"].value,
            num_trainers_per_machine=c["num_trainers_per_machine"].value,
            metis_options=metis,
        )
        return Setting(c["num_parts"].value, options)

    def presets(self) -> list[Setting]:
        """Random, then METIS with each balance source, with and without ``balance_edges``."""
        k = self.controls["num_parts"].value
        sources = [None if s == "none" else s for s in balance_sources(self.graph)]
        return grid(
            self._options,
            part_method=["random", "metis"],
            num_parts=k,
            balance_ntypes=sources,
            balance_edges=[False, True],
            num_trainers_per_machine=self.controls["num_trainers_per_machine"].value,
        )

    def add(self, *settings: Setting) -> None:
        """Run ``settings`` (skipping ones already shown) and add them to the comparison."""
        have = {r.setting for r in self.results}
        todo = [s for s in dict.fromkeys(settings) if s not in have]

        def work(report) -> None:
            new = sweep(
                self.graph,
                todo,
                progress=lambda i, n, s: report(i, f"{i + 1}/{n}: {s.label}"),
                training=self.training,
            )
            report(len(todo), "drawing...")
            self.results = self.results + new
            self._draw()

        if todo:
            self.task.start(work, len(todo) + 1)

    def _draw(self) -> None:
        results, axis = self.results, self.controls["x_axis"].value
        if not results:
            return
        png = render(lambda ax: plot_tradeoff(results, imbalance=axis, ax=ax), (8.0, 4.6))
        self.plot.value, self.table.value = png, html_table(sweep_report(results))
        self.recommendation = recommend(results)
        head = self.recommendation.headline  # the report below says why
        self.pick.value = text_html(f"<b>{html.escape(head)}</b>") + html_table(
            self.recommendation.report()
        )

    def _redraw(self) -> None:
        self.task.start(lambda report: self._draw(), 1)

    def _set_network(self, gbit_s: float) -> None:
        """Re-price every result under the new link speed (the counts are kept: instant)."""
        from ..training import estimate_epoch

        model = self.training.model.with_(network_gbit_s=round(float(gbit_s), 3))
        self.training = replace(self.training, model=model)

        def work(report) -> None:
            priced = [
                replace(r, epoch=estimate_epoch(r.epoch.counts, model, r.epoch.label))
                for r in self.results
            ]
            report(1, "drawing...")  # stops here if the slider moved on meanwhile
            self.results = priced
            self._draw()

        self.task.start(work, 1)

    def clear(self) -> None:
        self.results = []
        self.recommendation = None
        self.plot.value, self.table.value, self.pick.value = b"", "", ""

    def wait(self, timeout: float | None = 120.0) -> None:
        self.task.wait(timeout)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

"""``BalancePlayground``: run balance settings side by side, compare imbalance and edge cut."""

from __future__ import annotations

from ..graph import Graph
from ..sweep import Setting, SweepResult, balance_sources, grid, sweep, sweep_report
from ..viz import plot_tradeoff
from ._common import html_table, image, render, status_widgets
from ._task import Task

__all__ = ["BalancePlayground"]


class BalancePlayground:
    """Add settings one at a time (or a preset grid); each runs once and joins the comparison.

    Parameters
    ----------
    graph : Graph
    num_parts : int
        Initial number of parts.
    threaded : bool
        ``False`` runs settings in the caller's thread (scripts, tests).

    Attributes
    ----------
    results : list of SweepResult
        One per setting added, in order.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> pg = BalancePlayground(load_karate_club(), num_parts=2, threaded=False)
    >>> pg.controls["method"].value = "random"
    >>> pg.add_button.click()
    >>> [r.setting.label for r in pg.results]
    ['random k=2']
    """

    def __init__(self, graph: Graph, *, num_parts: int = 4, threaded: bool = True) -> None:
        import ipywidgets as w

        self.graph = graph
        self.results: list[SweepResult] = []
        style = {"description_width": "110px"}
        lay = w.Layout(width="270px")
        self.controls = {
            "method": w.Dropdown(
                options=["metis", "random"],
                value="metis",
                description="method",
                style=style,
                layout=lay,
            ),
            "num_parts": w.BoundedIntText(
                value=num_parts, min=1, max=256, description="parts", style=style, layout=lay
            ),
            "balance": w.Dropdown(
                options=balance_sources(graph),
                value="none",
                description="balance_ntypes",
                style=style,
                layout=lay,
            ),
            "balance_edges": w.Checkbox(value=False, description="balance_edges", indent=False),
            # METIS's ufactor is in thousandths; the slider reads in percent (13.1 is 13.1%)
            "ufactor": w.FloatSlider(
                value=3.0,
                min=0.1,
                max=50.0,
                step=0.1,
                readout_format=".1f",
                description="tolerance (%)",
                style=style,
                layout=lay,
                continuous_update=False,
            ),
        }
        self.add_button = w.Button(description="Add setting", button_style="primary", icon="plus")
        self.preset_button = w.Button(
            description="Add presets", tooltip="random, METIS, each balance source"
        )
        self.clear_button = w.Button(description="Clear", icon="trash")
        self.add_button.on_click(lambda _: self.add(self._current_setting()))
        self.preset_button.on_click(lambda _: self.add(*self.presets()))
        self.clear_button.on_click(lambda _: self.clear())
        self.status, self.progress = status_widgets()
        self.table = w.HTML()
        self.table.add_class("graphpart-sweep-table")
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
            [w.HBox([left, self.plot], layout=w.Layout(align_items="flex-start")), self.table]
        )
        self.widget.add_class("graphpart-playground")

    def _current_setting(self) -> Setting:
        c = self.controls
        return Setting(
            num_parts=c["num_parts"].value,
            method=c["method"].value,
            balance=c["balance"].value,
            balance_edges=c["balance_edges"].value,
            ufactor=int(round(c["ufactor"].value * 10)),
            seed=0,
        )

    def presets(self) -> list[Setting]:
        """Random, then METIS with each balance source, with and without ``balance_edges``."""
        k = self.controls["num_parts"].value
        sources = [
            s for s in balance_sources(self.graph) if s != "ntype" or not self.graph.is_homogeneous
        ]
        return grid(
            method=["random", "metis"], num_parts=k, balance=sources, balance_edges=[False, True]
        )

    def add(self, *settings: Setting) -> None:
        """Run ``settings`` (skipping ones already shown) and add them to the comparison."""
        have = {r.setting for r in self.results}
        todo = [s for s in dict.fromkeys(settings) if s not in have]

        def work(report) -> None:
            new = sweep(
                self.graph, todo, progress=lambda i, n, s: report(i, f"{i + 1}/{n}: {s.label}")
            )
            report(len(todo), "drawing...")
            results = self.results + new
            png = render(lambda ax: plot_tradeoff(results, ax=ax), (8.0, 4.6))
            self.results = results
            self.plot.value, self.table.value = png, html_table(sweep_report(results))

        if todo:
            self.task.start(work, len(todo) + 1)

    def clear(self) -> None:
        self.results = []
        self.plot.value, self.table.value = b"", ""

    def wait(self, timeout: float | None = 120.0) -> None:
        self.task.wait(timeout)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

"""``PartitionExplorer``: change partition settings, see the drawing, balance and metrics update."""

from __future__ import annotations

from ..graph import Graph
from ..metrics import headline, metric_deltas
from ..sweep import Setting, balance_sources
from ..viz import DRAW_MODES, draw_partition, plot_balance
from ..viz.drawing import DEFAULT_MAX_NODES
from ._common import html_table, image, render, status_widgets
from ._task import Task

__all__ = ["PartitionExplorer"]


class PartitionExplorer:
    """Controls for method, parts, ``balance_ntypes`` source, ``balance_edges``, hops and seed.

    Every change re-partitions the graph in a background thread (the newest
    change wins) and redraws the partition, the balance plot and the metrics
    table. The first partitioning happens when the explorer is created.

    Parameters
    ----------
    graph : Graph
    num_parts, method, balance, balance_edges, num_hops, seed
        Initial control values (see :class:`graphpart.sweep.Setting`).
    max_nodes : int
        Draw every node up to this many nodes, else the quotient graph.
    threaded : bool
        ``False`` recomputes in the caller's thread (scripts, tests).

    Attributes
    ----------
    partitioning : Partitioning
        The partitioning on display.
    setting : Setting
        The settings it was made with.
    widget : ipywidgets.Widget
        What Jupyter displays (the explorer displays itself too).

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> ex = PartitionExplorer(load_karate_club(), num_parts=2, threaded=False)
    >>> ex.controls["num_parts"].value = 3
    >>> ex.partitioning.num_parts, ex.status.value.count("Ready")
    (3, 1)
    """

    def __init__(
        self,
        graph: Graph,
        *,
        num_parts: int = 4,
        method: str = "metis",
        balance: str = "none",
        balance_edges: bool = False,
        num_hops: int = 1,
        seed: int = 0,
        max_nodes: int = DEFAULT_MAX_NODES,
        threaded: bool = True,
    ) -> None:
        import ipywidgets as w

        self.graph = graph
        self.max_nodes = max_nodes
        self.partitioning = None
        self.setting: Setting | None = None
        style = {"description_width": "110px"}
        lay = w.Layout(width="260px")
        parts = w.BoundedIntText(
            value=num_parts,
            min=1,
            max=256,
            description="parts",
            continuous_update=False,
            style=style,
            layout=lay,
        )
        parts.add_class("graphpart-num-parts")
        self.controls = {
            "method": w.Dropdown(
                options=["metis", "random"],
                value=method,
                description="method",
                style=style,
                layout=lay,
            ),
            "num_parts": parts,
            "balance": w.Dropdown(
                options=balance_sources(graph),
                value=balance,
                description="balance_ntypes",
                style=style,
                layout=lay,
            ),
            "balance_edges": w.Checkbox(
                value=balance_edges, description="balance_edges", indent=False
            ),
            "num_hops": w.IntSlider(
                value=num_hops,
                min=0,
                max=3,
                description="num_hops",
                continuous_update=False,
                style=style,
                layout=lay,
            ),
            "seed": w.BoundedIntText(
                value=seed,
                min=0,
                max=2**31 - 1,
                description="seed",
                continuous_update=False,
                style=style,
                layout=lay,
            ),
            "view": w.Dropdown(
                options=list(DRAW_MODES),
                value="auto",
                description="drawing",
                style=style,
                layout=lay,
            ),
        }
        self.status, self.progress = status_widgets()
        self.drawing = image("graphpart-drawing")
        self.balance_plot = image("graphpart-balance")
        self.table = w.HTML()
        self.table.add_class("graphpart-metrics")
        self.history = w.HTML()
        self.history.add_class("graphpart-history")
        self.past: list[tuple[str, dict]] = []  # (setting, headline figures), newest first
        self.task = Task(self.status, self.progress, threaded)
        for c in self.controls.values():
            c.observe(self._on_change, names="value")
        left = w.VBox(
            [*self.controls.values(), self.progress, self.status, self.history],
            layout=w.Layout(width="290px", flex="0 0 290px"),
        )
        tabs = w.Tab(children=[self.drawing, self.balance_plot, self.table])
        for i, title in enumerate(["partition", "balance", "metrics"]):
            tabs.set_title(i, title)
        self.widget = w.HBox([left, tabs], layout=w.Layout(align_items="flex-start"))
        self.widget.add_class("graphpart-explorer")
        self.task.start(self._recompute, 3, sync=True)

    def _current_setting(self) -> Setting:
        c = self.controls
        return Setting(
            num_parts=c["num_parts"].value,
            method=c["method"].value,
            balance=c["balance"].value,
            balance_edges=c["balance_edges"].value,
            num_hops=c["num_hops"].value,
            seed=c["seed"].value,
        )

    def _on_change(self, change) -> None:
        self.task.start(self._recompute, 3)

    def _recompute(self, report) -> None:
        setting = self._current_setting()
        mode = self.controls["view"].value
        report(0, f"partitioning ({setting.label})...")
        p = setting.run(self.graph)
        report(1, "measuring and drawing...")
        drawing = render(
            lambda ax: draw_partition(
                p, ax=ax, mode=mode, max_nodes=self.max_nodes, seed=setting.seed
            ),
            (8.5, 6.2),
        )
        report(2, "balance plot...")
        balance = render(lambda ax: plot_balance(p, ax=ax), (8.5, 4.2))
        table = html_table(p.report())
        report(3, "showing...")
        before = self.partitioning.metrics if self.partitioning is not None else None
        self.partitioning, self.setting = p, setting
        self.drawing.value, self.balance_plot.value, self.table.value = drawing, balance, table
        figures = headline(p.metrics)
        self.past = [(setting.label, figures), *self.past][:HISTORY]
        self.history.value = _history_table(self.past)
        return "; ".join(metric_deltas(before, p.metrics))

    def wait(self, timeout: float | None = 60.0) -> None:
        """Block until the latest change has been drawn (the status then names what changed:
        ``edge cut 20 -> 68; max/mean nodes 1.000 -> 1.059``)."""
        self.task.wait(timeout)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


#: Settings the explorer's history table keeps.
HISTORY = 5


def _history_table(past: list[tuple[str, dict]]) -> str:
    """The last settings and their headline figures, newest first."""
    import html

    cols = ("edge cut", "max/mean nodes", "HALO nodes")
    head = "".join(f"<th>{c}</th>" for c in ("setting", *cols))
    rows = "".join(
        "<tr>"
        + f"<td>{html.escape(label)}</td>"
        + "".join(f"<td>{html.escape(str(fig[c]))}</td>" for c in cols)
        + "</tr>"
        for label, fig in past
    )
    return f"<table style='font-size:11px'><tr>{head}</tr>{rows}</table>"

"""``PartitionExplorer``: change partition settings, see the drawing, balance and metrics update."""

from __future__ import annotations

from ..graph.core import Graph, check_graph
from ..metrics.disk import headline, metric_deltas
from ..partitioning import PartitionOptions
from ..sweep import Setting, balance_sources
from ..utils.check import check_count
from ..utils.report import Report
from ..viz import plot_balance
from ._common import check_choice, discard, form, html_table, image, render, status_widgets
from ._tabs import Tabs
from ._task import Task
from .graph_view import PartitionGraph

__all__ = ["PartitionExplorer"]

#: The most partitions the explorer's control offers (a view draws one colour per partition).
MAX_PARTS = 256
#: The most HALO hops it offers (every hop adds copies; 3 covers the samplers people use).
MAX_HOPS = 3


class PartitionExplorer:
    """Controls for method, parts, ``balance_ntypes`` source, ``balance_edges``, hops and seed.

    Every change re-partitions the graph in a background thread (the newest
    change wins) and redraws the WebGL views (the whole graph coloured by owner; one chosen
    partition with its HALO up to ``num_hops``, each hop ringed apart, and a filter that shows
    the nearer hops only; the graph by balance class, with each class's load in a node's
    partition and trainer on hover), the balance plot and the metrics table; the
    status names what changed and a history table keeps the last settings. Hover a node for
    its ids, click it for its card. The first partitioning happens when the explorer is created.

    Parameters
    ----------
    graph : Graph
        The graph to partition.
    num_parts : int, default 4
        The partitions at first (the control's value).
    options : PartitionOptions or None, default None
        What every partitioning shares (``num_trainers_per_machine``, METIS's options, ...);
        its ``part_method`` (metis or random), ``balance_ntypes`` (a name
        :func:`~graphpart.sweep.balance_sources` lists), ``balance_edges``, ``num_hops`` (at most
        3) and ``seed`` (default 0) are the controls' first values.
    threaded : bool, default True
        ``False`` recomputes in the caller's thread (scripts, tests).
    **names
        :class:`~graphpart.PartitionOptions` fields by name.

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
        num_parts: int = 4,
        options: PartitionOptions | None = None,
        *,
        threaded: bool = True,
        **names: object,
    ) -> None:
        import ipywidgets as w

        self.graph = check_graph(graph, "graph")
        num_parts = check_count(num_parts, "num_parts", 1, MAX_PARTS)
        opts = PartitionOptions.of(
            PartitionOptions(seed=0) if options is None else options, **names
        )
        method = check_choice(opts.part_method, "part_method", ("metis", "random"))
        balance = "none" if opts.balance_ntypes is None else opts.balance_ntypes
        balance = check_choice(balance, "balance_ntypes", balance_sources(graph))
        balance_edges = bool(opts.balance_edges)
        num_hops = check_count(opts.num_hops, "num_hops", 0, MAX_HOPS)
        trainers = opts.num_trainers_per_machine
        seed = check_count(0 if opts.seed is None else opts.seed, "seed", 0, 2**31 - 1)
        self.options = opts
        self.partitioning = None
        self._showing: tuple[int, int] | None = None  # the HALO tab's (partition, hops)
        self.setting: Setting | None = None
        field = form("125px", "275px")
        self.controls = {
            "part_method": field(
                w.Dropdown, "part_method", options=["metis", "random"], value=method
            ),
            "num_parts": field(
                w.BoundedIntText,
                "parts",
                "graphpart-num-parts",
                value=num_parts,
                min=1,
                max=MAX_PARTS,
            ),
            "balance_ntypes": field(
                w.Dropdown, "balance_ntypes", options=balance_sources(graph), value=balance
            ),
            "balance_edges": w.Checkbox(
                value=balance_edges, description="balance_edges", indent=False
            ),
            "num_hops": field(
                w.IntSlider, "num_hops", "graphpart-num-hops", value=num_hops, max=MAX_HOPS
            ),
            # each machine split into trainers: the balance tab shows each trainer's load
            "num_trainers_per_machine": field(
                w.BoundedIntText, "trainers/machine", value=trainers, min=1, max=16
            ),
            "seed": field(w.BoundedIntText, "seed", value=seed, max=2**31 - 1),
        }
        style = {"description_width": "110px"}
        self.halo_part = w.Dropdown(options=[0], value=0, description="partition", style=style)
        self.halo_part.add_class("graphpart-halo-part")
        # which HALO hops the tab draws: every hop stored, or only the nearer ones
        self.halo_hops = w.Dropdown(
            options=_hop_choices(num_hops), value=num_hops, description="show", style=style
        )
        self.halo_hops.add_class("graphpart-halo-hops")
        self.status, self.progress = status_widgets()
        self.graph_view = None  # PartitionGraph of the whole graph, once partitioned
        self.balance_view = None  # the same, coloured by balance class
        self.halo_view = None  # PartitionGraph of partition halo_part.value
        self._graph_box, self._halo_box = w.VBox(), w.VBox()
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
        self.halo_part.observe(self._on_halo_part, names="value")
        self.halo_hops.observe(self._on_halo_part, names="value")
        halo_tab = w.VBox([w.HBox([self.halo_part, self.halo_hops]), self._halo_box])
        self._balance_box = w.VBox()  # the graph by balance class, then the load bars
        balance_tab = w.VBox([self._balance_box, self.balance_plot])
        tabs = Tabs(
            [self._graph_box, halo_tab, balance_tab, self.table],
            ["graph", "HALO", "balance", "metrics"],
            layout=w.Layout(flex="1 1 auto", min_width="0"),
        )
        self.tabs = tabs
        tabs.observe(self._on_tab, names="selected_index")
        self.widget = w.HBox([left, tabs], layout=w.Layout(align_items="flex-start"))
        self.widget.add_class("graphpart-explorer")
        self.task.start(self._recompute, 3, sync=True)

    def _current_setting(self) -> Setting:
        c = self.controls
        balance = c["balance_ntypes"].value
        options = PartitionOptions.of(
            self.options,
            part_method=c["part_method"].value,
            balance_ntypes=None if balance == "none" else balance,
            balance_edges=c["balance_edges"].value,
            num_hops=c["num_hops"].value,
            num_trainers_per_machine=c["num_trainers_per_machine"].value,
            seed=c["seed"].value,
        )
        return Setting(c["num_parts"].value, options)

    def _on_change(self, change) -> None:
        self.task.start(self._recompute, 3)

    def _recompute(self, report) -> None:
        setting = self._current_setting()
        report(0, f"partitioning ({setting.label})...")
        p = setting.run(self.graph)
        report(1, "drawing...")
        graph_view = PartitionGraph(p, panel=False)
        part = min(self.halo_part.value, p.num_parts - 1)
        shown = p.num_hops  # a new partitioning shows every hop it stores
        halo_view = PartitionGraph(p, part, hops=shown, table=graph_view.table, panel=False)
        balance_view = PartitionGraph(
            p, table=graph_view.table, panel=False, color="balance", height=380
        )
        report(2, "balance plot...")
        level = "trainer" if p.num_trainers_per_machine > 1 else "machine"
        balance = render(lambda ax: plot_balance(p, ax=ax, level=level), (8.5, 4.2))
        table = html_table(p.report())
        report(3, "showing...")
        before = self.partitioning.metrics if self.partitioning is not None else None
        self.partitioning, self.setting = p, setting
        self.graph_view, self.halo_view = graph_view, halo_view
        self.balance_view = balance_view
        boxes = (self._graph_box, self._halo_box, self._balance_box)
        old = [v for box in boxes for v in box.children]
        for box, view in zip(boxes, (graph_view, halo_view, balance_view)):
            box.children = [view]
        discard(*old)
        self._showing = (part, shown)
        with self.halo_part.hold_trait_notifications():
            self.halo_part.options = list(range(p.num_parts))
            self.halo_part.value = part
        # (no hold here: a held Dropdown checks the value against its old options)
        self.halo_hops.options = _hop_choices(p.num_hops)  # ._showing: no drawing on the way
        self.halo_hops.value = shown
        self.balance_plot.value, self.table.value = balance, table
        figures = headline(p.metrics)
        label = f"{setting.label} hops={setting.options.num_hops}"
        self.past = [(label, figures), *self.past][:HISTORY]
        self.history.value = _history_table(self.past)
        return "; ".join(metric_deltas(before, p.metrics))

    def _on_tab(self, change) -> None:
        """A tab shown: draw its view again. Sigma cannot draw in a hidden tab (its container
        has no width), so a view made while its tab was hidden stays blank until drawn again."""
        view = {0: self.graph_view, 1: self.halo_view, 2: self.balance_view}.get(change["new"])
        if view is not None:
            view.redraw(view.selected)

    def _on_halo_part(self, change) -> None:
        """Another partition, or other hops, chosen for the HALO tab: draw it (no new
        partitioning)."""
        p, part, hops = self.partitioning, self.halo_part.value, self.halo_hops.value
        if p is None or part is None or hops is None or (part, hops) == self._showing:
            return
        self._showing = (part, hops)
        old, self.halo_view = (
            self.halo_view,
            PartitionGraph(p, part, hops=hops, table=self.graph_view.table, panel=False),
        )
        self._halo_box.children = [self.halo_view]
        discard(old)

    def wait(self, timeout: float | None = 60.0) -> None:
        """Block until the latest change has been drawn (the status then names what changed:
        ``edge cut 20 -> 68; max/mean nodes 1.000 -> 1.059``)."""
        self.task.wait(timeout)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def _hop_choices(num_hops: int) -> list[tuple[str, int]]:
    """The HALO tab's hop filter: every hop stored down to the inner nodes alone.

    >>> _hop_choices(2)
    [('HALO hops 1-2', 2), ('HALO hop 1', 1), ('inner nodes only', 0)]
    """
    out = [(f"HALO hops 1-{h}" if h > 1 else "HALO hop 1", h) for h in range(num_hops, 0, -1)]
    return out + [("inner nodes only", 0)]


#: Settings the explorer's history table keeps.
HISTORY = 5


def _history_table(past: list[tuple[str, dict]]) -> str:
    """The last settings and their headline figures, newest first."""
    cols = ("edge cut", "max/mean nodes", "HALO nodes")
    table = Report(
        "last settings",
        {c: [fig[c] for _, fig in past] for c in cols},
        {},
        index="setting",
        labels=[label for label, _ in past],
    )
    return html_table(table)

"""``IdView``: the reshuffle in the browser. Nodes on the id line before and after, edges in the
adjacency matrix before and after; hover any point for its ids, click it to select it.

Built on jupyter-scatter (WebGL scatter plots with HTML tooltips, its JavaScript bundled in the
wheel). The tables come from :func:`graphpart.views.ids.id_view_data`; this module only draws
them. Each pair of plots is linked: hovering or selecting a node (an edge) in one highlights the
same node (edge) in the other, so you can follow it through the reshuffle.
"""

from __future__ import annotations

import html
import warnings
from typing import TYPE_CHECKING

import ipywidgets as w

from ..errors import GraphpartError
from ..palette import part_hex
from ..storage.reopen import as_partitioning
from ..views.ids import CUT_EDGE_COLOR, CUT_LABEL, MAX_POINTS, id_view_data
from ._common import check_height
from .node_card import card_table, location_card
from .scatter_fit import ScatterFillsWidth
from .shared_code import shared_code
from .wheel import WheelScrollsPage

if TYPE_CHECKING:
    import os

    from ..partitioning.core import Partitioning

__all__ = ["IdView"]

_NODE_TIP = ["node", "original homogeneous id", "new id", "new type-wise id", "owner", "local id"]
_EDGE_TIP = ["source", "destination", "original ids", "new ids"]  # source -> destination


class IdView(w.VBox):
    """The id line and the adjacency matrix of partitioning ``p``, before and after the
    reshuffle, in linked WebGL scatter plots.

    Top: one point per node at its original homogeneous id (left) and at its new id (right),
    one row per node type and owner, coloured by owner: the colours mix before and form one
    block per partition after. Bottom: one point per edge (source id up, destination id
    across) in original ids and in new ids; inner edges take their partition's colour and fill
    the diagonal blocks after the reshuffle, cut edges are black (unlike the matplotlib figure,
    whose source ids grow downwards). Hover a point for a tooltip
    with its ids (:attr:`hovered` holds them in Python); click it and :attr:`selected` and the
    card below hold them. Above ``max_points`` edges a uniform sample is drawn (the plot's
    title says so).

    Parameters
    ----------
    p : Partitioning or path
        :func:`graphpart.partition`'s result, or partitions on disk in a format graphpart
        reads. The graph must have at least one node and one edge.
    max_points : int, default MAX_POINTS (200,000)
        The most edges drawn in each adjacency plot, at least 1.
    height : int, default 300
        Each id-line plot's height in pixels, 120 to 4000 (the adjacency plots are 60 px
        taller).

    Raises
    ------
    GraphpartError
        If ``p`` cannot be opened, ``max_points`` or ``height`` is out of range, or the graph
        has no nodes or no edges.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_davis_southern_women
    >>> view = IdView(gp.partition(load_davis_southern_women(), 2, num_hops=1, seed=0))
    >>> view.nodes_after.widget.selection = [20]  # what a click on node 20 does
    >>> view.selected["node"], view.selected["new id"], "owner" in view.card.value
    ('woman:6', 13, True)
    >>> view.edges_after.widget.hovering = 0  # the mouse over the first edge's point
    >>> h = view.hovered
    >>> h["source"], h["destination"], h["new source id"], h["new destination id"], h["edge"]
    ('event:0', 'woman:0', 0, 7, 'inner')
    >>> view.edges_after.widget.hovering = None  # the mouse leaves
    >>> view.hovered is None
    True
    """

    def __init__(
        self,
        p: Partitioning | str | os.PathLike,
        *,
        max_points: int = MAX_POINTS,
        height: int = 300,
    ) -> None:
        with warnings.catch_warnings():  # jupyter-scatter's own pandas deprecations
            warnings.filterwarnings("ignore", module="jscatter")
            self._build(as_partitioning(p), max_points, check_height(height, low=120))

    def _build(self, p, max_points: int, height: int) -> None:
        from jscatter.widget import JupyterScatter

        # jupyter-scatter's 2.1 MB of JavaScript goes to the page once per kernel, not per plot
        with shared_code(JupyterScatter):
            self._plots(p, max_points, height)

    def _plots(self, p, max_points: int, height: int) -> None:
        import jscatter

        frames = id_view_data(p, max_points)
        d = self.data = frames.data
        self._nodes, self._edges = frames.nodes, frames.edges
        k = d.num_parts
        colors = dict(zip([f"part {q}" for q in range(k)], part_hex(k)))
        colors[CUT_LABEL] = CUT_EDGE_COLOR
        ids = (-0.5, d.num_nodes - 0.5)
        rows = (-0.75, len(d.table.ntypes) * k - 0.25)
        typed = len(d.table.ntypes) > 1
        node_tip = _NODE_TIP
        edge_tip = _EDGE_TIP + (["new type-wise ids"] if typed else []) + ["edge"]
        if d.num_nodes == 0 or len(self._edges) == 0:  # jupyter-scatter cannot draw no points
            raise GraphpartError(
                f"IdView draws nodes and edges; this graph has {d.num_nodes} nodes and "
                f"{d.num_edges} edges (plot_id_line draws the id line of any graph)"
            )
        plot = _scatter_maker(colors, height)
        self.nodes_before = plot(self._nodes, "original homogeneous id", "row", ids, rows, node_tip)
        self.nodes_after = plot(self._nodes, "new id", "row", ids, rows, node_tip)
        self.edges_before = plot(self._edges, "destination id", "source id", ids, ids, edge_tip)
        self.edges_after = plot(
            self._edges, "new destination id", "new source id", ids, ids, edge_tip
        )
        top = jscatter.compose(
            [(self.nodes_before, "original ids"), (self.nodes_after, "new ids (partition-major)")],
            sync_hover=True,
            sync_selection=True,
            row_height=height,
        )
        top.add_class("graphpart-id-lines")  # its rows' numbers hidden: each row is named
        sample = f" ({len(d.src):,} of {d.num_edges:,}, sampled)" if d.sampled else ""
        bottom = jscatter.compose(
            [
                (self.edges_before, f"edges in original ids: source id up{sample}"),
                (self.edges_after, "edges in new ids: new source id up"),
            ],
            sync_hover=True,
            sync_selection=True,
            row_height=height + 60,
        )
        self.card = w.HTML()
        self.card.add_class("graphpart-id-card")
        self.hovered: dict | None = None
        self.selected: dict | None = None
        for s, kind in (
            (self.nodes_before, "node"),
            (self.nodes_after, "node"),
            (self.edges_before, "edge"),
            (self.edges_after, "edge"),
        ):
            s.widget.observe(lambda c, kind=kind: self._hover(kind, c["new"]), "hovering")
            s.widget.observe(lambda c, kind=kind: self._select(kind, c["new"]), "selection")
        swatches = " ".join(
            f"<span style='color:{c}'>&#9632;</span>&nbsp;{html.escape(name)}"
            for name, c in colors.items()
        )
        note = w.HTML(
            f"<span style='font-size:12px'>{swatches} &middot; top: one row of nodes per "
            + ("type and owner" if typed else "owner")
            + " (named under it); bottom: one dot per edge, cut edges in black; "
            "hover a point for its ids, click it to select it in both plots</span>"
            "<style>.graphpart-id-lines .y-axis .tick {visibility:hidden}"
            # the leftmost tick's label starts a few pixels left of the axes' SVG: not cut off
            " .graphpart-id-view svg {overflow:visible}</style>"
        )
        wheel = WheelScrollsPage(host=".graphpart-id-view")  # the page scrolls past the plots
        fill = ScatterFillsWidth(host=".graphpart-id-view", plots=4)  # ids span the x axes
        super().__init__([note, top, bottom, self.card, wheel, fill])
        self.add_class("graphpart-id-view")

    def _facts(self, kind: str, index) -> dict | None:
        if index is None or int(index) < 0:
            return None
        frame = self._nodes if kind == "node" else self._edges
        row = frame.iloc[int(index)].drop(["row", "row name", "colour"], errors="ignore")
        return {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}

    def _hover(self, kind: str, index) -> None:
        self.hovered = self._facts(kind, index)

    def _select(self, kind: str, selection) -> None:
        chosen = None if selection is None or len(selection) == 0 else int(selection[0])
        self.selected = self._facts(kind, chosen)
        if self.selected is None:
            self.card.value = ""
        elif kind == "node":
            node = int(self._nodes["original homogeneous id"].iloc[chosen])
            self.card.value = location_card(self.data.table.location(node))
        else:
            self.card.value = card_table(self.selected.items())


def _scatter_maker(colors: dict[str, str], height: int):
    """A function drawing one jupyter-scatter plot over the whole id range (half an id of
    margin), coloured by the table's ``colour`` column (edges) or ``owner`` (nodes)."""

    def plot(frame, x: str, y: str, x_range, y_range, tip: list[str]):
        import jscatter

        s = jscatter.Scatter(data=frame, x=x, y=y, height=height)
        s.x(x, scale=x_range)
        if y_range[1] - y_range[0] > 1.5:  # a fixed range over one row crashes the renderer
            s.y(y, scale=y_range)
        by = "colour" if "colour" in frame else "owner"
        s.color(by=by, map=[colors[c] for c in frame[by].cat.categories])
        s.size(default=6 if len(frame) <= 2000 else 3 if len(frame) <= 50_000 else 1)
        # no y name: the id lines' rows are named under their points, and the edge plots' y
        # (source ids) is named in their titles; jupyter-scatter writes it right of the plot,
        # beside the next plot's buttons, where it read as that plot's (an audit)
        s.axes(True, grid=False, labels=[x, ""])
        s.legend(False)  # named above the plots: inside, it hid the highest ids' points
        s.tooltip(True, properties=tip, histograms=False, size="small")
        if "row name" in frame:  # the rows are categories: each named under its points
            s.label(
                by="row name", align="bottom", offset=(0, 12), size=11, positioning="center_of_mass"
            )
        return s

    return plot

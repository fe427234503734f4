"""``PartitionViews``: one WebGL view per partition, side by side and linked. Camera, hover and
selection are shared by ipysigma itself, so selecting a node in one view selects every copy of it;
the card lists where they live, the line above it which views hold the node."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as w

from ..errors import GraphpartError
from ..lookup import NodeLocation, node_table
from ..storage.reopen import as_partitioning
from ..utils.check import check_parts, short_repr
from ..views.graph import GraphData, graph_data
from ._common import check_height, check_key, discard
from .graph_view import PartitionGraph, linked_row
from .node_card import NodeSelection, drawn_ids
from .sigma_style import legend_html
from .webgl_budget import UNIT_CLASS, Freezer

if TYPE_CHECKING:
    import os

    from ..partitioning.core import Partitioning

__all__ = ["PartitionViews"]

#: Where linked views look first: zoomed out a little and the graph moved right and down, clear
#: of ipysigma's buttons and graph box in the top-left corner of narrow views.
CAMERA = {"x": 0.4, "y": 0.6, "ratio": 1.3, "angle": 0}


class PartitionViews(w.VBox):
    """One view per partition (its inner nodes and HALO copies), side by side and linked: pan,
    zoom, hover and selection are shared (ipysigma's own sync), so selecting a node in one
    selects every copy of it; the card lists where they live and which views hold it.

    Parameters
    ----------
    p : Partitioning or path
        :func:`graphpart.partition`'s result, or partitions on disk in a format graphpart
        reads.
    hops : int, optional
        The HALO hops drawn in each view (default: all the partitions hold, at most
        ``p.num_hops``).
    parts : list of int, optional
        The partitions to show, in this order, each once; default all.
    height : int, default 380
        Each view's height in pixels, 250 to 4000.
    selected : str, optional
        The key of a node to select in every view at first (``"5"``, ``"woman:3"``).
    search : bool, default True
        Show ipysigma's search box in each view (a view narrowed by its row gives it what its
        zoom buttons leave).

    Raises
    ------
    GraphpartError
        If an argument is invalid, or ``selected`` is not a node the views draw.
    TooBigToDrawError
        If a partition holds more nodes or edges than a view draws.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> views = PartitionViews(gp.partition(load_karate_club(), 2, num_hops=1, seed=0))
    >>> len(views.views), views.views[0].sigma.sync_key == views.views[1].sigma.sync_key
    (2, True)
    >>> views.select("0")
    >>> [v.selected for v in views.views], views.holders
    (['0', '0'], [0, 1])
    """

    def __init__(
        self,
        p: Partitioning | str | os.PathLike,
        *,
        hops: int | None = None,
        parts: list[int] | None = None,
        height: int = 380,
        selected: str | None = None,
        search: bool = True,
    ) -> None:
        import uuid

        self.p = p = as_partitioning(p)
        self._hops, self._height = hops, check_height(height)
        self._search = bool(search)
        selected = check_key(selected)
        self.table = node_table(p)
        self._key = f"graphpart-{uuid.uuid4().hex[:8]}"
        self.parts = check_parts(parts, p.num_parts)
        self._data = [graph_data(p, q, self.table, hops=hops) for q in self.parts]
        self._others = {k: a for d in self._data for k, a in d.nodes.items()}
        if selected is not None and selected not in self._others:
            raise GraphpartError(
                f"selected {short_repr(selected, 60)} is not a node these views draw (keys such "
                f"as {short_repr(next(iter(self._others), '0'))})"
            )
        self._selection = NodeSelection(p, self.table, {})
        self._callbacks: list = []
        self._shown: str | None = None
        self.card = self._selection.card
        self.card.add_class("graphpart-views-selection")
        self.where = w.HTML()
        self.where.add_class("graphpart-views-where")
        self._freezer = Freezer(
            lambda: [(d, frozenset(self._others) - set(d.nodes)) for d in self._data],
            self._release,
            self._wake,
            self._show_frozen,
            self._height,
            len(self.parts),
        )
        self._draw(selected)
        # one legend for the row: every view's owners and HALO hops (not only the first's)
        every = GraphData(self._others, [], self._data[0].palette, "") if self._data else None
        legend = w.HTML(legend_html(every) if every else "")
        row = self._freezer.drawing(self._row, [v.sigma for v in self.views])
        titles = [
            w.Box([w.HTML(f"<b>{html.escape(v.title)}</b>")], layout=w.Layout(flex="1 1 0"))
            for v in self.views
        ]
        self._titles = w.HBox(titles, layout=w.Layout(width="100%"))
        # the seat first: ipywidgets renders a box's children again from the first that changed
        super().__init__([self._freezer.budget, legend, self._titles, row, self.where, self.card])
        self.add_class("graphpart-partition-views")
        self.add_class(UNIT_CLASS)
        self._show(selected)

    def _draw(self, selected: str | None, cameras: list | None = None) -> None:
        """Every view drawn (again), with ``selected`` selected in all of them."""
        self.views = []
        for i, (q, d) in enumerate(zip(self.parts, self._data)):
            v = PartitionGraph(
                self.p,
                q,
                hops=self._hops,
                table=self.table,
                sync_key=self._key,
                height=self._height,
                panel=False,
                data=d,
                others=self._others,
                selected=selected,
                camera=cameras[i] if cameras else dict(CAMERA),
                search=self._search,
            )
            v.caption.value = f"<b>{html.escape(v.title)}</b>"
            v.on_select(self._show)
            self.views.append(v)
        for k in (d.nodes for d in self._data):
            self._selection.keys.update(drawn_ids(GraphData(k, [], {}, "")))
        self._row = linked_row(self.views)

    def select(self, key: str | None) -> None:
        """Select node ``key`` in every view from Python (all views are drawn again, cameras
        kept: ipysigma reads a selection made in Python only when it draws; a row the page's
        WebGL budget froze stays still until seen)."""
        key = check_key(key, "key")
        if key is not None and key not in self._others:
            raise GraphpartError(f"key {short_repr(key, 60)} is not a node these views draw")
        cameras = [dict(v.sigma.camera_state) for v in self.views]
        old = (self._row, *self.views)
        self._draw(key, cameras)
        row = self._freezer.drawing(self._row, [v.sigma for v in self.views])
        self.children = [*self.children[:3], row, *self.children[4:]]
        discard(*old)
        self._show(key)

    def _release(self) -> None:
        """The row frozen: its drawings closed, each out of its view, and the row closed."""
        for v in self.views:
            v.release()
        self._row.close()

    def _wake(self) -> None:
        """The page granted contexts: show the row made for this drawing, or (closed when the
        row froze) new views, selection and cameras kept."""
        if any(v.sigma.comm is None for v in self.views):
            self.select(self._shown)
        else:
            row = self._freezer.drawing(self._row, [v.sigma for v in self.views])
            self.children = [*self.children[:3], row, *self.children[4:]]

    def close(self) -> None:
        """Close the row with everything it made: its views, drawn or not, and its still
        pictures."""
        f = getattr(self, "_freezer", None)  # a view refused half-built has none of these
        made = [*getattr(self, "views", []), getattr(self, "_row", None)]
        discard(*made, *(f.widgets if f else []), *self.children)
        super().close()

    def _show_frozen(self, box) -> None:
        self.children = [*self.children[:3], box, *self.children[4:]]

    @property
    def freezer(self):
        """The row's :class:`~graphpart.widgets.webgl_budget.Freezer`: ``freezer.freeze()``
        shows still pictures of every view."""
        return self._freezer

    def _show(self, key: str | None) -> None:
        """A node was selected (in any view; ipysigma selects it in all, each view reporting
        back in turn): its card once, and which views hold it, as the reports arrive."""
        if key != self._shown or key is None:
            self._shown = key
            self._selection.show(key)
            for fn in self._callbacks:
                fn(self._selection.location)
        held = self.holders
        self.where.value = (
            ""
            if key is None
            else f"<b>{html.escape(key)}</b> is drawn in partition(s) "
            + ", ".join(str(q) for q in held)
            + (
                f"; not in {', '.join(str(q) for q in self.parts if q not in held)}"
                if len(held) < len(self.parts)
                else ""
            )
        )

    @property
    def holders(self) -> list[int]:
        """The partitions whose view holds the selected node and has it selected (read from
        each view's synced ``selected_node``)."""
        return [q for q, v in zip(self.parts, self.views) if v.selected is not None]

    def on_select(self, callback) -> None:
        """Call ``callback(location)`` (a :class:`~graphpart.lookup.NodeLocation`, or ``None``)
        whenever a node is selected in any of the views."""
        self._callbacks.append(callback)

    @property
    def location(self) -> NodeLocation | None:
        return self._selection.location

"""``PartitionGraph``: a WebGL view of a partitioning. Hover a node for its ids, click it to
select it (Python sees the selection and shows the node's card).

Built on ipysigma (sigma.js + graphology, its JupyterLab extension ships in the wheel). The view
draws :func:`graphpart.views.graph.graph_data` (the whole graph coloured by owner, cut edges
near-black; one partition's local graph with its HALO copies ringed by hop; a node's
neighbourhood; or the
quotient graph of a big graph); it computes nothing of its own.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as w
import numpy as np

from ..errors import GraphpartError, TooBigToDrawError
from ..lookup import NodeLocation, NodeTable, node_table
from ..storage.reopen import as_partitioning
from ..views.balance import COLORINGS, balance_view_data
from ..views.graph import GraphData, graph_data, neighbourhood_data
from ._common import check_choice, check_height, check_key, discard
from .node_card import NodeSelection, drawn_ids
from .sigma_style import legend_html, sigma_args
from .webgl_budget import UNIT_CLASS, Freezer

if TYPE_CHECKING:
    import os

    from ..partitioning.core import Partitioning

__all__ = ["PartitionGraph", "linked_row"]


class PartitionGraph(w.VBox):
    """The whole graph (``part=None``), partition ``part``'s local graph (HALO copies up to
    ``hops``) or the neighbourhood of ``node`` (``hops`` hops), drawn in WebGL.

    Hovering a node shows its card (original, new and type-wise ids, owner and local id, HALO
    copies, degree, split); clicking selects it (:attr:`selected`, :attr:`location`), highlights
    its neighbours and edges, and the card below the view follows; setting :attr:`selected`
    from Python selects it in the view. A graph above the drawing limits is drawn as its
    quotient graph: clicking a partition opens it (its local graph, or the neighbourhood of its
    best-connected node when that is too big too); "whole graph" goes back. ``color="balance"``
    colours each node by its balance class instead, ringed in its partition's colour, and its
    card says its class's load in its partition and trainer against the mean.

    Parameters
    ----------
    p : Partitioning or path
        :func:`graphpart.partition`'s result, or partitions on disk in a format graphpart
        reads.
    part : int, optional
        Draw this partition's local graph; None: the whole graph (or ``node``'s
        neighbourhood).
    hops : int, optional
        With ``part``: the HALO hops drawn (default: all the partition holds, at most
        ``p.num_hops``). With ``node``: the neighbourhood's radius (default 2).
    node : int, optional
        Draw the neighbourhood of this node (an original homogeneous id) instead.
    table : NodeTable, optional
        ``node_table(p)``, when the caller has it already; computed otherwise.
    sync_key : str, optional
        Views given the same key share their camera (ipysigma's sync).
    height : int, default 460
        The view's height in pixels, 250 to 4000.
    panel : bool, default True
        Show ipysigma's information panel beside the drawing.
    search : bool, default True
        Show ipysigma's search box (views four abreast are too narrow for it).
    data : GraphData, optional
        What the first drawing shows, computed by the caller (linked views); later drawings
        are computed from ``part``, ``hops`` and ``node``.
    others : dict of str to dict, optional
        The nodes the linked views draw (key -> attributes with ``x`` and ``y``): those not
        drawn here become invisible stand-ins, and selection and hover are synced too. A view
        given ``others`` holds no seat of its own in the page's WebGL budget (its row does).
    selected : str, optional
        The key of the node selected in the first drawing (``"17"``, ``"paper:17"``).
    camera : dict, optional
        ipysigma's camera state for the first drawing.
    color : {"owner", "balance"}, default "owner"
        Colour nodes by their owner partition, or by their balance class.

    Raises
    ------
    GraphpartError
        If an argument has the wrong type or value (among them ``hops`` above
        ``p.num_hops``).

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> view = PartitionGraph(gp.partition(load_karate_club(), 2, num_hops=1, seed=0))
    >>> view.selected = "0"
    >>> view.location.orig_id, "HALO copies" in view.card.value
    (0, True)
    >>> view.show(node=0, hops=1)
    >>> view.title
    'node 0 and 16 nodes within 1 hop'
    """

    def __init__(
        self,
        p: Partitioning | str | os.PathLike,
        part: int | None = None,
        *,
        hops: int | None = None,
        node: int | None = None,
        table: NodeTable | None = None,
        sync_key: str | None = None,
        height: int = 460,
        panel: bool = True,
        search: bool = True,
        data: GraphData | None = None,
        others: dict[str, dict] | None = None,
        selected: str | None = None,
        camera: dict | None = None,
        color: str = "owner",
    ) -> None:
        self.p = p = as_partitioning(p)
        self._color = check_choice(color, "color", COLORINGS)
        for name, value, kind in (
            ("table", table, NodeTable),
            ("data", data, GraphData),
            ("others", others, dict),
            ("camera", camera, dict),
            ("sync_key", sync_key, str),
        ):
            if value is not None and not isinstance(value, kind):
                raise GraphpartError(
                    f"{name} must be a {kind.__name__} or None, got {type(value).__name__}"
                )
        self.table = table or node_table(p)
        self._opts = (sync_key, check_height(height), panel, others, bool(search))
        self._given = data
        self._first = (check_key(selected), camera)  # the first drawing's selection and camera
        self._selection = NodeSelection(p, self.table, {})
        self.card = self._selection.card
        self.caption = w.HTML()
        self.caption.add_class("graphpart-view-title")
        self.back = w.Button(description="whole graph", layout=w.Layout(width="auto"))
        self.back.on_click(lambda _: self.show(*self._home[:1], **self._home[1]))
        self._home = (part, {"hops": hops, "node": node})
        self._listeners: list = []
        #: Other boxes showing this view's drawing (a linked row shows the sigma widgets of
        #: its views side by side): a new drawing replaces the old one there too.
        self.shown_in: list[w.Box] = []
        super().__init__(layout=w.Layout(width="100%"))
        self.add_class("graphpart-graph-view")
        # a view on its own holds a seat in the page's WebGL budget; linked views (others), in
        # their row's
        self._freezer = None
        if others is None:
            self.add_class(UNIT_CLASS)
            self._freezer = Freezer(
                lambda: [(self.data, frozenset())],
                self.release,
                self._wake,
                self._show_frozen,
                self._opts[1],
            )
        self.show(part, hops=hops, node=node)

    def show(self, part: int | None = None, *, hops: int | None = None, node: int | None = None):
        """Draw the whole graph, partition ``part`` (HALO up to ``hops``) or the ``hops``-hop
        neighbourhood of ``node`` (an original homogeneous id) instead, camera reset."""
        if self._given is not None:  # computed by the caller (linked views)
            data, self._given = self._given, None
        elif node is not None:
            data = neighbourhood_data(self.p, node, 2 if hops is None else hops, self.table)
        else:
            try:
                data = graph_data(self.p, part, self.table, hops=hops)
            except TooBigToDrawError:
                if part is None:
                    raise
                data = self._piece_of(part)
        if self._color == "balance":
            data = balance_view_data(self.p, data)
        self.data = data
        self.title = data.title
        self._graph, self._kwargs = sigma_args(data, *self._opts)
        self._selection.keys = drawn_ids(data)
        (selected, camera), self._first = self._first, (None, None)
        previous = getattr(self, "sigma", None)
        old = [c for c in self.children if isinstance(c, w.HBox)]  # the caption row
        old += [previous] if previous is not None else []
        self.sigma = self._new_sigma(selected, camera)
        self._selection.show(selected if selected in self._selection.keys else None)
        self.caption.value = f"<b>{html.escape(data.title)}</b> {legend_html(data)}"
        home = (part, {"hops": hops, "node": node}) == self._home
        top = [self.caption] + ([] if home else [self.back])
        # the seat first: ipywidgets renders a box's children again from the first that changed
        self.children = [*self._seat(), w.HBox(top), self._drawing(), self.card]
        self._shown_elsewhere(previous)
        for x in old:  # replaced (the caption and button in the row live on)
            x.close()

    def draw(self, data: GraphData) -> None:
        """Draw ``data`` (computed by the caller) instead of what the view shows, camera
        reset; the drawing it replaces is closed."""
        if not isinstance(data, GraphData):
            raise GraphpartError(f"data must be a GraphData, got {type(data).__name__}")
        self._given = data
        self.show(*self._home[:1], **self._home[1])

    def _new_sigma(self, selected: str | None, camera: dict | None):
        from ipysigma import Sigma

        extra = {"camera_state": camera} if camera else {}
        sigma = Sigma(self._graph, selected_node=selected, **self._kwargs, **extra)
        # a view whose box has no width yet (a closed tab, a notebook not shown after a reload)
        # is drawn once it has one, instead of sigma throwing "Container has no width"
        sigma.renderer_settings = {**sigma.renderer_settings, "allowInvalidContainer": True}
        sigma.observe(self._on_select, "selected_node")
        for fn in self._listeners:
            sigma.observe(fn, "selected_node")
        return sigma

    def on_select(self, callback) -> None:
        """Call ``callback(key)`` whenever a node is selected (in the browser or from Python)."""
        listener = lambda change: callback(change["new"])  # noqa: E731
        self._listeners.append(listener)
        self.sigma.observe(listener, "selected_node")

    def _on_select(self, change) -> None:
        key = change["new"]
        attrs = self.data.nodes.get(key) if key is not None else None
        if attrs is not None and attrs.get("kind") == "partition":  # a quotient graph's node
            self._open(int(key.split()[-1]))
        else:
            self._selection.show(key)

    def _open(self, part: int) -> None:
        self.show(part)

    def _piece_of(self, part: int) -> GraphData:
        """A partition too big to draw whole: its best-connected inner node's surroundings."""
        from dataclasses import replace

        from ..homogeneous import HomogeneousGraph

        h = HomogeneousGraph.of(self.p.graph)
        degree = np.bincount(h.src, minlength=h.num_nodes) + np.bincount(
            h.dst, minlength=h.num_nodes
        )
        v = self.p.view(part)
        inner = np.asarray(self.p.shuffle.new2old_nid)[np.asarray(v.nodes[: v.num_inner_nodes])]
        node = int(inner[int(degree[inner].argmax())])
        data = neighbourhood_data(self.p, node, 2, self.table)
        return replace(data, title=f"partition {part} is too big to draw whole; {data.title}")

    def redraw(self, selected: str | None) -> None:
        """Draw the view again with ``selected`` selected (and its neighbourhood highlighted),
        keeping the camera. ipysigma reads a selection made in Python only when it draws.
        A view the page's WebGL budget has not granted contexts (frozen, or waiting) keeps the
        selection for when it is drawn."""
        if selected is not None and selected not in self._graph:
            selected = None
        if self._freezer is not None and not self._freezer.budget.live:
            self.sigma.selected_node = selected  # drawn with it when the page grants contexts
            self._selection.show(selected)
            return
        old = self.sigma
        self.sigma = self._new_sigma(selected, dict(self.sigma.camera_state))
        self._selection.show(selected)
        self.children = [*self._seat(), self._top, self._drawing(), self.card]
        self._shown_elsewhere(old)
        old.close()

    def _shown_elsewhere(self, old) -> None:
        """The new drawing in place of ``old`` in the other boxes showing it (:attr:`shown_in`):
        a live box holding a closed widget would fail a reloading page's request for every
        widget's state."""
        for box in self.shown_in:
            box.children = [self.sigma if c is old else c for c in box.children]

    @property
    def _top(self):
        """The caption row above the drawing."""
        return next(c for c in self.children if isinstance(c, w.HBox))

    def _wake(self) -> None:
        """The page granted contexts: show the sigma widget made for this drawing, or (closed
        when the view froze) a new one, selection and camera kept."""
        if self.sigma.comm is None:
            self.redraw(self.sigma.selected_node)
        else:
            self.children = [*self._seat(), self._top, self._drawing(), self.card]

    def release(self) -> None:
        """Close the drawing (its WebGL contexts are released at once) and take it out of
        this view, which lives on: a live box holding a closed widget would fail a reloading
        page's request for every widget's state. Drawn again by :meth:`redraw`."""
        self.children = [c for c in self.children if c is not self.sigma]
        self.sigma.close()

    def close(self) -> None:
        """Close the view with everything it made: the drawing, its caption row and button,
        its card, its seat in the page's budget and its still pictures, shown or not."""
        f = getattr(self, "_freezer", None)  # a view refused half-built has none of these
        made = [getattr(self, k, None) for k in ("sigma", "back", "caption", "card")]
        discard(*made, *(f.widgets if f else []), *self.children)
        super().close()

    def _seat(self) -> list:
        """The view's seat in the page's WebGL budget, if it holds one."""
        return [] if self._freezer is None else [self._freezer.budget]

    def _drawing(self):
        """The sigma widget, or what stands for it while the page's WebGL budget says wait."""
        if self._freezer is None:
            return self.sigma
        return self._freezer.drawing(self.sigma, [self.sigma])

    def _show_frozen(self, box) -> None:
        self.children = [self._freezer.budget, self._top, box, self.card]

    @property
    def freezer(self):
        """This view's :class:`~graphpart.widgets.webgl_budget.Freezer` (``None`` in a linked
        row, whose row holds the seat): ``freezer.freeze()`` shows the still picture."""
        return self._freezer

    @property
    def selected(self) -> str | None:
        """The key of the selected node (``"17"``, or ``"paper:17"``), or ``None``; ``None``
        too when the node selected in a linked view is not drawn in this one."""
        key = self.sigma.selected_node
        return key if key in self._selection.keys else None

    @selected.setter
    def selected(self, key: str | None) -> None:
        # the browser shows a selection made in Python only when it draws
        self.redraw(check_key(key, "key"))
        for fn in self._listeners:
            fn({"name": "selected_node", "new": self.sigma.selected_node})

    @property
    def location(self) -> NodeLocation | None:
        """Every id of the selected node (:func:`graphpart.lookup.locate_node`)."""
        return self._selection.location

    @property
    def node_ids(self) -> dict[str, int]:
        """The key of every node drawn -> its original homogeneous id."""
        return self._selection.keys


def linked_row(views: list[PartitionGraph]) -> w.HBox:
    """The drawings (sigma widgets) of linked ``views`` side by side, directly in one row, as
    ipysigma's SigmaGrid places them: inside another box they are drawn before that box has a
    width, and sigma refuses to draw. A view drawn again from Python (its ``selected`` set)
    shows its new drawing in the row too.

    Parameters
    ----------
    views : list of PartitionGraph
        The linked views, left to right.

    Returns
    -------
    ipywidgets.HBox
        The row; each view lists it in its ``shown_in``.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> p = gp.partition(load_karate_club(), 2, num_hops=1, seed=0)
    >>> views = [PartitionGraph(p, q, others={}, sync_key="k") for q in (0, 1)]
    >>> row = linked_row(views)
    >>> views[1].selected = "33"
    >>> row.children[1] is views[1].sigma
    True
    """
    row = w.HBox([v.sigma for v in views], layout=w.Layout(width="100%"))
    for v in views:
        v.shown_in.append(row)
    return row

"""Interactive WebGL views of a partitioning: hover a node for its ids, click it to select it.

Built on ipysigma (sigma.js + graphology, its JupyterLab extension ships in the wheel). The
views draw :func:`graphpart.viz.graph_data.graph_data`; they compute nothing of their own.

``PartitionGraph``   the whole graph coloured by owner (cut edges red), or one partition's
                     local graph (HALO copies ringed); the selected node's card below it
``PartitionViews``   one linked view per partition: camera, hover and selection are shared, so
                     selecting a node in one view selects all its copies in the others
"""

from __future__ import annotations

import html

import ipywidgets as w
import numpy as np

from ..errors import GraphpartError
from ..lookup import NodeLocation, NodeTable, node_table
from ..viz.graph_data import HALO_BORDER, GraphData, graph_data, neighbourhood_data

__all__ = ["PartitionGraph", "PartitionViews", "location_card"]


def _sigma_args(
    data: GraphData, sync_key: str | None, height: int, panel: bool, others=None
) -> tuple:
    """The networkx graph and the ``Sigma`` arguments of one view.

    ``others`` (key -> attributes, from linked views; ``{}`` when they draw the same nodes)
    adds every node drawn there and not here as an invisible size-0 node and links selection
    and hover too: ipysigma then syncs them across the views itself (its sync fails on a node a
    view lacks), and all views span the same extent.
    """
    import networkx as nx

    g = nx.Graph()
    top = max((a["degree"] for a in data.nodes.values()), default=1) or 1
    shrink = min(1.0, max(0.25, (2000 / max(len(data.nodes), 1)) ** 0.5))  # crowded: smaller
    # a big view sends only what it draws and the card (its label): half the bytes to the browser
    big = len(data.nodes) > COMPACT_NODES
    kept = ("owner", "kind", "label") if big else None
    for k, a in data.nodes.items():
        halo = a["kind"].startswith("HALO")
        g.add_node(
            k,
            **{n: v for n, v in a.items() if n not in ("x", "y") and (not big or n in kept)},
            border=HALO_BORDER if halo else data.palette[a["owner"]],
            **{
                "border size": 3 if halo else 0,
                "size": round(shrink * (3 + 9 * (a["degree"] / top) ** 0.5), 2),
            },
        )
    if big:
        g.add_edges_from((s, t, {"color": e["color"]}) for s, t, e in data.edges)
    else:
        g.add_edges_from(data.edges)
    layout = {k: {"x": a["x"], "y": a["y"]} for k, a in data.nodes.items()}
    for k, a in (others or {}).items():
        if k not in layout:
            label = f"{k}: not in this view"
            g.add_node(
                k, owner=a["owner"], kind="not here", label=label, size=0, border=HALO_BORDER
            )
            g.nodes[k]["border size"] = 0
            layout[k] = {"x": a["x"], "y": a["y"]}
    kwargs = dict(
        layout=layout,
        height=height,
        node_color="owner",
        node_color_palette=data.palette,
        raw_node_border_color="border",
        raw_node_border_size="border size",
        raw_node_size="size",
        raw_edge_color="color",
        # selection and hover too when every view holds every node (others): sigma's own
        # selection sync throws in a view that lacks the node
        sync_key=sync_key,
        sync_targets=["camera", "selection", "hover"] if others is not None else ["camera"],
        hide_info_panel=not panel,
        # the label is the node's one-line card: drawn on hover (and for the selection) only
        label_rendered_size_threshold=10_000,
    )
    return g, kwargs


#: Above this many nodes, a view sends each node's owner, kind and card label only.
COMPACT_NODES = 10_000


def _legend(data: GraphData) -> str:
    """Colour swatches of the owners, and what red edges and rings mean."""
    swatches = " ".join(
        f"<span style='color:{c}'>&#9632;</span>&nbsp;{html.escape(k)}"
        for k, c in data.palette.items()
    )
    return (
        f"<span style='font-size:11px'>{swatches} &middot; red edges: cut &middot; "
        "ringed: HALO copy &middot; hover a node for its ids, click to select</span>"
    )


def location_card(loc: NodeLocation | None) -> str:
    """An HTML table of one node's ids, owner and HALO copies (empty for ``None``).

    Examples
    --------
    >>> from graphpart.lookup import NodeLocation
    >>> "HALO copies" in location_card(NodeLocation("_N", 3, 3, 5, 5, 1, 2, ((0, 9, 1),)))
    True
    """
    if loc is None:
        return ""
    copies = "; ".join(f"part {q} (local {lid}, hop {h})" for q, lid, h in loc.halo) or "none"
    rows = [
        ("node type", loc.ntype),
        ("original id (type-wise)", loc.orig_id),
        ("original homogeneous id", loc.orig_homo_id),
        ("new (shuffled) id", loc.shuffled_id),
        ("new type-wise id", loc.shuffled_typed_id),
        ("owner", f"part {loc.owner} (local id {loc.local_id})"),
        ("HALO copies", copies),
    ]
    body = "".join(
        f"<tr><th>{html.escape(a)}</th><td>{html.escape(str(b))}</td></tr>" for a, b in rows
    )
    return f'<table class="graphpart-node-card">{body}</table>'


class _Selection:
    """The key -> homogeneous id map of the drawn nodes, and the card of the selected one."""

    def __init__(self, p, table: NodeTable, keys: dict[str, int]) -> None:
        self.p, self.table, self.keys = p, table, keys
        self.card = w.HTML("")
        self.card.add_class("graphpart-selection")
        self.location: NodeLocation | None = None

    def show(self, key: str | None) -> None:
        node = self.keys.get(key) if key is not None else None
        self.location = None if node is None else self.table.location(node)
        self.card.value = location_card(self.location)


def _keys(data: GraphData) -> dict[str, int]:
    """Each drawn node's original homogeneous id (none for a quotient graph's partitions)."""
    out = {}
    for k, a in data.nodes.items():
        node = a.get("homogeneous id", a.get("original id"))
        if node is not None:
            out[k] = int(node)
    return out


class PartitionGraph(w.VBox):
    """The whole graph (``part=None``), partition ``part``'s local graph (HALO copies up to
    ``hops``) or the neighbourhood of ``node`` (``hops`` hops), drawn in WebGL.

    Hovering a node shows its card (original, new and type-wise ids, owner and local id, HALO
    copies, degree, split); clicking selects it (:attr:`selected`, :attr:`location`), highlights
    its neighbours and edges, and the card below the view follows; setting :attr:`selected`
    from Python selects it in the view. A graph above the drawing limits is drawn as its
    quotient graph: clicking a partition opens it (its local graph, or the neighbourhood of its
    best-connected node when that is too big too); "whole graph" goes back.

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
        p,
        part: int | None = None,
        *,
        hops: int | None = None,
        node: int | None = None,
        table: NodeTable | None = None,
        sync_key: str | None = None,
        height: int = 460,
        panel: bool = True,
        data: GraphData | None = None,
        others: dict[str, dict] | None = None,
        selected: str | None = None,
        camera: dict | None = None,
    ) -> None:
        self.p = p
        self.table = table or node_table(p)
        self._opts = (sync_key, height, panel, others)
        self._given = data
        self._first = (selected, camera)  # the first drawing's selection and camera
        self._selection = _Selection(p, self.table, {})
        self.card = self._selection.card
        self.caption = w.HTML()
        self.caption.add_class("graphpart-view-title")
        self.back = w.Button(description="whole graph", layout=w.Layout(width="auto"))
        self.back.on_click(lambda _: self.show(*self._home[:1], **self._home[1]))
        self._home = (part, {"hops": hops, "node": node})
        self._listeners: list = []
        super().__init__(layout=w.Layout(width="100%"))
        self.add_class("graphpart-graph-view")
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
            except GraphpartError:
                if part is None:
                    raise
                data = self._piece_of(part)
        self.data = data
        self.title = data.title
        self._graph, self._kwargs = _sigma_args(data, *self._opts)
        self._selection.keys = _keys(data)
        (selected, camera), self._first = self._first, (None, None)
        self.sigma = self._new_sigma(selected, camera)
        self._selection.show(selected if selected in self._selection.keys else None)
        self.caption.value = f"<b>{html.escape(data.title)}</b> {_legend(data)}"
        home = (part, {"hops": hops, "node": node}) == self._home
        top = [self.caption] + ([] if home else [self.back])
        self.children = [w.HBox(top), self.sigma, self.card]

    def _new_sigma(self, selected: str | None, camera: dict | None):
        from ipysigma import Sigma

        extra = {"camera_state": camera} if camera else {}
        sigma = Sigma(self._graph, selected_node=selected, **self._kwargs, **extra)
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
        keeping the camera. ipysigma reads a selection made in Python only when it draws."""
        if selected is not None and selected not in self._graph:
            selected = None
        self.sigma = self._new_sigma(selected, dict(self.sigma.camera_state))
        self._selection.show(selected)
        self.children = [self.children[0], self.sigma, self.card]

    @property
    def selected(self) -> str | None:
        """The key of the selected node (``"17"``, or ``"paper:17"``), or ``None``; ``None``
        too when the node selected in a linked view is not drawn in this one."""
        key = self.sigma.selected_node
        return key if key in self._selection.keys else None

    @selected.setter
    def selected(self, key: str | None) -> None:
        self.redraw(key)  # the browser shows a selection made in Python only when it draws
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


class PartitionViews(w.VBox):
    """One view per partition (its inner nodes and HALO copies), side by side and linked: pan,
    zoom, hover and selection are shared (ipysigma's own sync), so selecting a node in one
    selects every copy of it; the card lists where they live and which views hold it.

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
        p,
        *,
        hops: int | None = None,
        parts: list[int] | None = None,
        height: int = 380,
        selected: str | None = None,
    ) -> None:
        import uuid

        self.p, self._hops, self._height = p, hops, height
        self.table = node_table(p)
        self._key = f"graphpart-{uuid.uuid4().hex[:8]}"
        self.parts = list(range(p.num_parts)) if parts is None else [int(q) for q in parts]
        self._data = [graph_data(p, q, self.table, hops=hops) for q in self.parts]
        self._others = {k: a for d in self._data for k, a in d.nodes.items()}
        self._selection = _Selection(p, self.table, {})
        self._callbacks: list = []
        self._shown: str | None = None
        self.card = self._selection.card
        self.card.add_class("graphpart-views-selection")
        self.where = w.HTML()
        self.where.add_class("graphpart-views-where")
        self._draw(selected)
        legend = w.HTML(_legend(self._data[0]) if self._data else "")
        titles = [w.Box([v.caption], layout=w.Layout(flex="1 1 0")) for v in self.views]
        self._titles = w.HBox(titles, layout=w.Layout(width="100%"))
        super().__init__([legend, self._titles, self._row, self.where, self.card])
        self.add_class("graphpart-partition-views")
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
                camera=cameras[i] if cameras else None,
            )
            v.caption.value = f"<b>{html.escape(v.title)}</b>"
            v.on_select(self._show)
            self.views.append(v)
        for k in (d.nodes for d in self._data):
            self._selection.keys.update(_keys_of(k))
        # the sigma widgets sit in the row directly (as ipysigma's SigmaGrid places them): inside
        # another box they are drawn before that box has a width, and sigma refuses to draw
        self._row = w.HBox([v.sigma for v in self.views], layout=w.Layout(width="100%"))

    def select(self, key: str | None) -> None:
        """Select node ``key`` in every view from Python (all views are drawn again, cameras
        kept: ipysigma reads a selection made in Python only when it draws)."""
        cameras = [dict(v.sigma.camera_state) for v in self.views]
        self._draw(key, cameras)
        self.children = [*self.children[:2], self._row, *self.children[3:]]
        self._show(key)

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


def _keys_of(nodes: dict) -> dict[str, int]:
    return _keys(GraphData(nodes, [], {}, ""))

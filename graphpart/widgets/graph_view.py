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

from ..lookup import NodeLocation, NodeTable, node_table
from ..viz.graph_data import HALO_BORDER, GraphData, graph_data

__all__ = ["PartitionGraph", "PartitionViews", "location_card"]


def _sigma_args(data: GraphData, sync_key: str | None, height: int, panel: bool):
    """The networkx graph and the ``Sigma`` arguments of one view."""
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(
        (k, {n: v for n, v in a.items() if n not in ("x", "y")}) for k, a in data.nodes.items()
    )
    g.add_edges_from(data.edges)
    halo = {k: a["kind"].startswith("HALO") for k, a in data.nodes.items()}
    for k in g.nodes:
        g.nodes[k]["border"] = HALO_BORDER if halo[k] else data.palette[g.nodes[k]["owner"]]
        g.nodes[k]["border size"] = 3 if halo[k] else 0
    kwargs = dict(
        layout={k: {"x": a["x"], "y": a["y"]} for k, a in data.nodes.items()},
        name=data.title,
        height=height,
        node_color="owner",
        node_color_palette=data.palette,
        raw_node_border_color="border",
        raw_node_border_size="border size",
        node_size="degree",
        raw_edge_color="color",
        # camera only: sigma's own selection sync throws in a view that lacks the node, so
        # selection is passed on in Python, to the views that hold a copy
        sync_key=sync_key,
        sync_targets=["camera"],
        hide_info_panel=not panel,
    )
    return g, kwargs


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
    """The whole graph (``part=None``) or partition ``part``'s local graph, drawn in WebGL.

    Hover shows a node's card (original, new and type-wise ids, owner and local id, HALO
    copies, degree, split); clicking selects it (:attr:`selected`, :attr:`location`) and the
    card below the view follows; setting :attr:`selected` from Python selects it in the view.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> view = PartitionGraph(gp.partition(load_karate_club(), 2, num_hops=1, seed=0))
    >>> view.selected = "0"
    >>> view.location.orig_id, "HALO copies" in view.card.value
    (0, True)
    """

    def __init__(
        self,
        p,
        part: int | None = None,
        *,
        table: NodeTable | None = None,
        sync_key: str | None = None,
        height: int = 460,
        panel: bool = True,
    ) -> None:
        table = table or node_table(p)
        data = graph_data(p, part, table)
        self._graph, self._kwargs = _sigma_args(data, sync_key, height, panel)
        self._selection = _Selection(p, table, _keys(data))
        self.card = self._selection.card
        self._listeners: list = []
        self.sigma = self._new_sigma(None, None)
        super().__init__([self.sigma, self.card], layout=w.Layout(width="100%"))
        self.add_class("graphpart-graph-view")

    def _new_sigma(self, selected: str | None, camera: dict | None):
        from ipysigma import Sigma

        extra = {"camera_state": camera} if camera else {}
        sigma = Sigma(self._graph, selected_node=selected, **self._kwargs, **extra)
        sigma.observe(lambda change: self._selection.show(change["new"]), "selected_node")
        for fn in self._listeners:
            sigma.observe(fn, "selected_node")
        return sigma

    def redraw(self, selected: str | None) -> None:
        """Draw the view again with ``selected`` selected (and its neighbourhood highlighted),
        keeping the camera. ipysigma reads a selection made in Python only when it draws."""
        if selected is not None and selected not in self._selection.keys:
            selected = None
        self.sigma = self._new_sigma(selected, dict(self.sigma.camera_state))
        self._selection.show(selected)
        self.children = [self.sigma, self.card]

    @property
    def selected(self) -> str | None:
        """The key of the selected node (``"17"``, or ``"paper:17"``), or ``None``."""
        return self.sigma.selected_node

    @selected.setter
    def selected(self, key: str | None) -> None:
        self.redraw(key)  # the browser shows a selection made in Python only when it draws
        for fn in self._listeners:
            fn({"name": "selected_node", "new": self.sigma.selected_node})

    @property
    def location(self) -> NodeLocation | None:
        """Every id of the selected node (:func:`graphpart.lookup.locate_node`)."""
        return self._selection.location


class PartitionViews(w.VBox):
    """One view per partition (its inner nodes and HALO copies), side by side and linked:
    selecting a node in one selects every copy of it; the card lists where they live.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> views = PartitionViews(gp.partition(load_karate_club(), 2, num_hops=1, seed=0))
    >>> len(views.views), views.views[0].sigma.sync_key == views.views[1].sigma.sync_key
    (2, True)
    """

    def __init__(self, p, *, height: int = 380) -> None:
        import uuid

        table = node_table(p)
        key = f"graphpart-{uuid.uuid4().hex[:8]}"
        self.views = [
            PartitionGraph(p, q, table=table, sync_key=key, height=height, panel=False)
            for q in range(p.num_parts)
        ]
        self._selection = _Selection(p, table, {})
        self.card = self._selection.card
        self.card.add_class("graphpart-views-selection")
        for q, v in enumerate(self.views):
            self._selection.keys.update(v._selection.keys)
            v._listeners.append(lambda change, q=q: self._select(q, change["new"]))
            v.sigma.observe(v._listeners[-1], "selected_node")
        # the sigma widgets sit in the row directly (as ipysigma's SigmaGrid places them): inside
        # another box they are drawn before that box has a width, and sigma refuses to draw
        self._row = w.HBox([v.sigma for v in self.views], layout=w.Layout(width="100%"))
        super().__init__([self._row, self.card])
        self.add_class("graphpart-partition-views")

    def _select(self, origin: int, key: str | None) -> None:
        """A node was selected in view ``origin``: select it in every other view that holds a
        copy (drawn again, camera kept), clear the others, and show its card."""
        self._selection.show(key)
        for q, v in enumerate(self.views):
            if q != origin and v.sigma.selected_node != (key if key in v._selection.keys else None):
                v.redraw(key)
        self._row.children = [v.sigma for v in self.views]

    @property
    def location(self) -> NodeLocation | None:
        return self._selection.location

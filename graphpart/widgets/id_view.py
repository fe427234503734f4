"""``IdView``: the reshuffle in the browser. Nodes on the id line before and after, edges in the
adjacency matrix before and after; hover any point for its ids, click it to select it.

Built on jupyter-scatter (WebGL scatter plots with HTML tooltips, its JavaScript bundled in the
wheel). The numbers come from :func:`graphpart.viz.ids.id_data`; this module only draws them.
Each pair of plots is linked: hovering or selecting a node (an edge) in one highlights the same
node (edge) in the other, so you can follow it through the reshuffle.
"""

from __future__ import annotations

import html
import warnings

import ipywidgets as w
import numpy as np

from ..viz.graph_data import node_keys, part_hex
from ..viz.ids import MAX_POINTS, IdData, id_data
from .graph_view import location_card

__all__ = ["IdView"]


class IdView(w.VBox):
    """The id line and the adjacency matrix of partitioning ``p``, before and after the
    reshuffle, in linked WebGL scatter plots.

    Top: one point per node at its original homogeneous id (left) and at its new id (right),
    one row per node type, coloured by owner: the colours mix before and form one block per
    partition after. Bottom: one point per edge (source id down, destination id across),
    coloured by the partition that stores it, in original ids and in new ids, where the inner
    edges fill the diagonal blocks. Hover a point for a tooltip with its ids; click it and
    :attr:`selected` and the card below hold its every id.

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
    """

    def __init__(self, p, *, max_points: int = MAX_POINTS, height: int = 300) -> None:
        with warnings.catch_warnings():  # jupyter-scatter's own pandas deprecations
            warnings.filterwarnings("ignore", module="jscatter")
            self._build(p, max_points, height)

    def _build(self, p, max_points: int, height: int) -> None:
        import jscatter

        d = id_data(p, max_points)
        self.data = d
        self._nodes = _node_frame(p, d)
        self._edges = _edge_frame(p, d, self._nodes)
        colors = dict(zip([f"part {q}" for q in range(p.num_parts)], part_hex(p.num_parts)))
        ids = (-0.5, d.num_nodes - 0.5)
        k = int(d.table.owner.max()) + 1 if d.num_nodes else 1
        rows = (-0.75, len(d.table.ntypes) * k - 0.25)
        self.nodes_before = _scatter(
            self._nodes, "original id line", "row", colors, height, ids, rows
        )
        self.nodes_after = _scatter(self._nodes, "new id line", "row", colors, height, ids, rows)
        self.edges_before = _scatter(
            self._edges, "destination id", "source id", colors, height, ids, ids, edges=True
        )
        self.edges_after = _scatter(
            self._edges, "new destination id", "new source id", colors, height, ids, ids, True
        )
        ntypes = d.table.ntypes
        k = int(d.table.owner.max()) + 1 if d.num_nodes else 1
        types = ", ".join(
            f"{i * k + q}: {t} in part {q}" for i, t in enumerate(ntypes) for q in range(k)
        )
        top = jscatter.compose(
            [(self.nodes_before, "original ids"), (self.nodes_after, "new ids (partition-major)")],
            sync_hover=True,
            sync_selection=True,
            row_height=height,
        )
        sample = "" if len(d.src) == d.num_edges else f" ({len(d.src):,} of {d.num_edges:,})"
        bottom = jscatter.compose(
            [
                (self.edges_before, f"edges in original ids{sample}"),
                (self.edges_after, "edges in new ids"),
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
        note = w.HTML(
            "<span style='font-size:12px'>node rows by type and owner ("
            + html.escape(types)
            + "); "
            "hover a point for its ids, click it to select it in both plots</span>"
        )
        super().__init__([note, top, bottom, self.card])
        self.add_class("graphpart-id-view")

    def _facts(self, kind: str, index) -> dict | None:
        if index is None or int(index) < 0:
            return None
        frame = self._nodes if kind == "node" else self._edges
        row = frame.iloc[int(index)]
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
            rows = "".join(
                f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>"
                for k, v in self.selected.items()
                if k not in ("source id", "destination id", "new source id", "new destination id")
            )
            self.card.value = f'<table class="graphpart-node-card">{rows}</table>'


def _node_frame(p, d: IdData):
    import pandas as pd

    t = d.table
    n = d.num_nodes
    keys = node_keys(p, t)
    return pd.DataFrame(
        {
            "node": keys,
            "original id line": np.arange(n),
            "new id line": t.shuffled_id,
            # one row per (type, partition): scattered before the reshuffle, a block after
            "row": (t.ntype * (int(t.owner.max()) + 1 if n else 1) + t.owner).astype(np.float64),
            "type": np.asarray(t.ntypes, dtype=object)[t.ntype],
            "original homogeneous id": np.arange(n),
            "new id": t.shuffled_id,
            "new type-wise id": t.shuffled_typed_id,
            "owner": _parts(t.owner, p.num_parts),
            "local id": t.local_id,
        }
    )


def _edge_frame(p, d: IdData, nodes):
    import pandas as pd

    keys = nodes["node"].to_numpy()
    owner = d.table.owner[d.dst]
    return pd.DataFrame(
        {
            "source": keys[d.src],
            "destination": keys[d.dst],
            "source id": d.src,
            "destination id": d.dst,
            "new source id": d.new_src,
            "new destination id": d.new_dst,
            "owner": _parts(owner, p.num_parts),
            "stored by": [f"part {q}" for q in owner.tolist()],
            "edge": np.where(d.table.owner[d.src] != owner, "cut", "inner"),
        }
    )


def _parts(owner: np.ndarray, k: int):
    """Owners as a categorical column whose categories are every partition, in order."""
    import pandas as pd

    names = [f"part {q}" for q in range(k)]
    cat = pd.Categorical.from_codes(owner.astype(np.int64), categories=names)
    return cat.remove_unused_categories()  # jupyter-scatter's legend mislabels unused ones


def _scatter(
    frame,
    x: str,
    y: str,
    colors: dict[str, str],
    height: int,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    edges: bool = False,
):
    """One jupyter-scatter plot over the whole id range (half an id of margin)."""
    import jscatter

    s = jscatter.Scatter(data=frame, x=x, y=y, height=height)
    s.x(x, scale=x_range)
    if y_range[1] - y_range[0] > 1.5:  # a fixed range over one row crashes the renderer
        s.y(y, scale=y_range)
    s.color(by="owner", map=[colors[c] for c in frame["owner"].cat.categories])
    s.size(default=6 if len(frame) <= 2000 else 3 if len(frame) <= 50_000 else 1)
    s.axes(True, grid=False, labels=[x, y])
    s.legend(True, position="top-right", size="small")
    props = (
        ["source", "destination", "new source id", "new destination id", "stored by", "edge"]
        if edges
        else ["node", "original homogeneous id", "new id", "new type-wise id", "owner", "local id"]
    )
    s.tooltip(True, properties=props, size="small")
    return s

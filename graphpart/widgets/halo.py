"""``HaloInspector``: a partition's inner and HALO nodes beside the partitions holding copies of a
node, in linked WebGL views; every id of any node, looked up or clicked."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from ..errors import GraphpartError, TooBigToDrawError
from ..lookup import ID_KINDS, locate_node, node_keys
from ..storage.reopen import as_partitioning
from ._common import discard, form
from .graph_view import PartitionGraph
from .node_card import location_card
from .partition_views import PartitionViews

if TYPE_CHECKING:
    from ..partitioning.core import Partitioning

__all__ = ["HaloInspector"]

#: Linked views side by side at most (each holds WebGL contexts; browsers allow a few dozen).
MAX_VIEWS = 4


class HaloInspector:
    """Pick a partition and a hop count; look a node up by any of its ids, or click it.

    The views show the chosen partition first (its inner nodes and its HALO copies up to
    ``hops``, ringed), beside every partition that holds the node looked up (its owner and its
    HALO copies), at most :data:`MAX_VIEWS` views, all partitions when there are that few. The
    node is selected in each view that holds it; clicking another node selects it everywhere and
    its ids replace the lookup table.

    Parameters
    ----------
    partitioning : Partitioning, or partitions on disk in any format graphpart reads

    Attributes
    ----------
    counts : dict
        ``inner``, ``halo`` (within the chosen hops) and ``halo_by_hop`` of the chosen partition.
    location : NodeLocation or None
        The last node looked up.

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> hi = HaloInspector(partition(load_karate_club(), 2, num_hops=2, seed=0))
    >>> hi.controls["hops"].value = 1
    >>> hi.counts["halo"] == hi.counts["halo_by_hop"][0]
    True
    >>> hi.controls["node"].value = 33
    >>> hi.location.orig_id
    33
    """

    def __init__(self, partitioning: Partitioning) -> None:
        import ipywidgets as w

        p = self.partitioning = as_partitioning(partitioning)
        self._keys = node_keys(p)
        self.views: PartitionViews | None = None
        self.counts: dict = {}
        self.location = None
        self._quiet = False  # the controls set from a click: nothing to look up or redraw
        field = form("90px", "250px")
        ntypes = p.graph.ntypes
        self.controls = {
            "part": field(w.Dropdown, "partition", options=list(range(p.num_parts)), value=0),
            "hops": field(w.IntSlider, "hops", value=p.num_hops, max=p.num_hops),
            "kind": field(w.Dropdown, "id kind", options=list(ID_KINDS), value="original"),
            "ntype": field(
                w.Dropdown, "node type", options=ntypes, value=ntypes[0], disabled=len(ntypes) == 1
            ),
            "node": field(
                w.BoundedIntText,
                "node id",
                value=0,
                max=len(p.node_part) - 1,
                continuous_update=True,
            ),
        }
        self.drawing = w.VBox(layout=w.Layout(flex="1 1 auto", min_width="0"))
        self.drawing.add_class("graphpart-halo-drawing")
        self.summary = w.HTML()
        self.summary.add_class("graphpart-halo-counts")
        self.lookup = w.HTML()
        self.lookup.add_class("graphpart-lookup")
        for name, c in self.controls.items():
            c.observe(
                self._on_lookup if name in ("kind", "ntype", "node") else self._on_view,
                names="value",
            )
        left = w.VBox(
            [*self.controls.values(), self.summary, self.lookup],
            layout=w.Layout(width="300px", flex="0 0 300px"),
        )
        self.widget = w.HBox([left, self.drawing], layout=w.Layout(align_items="flex-start"))
        self.widget.add_class("graphpart-halo-inspector")
        self._lookup()
        self._view()

    def _on_view(self, change) -> None:
        if not self._quiet:
            self._view()

    def _on_lookup(self, change) -> None:
        if not self._quiet:
            self._lookup()
            self._view()

    def _lookup(self) -> None:
        c = self.controls
        kind = c["kind"].value
        try:
            self.location = locate_node(
                self.partitioning,
                c["node"].value,
                kind,
                c["ntype"].value if kind == "typed" else None,
            )
        except GraphpartError as e:
            self.location = None
            self.lookup.value = f"<span style='color:#b00020'>{html.escape(str(e))}</span>"
            return
        self.lookup.value = location_card(self.location)

    def _view(self) -> None:
        import ipywidgets as w

        p = self.partitioning
        part, hops = self.controls["part"].value, self.controls["hops"].value
        halo_by_hop = p.metrics.halo_by_hop[part] if p.num_hops else []
        v = p.view(part)
        self.counts = {
            "inner": v.num_inner_nodes,
            "halo": int((v.hop[v.num_inner_nodes :] <= hops).sum()),
            "halo_by_hop": [int(x) for x in halo_by_hop],
        }
        by_hop = ", ".join(
            f"hop {h + 1}: {x:,}" for h, x in enumerate(self.counts["halo_by_hop"][:hops])
        )
        self.summary.value = (
            f"<b>partition {part}</b>: {self.counts['inner']:,} inner nodes, "
            f"{self.counts['halo']:,} HALO nodes within {hops} hop(s)"
            + (f" ({by_hop})" if by_hop else "")
        )
        shown = [part]
        if self.location is not None:
            holders = [self.location.owner, *(q for q, _, h in self.location.halo if h <= hops)]
            shown += [q for q in holders if q not in shown]
        if p.num_parts <= MAX_VIEWS:  # the chosen one first: choosing moves it to the left
            shown = [part, *(q for q in range(p.num_parts) if q != part)]
        key = self._keys[self.location.orig_homo_id] if self.location is not None else None
        try:
            self.views = PartitionViews(  # no search box: the lookup on the left is this one's
                p, hops=hops, parts=shown[:MAX_VIEWS], height=360, selected=key, search=False
            )
        except TooBigToDrawError as e:  # partitions too big to draw: the node's surroundings
            node = self.location.orig_homo_id if self.location is not None else 0
            self.views = None
            near = PartitionGraph(p, node=node, hops=max(hops, 1), height=460)
            near.on_select(lambda key: self._on_click(near.location))
            note = w.HTML(f"<i>{html.escape(str(e))}; showing node {node}'s surroundings</i>")
            self._show([note, near])
            return
        self.views.on_select(self._on_click)
        self.views.card.layout.display = "none"  # the lookup table on the left shows it
        self._show([self.views])

    def _show(self, drawing: list) -> None:
        """``drawing`` in place of what the views showed (closed)."""
        old, self.drawing.children = self.drawing.children, drawing
        discard(*old)

    def _on_click(self, location) -> None:
        """A node clicked in a view: its ids replace the lookup table, and the controls name
        it: by its type and type-wise original id on a heterograph (the type shown before
        would name another node), else by its original id."""
        self.location = location
        self.lookup.value = location_card(location)
        if location is None:
            return
        c, typed = self.controls, len(self.partitioning.graph.ntypes) > 1
        self._quiet = True
        try:
            c["kind"].value = "typed" if typed else "original"
            c["ntype"].value = location.ntype
            c["node"].value = int(location.orig_id if typed else location.orig_homo_id)
        finally:
            self._quiet = False

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

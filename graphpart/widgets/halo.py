"""``HaloInspector``: one partition's inner and HALO nodes, and every id of any node."""

from __future__ import annotations

import html

from ..errors import GraphpartError
from ..lookup import ID_KINDS, locate_node
from ..storage.reopen import as_partitioning
from ..viz import draw_partition
from ..viz.drawing import DEFAULT_MAX_NODES
from ._common import image, render

__all__ = ["HaloInspector"]


class HaloInspector:
    """Pick a partition and a hop count; look a node up by any of its ids.

    Parameters
    ----------
    partitioning : Partitioning
    max_nodes : int
        Larger graphs are drawn as a sampled neighbourhood around the looked-up node.

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

    def __init__(self, partitioning, *, max_nodes: int = DEFAULT_MAX_NODES) -> None:
        import ipywidgets as w

        p = self.partitioning = as_partitioning(partitioning)
        self.max_nodes = max_nodes
        self.counts: dict = {}
        self.location = None
        style = {"description_width": "90px"}
        lay = w.Layout(width="250px")
        ntypes = p.graph.ntypes
        self.controls = {
            "part": w.Dropdown(
                options=list(range(p.num_parts)),
                value=0,
                description="partition",
                style=style,
                layout=lay,
            ),
            "hops": w.IntSlider(
                value=p.num_hops,
                min=0,
                max=p.num_hops,
                description="hops",
                continuous_update=False,
                style=style,
                layout=lay,
            ),
            "kind": w.Dropdown(
                options=list(ID_KINDS),
                value="original",
                description="id kind",
                style=style,
                layout=lay,
            ),
            "ntype": w.Dropdown(
                options=ntypes,
                value=ntypes[0],
                description="node type",
                style=style,
                layout=lay,
                disabled=len(ntypes) == 1,
            ),
            "node": w.BoundedIntText(
                value=0,
                min=0,
                max=len(p.node_part) - 1,
                description="node id",
                style=style,
                layout=lay,
            ),
        }
        self.drawing = image("graphpart-halo-drawing")
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
        self._view()

    def _on_lookup(self, change) -> None:
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
        loc = self.location
        halo = (
            ", ".join(f"partition {q} (local {lid}, hop {h})" for q, lid, h in loc.halo)
            or "nowhere"
        )
        rows = [
            ("node type", loc.ntype),
            ("original id (type-wise)", loc.orig_id),
            ("original homogeneous id", loc.orig_homo_id),
            ("shuffled id", loc.shuffled_id),
            ("shuffled id (type-wise)", loc.shuffled_typed_id),
            ("owner partition", loc.owner),
            ("local id in owner", loc.local_id),
            ("HALO copy in", halo),
        ]
        self.lookup.value = (
            "<table style='font-size:12px'>"
            + "".join(
                "<tr><th "
                f"style='text-align:left'>{html.escape(k)}</th><td>{html.escape(str(v))}</td></tr>"
                for k, v in rows
            )
            + "</table>"
        )

    def _view(self) -> None:
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
        node = self.location.orig_homo_id if self.location is not None else None
        mode = "nodes" if len(p.node_part) <= self.max_nodes else "sample"
        self.drawing.value = render(
            lambda ax: draw_partition(
                p,
                ax=ax,
                mode=mode,
                max_nodes=self.max_nodes,
                halo_of=part,
                hops=hops,
                highlight=node,
                center=node,
            ),
            (8.5, 6.2),
        )

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

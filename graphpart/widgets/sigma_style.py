"""How a view's plain data becomes an ipysigma widget: node sizes, HALO rings, the hover label,
invisible stand-ins for linked views, the camera sync, and the legend line above a view."""

from __future__ import annotations

import html

from ..palette import halo_ring
from ..views.graph import GraphData
from ._common import CUT_EDGE_HTML, swatches_html

__all__ = ["legend_html"]

#: The colour class of a linked view's stand-ins for nodes it does not hold: drawn in the
#: background colour.
NOT_HERE, BACKGROUND = "not here", "#ffffff"
#: A stand-in's size and border: far below a pixel, so the mouse never finds it (sigma turns a
#: size of 0 into 2, ipysigma a border of 0 into 1, and hovering or clicking empty space then
#: found a node the view does not draw).
STANDIN_SIZE = 1e-4


def sigma_args(
    data: GraphData, sync_key: str | None, height: int, panel: bool, others=None, search=True
) -> tuple:
    """The networkx graph and the ``Sigma`` arguments of one view.

    ``others`` (key -> attributes, from linked views; ``{}`` when they draw the same nodes)
    adds every node drawn there and not here as an invisible stand-in (too small for the mouse
    to find) and links selection
    and hover too: ipysigma then syncs them across the views itself (its sync fails on a node a
    view lacks), and all views span the same extent.

    Parameters
    ----------
    data : GraphData
        The view's nodes (with ``x``, ``y``, ``owner`` and ``degree``) and edges.
    sync_key : str or None
        Views with the same key share their camera (and, with ``others``, selection and
        hover).
    height : int
        The view's height in pixels.
    panel : bool
        Show ipysigma's information panel.
    others : dict of str to dict, optional
        Linked views' nodes (key -> attributes with ``x`` and ``y``); None for a view on its
        own.
    search : bool, default True
        Show ipysigma's search box (a narrow view leaves it out: it would cover the buttons).

    Returns
    -------
    graph : networkx.Graph
        The nodes with their attributes, border and size, and the edges. Above
        :data:`COMPACT_NODES` nodes only each node's owner, kind and label (without its HALO
        copies) are kept, and edge colours become codes into a palette.
    kwargs : dict
        Keyword arguments for ``ipysigma.Sigma`` (layout, height, colours, sizes, sync).
    """
    import networkx as nx

    g = nx.Graph()
    top = max((a["degree"] for a in data.nodes.values()), default=1) or 1
    shrink = min(1.0, max(0.25, (2000 / max(len(data.nodes), 1)) ** 0.5))  # crowded: smaller
    # a big view sends only what it draws and the card (its label): half the bytes to the browser
    big = len(data.nodes) > COMPACT_NODES
    kept = ("owner", "kind", "label") if big else None
    for k, a in data.nodes.items():
        ring = halo_ring(a.get("hop", 0))
        around = a.get("partition colour")  # the balance view: class inside, partition around
        attrs = {n: v for n, v in a.items() if n not in ("x", "y") and (not big or n in kept)}
        if big and "label" in attrs:  # the copies are on the card under the view, on a click
            attrs["label"] = _without_copies(attrs["label"])
        g.add_node(
            k,
            **attrs,
            border=ring[0] if ring else around or data.palette[a["owner"]],
            **{
                "border size": ring[1] if ring else (2.5 if around else 0),
                "size": round(shrink * (3 + 9 * (a["degree"] / top) ** 0.5), 2),
            },
        )
    edge_colors = None
    if big:  # each edge's colour as a short code into a palette: a third of the bytes
        codes: dict[str, str] = {}
        g.add_edges_from(
            (s, t, {"c": codes.setdefault(e["color"], str(len(codes)))}) for s, t, e in data.edges
        )
        edge_colors = {code: color for color, code in codes.items()}
    else:
        g.add_edges_from(data.edges)
    layout = {k: {"x": a["x"], "y": a["y"]} for k, a in data.nodes.items()}
    for k, a in (others or {}).items():
        if k not in layout:
            label = f"{k} is not in this view"  # a sentence: no grey node nearby is named
            g.add_node(
                k,
                owner=NOT_HERE,
                kind="not here",
                label=label,
                size=STANDIN_SIZE,
                border=BACKGROUND,
            )
            g.nodes[k]["border size"] = STANDIN_SIZE  # 0 reads as unset: ipysigma's 1 px
            layout[k] = {"x": a["x"], "y": a["y"]}
    kwargs = dict(
        layout=layout,
        height=height,
        node_color="owner",
        node_color_palette={**data.palette, NOT_HERE: BACKGROUND} if others else data.palette,
        raw_node_border_color="border",
        raw_node_border_size="border size",
        raw_node_size="size",
        **(
            {"edge_color": "c", "edge_color_palette": edge_colors}
            if edge_colors
            else {"raw_edge_color": "color"}
        ),
        # selection and hover too when every view holds every node (others): sigma's own
        # selection sync throws in a view that lacks the node
        sync_key=sync_key,
        sync_targets=["camera", "selection", "hover"] if others is not None else ["camera"],
        hide_info_panel=not panel,
        hide_search=not search,
        # the label is the node's one-line card: drawn on hover (and for the selection) only
        label_rendered_size_threshold=10_000,
    )
    return g, kwargs


#: Above this many nodes, a view sends each node's owner, kind and card label only (its HALO
#: copies left to the card under the view), and each edge's colour as a code into a palette.
COMPACT_NODES = 10_000


def _without_copies(label: str) -> str:
    """A card label without its "HALO copies: ..." part.

    >>> _without_copies("node 3 | part 1 | HALO copies: part 0: local 9, hop 1 | degree 2")
    'node 3 | part 1 | degree 2'
    """
    return " | ".join(p for p in label.split(" | ") if not p.startswith("HALO copies"))


def legend_html(data: GraphData) -> str:
    """Colour swatches of the owners, the cut edges' colour, and a ring per HALO hop drawn.

    Parameters
    ----------
    data : GraphData
        The view's data: its palette, rings, edge note and the ``hop`` of its nodes.

    Returns
    -------
    str
        One line of HTML (11 px text) for above the view, ending in how to hover and select.
    """
    swatches = swatches_html(data.palette)
    hops = sorted({a.get("hop", 0) for a in data.nodes.values()} - {0})
    rings = []
    for h in hops:
        color, width = halo_ring(h)
        rings.append(_ring(color, width, f"HALO hop {h}"))
    if data.rings:
        rings.insert(
            0,
            "ringed in its partition's colour: "
            + " ".join(_ring(c, 2.5, k) for k, c in data.rings.items()),
        )
    edges = CUT_EDGE_HTML if data.edge_note is None else html.escape(data.edge_note)
    return (
        f"<span style='font-size:11px'>{swatches} &middot; {edges}"
        + (" &middot; " + " ".join(rings) if rings else "")
        + " &middot; each pair of nodes joined once &middot; hover a node for its ids, click to"
        " select (grey: not next to the selection)</span>"
    )


def _ring(color: str, width: float, text: str) -> str:
    """A ring swatch and its meaning, for a legend line."""
    return (
        f"<span style='display:inline-block;width:8px;height:8px;border-radius:50%;"
        f"border:{width:.1f}px solid {color};vertical-align:middle'></span>"
        f"&nbsp;{html.escape(text)}"
    )

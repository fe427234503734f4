"""A WebGL view's drawing as a still picture: what a view shows while it holds no WebGL context
(out of sight, over the page's budget, or its context lost), drawn from the same plain data."""

from __future__ import annotations

import numpy as np

from ..palette import halo_ring
from .graph import GraphData

__all__ = ["draw_graph_data"]


def draw_graph_data(data: GraphData, ax, *, hidden: frozenset[str] = frozenset()) -> None:
    """Draw ``data`` as the WebGL view does: edges in their colours, nodes in their owner's
    colour sized by degree, HALO copies ringed by hop; ``hidden`` keys (a linked view's
    stand-ins) take part in the extent only, so linked snapshots line up.

    Parameters
    ----------
    data : GraphData
        The view's data; a node's colour is its ``owner``'s in ``data.palette`` (grey when
        missing), its size grows with its ``degree``, its ring follows its HALO ``hop``.
    ax : matplotlib Axes
        Where to draw; its axis is hidden.
    hidden : frozenset of str, default frozenset()
        Node keys not drawn that still count for the extent.

    Examples
    --------
    >>> import graphpart as gp
    >>> from matplotlib.figure import Figure
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.views.graph import graph_data
    >>> ax = Figure().add_subplot()
    >>> draw_graph_data(graph_data(gp.partition(load_karate_club(), 2, seed=0)), ax)
    >>> len(ax.collections)  # edges, then nodes
    2
    """
    from matplotlib.collections import LineCollection

    keys = list(data.nodes)
    index = {k: i for i, k in enumerate(keys)}
    xy = np.array([[a["x"], a["y"]] for a in data.nodes.values()], dtype=float).reshape(-1, 2)
    if data.edges:  # (a view's edges join nodes it holds)
        ends = np.array([(index[s], index[t]) for s, t, _ in data.edges])
        colors = [e.get("color", "#c7c7c7") for _, _, e in data.edges]
        ax.add_collection(LineCollection(xy[ends], colors=colors, linewidths=0.6, zorder=1))
    shown = np.array([k not in hidden for k in keys], dtype=bool)
    degree = np.array([a.get("degree", 1) for a in data.nodes.values()], dtype=float)
    top = max(float(degree.max()) if len(degree) else 1.0, 1.0)
    size = 12 + 60 * np.sqrt(degree / top)
    face = [data.palette.get(a["owner"], "#999999") for a in data.nodes.values()]
    rings = [halo_ring(a.get("hop", 0)) for a in data.nodes.values()]
    edge = [r[0] if r else f for r, f in zip(rings, face)]
    width = [r[1] * 0.6 if r else 0.0 for r in rings]
    pick = np.flatnonzero(shown)
    ax.scatter(
        xy[pick, 0] if len(xy) else [],
        xy[pick, 1] if len(xy) else [],
        s=size[pick],
        c=[face[i] for i in pick],
        edgecolors=[edge[i] for i in pick],
        linewidths=[width[i] for i in pick],
        zorder=2,
    )
    if len(xy):  # every node, stand-ins too, spans the extent
        ax.update_datalim(xy)
        ax.autoscale_view()
    ax.margins(0.05)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_axis_off()

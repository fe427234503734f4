"""The node drawing of :func:`~graphpart.viz.draw_partition`, layer by layer: positions, edges
(cut ones dashed), nodes by partition and type, one partition's HALO ringed, a starred node."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ..index import unique_int
from ..palette import CUT_COLOR, part_colors
from ._style import cut_text, method_name, place_labels
from .layout import node_positions

if TYPE_CHECKING:  # pragma: no cover
    from ..partitioning.core import Partitioning

__all__ = []

_HOP_MARKERS = ("o", "s", "D", "^", "v", "p")
_TYPE_MARKERS = ("o", "s", "^", "D", "v", "p", "h", "*")


@dataclass(frozen=True)
class _Scene:
    """What the node drawing shares between its layers: positions, which nodes are drawn,
    colours."""

    pos: np.ndarray  # (drawn nodes, 2)
    index: np.ndarray  # node (original homogeneous id) -> row of pos, -1 when not drawn
    shown: np.ndarray  # the drawn nodes
    colors: np.ndarray  # one RGBA row per partition
    size: float  # marker area

    def xy(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows = self.index[nodes]
        return self.pos[rows, 0], self.pos[rows, 1]


def _scene(p, nodes: np.ndarray | None, seed: int) -> _Scene:
    n = len(p.node_part)
    index = np.arange(n) if nodes is None else np.full(n, -1)
    if nodes is not None:
        index[nodes] = np.arange(len(nodes))
    shown = np.arange(n) if nodes is None else np.sort(np.asarray(nodes))
    return _Scene(
        node_positions(p.graph, seed=seed, nodes=nodes),
        index,
        shown,
        part_colors(p.num_parts),
        float(np.clip(4000 / max(len(shown), 1), 8, 160)),
    )


def _draw_edges(p, ax, scene: _Scene) -> None:
    """Edges between drawn nodes, once per node pair: inside a partition faint, cut ones dashed."""
    from matplotlib.collections import LineCollection

    sh, n = p.shuffle, len(p.node_part)
    src, dst = sh.new2old_nid[sh.src], sh.new2old_nid[sh.dst]
    drawn = scene.index >= 0
    both = drawn[src] & drawn[dst] & (src != dst)
    lo, hi = np.minimum(src[both], dst[both]), np.maximum(src[both], dst[both])
    pairs = unique_int(lo * n + hi)
    u, v = pairs // n, pairs % n
    cut = p.node_part[u] != p.node_part[v]
    segs = np.stack([scene.pos[scene.index[u]], scene.pos[scene.index[v]]], axis=1)
    inner_col = scene.colors[p.node_part[u[~cut]]].copy()
    inner_col[:, 3] = 0.35
    ax.add_collection(LineCollection(segs[~cut], colors=inner_col, linewidths=0.7, zorder=1))
    ax.add_collection(
        LineCollection(
            segs[cut],
            colors=CUT_COLOR,
            linewidths=1.1,
            linestyles=(0, (3, 2)),
            alpha=0.75,
            zorder=2,
        )
    )


def _draw_points(p, ax, scene: _Scene, alpha: np.ndarray) -> list:
    """The nodes, coloured by partition, one marker per node type; returns legend handles."""
    from matplotlib.lines import Line2D

    ntype, names = p.homogeneous.node_types(), p.graph.ntypes
    fc = scene.colors[p.node_part].copy()
    fc[:, 3] = alpha
    for t in range(len(names)):
        sel = scene.shown[ntype[scene.shown] == t]
        ax.scatter(
            *scene.xy(sel),
            s=scene.size,
            c=fc[sel],
            marker=_TYPE_MARKERS[t % len(_TYPE_MARKERS)],
            edgecolors="white",
            linewidths=0.4,
            zorder=3,
        )
    handles = [
        Line2D([], [], ls="", marker="o", color=scene.colors[i], label=f"partition {i}")
        for i in range(min(p.num_parts, 12))
    ]
    if len(names) > 1:
        handles += [
            Line2D(
                [],
                [],
                ls="",
                marker=_TYPE_MARKERS[t % len(_TYPE_MARKERS)],
                color="grey",
                label=f"type {name}",
            )
            for t, name in enumerate(names)
        ]
    return handles + [Line2D([], [], color=CUT_COLOR, ls=(0, (3, 2)), label="cut edge")]


def _halo_of(p, part: int, hops: int) -> tuple[np.ndarray, np.ndarray]:
    """The HALO hop of every node as ``part`` holds it (0: inner or not held), and who is held."""
    n = len(p.node_part)
    view = p.view(part)
    old = p.shuffle.new2old_nid[view.nodes]
    hop = np.zeros(n, dtype=np.int64)
    hop[old] = view.hop
    held = np.zeros(n, dtype=bool)
    held[old[view.hop <= hops]] = True
    return hop, held


#: A HALO ring's marker area, as a multiple of a node's; a node a drawing does not hold, faded.
RING_AREA = 2.6
FADED = 0.18


def _faded_handle(part: int, hops: int):
    """The legend's entry for the faded nodes: those ``part`` does not hold within ``hops``."""
    from matplotlib.lines import Line2D

    within = f"{hops} hop" + ("s" if hops != 1 else "")
    return Line2D(
        [], [], ls="", marker="o", color="grey", alpha=FADED,
        label=f"not in partition {part} within {within}",
    )  # fmt: skip


def _draw_halo_rings(
    p, ax, scene: _Scene, part: int, hop: np.ndarray, hops: int
) -> tuple[list, str]:
    """A ring around each HALO node of ``part`` (one marker per hop); legend handles and a title
    line."""
    from matplotlib.lines import Line2D

    handles = []
    for h in range(1, hops + 1):
        sel = scene.shown[hop[scene.shown] == h]
        marker = _HOP_MARKERS[(h - 1) % len(_HOP_MARKERS)]
        ax.scatter(
            *scene.xy(sel),
            s=scene.size * RING_AREA,
            facecolors="none",
            edgecolors=scene.colors[part],
            linewidths=2.0,
            marker=marker,
            zorder=4,
        )
        handles.append(
            Line2D(
                [],
                [],
                ls="",
                marker=marker,
                mfc="none",
                mec=scene.colors[part],
                mew=2,
                label=f"HALO of {part}, hop {h}",
            )
        )
    num_halo = int(np.count_nonzero((hop > 0) & (hop <= hops)))
    line = (
        f"partition {part}: {int(np.sum(p.node_part == part)):,} inner + "
        f"{num_halo:,} HALO nodes within {hops} hop{'s' if hops != 1 else ''}"
    )
    return handles, line


def _draw_star(ax, scene: _Scene, node: int) -> list:
    from matplotlib.lines import Line2D

    if scene.index[node] < 0:
        return []
    ax.scatter(
        *scene.xy(np.array([node])),
        s=scene.size * 5,
        marker="*",
        c="gold",
        edgecolors="black",
        linewidths=1.0,
        zorder=5,
    )
    return [Line2D([], [], ls="", marker="*", color="gold", mec="black", label=f"node {node}")]


def draw_nodes(
    p: Partitioning,
    ax,
    *,
    nodes: np.ndarray | None,
    halo_of: int | None,
    hops: int,
    highlight: int | None,
    seed: int,
    legend: bool,
    labels: str | None = None,
) -> None:
    """Every node (or the sampled ``nodes``), its edges, one partition's HALO, a starred node,
    and each drawn node's ``labels`` id (``"original"`` or ``"new"``) beside it.

    Parameters
    ----------
    p : Partitioning
    ax : matplotlib Axes
        Where to draw; its title is set to what is drawn.
    nodes : ndarray of int or None
        The original homogeneous ids to draw, e.g. from
        :func:`~graphpart.viz.sample_neighbourhood`; ``None``: every node.
    halo_of : int or None
        Ring the HALO nodes of this partition (one marker per hop) and fade the nodes it does
        not hold; ``None``: no HALO drawn.
    hops : int
        With ``halo_of``: the HALO hops shown.
    highlight : int or None
        A node (original homogeneous id) marked with a star, when it is drawn.
    seed : int
        Layout seed (:func:`~graphpart.viz.node_positions`).
    legend : bool
        Add the legend, right of the axes.
    labels : {"original", "new"} or None, default None
        Write each drawn node's original id (its key: ``"17"``, ``"paper:17"``) or its new id
        beside it; ``None``: no labels.

    Raises
    ------
    GraphpartError
        When ``labels`` is given and more than :data:`MAX_LABELS` nodes are drawn.
    """
    n = len(p.node_part)
    scene = _scene(p, nodes, seed)
    _draw_edges(p, ax, scene)
    lines = [f"{method_name(p)}, {p.num_parts} partitions: {n:,} nodes, {cut_text(p)}"]
    if nodes is not None:
        lines.append(f"sampled neighbourhood: {len(nodes):,} of {n:,} nodes drawn")
    alpha = np.ones(n)
    ringed = np.zeros(n, dtype=bool)
    if halo_of is not None:
        hop, held = _halo_of(p, halo_of, hops)
        alpha[~held] = FADED
        ringed = (hop >= 1) & (hop <= hops)
    handles = _draw_points(p, ax, scene, alpha)
    if halo_of is not None:
        rings, line = _draw_halo_rings(p, ax, scene, halo_of, hop, hops)
        handles += rings
        if not held[scene.shown].all():
            handles.append(_faded_handle(halo_of, hops))
        lines.append(line)
    if highlight is not None:
        handles += _draw_star(ax, scene, int(highlight))
    if legend:
        ax.legend(
            handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8
        )
    ax.set_title("\n".join(lines), fontsize=10)
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.set_axis_off()
    # last: labels sit a few points from their nodes, so the axes must have their final size
    # (a legend or title added after shrank the drawing and ran labels into each other: "139")
    if labels is not None:
        _draw_labels(p, ax, scene, labels, ringed)


#: The most node labels a drawing writes (one text artist each).
MAX_LABELS = 2000


def _draw_labels(p, ax, scene: _Scene, kind: str, ringed: np.ndarray) -> None:
    """Each drawn node's original id (``"17"``, ``"paper:17"``) or new (shuffled) id, clear of
    the markers (a ringed node's ring included)."""
    from ..lookup import node_keys, node_table

    shown = scene.shown
    if len(shown) > MAX_LABELS:
        raise GraphpartError(
            f"labels: {len(shown):,} nodes drawn, at most {MAX_LABELS:,} can be labelled "
            "(draw a sample, or labels=None)"
        )
    table = node_table(p)
    if kind == "original":
        text = np.asarray(node_keys(p, table), dtype=object)[shown]
    else:
        text = table.shuffled_id[shown].astype(str)
    x, y = scene.xy(shown)
    if len(shown) <= 100:  # each label where it overlaps no other label and no point
        radii = np.where(
            ringed[shown], np.sqrt(scene.size * RING_AREA) / 2 + 1, np.sqrt(scene.size) / 2
        )
        for label in place_labels(ax, x, y, text.tolist(), fontsize=7, radii=radii):
            label.set_zorder(5)
        return
    for xi, yi, t in zip(x.tolist(), y.tolist(), text.tolist()):  # one artist per label
        ax.annotate(t, (xi, yi), xytext=(3, 3), textcoords="offset points", fontsize=5, zorder=5)

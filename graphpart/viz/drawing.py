"""Draw a partitioned graph: nodes by partition, cut edges apart, HALO of one partition marked.

Large graphs switch to the partition quotient graph (or a sampled neighbourhood),
and the title says which view is shown.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import GraphpartError
from ..index import unique_int
from ..storage.reopen import as_partitioning
from ..structure import quotient_graph
from ._style import CUT_COLOR, fmt_count, get_axes, part_colors
from .layout import node_positions, sample_neighbourhood

__all__ = ["draw_partition", "DRAW_MODES", "DEFAULT_MAX_NODES"]

DRAW_MODES = ("auto", "nodes", "quotient", "sample")
#: Above this many nodes, ``mode="auto"`` draws the quotient graph.
DEFAULT_MAX_NODES = 1000
_HOP_MARKERS = ("o", "s", "D", "^", "v", "p")
_TYPE_MARKERS = ("o", "s", "^", "D", "v", "p", "h", "*")


def _method(p) -> str:
    return {"metis": "METIS", "random": "random", "custom": "custom"}.get(
        p.part_method, p.part_method
    )


def _cut_text(p) -> str:
    m = p.metrics
    if m.edge_cut is None:
        return ""
    return f"edge cut {m.edge_cut:,} of {m.num_edges:,} ({100 * m.edge_cut_fraction:.1f}%)"


def draw_partition(
    p,
    *,
    ax=None,
    mode: str = "auto",
    max_nodes: int = DEFAULT_MAX_NODES,
    halo_of: int | None = None,
    hops: int | None = None,
    highlight: int | None = None,
    center: int | None = None,
    seed: int = 0,
    legend: bool = True,
):
    """Draw partitioning ``p``: nodes coloured by partition, cut edges dark and dashed.

    Parameters
    ----------
    p : Partitioning
    ax : matplotlib Axes, optional
    mode : {"auto", "nodes", "quotient", "sample"}
        ``"nodes"`` draws every node; ``"quotient"`` one circle per partition
        (area = its nodes) joined by lines as thick as the cut edges between them;
        ``"sample"`` a breadth-first neighbourhood of at most ``max_nodes`` nodes;
        ``"auto"`` draws nodes up to ``max_nodes`` nodes, else the quotient graph.
    halo_of : int, optional
        Mark the HALO nodes of this partition (ringed, one marker per hop) and fade
        the nodes it does not hold.
    hops : int, optional
        Show HALO nodes up to this hop (default: the partitioning's ``num_hops``).
    highlight : int, optional
        A node (original homogeneous id) to mark with a star.
    center : int, optional
        Where ``mode="sample"`` starts its neighbourhood (default: a highest-degree node).
    seed : int
        Layout and sampling seed.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> ax = draw_partition(partition(load_karate_club(), 2, seed=0), halo_of=0)
    >>> ax.get_title().splitlines()[0]
    'METIS, 2 partitions: 34 nodes, edge cut 20 of 156 (12.8%)'
    """
    p = as_partitioning(p)
    if mode not in DRAW_MODES:
        raise GraphpartError(f"mode must be one of {DRAW_MODES}, got {mode!r}")
    if halo_of is not None and not 0 <= int(halo_of) < p.num_parts:
        raise GraphpartError(f"halo_of must be a partition in 0..{p.num_parts - 1}, got {halo_of}")
    if hops is not None and not 0 <= int(hops) <= p.num_hops:
        raise GraphpartError(
            f"hops must be in 0..{p.num_hops} (the partitioning's num_hops), got {hops}"
        )
    n = len(p.node_part)
    if mode == "auto":
        mode = "nodes" if n <= max_nodes else "quotient"
    ax = get_axes(ax, (7, 6))
    if mode == "quotient":
        _draw_quotient(p, ax, n, max_nodes)
    else:
        sampled = mode == "sample" and n > max_nodes
        nodes = (
            sample_neighbourhood(p.graph, max_nodes, seed=seed, start=center) if sampled else None
        )
        _draw_nodes(
            p,
            ax,
            nodes=nodes,
            halo_of=halo_of,
            hops=p.num_hops if hops is None else int(hops),
            highlight=highlight,
            seed=seed,
            legend=legend,
        )
    ax.set_axis_off()
    return ax


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
            s=scene.size * 2.6,
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


def _draw_nodes(
    p,
    ax,
    *,
    nodes: np.ndarray | None,
    halo_of: int | None,
    hops: int,
    highlight: int | None,
    seed: int,
    legend: bool,
) -> None:
    """Every node (or the sampled ``nodes``), its edges, one partition's HALO, a starred node."""
    n = len(p.node_part)
    scene = _scene(p, nodes, seed)
    _draw_edges(p, ax, scene)
    lines = [f"{_method(p)}, {p.num_parts} partitions: {n:,} nodes, {_cut_text(p)}"]
    if nodes is not None:
        lines.append(f"sampled neighbourhood: {len(nodes):,} of {n:,} nodes drawn")
    alpha = np.ones(n)
    if halo_of is not None:
        hop, held = _halo_of(p, halo_of, hops)
        alpha[~held] = 0.18
    handles = _draw_points(p, ax, scene, alpha)
    if halo_of is not None:
        rings, line = _draw_halo_rings(p, ax, scene, halo_of, hop, hops)
        handles += rings
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


def _draw_quotient(p, ax, n: int, max_nodes: int) -> None:
    from matplotlib.collections import LineCollection

    q = quotient_graph(p)
    k = p.num_parts
    angle = np.pi / 2 - 2 * np.pi * np.arange(k) / k
    xy = np.stack([np.cos(angle), np.sin(angle)], axis=1) if k > 1 else np.zeros((1, 2))
    colors = part_colors(k)
    if len(q.weight):
        width = 0.8 + 9.0 * q.weight / q.weight.max()
        ax.add_collection(
            LineCollection(
                np.stack([xy[q.src], xy[q.dst]], axis=1),
                linewidths=width,
                colors=CUT_COLOR,
                alpha=0.35,
                zorder=1,
            )
        )
        if len(q.weight) <= 28:
            mid = (xy[q.src] + xy[q.dst]) / 2
            for (x, y), w in zip(mid, q.weight):
                ax.text(
                    x,
                    y,
                    fmt_count(w),
                    ha="center",
                    va="center",
                    fontsize=8,
                    zorder=3,
                    bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.8),
                )
    area = 2400 * q.sizes / max(int(q.sizes.max()), 1) if k else q.sizes
    ax.scatter(
        xy[:, 0],
        xy[:, 1],
        s=np.maximum(area, 60),
        c=colors,
        edgecolors="white",
        linewidths=1.5,
        zorder=2,
    )
    for i in range(k):
        ax.text(
            xy[i, 0] * 1.42,
            xy[i, 1] * 1.42 if k > 1 else 0.35,
            f"P{i}\n{fmt_count(q.sizes[i])} nodes",
            ha="center",
            va="center",
            fontsize=9,
        )
    ax.set_title(
        f"{_method(p)}, {p.num_parts} partitions: {n:,} nodes, {_cut_text(p)}\n"
        f"quotient graph ({n:,} nodes > {max_nodes:,}): circle area = nodes, "
        "line width = cut edges",
        fontsize=10,
    )
    ax.set_xlim(-1.75, 1.75)
    ax.set_ylim(-1.75, 1.75)
    ax.set_aspect("equal")

"""The partitioners at work: a streaming step (plot_stream_step), a multilevel level."""

from __future__ import annotations

import numpy as np

from ..graph.core import Graph
from ..homogeneous import HomogeneousGraph
from ..palette import CUT_COLOR, OTHER_CLASS_COLOR, UNSPLIT_COLOR, part_colors
from ..partitioning.stream_steps import StreamSteps
from ._style import draw_segments, get_axes
from .layout import node_positions

__all__ = ["plot_stream_step", "plot_multilevel_level"]


def plot_stream_step(graph: Graph, steps: StreamSteps, t: int, ax=None):
    """Draw ``graph`` as the stream stands at step ``t``.

    Nodes already placed take their partition's colour; the node step ``t`` places is drawn large
    and ringed, its edges to placed neighbours dark (they are what it scores); nodes not read yet
    are small and grey.

    Parameters
    ----------
    graph : Graph
        The graph ``steps`` streamed.
    steps : StreamSteps
        From :func:`graphpart.partitioning.fennel_steps`.
    t : int
        The step, ``0 <= t < n``.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = get_axes(ax, (6, 5))
    h = HomogeneousGraph.of(graph)
    pos = node_positions(graph)
    placed = steps.placed(t)
    v = int(steps.order[t])
    k = steps.neighbours.shape[1]
    colors = part_colors(k)
    src, dst = np.asarray(h.src), np.asarray(h.dst)
    both = (placed[src] >= 0) & (placed[dst] >= 0)
    ax.plot(
        np.stack([pos[src[both], 0], pos[dst[both], 0]]),
        np.stack([pos[src[both], 1], pos[dst[both], 1]]),
        color="#cccccc",
        lw=0.6,
        zorder=1,
    )
    mine = ((src == v) & (placed[dst] >= 0)) | ((dst == v) & (placed[src] >= 0))
    ax.plot(
        np.stack([pos[src[mine], 0], pos[dst[mine], 0]]),
        np.stack([pos[src[mine], 1], pos[dst[mine], 1]]),
        color=CUT_COLOR,
        lw=1.4,
        zorder=2,
    )
    later = placed < 0
    later[v] = False
    ax.scatter(*pos[later].T, s=12, color=OTHER_CLASS_COLOR, zorder=3, label="not read yet")
    for q in range(k):
        on = placed == q
        ax.scatter(*pos[on].T, s=40, color=colors[q], zorder=4, label=f"part {q}")
    ax.scatter(
        *pos[v],
        s=260,
        color=colors[steps.choice[t]],
        edgecolors=CUT_COLOR,
        linewidths=2.5,
        zorder=5,
    )
    ax.annotate(f"node {v}", pos[v], xytext=(8, 8), textcoords="offset points", fontsize=9)
    ax.set_title(f"step {t + 1} of {len(steps.order)}: node {v} goes to part {steps.choice[t]}")
    ax.legend(loc="upper left", fontsize=7, frameon=False, bbox_to_anchor=(1.0, 1.0))
    ax.set_axis_off()
    return ax


def plot_multilevel_level(graph: Graph, steps, level: int, part=None, ax=None):
    """Draw level ``level`` of a multilevel hierarchy: each node at the mean position of the
    input nodes it stands for, its area their number; each edge as wide as its weight, dark when
    ``part`` (one partition per node of the level, optional) cuts it.

    Parameters
    ----------
    graph : Graph
        The input graph.
    steps : MultilevelSteps
        From :func:`graphpart.partitioning.multilevel_steps`.
    level : int
        0 is the input graph.
    part : array of int, optional
        Colours the nodes; grey without.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = get_axes(ax, (6, 5))
    lv = steps.levels[level]
    pos0 = node_positions(graph)[:, :2]
    count = np.maximum(lv.weight, 1)[:, None]
    pos = np.zeros((lv.num_nodes, 2))
    np.add.at(pos, lv.node_of, pos0)
    pos /= count
    top = max(int(lv.edge_weight.max(initial=1)), 1)
    cut = np.zeros(len(lv.src), bool) if part is None else part[lv.src] != part[lv.dst]
    for is_cut, color in ((False, "#bbbbbb"), (True, CUT_COLOR)):
        e = cut == is_cut
        draw_segments(ax, pos, lv.src[e], lv.dst[e], color, 0.5 + 3 * lv.edge_weight[e] / top)
    colors = (  # a grey darker than the edges, so the areas read
        np.tile(np.asarray([UNSPLIT_COLOR]), lv.num_nodes)
        if part is None
        else part_colors(steps.num_parts)[part]
    )
    ax.scatter(*pos.T, s=40 * lv.weight, c=colors, edgecolors="white", linewidths=0.8, zorder=2)
    ax.set_axis_off()
    return ax

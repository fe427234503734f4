"""What a cut costs, drawn: communication volume per node, and a vertex cut's node copies."""

from __future__ import annotations

import numpy as np

from ..homogeneous import HomogeneousGraph
from ..palette import CUT_COLOR, part_colors
from ..partitioning import Partitioning
from ..partitioning.summary import node_volumes
from ..partitioning.vertex_cut import VertexCut
from ._style import draw_segments, get_axes
from .layout import node_positions

__all__ = ["draw_volume", "draw_vertex_cut"]


def draw_volume(p: Partitioning, ax=None):
    """The graph of ``p``, each node labelled with its communication volume: how many *other*
    partitions hold one of its neighbours, so must be sent its features. The title compares
    their sum with the edge cut.

    Parameters
    ----------
    p : Partitioning
        A small graph (a label per node).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = get_axes(ax, (6, 5))
    h = HomogeneousGraph.of(p.graph)
    src, dst = np.asarray(h.src), np.asarray(h.dst)
    owner = np.asarray(p.node_part)
    pos = node_positions(p.graph)[:, :2]
    cut = owner[src] != owner[dst]
    draw_segments(ax, pos, src, dst, np.where(cut, CUT_COLOR, "#cccccc"), np.where(cut, 1.2, 0.6))
    vol = node_volumes(src, dst, owner)
    ax.scatter(*pos.T, s=np.where(vol > 0, 220, 60), c=part_colors(p.num_parts)[owner], zorder=2)
    for v in np.flatnonzero(vol):
        ax.annotate(
            str(vol[v]),
            pos[v],
            ha="center",
            va="center",
            fontsize=8,
            color="white",
            weight="bold",
            zorder=3,
        )
    ax.set_title(  # the edge cut in directed edges, as everywhere: each end of a cut pair is
        # sent to the other's partition, so the volume can exceed the cut pairs, never the cut
        f"communication volume {int(vol.sum())}: feature copies sent\n"
        f"edge cut {int(cut.sum())} (directed edges): a node next to two cut edges into\n"
        "one partition is sent there once",
        fontsize=9,
    )
    ax.set_axis_off()
    return ax


def draw_vertex_cut(graph, vc: VertexCut, ax=None):
    """A vertex cut: every edge in its machine's colour (no edge is cut), every node copied to
    each machine holding one of its edges, the copies beyond the first counted on it.

    Parameters
    ----------
    graph : Graph
        The graph ``vc`` split.
    vc : VertexCut
        From :func:`graphpart.partitioning.vertex_cut`.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax = get_axes(ax, (6, 5))
    pos = node_positions(graph)[:, :2]
    colors = part_colors(vc.num_parts)
    draw_segments(ax, pos, vc.src, vc.dst, colors[vc.edge_part], np.full(len(vc.src), 1.4))
    split = vc.copies > 1
    ax.scatter(*pos[~split].T, s=60, c="#555555", zorder=2)
    ax.scatter(*pos[split].T, s=220, c="white", edgecolors=CUT_COLOR, linewidths=1.5, zorder=2)
    for v in np.flatnonzero(split):
        ax.annotate(f"x{vc.copies[v]}", pos[v], ha="center", va="center", fontsize=7, zorder=3)
    ax.set_title(
        f"vertex cut: no edge is cut; {int(split.sum())} nodes are copied to several machines\n"
        f"({vc.mirrors} mirrors to keep in sync, {vc.replication_factor:.2f} copies per node)",
        fontsize=9,
    )
    ax.set_axis_off()
    return ax

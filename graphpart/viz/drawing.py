"""Draw a partitioned graph: nodes by partition, cut edges apart, HALO of one partition marked.

Large graphs switch to the partition quotient graph (or a sampled neighbourhood),
and the title says which view is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ..metrics.structure import quotient_graph
from ..palette import CUT_COLOR, part_colors
from ..storage.reopen import as_partitioning
from ..utils.check import short_repr
from ._style import cut_text, fmt_count, get_axes, method_name
from .layout import sample_neighbourhood
from .nodes import draw_nodes

if TYPE_CHECKING:  # pragma: no cover
    import os

    from ..partitioning.core import Partitioning

__all__ = ["draw_partition", "DRAW_MODES"]

DRAW_MODES = ("auto", "nodes", "quotient", "sample")
#: Above this many nodes, ``mode="auto"`` draws the quotient graph.
DEFAULT_MAX_NODES = 1000


def draw_partition(
    p: Partitioning | str | os.PathLike,
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
    labels: str | bool | None = "auto",
):
    """Draw partitioning ``p``: nodes coloured by partition, cut edges dark and dashed.

    Parameters
    ----------
    p : Partitioning or path
        A partitioning, or the path of partitions on disk.
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).
    mode : {"auto", "nodes", "quotient", "sample"}
        ``"nodes"`` draws every node; ``"quotient"`` one circle per partition
        (area = its nodes) joined by lines as thick as the cut edges between them;
        ``"sample"`` a breadth-first neighbourhood of at most ``max_nodes`` nodes;
        ``"auto"`` draws nodes up to ``max_nodes`` nodes, else the quotient graph.
    max_nodes : int, default DEFAULT_MAX_NODES
        The node count above which ``"auto"`` draws the quotient graph and ``"sample"``
        samples (below it, ``"sample"`` draws every node).
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
    legend : bool, default True
        Add the legend, right of the axes (node drawings only).
    labels : {"auto", "original", "new"}, bool or None
        Write each drawn node's original id (``"original"`` or ``True``: ``"17"``, or
        ``"paper:17"`` on a heterograph) or its new, shuffled id (``"new"``) beside it;
        ``"auto"``: original ids when at most 60 nodes are drawn; ``None``/``False``: none.

    Returns
    -------
    matplotlib Axes
        The axes drawn on (axis hidden).

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> ax = draw_partition(partition(load_karate_club(), 2, seed=0), halo_of=0)
    >>> ax.get_title().splitlines()[0]
    'METIS, 2 partitions: 34 nodes, edge cut 20 of 156 (12.8%)'
    >>> sorted(t.get_text() for t in ax.texts)[:3]  # 34 nodes: labelled by original id
    ['0', '1', '10']
    """
    p = as_partitioning(p)
    if mode not in DRAW_MODES:
        raise GraphpartError(f"mode must be one of {DRAW_MODES}, got {short_repr(mode)}")
    if halo_of is not None and not 0 <= int(halo_of) < p.num_parts:
        raise GraphpartError(f"halo_of must be a partition in 0..{p.num_parts - 1}, got {halo_of}")
    if hops is not None and not 0 <= int(hops) <= p.num_hops:
        raise GraphpartError(
            f"hops must be in 0..{p.num_hops} (the partitioning's num_hops), got {hops}"
        )
    if labels not in ("auto", "original", "new", True, False, None):
        raise GraphpartError(
            f"labels must be 'auto', 'original', 'new', True, False or None, got "
            f"{short_repr(labels)}"
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
        draw_nodes(
            p,
            ax,
            nodes=nodes,
            halo_of=halo_of,
            hops=p.num_hops if hops is None else int(hops),
            highlight=highlight,
            seed=seed,
            legend=legend,
            labels=_label_kind(labels, n if nodes is None else len(nodes)),
        )
    ax.set_axis_off()
    return ax


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
        f"{method_name(p)}, {p.num_parts} partitions: {n:,} nodes, {cut_text(p)}\n"
        f"quotient graph ({n:,} nodes > {max_nodes:,}): circle area = nodes, "
        "line width = cut edges",
        fontsize=10,
    )
    ax.set_xlim(-1.75, 1.75)
    ax.set_ylim(-1.75, 1.75)
    ax.set_aspect("equal")


def _label_kind(labels, drawn: int) -> str | None:
    if labels == "auto":
        return "original" if drawn <= 60 else None
    if labels is True:
        return "original"
    return labels or None

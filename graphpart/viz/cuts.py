"""Where the cut edges go (a partition x partition heatmap) and how HALO grows with hops."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..metrics.structure import HaloGrowth, cut_matrix, halo_growth
from ..palette import part_colors
from ..storage.reopen import as_partitioning
from ._style import fmt_count, get_axes

if TYPE_CHECKING:  # pragma: no cover
    import os

    from ..partitioning.core import Partitioning

__all__ = ["plot_cut_matrix", "plot_halo_growth"]


def plot_cut_matrix(p: Partitioning | str | os.PathLike, *, ax=None, annotate: bool | None = None):
    """Heatmap of cut edges from partition ``i`` (row, source) to ``j`` (column, owner).

    The diagonal (edges inside a partition) is left blank so the cut stands out.

    Parameters
    ----------
    p : Partitioning or path
        A partitioning, or the path of partitions on disk.
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).
    annotate : bool, optional
        Write each cell's count (the diagonal's inner edges in grey); default: when there are
        at most 12 partitions.

    Returns
    -------
    matplotlib Axes
        The axes drawn on (a colour bar is added beside them).

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> ax = plot_cut_matrix(partition(load_karate_club(), 2, seed=0))
    >>> ax.get_title()
    'Cut edges between partitions: 20 in all'
    """
    p = as_partitioning(p)
    m = cut_matrix(p).astype(float)
    k = len(m)
    ax = get_axes(ax, (min(2.0 + 0.55 * k, 9.0) + 1.2, min(2.0 + 0.55 * k, 9.0)))
    off = m.copy()
    np.fill_diagonal(off, np.nan)
    image = ax.imshow(np.ma.masked_invalid(off), cmap="Reds", vmin=0)
    ax.figure.colorbar(image, ax=ax, label="cut edges", shrink=0.85)
    annotate = k <= 12 if annotate is None else annotate
    if annotate:
        top = np.nanmax(off) if k > 1 else 0
        for i in range(k):
            for j in range(k):
                if i == j:
                    ax.text(
                        j,
                        i,
                        "inner\n" + fmt_count(m[i, i]),
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="grey",
                    )
                else:
                    ax.text(
                        j,
                        i,
                        fmt_count(m[i, j]),
                        ha="center",
                        va="center",
                        fontsize=8,
                        color="white" if top and m[i, j] > 0.6 * top else "black",
                    )
    ticks = np.arange(k) if k <= 32 else np.linspace(0, k - 1, 9).astype(int)
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.set_xlabel("partition of the destination (owns the edge)")
    ax.set_ylabel("partition of the source")
    ax.set_title(f"Cut edges between partitions: {int(np.nansum(off)):,} in all", fontsize=10)
    return ax


def plot_halo_growth(
    p: Partitioning | HaloGrowth | str | os.PathLike, *, max_hops: int = 3, ax=None
):
    """Inner (solid) and HALO (hatched) nodes per partition for ``num_hops`` = 0 .. ``max_hops``.

    Accepts a Partitioning (HALO is recomputed for each hop count) or a
    :class:`~graphpart.metrics.structure.HaloGrowth`.

    Parameters
    ----------
    p : Partitioning, HaloGrowth or path
        A partitioning (or the path of partitions on disk), or HALO counts already computed.
    max_hops : int, default 3
        The largest hop count drawn; unused for a HaloGrowth, which has its own.
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> ax = plot_halo_growth(partition(load_karate_club(), 2, seed=0), max_hops=2)
    >>> len(ax.patches)
    12
    """
    p = p if isinstance(p, HaloGrowth) else as_partitioning(p)
    from matplotlib.patches import Patch

    growth = p if isinstance(p, HaloGrowth) else halo_growth(p, max_hops)
    k, hops = growth.halo.shape[0], growth.halo.shape[1] - 1
    ax = get_axes(ax, (max(6.0, 0.5 * k * (hops + 1) + 2.5), 4.2))
    colors = part_colors(k)
    width = 0.8 / (hops + 1)
    for h in range(hops + 1):
        x = np.arange(k) - 0.4 + width * (h + 0.5)
        ax.bar(x, growth.inner, width, color=colors, edgecolor="white", linewidth=0.5)
        ax.bar(
            x,
            growth.halo[:, h],
            width,
            bottom=growth.inner,
            color=colors,
            alpha=0.45,
            hatch="///",
            edgecolor="white",
            linewidth=0.5,
        )
        if k <= 8:
            for xi, top in zip(x, growth.inner + growth.halo[:, h]):
                ax.text(xi, top, str(h), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(np.arange(k), [str(i) for i in range(k)])
    ax.set_xlabel("partition (bars left to right: num_hops = 0, 1, ...)")
    ax.set_ylabel("nodes held by the partition")
    rep = ", ".join(f"{h}: {r:.2f}" for h, r in enumerate(growth.replication))
    ax.set_title(
        f"Inner vs HALO nodes as hops grow\nreplication factor by num_hops  {rep}", fontsize=10
    )
    ax.legend(
        handles=[
            Patch(color="grey", label="inner (owned)"),
            Patch(facecolor="grey", alpha=0.45, hatch="///", label="HALO copies"),
        ],
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        frameon=False,
        fontsize=8,
    )
    return ax

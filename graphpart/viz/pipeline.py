"""A diagram of the chunked pipeline: chunks -> step 1 assign -> step 2 dispatch -> partitions."""

from __future__ import annotations

from ..palette import part_colors
from ._style import get_axes

__all__ = ["plot_pipeline"]


def plot_pipeline(*, ax=None, num_chunks: int = 4, num_parts: int = 4):
    """Boxes and arrows of DGL's two-step pipeline as graphpart runs it: the chunked graph
    (``metadata.json`` + edge and feature chunks), step 1 (assign: one partition id per node),
    step 2 (dispatch on Dask: one task per chunk, or run of small chunks, splits it by partition,
    one task per partition gathers and writes), and the partition folders with their config.

    Parameters
    ----------
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).
    num_chunks : int, default 4
        Chunk boxes drawn (at least 1).
    num_parts : int, default 4
        Partition folders drawn, in the partitions' colours.

    Returns
    -------
    matplotlib Axes
        The axes drawn on (axis hidden).

    Examples
    --------
    >>> ax = plot_pipeline(num_chunks=3, num_parts=2)
    >>> texts = [t.get_text() for t in ax.texts]
    >>> [t for t in texts if t.endswith("/")], sum(t.startswith("chunk ") for t in texts)
    (['part0/', 'part1/'], 3)
    """
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    ax = get_axes(ax, (11, 3.6))
    colors = part_colors(num_parts)

    def box(x, y, w, h, text, color="#eeeeee", size=8, weight="normal"):
        ax.add_patch(
            FancyBboxPatch(
                (x, y), w, h, boxstyle="round,pad=0.02", facecolor=color, edgecolor="#555555"
            )
        )
        ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=size, weight=weight)

    def arrow(x0, y0, x1, y1, label=""):
        ax.add_patch(
            FancyArrowPatch((x0, y0), (x1, y1), arrowstyle="-|>", mutation_scale=12, color="#333")
        )
        if label:
            ax.text((x0 + x1) / 2, (y0 + y1) / 2 + 0.06, label, ha="center", fontsize=7)

    box(0.0, 0.82, 0.22, 0.12, "metadata.json\ntypes, counts, files", "#fff3c4")
    rows = [0.82 - 0.14 * (i + 1) for i in range(num_chunks)]
    for i, y in enumerate(rows):
        box(0.0, y, 0.22, 0.1, f"chunk {i}", "#f5f5f5")
    ax.text(0.11, 1.0, "chunked graph\n(edges: csv / npy / parquet)", ha="center", fontsize=8)
    mid = (rows[0] + rows[-1]) / 2 + 0.05
    box(0.32, mid - 0.12, 0.2, 0.24, "step 1: assign\nrandom, Fennel, LDG\nor METIS", "#dbe9f6")
    arrow(0.22, mid, 0.32, mid, "read")
    box(0.32, mid - 0.42, 0.2, 0.14, "<ntype>.txt\none line per node:\nits partition", "#fff3c4", 7)
    arrow(0.42, mid - 0.12, 0.42, mid - 0.28)
    box(
        0.6,
        mid - 0.12,
        0.2,
        0.24,
        "step 2: dispatch (Dask)\nsplit each chunk by part,\ngather each part",
        "#dbe9f6",
    )
    arrow(0.52, mid, 0.6, mid)
    arrow(0.52, mid - 0.35, 0.6, mid - 0.08)
    low = min(rows[-1], mid - 0.42) - 0.04  # the chunks go to dispatch too, under step 1
    ax.plot([0.11, 0.11, 0.7], [rows[-1], low, low], color="#333", lw=1)
    arrow(0.7, low, 0.7, mid - 0.12)
    ax.text(
        0.4, low - 0.015, "edges + features, chunk by chunk", ha="center", va="top", fontsize=7
    )  # under the line: above it, it ran into the <ntype>.txt box
    parts = [0.82 - (0.8 / max(num_parts, 1)) * (q + 0.5) for q in range(num_parts)]
    for q, y in enumerate(parts):
        box(0.88, y - 0.04, 0.12, 0.08, f"part{q}/", colors[q])
        arrow(0.8, mid, 0.88, y)
    ax.text(0.94, 0.9, "partitions\n+ config (.json)", ha="center", fontsize=8)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(min(low - 0.05, parts[-1] - 0.05) - 0.05, 1.08)
    ax.set_axis_off()
    ax.set_title("The chunked pipeline: no step holds the whole graph but METIS", fontsize=10)
    return ax

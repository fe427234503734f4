"""How the reshuffle renumbers nodes, for papers: the homogeneous id line before and after, and
the adjacency matrix in original ids and in new ids (partition-major: inner edges fall in the
diagonal blocks). The numbers come from :mod:`graphpart.viz.ids_data`; ``graphpart.widgets.IdView``
shows the same interactively.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ..palette import CUT_COLOR, part_colors
from ..utils.check import short_repr
from ._style import get_axes
from .ids_data import IdData, id_data

if TYPE_CHECKING:  # pragma: no cover
    from ..partitioning.core import Partitioning

__all__ = ["plot_id_line", "plot_adjacency", "plot_ids"]

#: Up to this many edges the adjacency is a spy plot (a dot per edge); above, a 2-D histogram.
MAX_SPY_EDGES = 20_000
#: The 2-D histogram counts every edge up to this many (a uniform sample above; the title says so).
MAX_DENSITY_EDGES = 5_000_000

_HATCHES = ["", "//", "..", "xx", "\\\\", "oo", "++", "--"]
_WHICH = ("both", "before", "after")


def _type_name(d: IdData, t: int) -> str:
    return "all nodes" if len(d.table.ntypes) == 1 else d.table.ntypes[t]


def _fits(ax, text: str, width: float, n: int, fontsize: float) -> bool:
    """Whether ``text`` fits in ``width`` ids of the axes' width (an estimate before drawing)."""
    inches = ax.get_figure(root=True).get_figwidth() * ax.get_position().width * width / max(n, 1)
    return 0.7 * fontsize * len(text) / 72 < inches


def _label(ax, x0: float, x1: float, y: float, options: list[str], n: int, size: float = 7):
    """The first of ``options`` that fits between ``x0`` and ``x1`` (none if none fits)."""
    for text in options:
        if _fits(ax, text, x1 - x0, n, size):
            ax.text((x0 + x1) / 2, y, text, ha="center", va="center", fontsize=size)
            return


def plot_id_line(p: Partitioning | IdData, *, ax=None, arrows: int = 24, seed: int = 0):
    """The homogeneous id line before (types in order) and after the reshuffle (partition-major,
    then by type): one block per type above, one block per partition and type below (colour =
    partition, hatching = type), each partition's id range written under it, and arrows from a
    sample of ``arrows`` nodes' original ids to their new ids.

    Parameters
    ----------
    p : Partitioning or IdData
        A partitioning, or the numbers of :func:`~graphpart.viz.id_data` already computed.
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).
    arrows : int, default 24
        How many nodes, drawn at random, get an arrow (at most every node; 0: none).
    seed : int, default 0
        Seed of that draw.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_davis_southern_women
    >>> ax = plot_id_line(gp.partition(load_davis_southern_women(), 2, seed=0))
    >>> [t.get_text() for t in ax.texts if t.get_text()]  # doctest: +NORMALIZE_WHITESPACE
    ['event: ids 0-13', 'woman: ids 14-31', 'event', 'woman', 'event', 'woman',
     'part 0: ids 0-15', 'part 1: ids 16-31']
    """
    from matplotlib.patches import Patch, Rectangle

    d = p if isinstance(p, IdData) else id_data(p, max_points=0)
    t = d.table
    n = max(d.num_nodes, 1)
    ax = get_axes(ax, (10, 3.2))
    colors = part_colors(d.num_parts)
    multi = len(t.ntypes) > 1
    for k, (a, b) in enumerate(d.type_bounds.tolist()):
        ax.add_patch(
            Rectangle((a, 1.0), b - a, 0.5, fc="#dddddd", ec="white", hatch=_HATCHES[k % 8])
        )
        name = _type_name(d, k)
        _label(ax, a, b, 1.25, [f"{name}: ids {a}-{b - 1}", name], n, 8)
    for a, b, q, k in d.blocks.tolist():
        ax.add_patch(
            Rectangle(
                (a, 0.0), b - a, 0.5, fc=colors[q], ec="white", hatch=_HATCHES[k % 8], alpha=0.85
            )
        )
        if multi:
            _label(ax, a, b, 0.25, [t.ntypes[k]], n)
    bounds = d.part_bounds.tolist()
    for q in range(d.num_parts):
        a, b = bounds[q], bounds[q + 1]
        if b > a:
            _label(ax, a, b, -0.17, [f"part {q}: ids {a}-{b - 1}", f"part {q}", f"{q}"], n)
    rng = np.random.default_rng(seed)
    shown = np.sort(rng.choice(d.num_nodes, min(arrows, d.num_nodes), replace=False))
    for node in shown.tolist():  # a few dozen arrows at most
        ax.annotate(
            "",
            xy=(t.shuffled_id[node] + 0.5, 0.52),
            xytext=(node + 0.5, 0.98),
            arrowprops={"arrowstyle": "->", "color": colors[t.owner[node]], "lw": 0.8},
        )
    ax.set_xlim(0, n)
    ax.set_ylim(-0.3, 1.55)
    ax.set_yticks([0.25, 1.25], ["new ids\n(partition-major)", "original ids\n(types in order)"])
    ax.set_xlabel("homogeneous id")
    ax.set_title(
        f"How the reshuffle renumbers {d.num_nodes:,} nodes (arrows: {len(shown)} of them)",
        fontsize=10,
    )
    handles = [Patch(fc=colors[q], label=f"part {q}") for q in range(min(d.num_parts, 12))]
    if multi:
        handles += [
            Patch(fc="white", ec="#555555", hatch=_HATCHES[k % 8], label=name)
            for k, name in enumerate(t.ntypes[:12])
        ]
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        fontsize=7,
        frameon=False,
        handleheight=1.4,
    )
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    return ax


def plot_adjacency(
    p: Partitioning | IdData, *, ax=None, which: str = "both", max_edges: int = MAX_DENSITY_EDGES
):
    """The adjacency matrix in original ids (``which="before"``), in new ids (``"after"``) or
    both side by side (``ax`` then a pair of axes): inner edges in their partition's colour, cut
    edges in black. After the reshuffle the inner edges fill the diagonal blocks of the
    partitions' id ranges (dashed), cut into type blocks (thin lines) on heterographs. A dot per
    edge up to :data:`MAX_SPY_EDGES` edges; above, a 2-D histogram whose cells take the colour
    of most of their edges and the shade of their count (log scale). Returns the axes.

    Parameters
    ----------
    p : Partitioning or IdData
        A partitioning, or the numbers of :func:`~graphpart.viz.id_data` already computed (drawn
        with the edges they hold).
    ax : matplotlib Axes or pair of Axes, optional
        Where to draw: one axes, or two (before, after) for ``which="both"``; default: a new
        figure.
    which : {"both", "before", "after"}, default "both"
        The numbering drawn: original ids, new ids, or both side by side.
    max_edges : int, default MAX_DENSITY_EDGES
        With a partitioning, a uniform sample of this many edges is drawn above it (the title
        says so).

    Returns
    -------
    matplotlib Axes or tuple of two
        The axes drawn on: ``(before, after)`` for ``which="both"``.

    Raises
    ------
    GraphpartError
        When ``which`` is unknown, or ``ax`` does not hold one axes per matrix drawn.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> ax_before, ax_after = plot_adjacency(gp.partition(load_karate_club(), 2, seed=0))
    >>> ax_after.get_title()
    'after: new ids (2 partitions; 20 cut edges, black)'
    """
    if which not in _WHICH:
        raise GraphpartError(f"which must be one of {_WHICH}, got {short_repr(which)}")
    d = p if isinstance(p, IdData) else id_data(p, max_points=max_edges)
    sides = ["before", "after"] if which == "both" else [which]
    if ax is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, len(sides), figsize=(5.2 * len(sides), 5.4), layout="constrained")
        axes = np.atleast_1d(axes).tolist()
    else:
        axes = list(ax) if which == "both" else [ax]
        if len(axes) != len(sides):
            raise GraphpartError(
                f"which={short_repr(which)} draws on {len(sides)} axes, got {len(axes)}"
            )
    for a, side in zip(axes, sides):
        _draw_matrix(a, d, side == "after")
    return tuple(axes) if which == "both" else axes[0]


def _draw_matrix(ax, d: IdData, after: bool) -> None:
    n = max(d.num_nodes, 1)
    x, y = (d.new_dst, d.new_src) if after else (d.dst, d.src)
    inner = d.inner
    k = d.num_parts
    cat = np.where(inner, d.table.owner[d.dst], k)  # the partition of an inner edge, or k: cut
    palette = np.vstack([part_colors(k), _rgba(CUT_COLOR)])
    extent = (-0.5, n - 0.5, n - 0.5, -0.5)
    if len(x) <= MAX_SPY_EDGES:
        size = float(np.clip(3000 / max(len(x), 1), 0.3, 12))
        ax.scatter(x, y, s=size, c=palette[cat], marker="s", linewidths=0)
        kind = "a dot per edge"
    else:
        ax.imshow(_density(x, y, cat, n, palette), extent=extent, interpolation="nearest")
        kind = "edge density, log scale"
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])
    ax.set_aspect("equal")
    ax.set_xlabel("destination id")
    ax.set_ylabel("source id")
    sample = f", {len(x):,} of {d.num_edges:,} edges sampled" if d.sampled else ""
    if after:
        cut = int((~inner).sum())
        title = f"after: new ids ({k} partitions; {cut:,} cut edges, black{sample})"
        thin = np.setdiff1d(d.blocks[1:, 0], d.part_bounds)  # type blocks inside a partition
        lines = [(thin, "#aaaaaa", 0.5, "-"), (d.part_bounds[1:-1], "#333333", 0.8, "--")]
    else:
        title = f"before: original ids ({kind}{sample})"
        lines = [(d.type_bounds[1:, 0], "#aaaaaa", 0.6, "-")]
    for at, color, lw, ls in lines:
        for a in np.asarray(at).tolist():
            ax.axhline(a - 0.5, color=color, lw=lw, ls=ls)
            ax.axvline(a - 0.5, color=color, lw=lw, ls=ls)
    ax.set_title(title, fontsize=9)


def _rgba(color: str) -> np.ndarray:
    from matplotlib.colors import to_rgba

    return np.asarray([to_rgba(color)])


def _density(x, y, cat, n: int, palette: np.ndarray) -> np.ndarray:
    """An RGBA image of the edges in (at most) 400 x 400 cells: each cell the colour of the
    category most of its edges have, its opacity the log of its count (vectorised)."""
    c = len(palette)
    bins = int(min(n, 400, max(16, np.sqrt(4_000_000 // c))))
    cell = (y * bins // n) * bins + (x * bins // n)
    counts = np.bincount(cell * c + cat, minlength=bins * bins * c).reshape(bins * bins, c)
    total = counts.sum(axis=1)
    image = palette[counts.argmax(axis=1)].copy()
    shade = np.log1p(total) / np.log1p(max(int(total.max()), 1))
    image[:, 3] = np.where(total > 0, 0.2 + 0.8 * shade, 0.0)
    return image.reshape(bins, bins, 4)


def plot_ids(p: Partitioning | IdData, *, arrows: int = 24, max_edges: int = MAX_DENSITY_EDGES):
    """One figure of the reshuffle: the id line on top (:func:`plot_id_line`), the adjacency
    before and after below (:func:`plot_adjacency`). Returns the figure.

    Parameters
    ----------
    p : Partitioning or IdData
        A partitioning, or the numbers of :func:`~graphpart.viz.id_data` already computed.
    arrows : int, default 24
        Nodes with an arrow on the id line, as in :func:`plot_id_line`.
    max_edges : int, default MAX_DENSITY_EDGES
        The most edges of the adjacency, as in :func:`plot_adjacency`.

    Returns
    -------
    matplotlib Figure
        A new figure: the id line's axes, then the adjacency before and after.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_davis_southern_women
    >>> fig = plot_ids(gp.partition(load_davis_southern_women(), 2, seed=0))
    >>> [ax.get_title()[:6] for ax in fig.axes]
    ['How th', 'before', 'after:']
    """
    import matplotlib.pyplot as plt

    d = p if isinstance(p, IdData) else id_data(p, max_points=max_edges)
    fig = plt.figure(figsize=(10.5, 8.4), layout="constrained")
    top, bottom = fig.subfigures(2, 1, height_ratios=[1, 2.2])
    plot_id_line(d, ax=top.subplots(), arrows=arrows)
    plot_adjacency(d, ax=bottom.subplots(1, 2))
    return fig

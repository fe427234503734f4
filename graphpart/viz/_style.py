"""Shared look of the figures: axes, PNG rendering for widgets, number formats, labels (the
colours are :mod:`graphpart.palette`'s)."""

from __future__ import annotations

import io

import numpy as np

__all__ = [
    "get_axes",
    "to_png",
    "fmt_count",
    "balance_key",
    "balance_colors",
    "method_name",
    "cut_text",
    "place_labels",
    "LABEL_OFFSETS",
]


def get_axes(ax, figsize: tuple[float, float]):
    """``ax`` itself, or new axes on a new pyplot figure (shown inline in Jupyter)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def draw_segments(ax, pos, src, dst, colors, widths, zorder: int = 1) -> None:
    """One line per edge ``src[i] -> dst[i]`` between node positions ``pos``, in one collection
    (vectorised: no artist per edge); ``colors`` and ``widths`` per edge or one for all."""
    from matplotlib.collections import LineCollection

    segs = np.stack([pos[np.asarray(src)], pos[np.asarray(dst)]], axis=1)
    ax.add_collection(LineCollection(segs, colors=colors, linewidths=widths, zorder=zorder))
    ax.autoscale_view()


def to_png(fig, dpi: int = 100) -> bytes:
    """Render a matplotlib figure to PNG bytes (for ``ipywidgets.Image``).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    dpi : int, default 100
        Resolution.

    Returns
    -------
    bytes
        The PNG file's bytes.
    """
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def fmt_count(x: float) -> str:
    """``1234`` -> ``"1.2K"``: short labels for crowded axes.

    >>> fmt_count(999), fmt_count(1234), fmt_count(2_500_000)
    ('999', '1.2K', '2.5M')
    """
    for unit, size in (("M", 1e6), ("K", 1e3)):
        if abs(x) >= size:
            return f"{x / size:.1f}{unit}"
    return f"{x:g}"


def balance_key(setting) -> tuple:
    """What a sweep's figures colour a setting by: its balance class, ``balance_edges`` and
    METIS tolerance (the method is told by the marker or the line's style)."""
    o = setting.options
    return (setting.balance, o.balance_edges, getattr(o.metis_options, "ufactor", None))


def balance_colors(settings) -> dict:
    """One colour per :func:`balance_key` of ``settings``, in order of first appearance: every
    figure of one sweep gives a setting the same colour."""
    from matplotlib import colormaps

    keys = list(dict.fromkeys(balance_key(s) for s in settings))
    cmap = colormaps["tab10" if len(keys) <= 10 else "tab20"]
    return {k: cmap(i % 20) for i, k in enumerate(keys)}


def method_name(p) -> str:
    return {"metis": "METIS", "random": "random", "custom": "custom"}.get(
        p.part_method, p.part_method
    )


def cut_text(p) -> str:
    m = p.metrics
    if m.edge_cut is None:
        return ""
    return f"edge cut {m.edge_cut:,} of {m.num_edges:,} ({100 * m.edge_cut_fraction:.1f}%)"


#: Where a label may go, in points from its point: nearest first.
LABEL_OFFSETS = [
    (6, 3), (6, -3), (-6, 3), (-6, -3), (0, 9), (0, -9),
    (10, 14), (10, -14), (-10, 14), (-10, -14), (0, 22), (0, -22),
    (16, 26), (-16, 26), (16, -26), (-16, -26), (0, 36), (0, -36),
    (30, 8), (-30, 8), (30, -8), (-30, -8), (24, 44), (-24, 44), (24, -44), (-24, -44),
]  # fmt: skip
#: A label placed farther than this (points) from its point is joined to it by a thin line.
LEADER_FROM = 12


def place_labels(ax, x, y, texts, fontsize: int = 7, lines=(), radii=None) -> list:
    """Write each text beside its point where it overlaps no label placed before it, no point's
    marker (``radii``: each marker's radius in points, or one for all; default 2), none of
    ``lines`` (``(xs, ys)`` polylines in data units, e.g. a drawn front) and none of the axes'
    own words, and sits nearer its own point than any other: the offsets of ``LABEL_OFFSETS``
    are tried in order (nearest first), measured in points. Where none is free, the least
    crowded one inside the figure is taken (least area over other words, then fewest points
    covered, inside the axes, fewest points nearer, off the lines), on a white ground that
    keeps it readable. A label placed farther than ``LEADER_FROM`` points is joined to its
    point by a thin line; points drawn on one spot (within 3 pixels) share one label, a line
    per text."""
    fig = ax.figure
    if not hasattr(fig.canvas, "get_renderer"):  # a bare Figure (the widgets): give it Agg
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig)
    fig.canvas.draw()  # positions in pixels need a layout
    renderer = fig.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)  # labels stay inside the axes
    whole = fig.bbox  # and, where nowhere inside is free, inside the figure
    points = ax.transData.transform(np.column_stack([x, y])) if len(x) else np.zeros((0, 2))
    reach = np.broadcast_to(  # how near a label may come to each point's centre, in pixels
        np.asarray(2.0 if radii is None else radii, dtype=float) * fig.dpi / 72 + 1, len(points)
    )
    along = _along(ax, lines)
    space = 2.0 * fig.dpi / 72  # between two labels: 2 points

    def near(box, xy, pad) -> int:  # how many of the points xy lie within pad of box
        return int(
            (
                (xy[:, 0] >= box.x0 - pad)
                & (xy[:, 0] <= box.x1 + pad)
                & (xy[:, 1] >= box.y0 - pad)
                & (xy[:, 1] <= box.y1 + pad)
            ).sum()
        )

    spots: dict[tuple, list[int]] = {}
    for i, spot in enumerate(map(tuple, np.round(points / 3.0).astype(np.int64).tolist())):
        spots.setdefault(spot, []).append(i)
    # the axes' own words (title, axis names, tick labels) are taken from the start
    words = [ax.title, ax.xaxis.label, ax.yaxis.label]
    words += ax.get_xticklabels() + ax.get_yticklabels()
    taken = [t.get_window_extent(renderer) for t in words if t.get_visible() and t.get_text()]
    out = []
    for members in spots.values():
        i, text = members[0], "\n".join(str(texts[m]) for m in members)
        best = None  # (crowding, offset, box) of the least crowded offset so far
        for offset in LABEL_OFFSETS:
            t = _annotate(ax, text, (x[i], y[i]), offset, fontsize)
            box = t.get_window_extent(renderer)
            inside = frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1)
            cut = not (whole.contains(box.x0, box.y0) and whole.contains(box.x1, box.y1))
            over = sum(  # words closer than ``space`` read as one ("13" and "9" as "139")
                max(0.0, min(box.x1 + space, b.x1) - max(box.x0 - space, b.x0))
                * max(0.0, min(box.y1 + space, b.y1) - max(box.y0 - space, b.y0))
                for b in taken
            )
            gap = np.hypot(  # from the label to each point, in pixels
                np.maximum(np.maximum(box.x0 - points[:, 0], points[:, 0] - box.x1), 0),
                np.maximum(np.maximum(box.y0 - points[:, 1], points[:, 1] - box.y1), 0),
            )
            others = np.delete(gap, members)
            closer = int((others < gap[i]).sum())  # points the label seems to name instead
            crowding = (
                cut,
                over,
                near(box, points, reach),
                not inside,
                closer,
                near(box, along, 1),
            )
            t.remove()
            if best is None or crowding < best[0]:
                best = (crowding, offset, box)
            if crowding == (False, 0, 0, False, 0, 0):
                break
        crowded = best[0] != (False, 0, 0, False, 0, 0)
        t = _annotate(
            ax, text, (x[i], y[i]), best[1], fontsize, lead=np.hypot(*best[1]) > LEADER_FROM
        )
        if crowded:  # nowhere free: the least crowded place, on a white ground
            t.set_bbox({"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.85})
            t.set_zorder(4)
        taken.append(best[2])  # the words' box (a leader line may cross other labels)
        out.append(t)
    return out


def _annotate(ax, text: str, xy, offset, fontsize: int, lead: bool = False):
    """``text`` at ``offset`` points from data point ``xy``, aligned away from the point and
    left out of layout engines (they must not move the axes under the labels); ``lead`` joins
    it to the point by a thin grey line."""
    dx, dy = offset
    t = ax.annotate(
        text,
        xy,
        textcoords="offset points",
        xytext=offset,
        ha="left" if dx > 0 else "right" if dx < 0 else "center",
        va="bottom" if dy > 0 else "top",
        fontsize=fontsize,
        arrowprops={"arrowstyle": "-", "color": "#888888", "lw": 0.6, "shrinkA": 1, "shrinkB": 3}
        if lead
        else None,
    )
    t.set_in_layout(False)
    return t


def _along(ax, lines, step: float = 2.0) -> np.ndarray:
    """Points every ``step`` pixels along the polylines ``lines`` (data units), in pixels."""
    out = [np.zeros((0, 2))]
    for xs, ys in lines:
        px = ax.transData.transform(np.column_stack([xs, ys]))
        for a, b in zip(px[:-1], px[1:]):
            n = max(2, int(np.hypot(*(b - a)) / step) + 1)
            out.append(a + np.linspace(0, 1, n)[:, None] * (b - a))
    return np.concatenate(out)

"""Shared look: partition colours, axes creation, PNG rendering for widgets."""

from __future__ import annotations

import io

import numpy as np

__all__ = ["part_colors", "get_axes", "to_png", "CUT_COLOR", "fmt_count", "method_name", "cut_text"]

#: Cut edges are drawn in this colour (no partition uses it).
CUT_COLOR = "#111111"


def part_colors(k: int) -> np.ndarray:
    """``k`` distinguishable RGBA colours, one per partition."""
    from matplotlib import colormaps

    if k <= 10:  # tab10 with its grey swapped for indigo: grey reads as "no partition"
        colors = colormaps["tab10"](np.arange(k))
        if k > 7:
            colors[7] = (0.224, 0.231, 0.475, 1.0)
        return colors
    if k <= 20:
        return colormaps["tab20"](np.arange(k))
    return colormaps["turbo"](np.linspace(0.05, 0.95, k))


def get_axes(ax, figsize: tuple[float, float]):
    """``ax`` itself, or new axes on a new pyplot figure (shown inline in Jupyter)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def to_png(fig, dpi: int = 100) -> bytes:
    """Render a matplotlib figure to PNG bytes (for ``ipywidgets.Image``)."""
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


def fmt_bytes(x: float) -> str:
    """Bytes with a unit that keeps three significant digits: different sizes read differently.

    >>> fmt_bytes(512), fmt_bytes(10_240_000), fmt_bytes(15_360_000), fmt_bytes(2.5e9)
    ('512 B', '10.2 MB', '15.4 MB', '2.50 GB')
    """
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if abs(x) >= size:
            v = x / size
            return f"{v:.2f} {unit}" if v < 10 else f"{v:.3g} {unit}"
    return f"{x:.0f} B"


def byte_unit(x: float) -> tuple[str, float]:
    """The unit (and its size) an axis of values up to ``x`` bytes is labelled in.

    >>> byte_unit(3e7)
    ('MB', 1000000.0)
    """
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if abs(x) >= size:
            return unit, size
    return "B", 1.0


def method_name(p) -> str:
    return {"metis": "METIS", "random": "random", "custom": "custom"}.get(
        p.part_method, p.part_method
    )


def cut_text(p) -> str:
    m = p.metrics
    if m.edge_cut is None:
        return ""
    return f"edge cut {m.edge_cut:,} of {m.num_edges:,} ({100 * m.edge_cut_fraction:.1f}%)"

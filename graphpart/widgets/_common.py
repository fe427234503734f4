"""Widget building blocks shared by the views: figures to PNG, status line, tables."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["render", "status_widgets", "image", "html_table"]


def render(draw: Callable, figsize: tuple[float, float], dpi: int = 90) -> bytes:
    """PNG bytes of ``draw(ax)`` on a fresh figure that pyplot never sees (thread-safe)."""
    from matplotlib.figure import Figure

    from ..viz import to_png

    fig = Figure(figsize=figsize, layout="constrained")
    draw(fig.add_subplot())
    return to_png(fig, dpi=dpi)


def status_widgets():
    """A status line (class ``graphpart-status``) and a hidden progress bar."""
    import ipywidgets as w

    status = w.HTML("", layout=w.Layout(min_height="1.6em"))
    status.add_class("graphpart-status")
    progress = w.IntProgress(
        value=0, min=0, max=1, bar_style="info", layout=w.Layout(width="160px", visibility="hidden")
    )
    return status, progress


def image(css_class: str, width: str = "100%"):
    import ipywidgets as w

    # flex with min_width 0: beside a fixed control column the image shrinks to fit instead of
    # overflowing
    img = w.Image(
        format="png",
        layout=w.Layout(
            width=width, max_width="900px", flex="1 1 auto", min_width="0", object_fit="contain"
        ),
    )
    img.add_class(css_class)
    return img


def html_table(obj) -> str:
    """HTML of anything with ``_repr_html_`` (reports), styled compactly."""
    return "<div style='font-size:12px;overflow-x:auto'>" + obj._repr_html_() + "</div>"

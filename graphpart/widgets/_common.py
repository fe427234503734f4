"""Widget building blocks shared by the views: figures to PNG, status line, tables."""

from __future__ import annotations

import html
from collections.abc import Callable, Collection

from ..errors import GraphpartError
from ..palette import CUT_COLOR
from ..utils.check import check_count, short_repr

__all__ = [
    "render",
    "status_widgets",
    "text_html",
    "image",
    "html_table",
    "check_choice",
    "check_height",
    "check_key",
    "form",
    "discard",
]

#: The tallest view drawn, in pixels (sigma.js refuses views under 250 px).
MAX_HEIGHT = 4000


def check_choice(value: object, name: str, options: Collection) -> object:
    """``value`` if it is one of ``options`` (a control's choices), else raise."""
    same = (o for o in options if isinstance(o, bool) == isinstance(value, bool) and o == value)
    if not isinstance(value, (str, int)) or next(same, None) is None:
        raise GraphpartError(f"{name} must be one of {list(options)}, got {short_repr(value, 60)}")
    return value


def check_height(height: object, low: int = 250) -> int:
    """A view's height in pixels, ``low`` .. :data:`MAX_HEIGHT`, else raise.

    Examples
    --------
    >>> check_height(100)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: height must be an integer >= 250, got 100
    """
    return check_count(height, "height", low, MAX_HEIGHT)


def discard(*widgets) -> None:
    """Close widgets a view no longer shows, with every widget inside them (a box's children,
    recursively).

    A view that replaces part of its drawing closes the whole part, never a widget that a
    box still holding it lives on with: a live widget holding a closed one cannot report its
    state, and a page that reloads asks the kernel for every live widget's state at once, so
    one such holder fails that request and the notebook's views stay on "Loading widget...".
    Nothing replaced lingers in the kernel either (each lingering widget is sent again on every
    reload).

    Examples
    --------
    >>> import ipywidgets as w
    >>> inner = w.HTML("a")
    >>> row = w.HBox([w.VBox([inner]), w.HTML("b")])
    >>> discard(row)
    >>> row.comm is None and inner.comm is None
    True
    """
    for x in widgets:
        if x is None or x.comm is None:
            continue
        discard(*getattr(x, "children", ()))  # a box's
        x.close()


def render(draw: Callable, figsize: tuple[float, float], dpi: int = 90) -> bytes:
    """PNG bytes of ``draw(ax)`` on a fresh figure that pyplot never sees (thread-safe)."""
    from matplotlib.figure import Figure

    from ..viz import to_png

    fig = Figure(figsize=figsize, layout="constrained")
    draw(fig.add_subplot())
    return to_png(fig, dpi=dpi)


def form(label_width: str, width: str) -> Callable:
    """A maker of controls laid out alike: ``make(kind, description, css=None, **kwargs)`` gives
    an ipywidgets control with this label width and width, and, where it has
    ``continuous_update``, one that reports its value once released (a slider dragged, a number
    typed), not at every step; ``css`` is a class for the browser tests.

    Examples
    --------
    >>> import ipywidgets as w
    >>> field = form("110px", "260px")
    >>> hops = field(w.IntSlider, "num_hops", value=1, max=3)
    >>> hops.style.description_width, hops.layout.width, hops.continuous_update
    ('110px', '260px', False)
    """
    import ipywidgets as w

    style, layout = {"description_width": label_width}, w.Layout(width=width)

    def make(kind: type, description: str, css: str | None = None, **kwargs: object):
        if "continuous_update" in kind.class_trait_names():
            kwargs.setdefault("continuous_update", False)
        control = kind(description=description, style=style, layout=layout, **kwargs)
        if css is not None:
            control.add_class(css)
        return control

    return make


def status_widgets():
    """A status line (class ``graphpart-status``) and a hidden progress bar."""
    import ipywidgets as w

    status = w.HTML("", layout=w.Layout(min_height="1.6em"))
    status.add_class("graphpart-status")
    progress = w.IntProgress(
        value=0, min=0, max=1, bar_style="info", layout=w.Layout(width="160px", visibility="hidden")
    )
    return status, progress


def text_html(body: str) -> str:
    """HTML ``body`` (a status line, a heading) at a text's line height: a widget's HTML has a
    control row's, 28 px a line, once a long text wraps."""
    return f"<div style='line-height:1.35'>{body}</div>"


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


def swatches_html(palette: dict[str, str]) -> str:
    """A coloured square and the name of each entry of ``palette`` (name to colour), in one
    line of HTML, as every view's legend starts."""
    return " ".join(
        f"<span style='color:{c}'>&#9632;</span>&nbsp;{html.escape(k)}" for k, c in palette.items()
    )


#: How the views draw edges, in their legends: cut edges in the cut colour, the rest lighter.
CUT_EDGE_HTML = (
    f"<span style='color:{CUT_COLOR}'>&#9644;</span>&nbsp;cut edge (inner edges: their "
    "partition's colour, lighter)"
)


def html_table(obj) -> str:
    """HTML of anything with ``_repr_html_`` (reports), styled compactly: a widget's HTML gets
    none of JupyterLab's table style, and its columns would run together. A header breaks
    between its words, and a column of long texts (settings' names) also after ``=`` and
    ``/`` (``bal=`` / ``train_mask``), so that a wide table fits its notebook; the lines are a
    text's height, not a widget row's."""
    style = (
        "<style>.graphpart-table th, .graphpart-table td {padding:2px 8px;text-align:right;"
        "white-space:nowrap} .graphpart-table th {white-space:normal;vertical-align:bottom;"
        "word-break:normal;overflow-wrap:normal} .graphpart-table th:first-child, "
        ".graphpart-table td:first-child, .graphpart-table .graphpart-text {text-align:left} "
        ".graphpart-table td.graphpart-text "
        "{white-space:normal;overflow-wrap:break-word} .graphpart-table .graphpart-summary "
        "td {white-space:normal;text-align:left;word-break:normal;overflow-wrap:normal}</style>"
    )
    return (
        f"{style}<div class='graphpart-table' "
        "style='font-size:12px;line-height:1.35;overflow-x:auto'>" + obj._repr_html_() + "</div>"
    )


def check_key(key: object, name: str = "selected") -> str | None:
    """A node key as views name nodes (``"5"``, ``"woman:3"``), or ``None``, else raise."""
    if key is not None and not isinstance(key, str):
        raise GraphpartError(
            f"{name} must be a node key such as '5' or 'woman:3', or None; got "
            f"{short_repr(key, 60)}"
        )
    return key

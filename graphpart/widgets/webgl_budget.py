"""The page's WebGL budget: a view out of sight gives its contexts back and shows a still picture.

Chromium keeps at most 16 WebGL contexts per page (every notebook open in JupyterLab shares
them) and drops the oldest beyond that, leaving a blank view and nothing on the page to say so;
each sigma.js view holds three. Every displayed graph view (a :class:`PartitionGraph`, or a row of
:class:`PartitionViews`) carries a :class:`WebGLBudget`: its JavaScript keeps one registry per page
and, when the live contexts of all views pass :data:`LIMIT`, asks the views out of sight longest
to freeze. A frozen view closes its sigma widgets (their contexts are released at once) and shows
:func:`~graphpart.views.snapshot.draw_graph_data`'s picture of the same data with a button; seen
again (scrolled to, its tab opened) or clicked, it is drawn live again, camera and selection kept.
A context lost some other way (another library's views) freezes the view with a message saying
so, and it waits for the click (redrawing by itself could take another view's context in turn).

Python side of the protocol: :attr:`WebGLBudget.live` ``False`` (set by the page) -> freeze,
``True`` (set by the page, or by the button) -> draw live; :attr:`WebGLBudget.reason` says why.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anywidget
import ipywidgets as w
import traitlets

from ..views.graph import GraphData
from ..views.snapshot import draw_graph_data
from ._common import discard, render
from .wheel import WHEEL_JS

__all__ = ["WebGLBudget", "Freezer"]

#: Live WebGL contexts graphpart's views keep in one page: four sigma views (three each), with
#: room under Chromium's 16 for one other library's view.
LIMIT = 12
#: The CSS class of a view's root element: the page budget counts the canvases inside it.
UNIT_CLASS = "graphpart-webgl-unit"


class WebGLBudget(anywidget.AnyWidget):
    """One view's seat in the page's WebGL budget (an invisible widget inside the view).

    ``live`` is synced both ways: the page sets it ``True`` when it grants the view its
    contexts (seen, or room) and ``False`` to freeze it; Python sets it ``True`` from the view's
    "draw live" button (:meth:`Freezer.wake`).
    """

    # the page's wheel rule (wheel.js, shared with BigGraphView) and the budget
    _esm = WHEEL_JS + (Path(__file__).parent / "webgl_budget.js").read_text()
    #: ``False`` until the page grants the view its contexts (a view drawn before the page
    #: counted it could push another past the browser's limit).
    live = traitlets.Bool(False).tag(sync=True)
    #: Why ``live`` last changed: "new" (not drawn yet), "budget", "lost", "room", "seen" (or
    #: "" from Python).
    reason = traitlets.Unicode("new").tag(sync=True)
    limit = traitlets.Int(LIMIT).tag(sync=True)
    #: The contexts the view takes when drawn: three per sigma widget.
    need = traitlets.Int(3).tag(sync=True)
    #: The sigma widgets the view shows (model ids): the page draws their hover cards.
    sigma_ids = traitlets.List(traitlets.Unicode()).tag(sync=True)


MESSAGES = {
    "budget": "a still picture: this view gave its WebGL context back while out of sight (a page "
    f"keeps at most {LIMIT // 3} live graph views). Scroll it into view or click to draw it live.",
    "lost": "this view lost its WebGL context: the page holds more WebGL views than the browser "
    "keeps (Chromium: 16 contexts, 3 per view). Close other notebooks' views, then click to draw "
    "it again.",
}


class Freezer:
    """Freezes and wakes one view for its :class:`WebGLBudget`.

    ``pictures()`` gives the still pictures (one per sigma widget, as ``(GraphData, hidden
    keys)``), ``close()`` closes the live sigma widgets, ``wake()`` draws them live and
    ``show(box)`` puts the frozen box in the view. Until the page has counted the view it shows
    :attr:`waiting`; :meth:`drawing` is what the view shows now.

    Parameters
    ----------
    pictures : callable
        ``pictures()`` returns one ``(GraphData, hidden keys)`` pair per sigma widget, for
        the still pictures.
    close : callable
        ``close()`` closes the view's live sigma widgets.
    wake : callable
        ``wake()`` draws the view live again (called when the page grants its contexts).
    show : callable
        ``show(box)`` puts the frozen box in the view in place of the drawing.
    height : int
        The view's height in pixels (the waiting note's and the pictures').
    views : int, default 1
        The sigma widgets the view shows; it asks the page for three contexts each.
    """

    def __init__(
        self,
        pictures: Callable[[], list[tuple[GraphData, frozenset[str]]]],
        close: Callable[[], None],
        wake: Callable[[], None],
        show: Callable[[w.Widget | None], None],
        height: int,
        views: int = 1,
    ) -> None:
        self.budget = WebGLBudget(need=3 * views)
        self._pictures, self._close, self._wake, self._show = pictures, close, wake, show
        self._height = height
        self._quiet = False
        self._live_shown = False  # the sigma widgets are in the view
        self.frozen: w.Widget | None = None
        self.waiting = w.HTML(
            "<i>waiting for the page's WebGL budget: drawn when there is room or when seen (a "
            "front end without anywidget never answers: <code>view.freezer.wake()</code> draws "
            "it)</i>",
            layout=w.Layout(height=f"{height}px"),
        )
        self.waiting.add_class("graphpart-waiting")
        self.budget.observe(self._on_state, ["live", "reason"])

    @property
    def widgets(self) -> list:
        """The widgets it made (its budget, its waiting note and its still pictures, if any):
        what the view closes with itself."""
        return [self.budget, self.waiting, self.frozen]

    def drawing(self, live: w.Widget, sigmas: list) -> w.Widget:
        """What the view shows: ``live`` (its ``sigmas``) once the page granted them."""
        self.budget.sigma_ids = [s.model_id for s in sigmas]
        if self.budget.live:
            return live
        return self.frozen if self.frozen is not None else self.waiting

    def wake(self) -> None:
        """Draw the view live again (the button; a lost context is forgiven)."""
        self.budget.reason = ""
        self.budget.live = True

    def _on_state(self, change) -> None:
        """The page granted contexts (``live``), took them back or said wait (``reason``)."""
        if self._quiet:
            return
        if self.budget.live:
            if not self._live_shown:
                old, self.frozen, self._live_shown = self.frozen, None, True
                self._wake()
                if old is not None:  # the still pictures, replaced
                    discard(old)
        elif self.budget.reason in MESSAGES:
            self.freeze(self.budget.reason)

    def freeze(self, reason: str = "budget") -> None:
        """Close the live widgets and show still pictures with a button to draw them again."""
        pictures = [self._picture(d, hidden) for d, hidden in self._pictures()]
        self._close()
        self._live_shown = False
        note = w.HTML(f"<i>{MESSAGES.get(reason, MESSAGES['budget'])}</i>")
        note.add_class("graphpart-frozen-note")
        button = w.Button(
            description="draw live", icon="play", layout=w.Layout(width="120px", flex="0 0 auto")
        )
        button.add_class("graphpart-draw-live")
        button.on_click(lambda _: self.wake())
        row = w.HBox(pictures, layout=w.Layout(width="100%"))
        old, self.frozen = self.frozen, w.VBox([w.HBox([button, note]), row])
        self.frozen.add_class("graphpart-frozen")
        self._quiet = True
        try:  # Python freezing itself (tests, scripts): tell the page
            self.budget.reason, self.budget.live = reason, False
        finally:
            self._quiet = False
        self._show(self.frozen)
        if old is not None:  # frozen again (another reason): the earlier pictures, replaced
            discard(old)

    def _picture(self, data: GraphData, hidden: frozenset[str]) -> w.Image:
        height = self._height / 90
        png = render(lambda ax: draw_graph_data(data, ax, hidden=hidden), (height * 1.6, height))
        img = w.Image(
            value=png,
            format="png",
            layout=w.Layout(
                height=f"{self._height}px", flex="1 1 0", min_width="0", object_fit="contain"
            ),
        )
        img.add_class("graphpart-snapshot")
        return img

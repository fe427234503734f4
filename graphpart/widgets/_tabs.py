"""``Tabs``: pages under a row of buttons, one page shown, that take clicks after a page reload."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as w
import traitlets

from ..errors import GraphpartError
from ..utils.check import short_repr

__all__ = ["Tabs"]

# The buttons drawn as tabs: flat, the shown page's title underlined, a line under the row.
_LOOK = (
    "<style>.graphpart-tabs {border-bottom: 1px solid var(--jp-border-color2, #e0e0e0);}"
    " .graphpart-tabs .widget-toggle-button {background: none; border-radius: 0;"
    " border-bottom: 3px solid transparent; box-shadow: none; margin: 0 2px 0 0;}"
    " .graphpart-tabs .widget-toggle-button:hover {background: var(--jp-layout-color2, #eee);}"
    " .graphpart-tabs .widget-toggle-button.mod-active {font-weight: 600; box-shadow: none;"
    " border-bottom-color: var(--jp-brand-color1, #1976d2);}"
    " .graphpart-tabs .widget-toggle-button:focus {outline: none;}</style>"
)


class Tabs(w.VBox):
    """A row of toggle buttons over pages; the chosen button's page is shown, the others hidden.

    Used instead of ``ipywidgets.Tab``, whose tab bar (a Lumino ``TabBar``) starts listening for
    clicks only when Lumino tells it it is attached. JupyterLab 4 attaches a cell that is off
    screen when a notebook opens on idle time, and fills it while being attached: a tab view made
    before that (the kernel still running after a browser reload) is put in the page without being
    told, and its tabs ignore every click (an audit found notebook 01's explorer stuck on its
    metrics tab in two reloads of three). A toggle button listens from the moment it is drawn.

    Parameters
    ----------
    pages : sequence of ipywidgets.Widget
        The pages, in the buttons' order.
    titles : sequence of str
        One distinct title per page.

    Attributes
    ----------
    selected_index : int
        The page shown; set it to show another (the buttons follow), or observe it.
    bar : ipywidgets.ToggleButtons
        The buttons (CSS class ``graphpart-tabs``).
    pages : tuple of ipywidgets.Widget
        The pages.

    Examples
    --------
    >>> import ipywidgets as w
    >>> tabs = Tabs([w.HTML("one"), w.HTML("two")], ["first", "second"])
    >>> tabs.bar.value = "second"
    >>> tabs.selected_index, [p.layout.display for p in tabs.pages]
    (1, ['none', None])
    """

    selected_index = traitlets.Int(0)

    def __init__(self, pages: Sequence[w.Widget], titles: Sequence[str], **kwargs) -> None:
        pages, titles = check_pages(pages, titles)
        self.bar = w.ToggleButtons(
            options=titles,
            value=titles[0],
            style={"button_width": "auto"},
            layout=w.Layout(margin="0 0 6px 0"),
        )
        self.bar.add_class("graphpart-tabs")
        self.pages = tuple(pages)
        look = w.HTML(_LOOK, layout=w.Layout(display="none"))  # a <style> applies unseen
        super().__init__([look, self.bar, *self.pages], **kwargs)
        w.link((self.bar, "index"), (self, "selected_index"))
        self.observe(self._show, names="selected_index")
        self._show()

    @traitlets.validate("selected_index")
    def _check_index(self, proposal):
        index = proposal["value"]
        if not 0 <= index < len(self.pages):
            raise GraphpartError(
                f"selected_index: 0 to {len(self.pages) - 1} expected, got {index}"
            )
        return index

    def _show(self, change=None) -> None:
        for i, page in enumerate(self.pages):
            page.layout.display = None if i == self.selected_index else "none"


#: The most pages one row of buttons holds.
MAX_PAGES = 64


def check_pages(pages: object, titles: object) -> tuple[list[w.Widget], list[str]]:
    """``pages`` and ``titles`` as lists if ``pages`` is a non-empty sequence of widgets (at most
    :data:`MAX_PAGES`) and ``titles`` a sequence of as many distinct strings, else raise.

    Examples
    --------
    >>> check_pages([1, 2], ["a", "b"])
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: pages must be a list of 1 to 64 ipywidgets widgets, got [1, 2]
    """

    def listed(x: object, kind: type) -> list | None:
        if isinstance(x, (str, bytes, w.Widget)) or not isinstance(x, (list, tuple)):
            return None
        if not 0 < len(x) <= MAX_PAGES or not all(isinstance(v, kind) for v in x):
            return None
        return list(x)

    got_pages, got_titles = listed(pages, w.Widget), listed(titles, str)
    if got_pages is None:
        raise GraphpartError(
            f"pages must be a list of 1 to {MAX_PAGES} ipywidgets widgets, got "
            f"{short_repr(pages, 80)}"
        )
    if (
        got_titles is None
        or len(got_titles) != len(got_pages)
        or len(set(got_titles)) != len(got_titles)
    ):
        raise GraphpartError(
            f"titles must be a list of {len(got_pages)} distinct strings, one per page, got "
            f"{short_repr(titles, 80)}"
        )
    return got_pages, got_titles

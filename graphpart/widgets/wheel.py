"""The page's rule for the mouse wheel over a view (``wheel.js``): it scrolls the page, and
Ctrl + wheel (or the wheel after a click on the view) zooms. The sigma views and BigGraphView
carry the rule in their own JavaScript; :class:`WheelScrollsPage` gives it to any other view
(IdView's scatter plots) from inside it."""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

#: The rule itself, shared by every view's JavaScript.
WHEEL_JS = (Path(__file__).parent / "wheel.js").read_text()

_RENDER = """
export default {
  render({ model, el }) {
    let tries = 0;
    const attach = () => {  // once ipywidgets has put this widget into the page
      const host = el.isConnected && el.closest(model.get("host"));
      if (host) wheelScrollsPage(host);
      else if (++tries < 600) requestAnimationFrame(attach);
    };
    attach();
  },
};
"""


class WheelScrollsPage(anywidget.AnyWidget):
    """An invisible widget giving the page's wheel rule to the view holding it: the closest
    element matching the CSS selector ``host`` around it.

    Examples
    --------
    >>> WheelScrollsPage(host=".graphpart-id-view").host
    '.graphpart-id-view'
    """

    _esm = WHEEL_JS + _RENDER
    host = traitlets.Unicode().tag(sync=True)

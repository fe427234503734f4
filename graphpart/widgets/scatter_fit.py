"""jupyter-scatter plots whose x range fills their width (IdView's id axes).

regl-scatterplot, jupyter-scatter's renderer, shows the x and y ranges it was given at the
same scale and fits the shorter side: in a plot wider than high, the x axis runs far past the
ids at both ends. :class:`ScatterFillsWidth` sets each plot's data aspect ratio to its canvas's
(and again when the canvas is resized), so the x range given spans the width and the y range
the height. The axes count ids: ticks between two ids are hidden."""

from __future__ import annotations

import anywidget
import traitlets

_ESM = """
// The axes count ids: a tick between two ids (0.2, 0.4, ... when a plot shows a few) is hidden.
function wholeTicks(container) {
  for (const t of container.querySelectorAll(".tick")) {
    const v = Number(t.textContent.replace("\u2212", "-").replaceAll(",", ""));
    t.style.visibility = Number.isInteger(v) ? "" : "hidden";
    const text = t.querySelector("text");  // 2, not 2.0
    if (text && Number.isInteger(v)) text.textContent = v.toLocaleString("en-US");
  }
}

// Each jupyter-scatter container carries its regl-scatterplot as `.api` once it is drawn.
function fillWidth(container) {
  const api = container.api;
  const canvas = api.get("canvas");
  api.subscribe("view", () => requestAnimationFrame(() => wholeTicks(container)));
  let ratio = 0;
  const fit = () => {
    const { width, height } = canvas.getBoundingClientRect();
    if (!width || !height || Math.abs(width / height - ratio) < 1e-3) return;
    ratio = width / height;
    // the view itself is the default one, now over the whole canvas: the axes follow it
    api.set({ aspectRatio: ratio }).then(() => api.reset());
    canvas.dataset.graphpartAspect = ratio.toFixed(4);
  };
  fit();
  new ResizeObserver(() => requestAnimationFrame(fit)).observe(canvas);
}

export default {
  render({ model, el }) {
    // once ipywidgets has put the plots into the page and jupyter-scatter has drawn them: that
    // can take long after this widget is shown (its code comes once per kernel, the kernel busy)
    const started = Date.now();
    const attach = () => {
      const host = el.isConnected && el.closest(model.get("host"));
      const plots = host ? [...host.querySelectorAll("div")].filter((d) => d.api) : [];
      if (plots.length >= model.get("plots")) plots.forEach(fillWidth);
      else if (Date.now() - started < 600_000) setTimeout(attach, 250);
    };
    attach();
  },
};
"""


class ScatterFillsWidth(anywidget.AnyWidget):
    """An invisible widget making the ``plots`` jupyter-scatter plots inside the closest element
    matching the CSS selector ``host`` around it show their x range across their whole width.

    Examples
    --------
    >>> ScatterFillsWidth(host=".graphpart-id-view", plots=4).plots
    4
    """

    _esm = _ESM
    host = traitlets.Unicode().tag(sync=True)
    plots = traitlets.Int(1).tag(sync=True)

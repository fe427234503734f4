"""In a real browser, IdView of a heterograph: the real mouse over a node and over an edge shows
jupyter-scatter's tooltip with their ids, Python's ``IdView.hovered`` follows, and a click fills
the card.

The pixel of a point comes from the plot's own axes: jupyter-scatter draws them as d3 ticks in an
SVG over the WebGL canvas, so two ticks give the data -> pixel map of each axis. Screenshots go to
$GRAPHPART_SCREENSHOTS, or to the test's tmp_path (``shots``).
"""

# ruff: noqa: F811 (the fixtures imported from test_browser are parameters of the same names)

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import _lab
from tests.test_browser import browser, page, shots, sync_playwright  # noqa: F401 (fixtures)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "_id_view_davis.ipynb"

pytestmark = pytest.mark.skipif(
    not _lab.CHROMIUM.exists(), reason=f"{_lab.CHROMIUM} missing: apt-get install chromium"
)

SETUP = (
    "import graphpart as gp\n"
    "from graphpart.datasets import load_davis_southern_women\n"
    "from graphpart.widgets import IdView\n"
    "p = gp.partition(load_davis_southern_women(), 2, num_hops=1, seed=0)"
)
VIEW = "view = IdView(p, height=260)\nview"
# Python's side: every change of a plot's hovering writes IdView.hovered into this readout
READOUT = (
    "import ipywidgets as widgets\n"
    "readout = widgets.HTML('hovered: none')\n"
    "readout.add_class('hover-readout')\n"
    "def show(change):\n"
    "    readout.value = 'hovered: ' + repr(view.hovered)\n"
    "for s in (view.nodes_before, view.nodes_after, view.edges_before, view.edges_after):\n"
    "    s.widget.observe(show, 'hovering')\n"
    "mirror = widgets.HTML('edges before: none')\n"
    "mirror.add_class('mirror-readout')\n"
    "view.edges_before.widget.observe(\n"
    "    lambda c: setattr(mirror, 'value', f'edges before: {[int(i) for i in c[\"new\"]]}'),\n"
    "    'selection')\n"
    "widgets.VBox([readout, mirror])"
)

# data -> pixel of each plot's axes, read from its d3 ticks (x-axis: centre x; y-axis: centre y)
AXES_JS = """el => [...el.querySelectorAll('svg')].filter(s => s.querySelector('.x-axis'))
  .map(svg => {
    const fit = (sel, horizontal) => {
      const ticks = [...svg.querySelectorAll(sel + ' .tick')].map(t => {
        const r = t.querySelector('line').getBoundingClientRect();
        const v = parseFloat(t.textContent.replace(/\u2212/g, '-').replace(/,/g, ''));
        return [v, horizontal ? r.x + r.width / 2 : r.y + r.height / 2];
      }).filter(([v]) => Number.isFinite(v));
      const [a, b] = [ticks[0], ticks[ticks.length - 1]];
      const scale = (b[1] - a[1]) / (b[0] - a[0]);
      return [a[1] - a[0] * scale, scale];
    };
    return {x: fit('.x-axis', true), y: fit('.y-axis', false)};
  })"""

TOOLTIP_JS = """([el, text]) => [...el.querySelectorAll('div')].some(d =>
    d.textContent.includes(text) && ![...d.children].some(c => c.textContent.includes(text))
    && d.checkVisibility({opacityProperty: true, visibilityProperty: true}))"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory, sync_playwright):
    root = tmp_path_factory.mktemp("lab-root-ids")
    _lab.write_code_notebook(root / NOTEBOOK, [SETUP, VIEW, READOUT])
    server = _lab.LabServer(root, tmp_path_factory.mktemp("lab-state-ids"))
    # the kernel imports this checkout's graphpart (a relative PYTHONPATH, or the venv's editable
    # install of another checkout, would give it other code): Lab runs in the notebook folder
    path = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", path)
        try:
            server.start(timeout=90)
            yield server
        finally:
            server.stop()


@pytest.fixture(scope="module")
def frames():
    import graphpart as gp
    from graphpart.datasets import load_davis_southern_women
    from graphpart.views.ids import id_view_data

    return id_view_data(gp.partition(load_davis_southern_women(), 2, num_hops=1, seed=0))


def _pixel(axes: dict, x: float, y: float) -> tuple[float, float]:
    (x0, sx), (y0, sy) = axes["x"], axes["y"]
    return float(x0 + sx * x), float(y0 + sy * y)


def _open_view(page, lab, shots):
    _lab.run_notebook(page, lab, NOTEBOOK)
    root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-id-view").first
    root.wait_for(state="visible", timeout=60_000)
    page.wait_for_function(
        "el => [...el.querySelectorAll('svg')].filter(s => s.querySelector('.x-axis .tick'))"
        ".length >= 4",
        arg=root.element_handle(),
        timeout=60_000,
    )
    page.wait_for_timeout(1500)  # the first frames
    return root, root.evaluate(AXES_JS)


def _hover(page, root, axes, x, y, text: str) -> None:
    """Move the real mouse onto data point (x, y) and wait for a visible tooltip with ``text``."""
    px, py = _pixel(axes, x, y)
    page.mouse.move(px - 30, py - 30)
    page.mouse.move(px, py, steps=5)
    page.wait_for_function(TOOLTIP_JS, arg=[root.element_handle(), text], timeout=15_000)
    page.wait_for_timeout(600)  # the tooltip's fade-in, for the screenshot


def _readout(page, *needles: str) -> str:
    readout = page.locator(f"{_lab.NOTEBOOK_PANEL} .hover-readout").first
    page.wait_for_function(
        "([el, needles]) => needles.every(n => el.textContent.includes(n))",
        arg=[readout.element_handle(), list(needles)],
        timeout=15_000,
    )
    return readout.inner_text()


def test_hovering_a_node_shows_its_ids_python_follows_and_a_click_fills_the_card(
    lab, page, shots, frames
):
    with _lab.failure_shot(page, shots / "id-view-davis-node-failure.png"):
        root, axes = _open_view(page, lab, shots)
        assert len(axes) == 4  # nodes before / after, edges before / after
        node = frames.nodes.loc[20]  # woman 6: new id 13, row 2 (women in part 0)
        assert node["node"] == "woman:6"
        _hover(page, root, axes[1], node["new id"], node["row"], "woman:6")
        root.screenshot(path=str(shots / "id-view-davis-node-hover.png"))
        text = _readout(page, "'node': 'woman:6'")
        assert f"'new id': {node['new id']}" in text
        assert f"'new type-wise id': {node['new type-wise id']}" in text
        assert "'original homogeneous id': 20" in text and "'owner': 'part 0'" in text
        page.mouse.down()
        page.mouse.up()
        card = root.locator(".graphpart-id-card")
        page.wait_for_function(
            "el => /new type-wise id/.test(el.textContent)",
            arg=card.element_handle(),
            timeout=15_000,
        )
        card_text = card.inner_text()
        assert "woman" in card_text and f"part 0 (local id {node['local id']})" in card_text
        root.screenshot(path=str(shots / "id-view-davis-node-click.png"))
        # over another plot, the view not left: that plot was not clicked, the page scrolls
        page.mouse.move(*_pixel(axes[0], node["original homogeneous id"], node["row"]), steps=3)
        _lab.wheel_is_left_to_the_page(page, shots / "id-view-wheel-other-plot.png")
        root.evaluate("el => el.scrollIntoView()")
        page.wait_for_timeout(300)
        axes = root.evaluate(AXES_JS)
        page.mouse.move(1, 1)  # out, and back over the plot: the wheel alone scrolls the page
        page.mouse.move(*_pixel(axes[1], node["new id"], node["row"]), steps=3)
        _lab.wheel_is_left_to_the_page(page, shots / "id-view-wheel.png")
        root.evaluate("el => el.scrollIntoView()")  # the page scrolled: the plots back in sight
        page.wait_for_timeout(300)
        axes = root.evaluate(AXES_JS)
        page.mouse.move(*_pixel(axes[1], node["new id"], node["row"]))
        page.keyboard.down("Control")  # Ctrl + wheel zooms the plot: its axes stretch
        page.mouse.wheel(0, -400)
        page.keyboard.up("Control")
        page.wait_for_function(
            f"el => ({AXES_JS})(el)[1].x[1] > {axes[1]['x'][1]} * 1.2",
            arg=root.element_handle(),
            timeout=15_000,
        )
        root.screenshot(path=str(shots / "id-view-zoomed.png"))


def test_hovering_an_edge_after_the_reshuffle_shows_both_ends_ids_in_both_numberings(
    lab, page, shots, frames
):
    with _lab.failure_shot(page, shots / "id-view-davis-edge-failure.png"):
        root, axes = _open_view(page, lab, shots)
        edges = frames.edges
        cut = edges[edges["edge"] == "cut"]
        e = cut.iloc[0]  # a cut edge: its dot lies outside the diagonal blocks
        _hover(page, root, axes[3], e["new destination id"], e["new source id"], e["source"])
        for line in (e["destination"], e["original ids"], e["new ids"], e["new type-wise ids"]):
            page.wait_for_function(TOOLTIP_JS, arg=[root.element_handle(), line], timeout=5_000)
        page.screenshot(path=str(shots / "id-view-davis-edge-hover.png"))
        text = _readout(page, f"'source': '{e['source']}'", f"'destination': '{e['destination']}'")
        assert f"'new source id': {e['new source id']}" in text
        assert f"'new destination id': {e['new destination id']}" in text
        assert f"'source id': {e['source id']}" in text and "'edge': 'cut'" in text
        assert f"'edge type': '{e['edge type']}'" in text
        # a click selects the edge in the plot of original ids too (the plots are linked)
        page.mouse.down()
        page.mouse.up()
        mirror = page.locator(f"{_lab.NOTEBOOK_PANEL} .mirror-readout").first
        page.wait_for_function(
            "([el, want]) => el.textContent.includes(want)",
            arg=[mirror.element_handle(), f"edges before: [{int(cut.index[0])}]"],
            timeout=15_000,
        )
        card = root.locator(".graphpart-id-card")
        assert e["new ids"] in card.inner_text()
        page.screenshot(path=str(shots / "id-view-davis-edge-click.png"))

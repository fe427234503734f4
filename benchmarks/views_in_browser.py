"""The WebGL views in a real browser: time to first frame and to re-colour, 10K and 100K nodes.

    .venv/bin/python benchmarks/views_in_browser.py [--sizes 10000 100000] [--view sigma big]

``--view sigma`` draws with ``PartitionGraph`` (ipysigma: JSON, an object per node and edge);
``--view big`` with ``BigGraphView`` (cosmos.gl: typed arrays as binary buffers). The page's
console errors are counted for each run.

For each size, an SBM graph (10 blocks, about 4-5 edges per node) is partitioned twice (METIS
into 8, random into 9). In JupyterLab in headless Debian Chromium (WebGL through SwiftShader, no
GPU), one cell draws the first partitioning (``PartitionGraph``) and a second cell swaps in the
second one, as the explorer does after a control change. Reported per size:

- kernel: the Python time of building the view (graph_data + the ipysigma widget), printed by the
  cell itself;
- first frame: from pressing Shift+Enter on the drawing cell until sigma has drawn the graph
  (its node canvas exists and the view's caption is on screen);
- re-colour: from Shift+Enter on the swap cell until the new view's caption and canvas are on
  screen;
- payload: the JSON the widget sends to the browser;
- hover (``big`` only): from the mouse arriving on a node of the swapped-in view until Python's
  card of that node shows, the median of ten nodes spread over the view.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import _lab  # noqa: E402

SETUP = """
import json, time
import ipywidgets as widgets
import graphpart as gp
from graphpart.datasets import sbm
from graphpart.widgets import BigGraphView, PartitionGraph
n = {n}
g = sbm([n // 10] * 10, p_in=45 / n, p_out=0.5 / n, seed=0)
p1 = gp.partition(g, 8, seed=0)
p2 = gp.partition(g, 9, part_method="random", seed=0)
print(g)
"""
DRAW = """
t = time.perf_counter()
view = PartitionGraph(p1, panel=False)
box = widgets.VBox([view])
kernel_first = time.perf_counter() - t
payload = len(json.dumps(view.sigma.data))
box
"""
SWAP = """
t = time.perf_counter()
view2 = PartitionGraph(p2, panel=False)
box.children = [view2]
kernel_swap = time.perf_counter() - t
"""
DRAW_BIG = """
t = time.perf_counter()
view = BigGraphView(p1)
box = widgets.VBox([view])
kernel_first = time.perf_counter() - t
payload = sum(len(getattr(view, k)) for k in
              ("positions", "colors", "sizes", "owner", "links", "link_colors"))
box
"""
SWAP_BIG = """
t = time.perf_counter()
view2 = BigGraphView(p2)
box.children = [view2]
kernel_swap = time.perf_counter() - t
"""
REPORT = """
print(json.dumps({"kernel_first": kernel_first, "kernel_swap": kernel_swap,
                  "payload": payload, "nodes": g.num_nodes(), "edges": g.num_edges()}))
"""


def _run_cell(page, index: int) -> None:
    cell = page.locator(f"{_lab.NOTEBOOK_PANEL} {_lab.CODE_CELL}").nth(index)
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")


def _wait_drawn(page, parts: int, timeout_ms: int, view: str = "sigma") -> None:
    if view == "big":  # cosmos.gl drew its first frame (the view marks it), not an older view
        page.wait_for_function(
            "() => [...document.querySelectorAll('.graphpart-big-graph')]"
            ".some(v => v.dataset.drawn && !v.dataset.old)",
            timeout=timeout_ms,
        )
        page.evaluate(
            "() => document.querySelectorAll('.graphpart-big-graph')"
            ".forEach(v => { v.dataset.old = '1'; })"
        )
        return
    page.wait_for_function(
        """parts => [...document.querySelectorAll('.graphpart-graph-view')].some(v =>
              v.textContent.includes(`in ${parts} partitions`) &&
              v.querySelector('.ipysigma-container canvas.sigma-nodes'))""",
        arg=parts,
        timeout=timeout_ms,
    )
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _hover_seconds(page, count: int = 10) -> float:
    """The median time from the mouse arriving on a node of the shown BigGraphView until Python's
    card of it shows, over ``count`` nodes spread over the view."""
    box = page.locator(".graphpart-big-graph").last
    box.scroll_into_view_if_needed()
    spots = box.evaluate(
        """(el, count) => {
            const g = el.querySelector('div').__cosmos, r = el.getBoundingClientRect();
            const p = g.getPointPositions(), n = p.length / 2, out = [];
            for (let k = 0; k < count; k++) {
                const i = Math.floor((k + 0.5) * n / count);
                const [x, y] = g.spaceToScreenPosition([p[2 * i], p[2 * i + 1]]);
                const shown = x > 0 && y > 0 && x < r.width && y < r.height;
                if (shown) out.push([i, r.left + x, r.top + y]);
            }
            return out;
        }""",
        count,
    )
    card = box.locator(".graphpart-big-graph-card")
    times = []
    for _, x, y in spots:
        page.mouse.move(x + 40, y + 40)
        page.wait_for_timeout(300)
        t = time.perf_counter()
        page.mouse.move(x, y)
        page.wait_for_function(
            "el => el.style.display !== 'none' && el.textContent.includes('(local ')",
            arg=card.element_handle(),
            timeout=120_000,
        )
        times.append(time.perf_counter() - t)
    page.mouse.move(1, 1)
    return sorted(times)[len(times) // 2] if times else float("nan")


def measure(browser, lab, root: Path, n: int, view: str = "sigma") -> dict:
    name = f"_views_{view}_{n}.ipynb"
    draw, swap_cell = (DRAW_BIG, SWAP_BIG) if view == "big" else (DRAW, SWAP)
    _lab.write_code_notebook(root / name, [SETUP.format(n=n), draw, swap_cell, REPORT])
    page = browser.new_context(viewport=_lab.VIEWPORT).new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(600_000)
    _lab.open_notebook(page, lab, name)
    _run_cell(page, 0)
    _lab.wait_kernel_idle(page, 600_000)
    t = time.perf_counter()
    _run_cell(page, 1)
    _wait_drawn(page, 8, 600_000, view)
    first = time.perf_counter() - t
    _lab.wait_kernel_idle(page, 600_000)
    t = time.perf_counter()
    _run_cell(page, 2)
    _wait_drawn(page, 9, 600_000, view)
    swap = time.perf_counter() - t
    _lab.wait_kernel_idle(page, 600_000)
    hover = _hover_seconds(page) if view == "big" else float("nan")
    _run_cell(page, 3)
    _lab.wait_kernel_idle(page, 600_000)
    out = page.locator(f"{_lab.NOTEBOOK_PANEL} {_lab.CODE_CELL}").nth(3)
    facts = json.loads(out.locator(".jp-OutputArea-output").last.inner_text().strip())
    page.screenshot(path=str(root / f"views_{view}_{n}.png"))
    page.context.close()
    return {
        **facts,
        "first_frame": first,
        "recolour": swap,
        "hover": hover,
        "errors": len(errors),
        "first_errors": errors[:3],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--view", nargs="+", default=["sigma", "big"], choices=["sigma", "big"])
    ap.add_argument("--keep", help="copy the screenshots here")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    root = Path(tempfile.mkdtemp(prefix="graphpart-views-"))
    lab = _lab.LabServer(root, Path(tempfile.mkdtemp(prefix="graphpart-lab-")))
    lab.start(timeout=120)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=str(_lab.CHROMIUM), args=_lab.CHROMIUM_ARGS
            )
            print(
                "| view | nodes | edges | kernel: build view | first frame | kernel: new view | "
                "re-colour (swap) | hover: Python's card | payload | console errors |"
            )
            print("|---|---|---|---|---|---|---|---|---|---|")
            for view in args.view:
                for n in args.sizes:
                    r = measure(browser, lab, root, n, view)
                    print(
                        f"| {view} | {r['nodes']:,} | {r['edges']:,} | {r['kernel_first']:.2f} s"
                        f" | {r['first_frame']:.2f} s | {r['kernel_swap']:.2f} s | "
                        f"{r['recolour']:.2f} s | {r['hover']:.2f} s | "
                        f"{r['payload'] / 2**20:.1f} MiB | "
                        f"{r['errors']} |",
                        flush=True,
                    )
                    if r["first_errors"]:
                        print("    first errors:", r["first_errors"], flush=True)
            browser.close()
    finally:
        lab.stop()
        if args.keep:
            for png in root.glob("views_*.png"):
                shutil.copy(png, args.keep)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()

"""In a real browser, notebook 01 runs without errors and its PartitionExplorer reacts.

JupyterLab serves a temporary copy of notebooks/ (running cells never touches the committed
notebooks); headless Chromium runs all cells through the Run menu, then changes the number of
parts in the explorer and waits for a new drawing. Screenshots go to $GRAPHPART_SCREENSHOTS
(or the test's tmp_path).

DOM contract with ``graphpart.widgets.PartitionExplorer`` (all set with ``add_class``):
``.graphpart-explorer`` on the root widget, ``.graphpart-num-parts`` on a BoundedIntText
(its ``<input>`` is inside), ``.graphpart-drawing`` on an ``ipywidgets.Image`` (the class lands
on the ``<img>`` itself), ``.graphpart-status`` on an ``ipywidgets.HTML`` reading "Ready" when idle.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests import _lab

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "01_partitioning_basics.ipynb"
STANDIN = "_browser_standin.ipynb"  # written into the tmp copy only, never into notebooks/

pytestmark = pytest.mark.skipif(
    not _lab.CHROMIUM.exists(), reason=f"{_lab.CHROMIUM} missing: apt-get install chromium"
)


@pytest.fixture(scope="module")
def sync_playwright():
    mod = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    return mod.sync_playwright


@pytest.fixture(scope="module")
def lab(tmp_path_factory, sync_playwright):
    root = tmp_path_factory.mktemp("lab-root")
    shutil.copytree(ROOT / "notebooks", root, dirs_exist_ok=True)
    _lab.write_standin_notebook(root / STANDIN)
    server = _lab.LabServer(root, tmp_path_factory.mktemp("lab-state"))
    try:
        server.start(timeout=90)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser(sync_playwright):
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(_lab.CHROMIUM), args=_lab.CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=_lab.VIEWPORT)
    context.set_default_timeout(30_000)
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("GRAPHPART_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _img_src(page) -> str:
    return page.locator(".graphpart-explorer img.graphpart-drawing, .graphpart-explorer .graphpart-drawing img").first.get_attribute("src") or ""


def exercise_explorer(page, lab, notebook: str, shots: Path, prefix: str, new_parts: int = 6) -> None:
    _lab.open_notebook(page, lab, notebook)
    _lab.run_all_cells(page)
    # let Run All reach the kernel before asking whether it finished
    page.wait_for_function(
        "sel => [...document.querySelectorAll(sel)].some(e => /\\[(\\*|\\d+)\\]/.test(e.textContent))",
        arg=f"{_lab.NOTEBOOK_PANEL} {_lab.CODE_CELL} {_lab.PROMPT}",
        timeout=30_000,
    )
    _lab.wait_run_all_done(page, timeout_ms=240_000)
    errors = _lab.error_outputs(page)
    assert not errors, f"{notebook} shows errors:\n" + "\n---\n".join(errors)

    explorer = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-explorer").first
    explorer.wait_for(state="attached", timeout=60_000)
    explorer.scroll_into_view_if_needed()
    explorer.wait_for(state="visible", timeout=30_000)
    drawing = explorer.locator("img.graphpart-drawing, .graphpart-drawing img").first
    drawing.wait_for(state="visible", timeout=30_000)
    page.wait_for_function(
        "el => el.getAttribute('src') && el.complete && el.naturalWidth > 0",
        arg=drawing.element_handle(),
        timeout=30_000,
    )
    status = explorer.locator(".graphpart-status").first
    status.wait_for(state="visible", timeout=30_000)
    before = drawing.get_attribute("src")
    assert before, "the explorer drawing has no src"

    box = explorer.locator(".graphpart-num-parts input").first
    old = box.input_value()
    target = str(new_parts if str(new_parts) != old else new_parts + 1)

    explorer.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{prefix}-page-before.png"), full_page=True)
    explorer.screenshot(path=str(shots / f"{prefix}-explorer-before.png"))

    box.fill(target)
    box.press("Enter")
    page.wait_for_function(
        "([el, old]) => el.getAttribute('src') && el.getAttribute('src') !== old && el.complete && el.naturalWidth > 0",
        arg=[drawing.element_handle(), before],
        timeout=60_000,
    )
    after = drawing.get_attribute("src")
    assert after and after != before
    assert box.input_value() == target
    # recomputation finished: the status reads Ready again
    page.wait_for_function(
        "el => /ready/i.test(el.textContent)", arg=status.element_handle(), timeout=60_000
    )
    assert not _lab.error_outputs(page)

    explorer.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{prefix}-page-after.png"), full_page=True)
    explorer.screenshot(path=str(shots / f"{prefix}-explorer-after.png"))


def test_browser_harness_with_standin(lab, page, shots):
    """The harness itself works, against a tiny explorer made of plain ipywidgets."""
    exercise_explorer(page, lab, STANDIN, shots, "standin")


@pytest.mark.skipif(not (ROOT / "notebooks" / NOTEBOOK).exists(), reason=f"notebooks/{NOTEBOOK} not written yet")
def test_partition_explorer_in_browser(lab, page, shots):
    exercise_explorer(page, lab, NOTEBOOK, shots, "01")

"""In a real browser, notebook 01 runs without errors and its PartitionExplorer reacts.

JupyterLab serves a temporary copy of notebooks/ (running cells never touches the committed
notebooks); headless Chromium runs all cells through the Run menu, then changes the number of
parts in the explorer and waits for a new drawing. Screenshots (whole page and explorer, before
and after) go to $GRAPHPART_SCREENSHOTS, or to the test's tmp_path.

DOM contract with ``graphpart.widgets.PartitionExplorer`` (classes set with ``add_class``):

- ``.graphpart-explorer`` on the root widget;
- ``.graphpart-num-parts`` on a BoundedIntText (``continuous_update=False``); its ``<input>``
  is a child of that element;
- ``.graphpart-drawing`` on an ``ipywidgets.Image`` showing a PNG: ipywidgets 8 renders an
  Image as a bare ``<img>``, so the class lands on the ``<img>`` itself;
- ``.graphpart-status`` on an ``ipywidgets.HTML`` whose text contains "Ready" once idle.

``test_browser_harness_with_standin`` checks the harness against a tiny explorer made of plain
ipywidgets with the same classes: when it passes and the notebook-01 test fails, the fault is
in the notebook or the widget, not in the browser machinery.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from graphpart.widgets.webgl_budget import UNIT_CLASS
from tests import _lab

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "01_partitioning_basics.ipynb"
STANDIN = "_browser_standin.ipynb"  # written into the tmp copy only, never into notebooks/
GRAPH_VIEWS = "_graph_views.ipynb"  # likewise: PartitionViews alone
CLICK_VIEW = "_click_view.ipynb"  # likewise: a three-node path whose middle node sits centred
EXPLORER = "_explorer.ipynb"  # likewise: PartitionExplorer on karate
INSPECTOR = "_inspector.ipynb"  # likewise: HaloInspector on karate in 3 parts
DAVIS_INSPECTOR = "_davis_inspector.ipynb"  # likewise: HaloInspector of notebook 04, on event 6
ID_VIEW = "_id_view.ipynb"  # likewise: IdView of a path whose middle node sits centred
STANDINS = "_standins.ipynb"  # likewise: linked views of a path, one view lacking two nodes
MANY_VIEWS = "_many_views.ipynb"  # likewise: eight views, 24 WebGL contexts asked for
BALANCE_VIEW = "_balance_view.ipynb"  # likewise: karate by balance class, 2 machines x 2
EPOCH_NOTEBOOK = "08_which_setting_trains_fastest.ipynb"
CACHE_VIEW = "_cache_view.ipynb"  # likewise: CacheSimulator on karate, trainer of part 0
TRAINER_VIEW = "_trainer_view.ipynb"  # likewise: EpochCostView of two karate settings
JOURNEY_VIEW = "_journey_view.ipynb"  # likewise: JourneyView of a chunked SBM in 2 parts
HETERO_VIEW = "_hetero_view.ipynb"  # likewise: PartitionGraph of Davis (women and events)
BIG_VIEW = "_big_view.ipynb"  # likewise: BigGraphView of an SBM, hover / click / zoom readouts
BOX_VIEW = "_box_view.ipynb"  # likewise: BoxView of 8 GPUs in 2 NVLink groups, R-MAT traces

pytestmark = pytest.mark.skipif(
    not _lab.CHROMIUM.exists(), reason=f"{_lab.CHROMIUM} missing: apt-get install chromium"
)


@pytest.fixture(scope="module")
def sync_playwright():
    mod = pytest.importorskip(
        "playwright.sync_api",
        reason="playwright cannot be imported (pip install playwright)",
        exc_type=ImportError,
    )
    return mod.sync_playwright


@pytest.fixture(scope="module")
def lab(tmp_path_factory, sync_playwright):
    root = tmp_path_factory.mktemp("lab-root")
    shutil.copytree(ROOT / "notebooks", root, dirs_exist_ok=True)
    for nb in root.glob("*.ipynb"):
        _lab.clear_outputs(nb)
    _lab.write_standin_notebook(root / STANDIN)
    _lab.write_code_notebook(
        root / GRAPH_VIEWS,
        [
            "import graphpart as gp\n"
            "from graphpart.datasets import load_karate_club\n"
            "from graphpart.widgets import PartitionViews\n"
            "p = gp.partition(load_karate_club(), 3, num_hops=1, seed=0)",
            "views = PartitionViews(p)\nviews",
        ],
    )
    _lab.write_code_notebook(
        root / CLICK_VIEW,
        [
            "import torch, graphpart as gp\n"
            "from graphpart.widgets import PartitionGraph\n"
            "pos = torch.tensor([[-1.0, 0.0], [0.0, 0.0], [1.0, 0.0]])\n"
            "g = gp.Graph.from_edges([0, 1], [1, 2], num_nodes=3, ndata={'pos': pos})\n"
            "p = gp.partition(g, 2, part_method=torch.tensor([0, 0, 1]))",
            "view = PartitionGraph(p, height=300)\nview",
            "import ipywidgets as widgets\n"
            "camera = widgets.HTML('zoom 1.000')\n"
            "camera.add_class('camera-readout')\n"
            "view.sigma.observe(lambda c: setattr(camera, 'value', "
            "f\"zoom {c['new']['ratio']:.3f}\"), 'camera_state')\n"
            "camera",
        ],
    )
    _lab.write_code_notebook(
        root / BIG_VIEW,
        [
            "import graphpart as gp, ipywidgets as widgets\n"
            "from graphpart.datasets import sbm\n"
            "from graphpart.widgets import BigGraphView\n"
            "p = gp.partition(sbm([300] * 4, p_in=0.02, p_out=0.001, seed=0), 4, seed=0)",
            "view = BigGraphView(p, height=420)\nview",
            "said = widgets.HTML('none')\n"
            "said.add_class('big-readout')\n"
            "def show(_):\n"
            "    said.value = f'selected {view.selected} zoom {view.zoom:.3f}'\n"
            "view.observe(show, ['selected', 'zoom'])\n"
            "said",
        ],
    )
    _lab.write_code_notebook(
        root / STANDINS,
        [
            "import torch, graphpart as gp\n"
            "from graphpart.widgets import PartitionViews\n"
            "pos = torch.tensor([[-1.0, 0.0], [0.0, 0.0], [1.0, 0.0]])\n"
            "g = gp.Graph.from_edges([0, 1], [1, 2], num_nodes=3, ndata={'pos': pos})\n"
            "p = gp.partition(g, 2, part_method=torch.tensor([0, 0, 1]), num_hops=0)",
            "views = PartitionViews(p, height=260)\nviews",
        ],
    )
    _lab.write_code_notebook(
        root / BALANCE_VIEW,
        [
            "import graphpart as gp\n"
            "from graphpart.datasets import load_karate_club\n"
            "from graphpart.widgets import PartitionGraph\n"
            "g = load_karate_club()\n"
            "p = gp.partition(g, 2, balance_ntypes=g.ndata['label'], num_trainers_per_machine=2,"
            " seed=0)",
            "view = PartitionGraph(p, color='balance', height=320)\nview",
            "import ipywidgets as widgets\n"
            "picked = widgets.HTML('none')\n"
            "picked.add_class('picked-readout')\n"
            "view.sigma.observe(lambda c: setattr(picked, 'value', str(c['new'])), "
            "'selected_node')\n"
            "picked",
        ],
    )
    _lab.write_code_notebook(
        root / CACHE_VIEW,
        [
            "import graphpart as gp, ipywidgets as widgets\n"
            "from graphpart.datasets import load_karate_club\n"
            "from graphpart.widgets import CacheSimulator\n"
            "p = gp.partition(load_karate_club(), 2, num_hops=1, seed=0)\n"
            "sim = CacheSimulator(p, policies=('in-degree', 'lru'), fanouts='4,3', batch_size=6,"
            " cache_ratio=0.2)\n"
            "sim.controls['partition'].value = 0\n"
            "sim.step(1)\n"
            "picked = widgets.HTML('none')\n"
            "picked.add_class('picked-readout')\n"
            "def follow(_=None):\n"
            "    v = sim.batch_graph.view\n"
            "    v.on_select(lambda k: setattr(picked, 'value', v.data.nodes[k]['label'] if k "
            "else 'none'))\n"
            "follow()\n"
            "sim.step_button.on_click(follow)\n"
            "sim",
            "picked",
        ],
    )
    _lab.write_code_notebook(
        root / TRAINER_VIEW,
        [
            "from graphpart.datasets import load_karate_club\n"
            "from graphpart.sweep import grid, sweep\n"
            "from graphpart.training import TrainingSetup\n"
            "from graphpart.widgets import EpochCostView\n"
            "setup = TrainingSetup(fanouts=(4, 3), batch_size=6, train=None,"
            " num_trainers_per_machine=2)\n"
            "results = sweep(load_karate_club(), grid(part_method=['random', 'metis'],"
            " num_parts=2), training=setup)\n"
            "view = EpochCostView.from_sweep(results, setup)\n"
            "view"
        ],
    )
    _lab.write_code_notebook(
        root / HETERO_VIEW,
        [
            "import graphpart as gp, ipywidgets as widgets\n"
            "from graphpart.datasets import load_davis_southern_women\n"
            "from graphpart.widgets import PartitionGraph\n"
            "p = gp.partition(load_davis_southern_women(), 2, num_hops=1, seed=0)\n"
            "view = PartitionGraph(p, height=360)\n"
            "picked = widgets.HTML('none')\n"
            "picked.add_class('picked-readout')\n"
            "view.on_select(lambda k: setattr(picked, 'value', view.data.nodes[k]['label'] if k"
            " else 'none'))\n"
            "widgets.VBox([view, picked])"
        ],
    )
    _lab.write_code_notebook(
        root / JOURNEY_VIEW,
        [
            "import tempfile\n"
            "from pathlib import Path\n"
            "import graphpart as gp\n"
            "from graphpart import chunked, datasets\n"
            "from graphpart.widgets import JourneyView\n"
            "w = Path(tempfile.mkdtemp())\n"
            "g = datasets.sbm(block_sizes=[20] * 2, p_in=0.3, p_out=0.02, seed=0, feat_dim=3)\n"
            "chunked.write_chunked(g, w / 'chunks', num_chunks=2)\n"
            "a = chunked.assign(w / 'chunks', w / 'assign', 2, 'random')\n"
            "parts, _ = chunked.read_assignment(a, w / 'chunks')\n"
            "gp.partition_graph(g, 'sbm', 2, w / 'parts', part_method=parts['_N'], num_hops=1)\n"
            "view = JourneyView(w / 'parts' / 'sbm.json', w / 'chunks', a, height=320)\n"
            "view"
        ],
    )
    _lab.write_code_notebook(
        root / BOX_VIEW,
        [
            "import torch, ipywidgets as widgets\n"
            "from graphpart import datasets, features\n"
            "from graphpart.features import DeviceGroup, FeatureBox\n"
            "from graphpart.sampling import NeighborLoader, Topology\n"
            "from graphpart.widgets import BoxView\n"
            "topo = Topology.from_graph(datasets.rmat(10, seed=0))\n"
            "seeds = torch.arange(topo.num_nodes).tensor_split(8)\n"
            "traces = {i: features.record_trace(NeighborLoader(topo, [5, 5], seeds=s,"
            " batch_size=32, seed=i), 1) for i, s in enumerate(seeds)}\n"
            "box = FeatureBox(topo.num_nodes, 0.2, [DeviceGroup(0, [0, 1, 2, 3]),"
            " DeviceGroup(1, [4, 5, 6, 7])], order=features.degree_order(topo), row_bytes=512)\n"
            "view = BoxView(box, traces)\n"
            "picked = widgets.HTML('none')\n"
            "picked.add_class('picked-readout')\n"
            "view.observe(lambda c: setattr(picked, 'value', f\"gpu {c['new']}\"), 'selected')\n"
            "widgets.VBox([view, picked])"
        ],
    )
    _lab.write_code_notebook(
        root / MANY_VIEWS,
        [
            "import graphpart as gp\n"
            "from graphpart.datasets import load_karate_club\n"
            "from graphpart.widgets import PartitionGraph\n"
            "p = gp.partition(load_karate_club(), 3, num_hops=1, seed=0)",
            *[f"PartitionGraph(p, {q}, height=300)" for q in (None, 0, 1, 2) * 2],
        ],
    )
    _lab.write_code_notebook(
        root / INSPECTOR,
        [
            "import graphpart as gp\n"
            "from graphpart.datasets import load_karate_club\n"
            "from graphpart.widgets import HaloInspector\n"
            "hi = HaloInspector(gp.partition(load_karate_club(), 3, num_hops=1, seed=0))\n"
            "hi"
        ],
    )
    _lab.write_code_notebook(
        root / DAVIS_INSPECTOR,
        [
            "import graphpart as gp\n"
            "from graphpart.datasets import load_davis_southern_women\n"
            "from graphpart.widgets import HaloInspector\n"
            "hi = HaloInspector(gp.partition(load_davis_southern_women(), 2, num_hops=1, seed=0))\n"
            "hi.controls['kind'].value = 'typed'\n"
            "hi.controls['ntype'].value = 'event'\n"
            "hi.controls['node'].value = 6\n"
            "hi"
        ],
    )
    _lab.write_code_notebook(
        root / ID_VIEW,
        [
            "import torch, graphpart as gp\n"
            "from graphpart.widgets import IdView\n"
            "g = gp.Graph.from_edges([0, 1], [1, 2], num_nodes=3)\n"
            "p = gp.partition(g, 3, part_method=torch.tensor([0, 1, 2]))",
            "view = IdView(p, height=260)\nview",
        ],
    )
    _lab.write_code_notebook(
        root / EXPLORER,
        [
            "from graphpart.datasets import load_karate_club\n"
            "from graphpart.widgets import PartitionExplorer\n"
            "ex = PartitionExplorer(load_karate_club(), num_parts=2, num_hops=1)\nex"
        ],
    )
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
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("GRAPHPART_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def exercise_explorer(page, lab, notebook: str, shots: Path, prefix: str, new_parts: int = 6):
    with _lab.failure_shot(page, shots / f"{prefix}-failure.png"):
        _exercise_explorer(page, lab, notebook, shots, prefix, new_parts)


def _exercise_explorer(page, lab, notebook, shots, prefix, new_parts):
    _lab.run_notebook(page, lab, notebook, timeout_ms=240_000)

    explorer = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-explorer").first
    explorer.wait_for(state="attached", timeout=60_000)
    explorer.scroll_into_view_if_needed()
    explorer.wait_for(state="visible")
    # the drawing: a PNG in the stand-in, the WebGL view's caption in the real explorer
    drawing = explorer.locator(".graphpart-view-title, img.graphpart-drawing").first
    drawing.wait_for(state="visible", timeout=60_000)
    shown = (
        "el => el.tagName === 'IMG' ? (el.complete && el.naturalWidth > 0 && el.src)"
        " : el.textContent"
    )
    page.wait_for_function(f"el => !!({shown})(el)", arg=drawing.element_handle())
    status = explorer.locator(".graphpart-status").first
    status.wait_for(state="visible")
    page.wait_for_function("el => /ready/i.test(el.textContent)", arg=status.element_handle())
    before = drawing.evaluate(shown)
    assert before, "the explorer shows no drawing"

    box = explorer.locator(".graphpart-num-parts input").first
    target = str(new_parts if str(new_parts) != box.input_value() else new_parts + 1)

    explorer.scroll_into_view_if_needed()
    page.wait_for_timeout(1000)  # sigma's first frame
    page.screenshot(path=str(shots / f"{prefix}-page-before.png"), full_page=True)
    explorer.screenshot(path=str(shots / f"{prefix}-explorer-before.png"))

    box.fill(target)
    box.press("Enter")
    drawing = explorer.locator(".graphpart-view-title, img.graphpart-drawing").first
    page.wait_for_function(
        f"""([root, old]) => {{
            const el = root.querySelector('.graphpart-view-title, img.graphpart-drawing');
            const now = el && ({shown})(el);
            return now && now !== old;
        }}""",
        arg=[explorer.element_handle(), before],
        timeout=60_000,
    )
    after = drawing.evaluate(shown)
    assert after and after != before
    assert box.input_value() == target
    # the recomputation is over once the status reads Ready again
    page.wait_for_function(
        "el => /ready/i.test(el.textContent)", arg=status.element_handle(), timeout=60_000
    )
    assert not _lab.error_outputs(page)
    page.wait_for_timeout(1000)

    explorer.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{prefix}-page-after.png"), full_page=True)
    explorer.screenshot(path=str(shots / f"{prefix}-explorer-after.png"))


def test_browser_harness_with_standin(lab, page, shots):
    """The harness itself works, against a tiny explorer made of plain ipywidgets."""
    exercise_explorer(page, lab, STANDIN, shots, "standin")


def test_partition_explorer_in_browser(lab, page, shots):
    """Notebook 01 runs in JupyterLab without errors; its explorer redraws for a new part count;
    its exercise hides the answer until the button, then judges the typed guess."""
    exercise_explorer(page, lab, NOTEBOOK, shots, "01")
    # the explorer's history of settings, in its narrow column, with a balance source's name
    # (a re-audit found "bal=train_mask" ran it 27 px past its column)
    explorer = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-explorer").first
    explorer.locator(".widget-dropdown", has_text="balance_ntypes").locator("select").select_option(
        "train_mask"
    )
    page.wait_for_function(
        "el => el.textContent.includes('bal=train_mask')",
        arg=explorer.locator(".graphpart-history").first.element_handle(),
        timeout=60_000,
    )
    _tables_fit(page)
    explorer.screenshot(path=str(shots / "01-explorer-balanced.png"))
    with _lab.failure_shot(page, shots / "exercise-failure.png"):
        ex = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-exercise").first
        ex.scroll_into_view_if_needed()
        answer = ex.locator(".graphpart-exercise-answer")
        assert "Answer" not in answer.inner_text()  # not printed beside the question
        ex.locator("input").first.fill("75%")
        ex.locator("button", has_text="Reveal the answer").click()
        page.wait_for_function(
            "el => el.textContent.includes('Answer:')", arg=answer.element_handle(), timeout=15_000
        )
        assert answer.inner_text().startswith("Right! Answer: "), answer.inner_text()
        assert "1 - 1/4 = 75%" in answer.inner_text()
        ex.screenshot(path=str(shots / "exercise-revealed.png"))
        # Fennel's steps: the slider, moved with the keyboard, shows the next decision
        _slide(page, "streaming", "stream", "Step 1: node 0", ["ArrowRight"] * 4, "Step 5: node 4",
               shots / "streaming-steps.png")  # fmt: skip
        # METIS's stages: the last one refines the input graph, and says by how much
        _slide(page, "multilevel", "multilevel", "Level 0: the graph", ["End"], "Refine level 0",
               shots / "multilevel-steps.png")  # fmt: skip


def _tables_fit(page, required: bool = True) -> None:
    """Every table in the shown notebook's widgets (``required``: one at least) fits its box: no
    column hidden behind a scroll (an audit found the playground's last columns cut off, the
    explorer's too)."""
    cut = page.evaluate(  # a table's right edge past any box it is in, up to its output
        """panel => [...document.querySelectorAll(`${panel} .graphpart-table table`)]
            .flatMap(t => {
                const right = t.getBoundingClientRect().right, out = [];
                for (let a = t.parentElement; a && !a.matches('.jp-OutputArea-output');
                     a = a.parentElement) {
                    const edge = a.getBoundingClientRect().right;
                    const what = t.textContent.slice(0, 30);
                    if (right > edge + 1) out.push(`${what}: ${right} > ${edge}`);
                }
                return out.slice(0, 1);
            })""",
        _lab.NOTEBOOK_PANEL,
    )
    assert page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-table").count() or not required
    assert not cut, cut


def _slide(page, view: str, why: str, first: str, keys: list, then: str, shot: Path) -> None:
    """The step-by-step view ``.graphpart-{view}-steps`` first explains ``first``; its slider,
    focused and moved with ``keys``, then ``then``."""
    root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-{view}-steps").first
    root.scroll_into_view_if_needed()
    said = root.locator(f".graphpart-{why}-why")
    assert first in said.inner_text()
    root.locator(".noUi-handle, [role=slider]").first.focus()
    for key in keys:
        page.keyboard.press(key)
    page.wait_for_function(
        "([el, text]) => el.textContent.includes(text)",
        arg=[said.element_handle(), then],
        timeout=15_000,
    )
    root.screenshot(path=str(shot))


WIDGETS = {  # the graphpart widget each later notebook shows, by its root CSS class
    "02_halo_and_id_mapping.ipynb": ".graphpart-partition-views",
    "03_balance_ntypes.ipynb": ".graphpart-playground",
    "04_heterogeneous_graphs.ipynb": ".graphpart-halo-inspector",
}
#: The notebooks an audit kept open as tabs (18 WebGL contexts dropped, views left blank);
#: those in WIDGETS run there, and not again on their own.
SIDE_BY_SIDE = (
    "01_partitioning_basics.ipynb",
    "02_halo_and_id_mapping.ipynb",
    "04_heterogeneous_graphs.ipynb",
    "07_your_partitions.ipynb",
)


def test_the_notebooks_run_here_are_the_ones_nbclient_leaves_to_the_browser():
    """test_notebooks.py skips these where this module runs: every one must be run in full here."""
    assert {NOTEBOOK, *WIDGETS, EPOCH_NOTEBOOK} == _lab.RUN_IN_BROWSER


def _open_tab(page, name: str) -> None:
    """Open ``name`` from JupyterLab's file browser as one more tab (the others stay open)."""
    item = page.locator(".jp-DirListing-item", has_text=name).first
    item.dblclick()
    page.wait_for_function(
        "([sel, name]) => [...document.querySelectorAll(sel)].some("
        "t => t.classList.contains('lm-mod-current') && t.textContent.includes(name))",
        arg=[".lm-DockPanel-tabBar .lm-TabBar-tab", name],
        timeout=30_000,
    )
    _lab.wait_kernel_idle(page, 90_000)


def _show_tab(page, name: str) -> None:
    page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text=name).first.click()
    page.wait_for_timeout(500)


def test_the_audits_notebooks_open_side_by_side_leave_no_view_blank(lab, page, shots):
    """Notebooks 01, 02, 04 and 07 open as tabs and run in full, as a student keeps them: the
    browser never drops a WebGL context for want of room (Chromium says so in the console),
    and every graph view, looked at, is drawn live or shows its still picture; none is blank.
    Notebooks 02 and 04 run without an error and show their widgets. The page reloaded, every
    tab's views come back from its running kernel: none stays on "Loading widget...". Nothing
    is thrown in the page all along."""
    dropped, errors = [], []
    page.on(
        "console",
        lambda m: dropped.append(m.text) if "Too many active WebGL contexts" in m.text else None,
    )
    page.on("pageerror", lambda e: errors.append(str(e)[:200]))
    said = []  # the console's errors, for the reload's failure message
    page.on(
        "console",
        lambda m: (
            said.append(f"{m.type}: {m.text[:300]}") if m.type in ("error", "warning") else None
        ),
    )
    with _lab.failure_shot(page, shots / "side-by-side-failure.png"):
        for i, name in enumerate(SIDE_BY_SIDE):
            if i == 0:
                _lab.open_notebook(page, lab, name)
            else:
                _open_tab(page, name)
            _lab.run_all_cells(page)
            _lab.wait_run_all_done(page, timeout_ms=240_000)
            assert not _lab.error_outputs(page), f"{name} shows errors"
            if name in WIDGETS:
                widget = page.locator(f"{_lab.NOTEBOOK_PANEL} {WIDGETS[name]}").first
                widget.wait_for(state="visible", timeout=60_000)
            _big_views_drawn(page, name.startswith("04"), hover=True)
            page.keyboard.press("Control+s")  # saved with its views, for the reload below
            page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')")
        seen = {}
        for name in SIDE_BY_SIDE:  # each tab in turn, each of its views scrolled to
            _show_tab(page, name)
            units = page.locator(f"{_lab.NOTEBOOK_PANEL} .{UNIT_CLASS}")
            seen[name] = 0
            for j in range(units.count()):
                unit = units.nth(j)
                if not unit.evaluate("el => el.getClientRects().length > 0"):
                    continue  # inside a closed tab of a widget (the explorer's other tabs)
                unit.scroll_into_view_if_needed()
                try:
                    _wait_live(page, unit)  # seen: drawn live again, never left blank
                except Exception:
                    state = page.evaluate(
                        "() => [...document.querySelectorAll('.graphpart-webgl-unit')].map(u => "
                        "{ const s = u.querySelector('[data-live]'); return s ? "
                        "`${s.dataset.live}/${s.dataset.reason}/${s.dataset.pageContexts}` : '?'})"
                    )
                    raise AssertionError(f"{name} view {j} not live: {state}; dropped: {dropped}")
                seen[name] += unit.locator("canvas.sigma-nodes").count()
            _tables_fit(page, required=False)
            page.screenshot(path=str(shots / f"side-by-side-{name[:2]}.png"))
        assert all(seen.values()) and sum(seen.values()) >= 9, seen  # sigma views drawn live
        assert not dropped, f"Chromium dropped WebGL contexts: {dropped[:3]}"
        # a lecturer reloads, the four kernels running: every view of every tab comes back
        page.reload()
        lost = {}  # notebooks whose views all came back as "model not found" (see below)
        for name in SIDE_BY_SIDE:
            page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text=name).first.wait_for()
            _show_tab(page, name)
            state = _reloaded_state(page)
            for _ in range(60):
                if state["views"] and not state["waiting"]:
                    break
                page.wait_for_timeout(1000)
                state = _reloaded_state(page)
            if state["waiting"] and all(MODEL_NOT_FOUND in w for w in state["waiting"]):
                lost[name] = state
                continue
            assert state["views"] and not state["waiting"], f"{name} reloaded: {state}; {said[-8:]}"
            _big_views_drawn(page, name.startswith("04"))  # its arrays asked for again
            last = f"""() => [...document.querySelectorAll('{_lab.NOTEBOOK_PANEL} .{UNIT_CLASS}')]
                .filter(u => u.getClientRects().length > 0).pop()"""
            if page.evaluate(f"() => {{ const u = ({last})(); u?.scrollIntoView(); return !!u }}"):
                # the last graph view not in a closed tab, drawn again
                page.wait_for_function(f"() => !!({last})()?.querySelector('canvas.sigma-nodes')")
            page.screenshot(path=str(shots / f"reloaded-{name[:2]}.png"))
        # none thrown in the page: no view drawn in a closed tab ("Container has no width"); but
        # ipysigma's own rejection (its "layout" trait taken for ipywidgets' Layout), which the
        # page keeps off the console once graphpart's JavaScript has loaded, not always before
        ours = [e for e in errors if "reading 'then'" not in e]
        assert not ours, f"{len(ours)} errors thrown in the page: {sorted(set(ours))}"
        if lost:  # ipywidgets' race, made rare (widgets/shared_code.py): reported, not hidden
            pytest.xfail(
                "after the reload, every widget of these notebooks read 'model not found': "
                "ipywidgets' JupyterLab manager gives a view 2 s to find its model, and the "
                f"kernel's restore ended in its last 100 ms: {sorted(lost)}; the console said: "
                f"{said[-12:]}"
            )


MODEL_NOT_FOUND = "model not found"


def _big_views_drawn(page, required: bool, hover: bool = False) -> None:
    """The shown notebook's BigGraphView (04's WordNet, 117,659 nodes), ``required`` or if it
    has one, scrolled to and drawn: its arrays came by message. With ``hover``, the mouse rests
    on its middle until Python's card of the node there shows (the frames, which starve the
    page without a GPU, stop while the mouse rests)."""
    big = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-big-graph")
    if not (required or big.count()):
        return
    big.first.scroll_into_view_if_needed()
    page.wait_for_function(
        "el => !!el.dataset.drawn", arg=big.first.element_handle(), timeout=90_000
    )
    page.wait_for_timeout(500)
    # drawn on screen, not only marked so: an audit saw it blank after a reload in a hidden tab
    shot = np.asarray(Image.open(io.BytesIO(big.first.screenshot())).convert("L"))
    assert (shot < 200).mean() > 0.02, f"the big view is blank: {(shot < 200).mean():.4f}"
    if hover:
        b, card = big.first.bounding_box(), big.first.locator(".graphpart-big-graph-card")
        for dx, dy in [(0, 0), (20, 0), (0, 20), (-20, 0), (0, -20), (40, 40)]:  # onto a node
            page.mouse.move(b["x"] + b["width"] / 2 + dx, b["y"] + b["height"] / 2 + dy, steps=4)
            page.wait_for_timeout(3000)
            if card.is_visible():
                break
        page.wait_for_function(  # Python's card names the node's ids; the page's own does not
            "el => el.textContent.includes('homogeneous')",
            arg=card.element_handle(),
            timeout=20_000,
        )
        page.mouse.move(1, 1)


def _reloaded_state(page) -> dict:
    """The shown notebook's widget views, and its outputs still loading or failed."""
    return page.evaluate(
        """([panel, error]) => {
            const outs = [...document.querySelectorAll(`${panel} .jp-OutputArea-output`)];
            return {
                views: document.querySelectorAll(`${panel} .jupyter-widgets`).length,
                waiting: outs.map(o => o.textContent).filter(
                    t => t.includes("Loading widget") || t.includes(error)).map(
                    t => t.slice(0, 120)),
            };
        }""",
        [_lab.NOTEBOOK_PANEL, _lab.WIDGET_ERROR_TEXT],
    )


@pytest.mark.parametrize("notebook", sorted(set(WIDGETS) - set(SIDE_BY_SIDE)))
def test_later_notebooks_run_in_browser(lab, page, shots, notebook):
    """Notebooks 02-04 run all cells in JupyterLab with no error output; their widgets render."""
    prefix = notebook[:2]
    with _lab.failure_shot(page, shots / f"{prefix}-failure.png"):
        _lab.run_notebook(page, lab, notebook, timeout_ms=240_000)
        images = page.locator(f"{_lab.NOTEBOOK_PANEL} .jp-RenderedImage img")
        assert images.count() >= 2, "the notebook's figures did not render"
        if WIDGETS[notebook]:
            widget = page.locator(f"{_lab.NOTEBOOK_PANEL} {WIDGETS[notebook]}").first
            widget.wait_for(state="attached", timeout=60_000)
            widget.scroll_into_view_if_needed()
            widget.wait_for(state="visible")
            page.wait_for_function(  # a figure (PNG) or a WebGL view has drawn
                """el => el.querySelector('.ipysigma-container canvas.sigma-nodes') ||
                         [...el.querySelectorAll('img')].some(
                             i => i.getAttribute('src') && i.complete && i.naturalWidth > 0)""",
                arg=widget.element_handle(),
                timeout=60_000,
            )
            page.wait_for_timeout(1000)
            widget.screenshot(path=str(shots / f"{prefix}-widget.png"))
            # no part wider than the notebook: a wide table scrolls inside itself
            over = page.evaluate(
                """([panel, el]) => {
                    const right = document.querySelector(panel).getBoundingClientRect().right;
                    return [...el.querySelectorAll('.jupyter-widgets')].filter(
                        w => w.getBoundingClientRect().right > right + 1).length;
                }""",
                [_lab.NOTEBOOK_PANEL, widget.element_handle()],
            )
            assert over == 0, f"{over} parts of {notebook}'s widget run past the notebook"
            _tables_fit(page)


def test_partition_views_render_in_webgl_and_selection_reaches_python(lab, page, shots):
    """PartitionViews in JupyterLab: one WebGL canvas set per partition; picking node 3 in the
    first view's search box reaches Python, whose card of node 3 (owner, local ids, its HALO
    copy in partition 0) appears below the views; ipysigma selects it in the other views too
    (their selection comes back to Python: drawn in 0 and 1, not in 2); no view throws."""
    logs = []
    page.on("console", lambda m: logs.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: logs.append(f"pageerror: {e}"))
    with _lab.failure_shot(page, shots / "graph-views-failure.png"):
        _lab.run_notebook(page, lab, GRAPH_VIEWS)
        root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-partition-views").first
        root.wait_for(state="visible", timeout=60_000)
        views = root.locator(".ipysigma-widget")
        page.wait_for_function(
            "el => el.querySelectorAll('.ipysigma-widget canvas').length >= 3",
            arg=root.element_handle(),
            timeout=60_000,
        )
        assert views.count() == 3
        root.screenshot(path=str(shots / "graph-views-before.png"))
        _search_select(views.nth(0), "3")
        card = root.locator(".graphpart-views-selection")
        page.wait_for_function(
            "el => /original homogeneous id/.test(el.textContent)",
            arg=card.element_handle(),
            timeout=30_000,
        )
        text = card.inner_text()
        assert "HALO copies" in text and "part " in text
        assert "part 0 (local 12, hop 1)" in text  # node 3's copy in partition 0
        # ipysigma selects node 3 in every view; each view's selected_node comes back to
        # Python, which lists the views that draw it
        where = root.locator(".graphpart-views-where")
        page.wait_for_function(
            "el => /drawn in partition\\(s\\) 0, 1; not in 2/.test(el.textContent)",
            arg=where.element_handle(),
            timeout=30_000,
        )
        assert root.locator(".ipysigma-widget").count() == 3  # no view left behind
        assert not [line for line in logs if line.startswith("pageerror: Graph")], logs
        root.screenshot(path=str(shots / "graph-views-selected.png"))


def _graph_stage(page, lab, notebook: str):
    """Run ``notebook``; its first graph view, sigma's stage in it and the stage's box once
    drawn."""
    _lab.run_notebook(page, lab, notebook)
    root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-graph-view").first
    stage = root.locator(".ipysigma-container").first
    stage.wait_for(state="visible", timeout=60_000)
    page.wait_for_timeout(1500)  # sigma's first frame
    return root, stage, stage.bounding_box()


def _views_root(page, lab, notebook: str, css: str, canvases: int):
    """Run ``notebook`` and return its first ``css`` element once it holds ``canvases`` of
    sigma's canvases."""
    _lab.run_notebook(page, lab, notebook)
    root = page.locator(f"{_lab.NOTEBOOK_PANEL} {css}").first
    root.wait_for(state="visible", timeout=60_000)
    page.wait_for_function(
        f"el => el.querySelectorAll('.ipysigma-widget canvas').length >= {canvases}",
        arg=root.element_handle(),
        timeout=60_000,
    )
    return root


def _search_select(view, key: str) -> None:
    """Pick node ``key`` in a sigma view's search box, as a user does (typing, then Enter)."""
    view.locator(".choices").click()
    search = view.locator(".choices input[type=search], .choices input").first
    search.press_sequentially(key, delay=50)  # key events: Choices.js filters on keyup
    view.locator(f'.choices__item--choice.is-highlighted[data-value="{key}"]').wait_for(
        state="attached"
    )
    search.press("Enter")


def test_selecting_a_node_in_the_inspector_replaces_its_lookup_table(lab, page, shots):
    """HaloInspector (notebook 02): a click on a node of a view makes Python look it up; the
    table on the left shows that node's ids instead of node 0's. The views have no search box
    (the lookup on the left is the inspector's): narrow, it would cover their zoom buttons."""
    with _lab.failure_shot(page, shots / "inspector-failure.png"):
        root = _views_root(page, lab, INSPECTOR, ".graphpart-halo-inspector", 3)
        lookup = root.locator(".graphpart-lookup")
        assert "part 0 (local id 0)" in lookup.inner_text()  # node 0, looked up at start
        assert not root.locator(".ipysigma-search").first.is_visible()
        page.wait_for_timeout(1500)  # sigma's first frames
        stage = root.locator(".ipysigma-container").nth(1)
        # from the far corner: a node away from node 0 (selected at start, drawn large)
        hit = _find_node(
            page, stage, lambda w: range(w - 10, w // 2, -6), lambda h: range(h - 10, h // 3, -6)
        )
        page.mouse.click(*hit)
        page.wait_for_function(
            "el => !/original homogeneous id\\s*0\\b/.test(el.innerText)",
            arg=lookup.element_handle(),
            timeout=30_000,
        )
        page.wait_for_timeout(800)
        root.screenshot(path=str(shots / "inspector-selected.png"))


def test_clicking_a_node_on_the_canvas_selects_it_in_python(lab, page, shots):
    """A real click on the WebGL canvas: the path 0-1-2 is drawn centred, so the middle of the
    drawing is node 1; clicking there makes Python compute node 1's card (owner part 0, its
    HALO copy in part 1)."""
    with _lab.failure_shot(page, shots / "click-view-failure.png"):
        _lab.run_notebook(page, lab, CLICK_VIEW)
        root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-graph-view").first
        root.wait_for(state="visible", timeout=60_000)
        stage = root.locator(".ipysigma-container").first
        stage.wait_for(state="visible", timeout=60_000)
        page.wait_for_timeout(1500)  # sigma's first frame
        box = stage.bounding_box()
        root.screenshot(path=str(shots / "click-view-before.png"))
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.up()
        card = root.locator(".graphpart-selection")
        page.wait_for_function(
            "el => /original homogeneous id/.test(el.textContent)",
            arg=card.element_handle(),
            timeout=30_000,
        )
        text = card.inner_text()
        assert "part 0 (local id 1)" in text and "part 1 (local 1, hop 1)" in text, text
        root.screenshot(path=str(shots / "click-view-selected.png"))


def _hover_pixels(page, root) -> int:
    """Painted pixels on sigma's hover layer (a 2-D canvas: the hovered node and its label)."""
    return root.evaluate(
        """el => {
            const c = el.querySelector('canvas.sigma-hovers');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
            return n;
        }"""
    )


def test_hovering_a_node_draws_its_card_and_the_wheel_zooms(lab, page, shots):
    """Moving the real mouse over the centred node draws its one-line card on sigma's hover
    layer (nothing is drawn there before) and turns the cursor into a pointer; the wheel
    zooms, and Python sees the new camera."""
    with _lab.failure_shot(page, shots / "hover-failure.png"):
        root, stage, box = _graph_stage(page, lab, CLICK_VIEW)
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(cx, cy + box["height"] / 3)  # empty canvas below the path
        page.wait_for_timeout(300)
        assert _hover_pixels(page, root) == 0
        page.mouse.move(cx, cy, steps=5)
        page.wait_for_function(
            "el => el.querySelector('.ipysigma-container').style.cursor === 'pointer'",
            arg=root.element_handle(),
            timeout=10_000,
        )
        page.wait_for_timeout(300)
        painted = _hover_pixels(page, root)
        root.screenshot(path=str(shots / "hover-card.png"))
        # the card "node 1 | part 0 (local 1) | new id 1 | HALO copies: ..." is a long label
        assert painted > 3000, painted
        readout = page.locator(f"{_lab.NOTEBOOK_PANEL} .camera-readout").first
        assert "zoom 1.000" in readout.inner_text()
        _lab.wheel_is_left_to_the_page(page, shots / "wheel-scrolls-page.png")
        assert "zoom 1.000" in readout.inner_text()  # the view did not zoom
        stage.scroll_into_view_if_needed()
        box = stage.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.keyboard.down("Control")  # Ctrl + wheel zooms
        page.mouse.wheel(0, -600)
        page.keyboard.up("Control")
        page.wait_for_function(
            "el => /zoom 0\\.[0-9]+/.test(el.textContent)",
            arg=readout.element_handle(),
            timeout=15_000,
        )
        root.screenshot(path=str(shots / "wheel-zoomed.png"))


def test_the_selected_nodes_label_is_drawn_beside_it_in_every_view(lab, page, shots):
    """Notebook 04's inspector on event 6 (a HALO node in partition 0, inner in 1): each view
    labels it beside its node. An audit found partition 0's label in the canvas's corner: a test
    for a free place that wanted exactly 0 px hidden failed on a rounding error of 1e-12 px."""
    with _lab.failure_shot(page, shots / "davis-inspector-failure.png"):
        root = _views_root(page, lab, DAVIS_INSPECTOR, ".graphpart-halo-inspector", 2)
        page.wait_for_function(
            "el => [...el.querySelectorAll('canvas.sigma-hovers')]"
            ".filter(c => c.dataset.cardNode).length === 2",
            arg=root.element_handle(),
            timeout=30_000,
        )
        page.wait_for_timeout(1000)
        drawn = root.evaluate(
            "el => [...el.querySelectorAll('canvas.sigma-hovers')]"
            ".map(c => [c.dataset.cardBox, c.dataset.cardNode, c.dataset.card])"
        )
        root.screenshot(path=str(shots / "davis-inspector.png"))
        for box, node, card in drawn:
            x, y, w, h = map(int, box.split(","))
            nx, ny = map(int, node.split(","))
            gap = math.hypot(max(x - nx, 0, nx - x - w), max(y - ny, 0, ny - y - h))
            assert card.startswith("node event:6") and gap < 40, (box, node, card)


def test_a_hovered_nodes_card_is_drawn_clear_of_the_selections_labels(lab, page, shots):
    """With node 1 selected (sigma draws its label and its neighbours' on the hover layer too),
    hovering another node draws that node's card clear of those labels: an audit found the
    selected node's label over the hovered card's first line."""
    with _lab.failure_shot(page, shots / "hover-selected-failure.png"):
        root, stage, box = _graph_stage(page, lab, CLICK_VIEW)
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(
            "el => /original homogeneous id/.test(el.textContent)",
            arg=root.locator(".graphpart-selection").element_handle(),
            timeout=30_000,
        )
        page.wait_for_timeout(1500)  # drawn again, with the selection
        stage = root.locator(".ipysigma-container").first
        page.keyboard.down("Control")  # zoomed out: the nodes close together, cards collide
        page.mouse.wheel(0, 500)
        page.keyboard.up("Control")
        page.wait_for_timeout(800)
        _find_node(
            page,
            stage,
            lambda w: [d for d in range(6, w - 6, 3) if abs(d - w / 2) > 12],
            lambda h: range(h // 2 - 30, h // 2 + 30, 3),
        )
        page.wait_for_timeout(300)
        boxes = json.loads(
            root.evaluate("el => el.querySelector('canvas.sigma-hovers').dataset.cardBoxes")
        )
        root.screenshot(path=str(shots / "hover-beside-selection.png"))
        assert len(boxes) >= 2, boxes  # the hovered card and the selection's label(s)
        clashes = [
            (a, b)
            for i, a in enumerate(boxes)
            for b in boxes[:i]
            if a[0] < b[0] + b[2]
            and b[0] < a[0] + a[2]
            and a[1] < b[1] + b[3]
            and b[1] < a[1] + a[3]
        ]
        assert not clashes, clashes
        assert _painted_under(root)[1] == 0  # nor under the view's panels and buttons


def _find_node(page, stage, xs, ys) -> tuple[float, float]:
    """Move the real mouse over ``stage`` (rows ``ys(height)``, columns ``xs(width)``, in pixels
    from its corner) until sigma's pointer cursor says a node is under it; that page point."""
    box = stage.bounding_box()
    for dy in ys(int(box["height"])):
        for dx in xs(int(box["width"])):
            x, y = box["x"] + dx, box["y"] + dy
            page.mouse.move(x, y)
            if _pointer(page, stage):
                return x, y
    raise AssertionError("the mouse found no node")


def _pointer(page, stage) -> bool:
    return stage.evaluate("el => el.style.cursor === 'pointer'")


def test_a_linked_views_stand_ins_cannot_be_hovered_or_clicked(lab, page, shots):
    """Linked views of the path 0-1-2: partition 0 draws nodes 0 and 1, partition 1 node 2
    only, with stand-ins for 0 and 1 at the same places. Where the mouse finds a node in view
    0, view 1 (same extent, same camera) shows empty canvas: no pointer, nothing on its hover
    layer, and a click there selects nothing (sigma turned a stand-in's size 0 into 2 and
    found it: "0: not in this view" over empty space, a click selecting a node not drawn)."""
    with _lab.failure_shot(page, shots / "standins-failure.png"):
        root = _views_root(page, lab, STANDINS, ".graphpart-partition-views", 2)
        page.wait_for_timeout(1500)  # sigma's first frames
        # ipysigma's "3 nodes" box would count the stand-ins: hidden, the titles say "2 inner"
        assert not root.locator(".ipysigma-graph-description").first.is_visible()
        stages = [root.locator(".ipysigma-container").nth(i) for i in (0, 1)]
        boxes = [s.bounding_box() for s in stages]
        hits = []  # offsets in view 0 where the mouse finds a node
        for dy in range(6, int(boxes[0]["height"]) - 6, 12):  # node 1's disk: radius > 10 px
            for dx in range(6, int(boxes[0]["width"]) - 6, 12):
                page.mouse.move(boxes[0]["x"] + dx, boxes[0]["y"] + dy)
                if _pointer(page, stages[0]):
                    hits.append((dx, dy))
        assert len(hits) >= 2, "the mouse found no node of view 0"
        page.mouse.move(boxes[0]["x"] + hits[0][0], boxes[0]["y"] + hits[0][1])
        page.wait_for_timeout(300)
        root.screenshot(path=str(shots / "standins-hover-view0.png"))
        # the card is drawn whole inside the narrow view, beside the node, clear of the search
        # box and buttons (it was a sliver at the view's right edge, under the search box)
        view0 = root.locator(".ipysigma-widget").nth(0)
        painted, under = _painted_under(view0)
        assert painted > 1500 and under == 0, (painted, under)
        x, y, w, h = map(
            int,
            view0.evaluate("el => el.querySelector('canvas.sigma-hovers').dataset.cardBox").split(
                ","
            ),
        )
        assert 0 <= x and x + w <= boxes[0]["width"] and 0 <= y and y + h <= boxes[0]["height"]
        assert abs(x - hits[0][0]) < boxes[0]["width"] / 2, (x, w, hits[0])
        empty = next(
            (dx, dy)
            for dy in range(int(boxes[0]["height"]) - 10, 0, -8)
            for dx in range(int(boxes[0]["width"]) // 2, 0, -8)
            if all(abs(dx - x) > 30 or abs(dy - y) > 30 for x, y in hits)
        )
        page.mouse.move(boxes[0]["x"] + empty[0], boxes[0]["y"] + empty[1], steps=4)
        page.wait_for_timeout(300)  # the hover left view 0's node: no linked hover anywhere
        assert not _hover_pixels(page, root.locator(".ipysigma-widget").nth(1))
        centres = []  # each node's centre in view 0: the mean of its cluster of hits
        for x, y in hits:
            near = next(
                (c for c in centres if abs(c[0][0] - x) < 30 and abs(c[0][1] - y) < 30), None
            )
            (near or centres.append([(x, y), []]) or centres[-1])[1].append((x, y))
        centres = [
            (sum(x for x, _ in c) / len(c), sum(y for _, y in c) / len(c)) for _, c in centres
        ]
        # node 1 at least (node 0, of degree 1, is small enough to fall between grid points)
        found = []
        for dx, dy in [
            (x + ex, y + ey) for x, y in centres for ex in (-1, 0, 1) for ey in (-1, 0, 1)
        ]:
            page.mouse.move(boxes[1]["x"] + dx, boxes[1]["y"] + dy)
            page.wait_for_timeout(30)
            if _pointer(page, stages[1]) or _hover_pixels(
                page, root.locator(".ipysigma-widget").nth(1)
            ):
                found.append((dx, dy))
        root.screenshot(path=str(shots / "standins-hover-view1.png"))
        assert not found, f"view 1 found a node where it draws none, at {found[:5]}"
        # hovering node 1 in view 0 draws its label in view 1 too (ipysigma's hover sync); the
        # mouse leaving view 0 straight off the node, out of every view, clears both
        x, y = centres[-1]
        page.mouse.move(boxes[0]["x"] + x, boxes[0]["y"] + y, steps=3)
        page.wait_for_timeout(300)
        synced = root.locator(".ipysigma-widget").nth(1)
        assert _hover_pixels(page, synced) > 0, "no synced hover label in view 1"
        page.mouse.move(boxes[0]["x"] + x, boxes[0]["y"] - boxes[0]["height"], steps=1)
        page.wait_for_timeout(400)
        stale = [_hover_pixels(page, root.locator(".ipysigma-widget").nth(i)) for i in (0, 1)]
        root.screenshot(path=str(shots / "standins-after-leaving.png"))
        assert stale == [0, 0], f"hover labels left behind: {stale} painted pixels"
        dx, dy = centres[-1]
        page.mouse.click(boxes[1]["x"] + dx, boxes[1]["y"] + dy)
        page.wait_for_timeout(1500)
        assert (
            "original homogeneous id" not in root.locator(".graphpart-views-selection").inner_text()
        )


WEBGL = "canvas.sigma-nodes, canvas.sigma-edges, canvas.sigma-hoverNodes"


def _views_state(page) -> list[str]:
    """Each graph view of the notebook: 'live' (sigma's canvases), 'still' (a loaded still
    picture) or 'blank'."""
    return page.evaluate(
        f"""() => [...document.querySelectorAll('{_lab.NOTEBOOK_PANEL} .graphpart-graph-view')]
            .map(v => v.querySelector('canvas.sigma-nodes') ? 'live'
                : [...v.querySelectorAll('img.graphpart-snapshot')].some(
                    i => i.complete && i.naturalWidth > 0) ? 'still' : 'blank')"""
    )


def _wait_live(page, view) -> None:
    """Wait until ``view`` shows sigma's canvases (drawn live)."""
    page.wait_for_function(
        "el => !!el.querySelector('canvas.sigma-nodes')", arg=view.element_handle(), timeout=30_000
    )


def test_eight_views_keep_the_webgl_budget_and_none_is_blank(lab, page, shots):
    """Eight sigma views ask for 24 WebGL contexts, past Chromium's 16 (it drops the oldest
    and a view goes blank with no word). With the page budget, the views out of sight give
    theirs back and show still pictures: never more than 12 contexts live, no browser warning,
    no blank view; a view scrolled back to is drawn live again; a context lost otherwise is
    said on the view, and its button draws it again."""
    logs = []
    page.on("console", lambda m: logs.append(m.text))
    with _lab.failure_shot(page, shots / "budget-failure.png"):
        _lab.run_notebook(page, lab, MANY_VIEWS)
        views = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-graph-view")
        page.wait_for_function(
            f"() => document.querySelectorAll('{_lab.NOTEBOOK_PANEL} .graphpart-graph-view')"
            ".length === 8",
            timeout=60_000,
        )
        views.nth(7).scroll_into_view_if_needed()
        page.wait_for_timeout(3000)  # the budget settles: views out of sight freeze
        contexts = lambda: page.evaluate(f"() => document.querySelectorAll('{WEBGL}').length")  # noqa: E731
        assert contexts() <= 12, contexts()
        state = _views_state(page)
        assert "blank" not in state and state.count("live") >= 1, state
        assert "still" in state, state  # 24 contexts asked for: some views froze
        page.screenshot(path=str(shots / "budget-scrolled-down.png"), full_page=False)
        # a view frozen while out of sight comes back live when seen, saying so meanwhile
        back = views.nth(state.index("still"))
        back.evaluate(
            """el => new MutationObserver(() => {
                if (el.textContent.includes('drawing it live')) el.dataset.saidWaking = '1';
            }).observe(el, { childList: true, subtree: true, characterData: true })"""
        )
        back.scroll_into_view_if_needed()
        _wait_live(page, back)
        assert back.evaluate("el => el.dataset.saidWaking") == "1"
        page.wait_for_timeout(2000)
        assert contexts() <= 12, contexts()
        state = _views_state(page)
        assert "blank" not in state, state
        page.screenshot(path=str(shots / "budget-scrolled-up.png"), full_page=False)
        # a context lost some other way: the view says so and waits for the click
        back.evaluate(
            """el => { const c = el.querySelector('canvas.sigma-nodes');
                (c.getContext('webgl2') || c.getContext('webgl'))
                    .getExtension('WEBGL_lose_context').loseContext(); }"""
        )
        note = back.locator(".graphpart-frozen-note")
        note.wait_for(state="visible", timeout=30_000)
        assert "lost its WebGL context" in note.inner_text()
        back.screenshot(path=str(shots / "budget-lost.png"))
        back.locator(".graphpart-draw-live").click()
        _wait_live(page, back)
        page.wait_for_timeout(1500)
        assert contexts() <= 12, contexts()
        assert not [m for m in logs if "Too many active WebGL contexts" in m], logs


def test_the_balance_view_is_a_graph_to_point_at(lab, page, shots):
    """Balance has a node to point at: the graph by balance class, ringed by partition; the
    mouse finds a node, its card is drawn on the hover layer, and a click selects it in
    Python."""
    with _lab.failure_shot(page, shots / "balance-view-failure.png"):
        _lab.run_notebook(page, lab, BALANCE_VIEW)
        root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-graph-view").first
        stage = root.locator(".ipysigma-container").first
        stage.wait_for(state="visible", timeout=60_000)
        assert "by balance class" in root.locator(".graphpart-view-title").inner_text()
        page.wait_for_timeout(1500)  # sigma's first frame
        hit = _find_node(
            page,
            stage,
            lambda w: range(w // 3, w * 2 // 3, 12),
            lambda h: range(h // 2, h - 10, 12),
        )
        page.wait_for_timeout(300)
        assert _hover_pixels(page, root) > 3000  # the card, drawn on sigma's hover layer
        root.screenshot(path=str(shots / "balance-view-hover.png"))
        page.mouse.click(*hit)
        readout = page.locator(f"{_lab.NOTEBOOK_PANEL} .picked-readout").first
        page.wait_for_function(
            "el => /^[0-9]+$/.test(el.textContent.trim())",
            arg=readout.element_handle(),
            timeout=15_000,
        )


def test_the_cache_view_follows_step_and_a_node_says_where_its_row_came_from(lab, page, shots):
    """After Step the latest batch's graph is redrawn (its title names the batch); hovering a
    node draws its card; clicking it hands Python the node whose card says where its row came
    from and why it was (not) cached."""
    _lab.run_notebook(page, lab, CACHE_VIEW)
    sim = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-cache-simulator").first
    root = sim.locator(".graphpart-graph-view").first
    title = root.locator(".graphpart-view-title")
    title.wait_for(state="visible", timeout=60_000)
    assert "batch 1:" in title.inner_text()
    sim.locator("button", has_text="Step").first.click()
    page.wait_for_function(
        "el => el.textContent.includes('batch 2:')", arg=title.element_handle(), timeout=30_000
    )
    root.scroll_into_view_if_needed()
    _wait_live(page, root)
    stage = root.locator(".ipysigma-container").first
    page.wait_for_timeout(1500)  # sigma's first frame
    root.screenshot(path=str(shots / "cache-view.png"))
    hit = _find_node(page, stage, lambda w: range(20, w - 20, 8), lambda h: range(20, h - 20, 8))
    page.wait_for_timeout(300)
    assert _hover_pixels(page, root) > 2000  # the card, drawn on sigma's hover layer
    root.screenshot(path=str(shots / "cache-view-hover.png"))
    page.mouse.click(*hit)
    readout = page.locator(f"{_lab.NOTEBOOK_PANEL} .picked-readout").first
    page.wait_for_function(
        "el => el.textContent.includes('row from:')", arg=readout.element_handle(), timeout=15_000
    )
    text = readout.inner_text()
    assert "cached: " in text and "owner: part " in text


def test_hovering_a_trainers_bar_shows_its_seeds_and_remote_reads_on_the_graph(lab, page, shots):
    """The epoch's trainers as bars to point at: the mouse entering a bar redraws the graph for
    that trainer (its title names it, the legend its seeds and remote fetches), and a node of
    the graph can be hovered for its card."""
    _lab.run_notebook(page, lab, TRAINER_VIEW)
    root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-trainer-graph").first
    bars = root.locator(".graphpart-trainer-bar")
    bars.first.wait_for(state="visible", timeout=60_000)
    assert bars.count() == 4
    graph = root.locator(".graphpart-graph-view").first
    title = graph.locator(".graphpart-view-title")
    title.wait_for(state="visible", timeout=60_000)
    for trainer in (3, 0):
        bars.nth(trainer).hover()
        page.wait_for_function(
            f"el => el.textContent.includes('what trainer {trainer} (machine {trainer // 2})')",
            arg=title.element_handle(),
            timeout=30_000,
        )
    assert "its seed" in title.inner_text() and "fetched from another machine" in (
        title.inner_text()
    )
    graph.scroll_into_view_if_needed()
    _wait_live(page, graph)
    page.wait_for_timeout(1500)  # sigma's first frame
    stage = graph.locator(".ipysigma-container").first
    _find_node(
        page, stage, lambda w: range(w // 4, w * 3 // 4, 10), lambda h: range(20, h - 20, 10)
    )
    page.wait_for_timeout(300)
    assert _hover_pixels(page, graph) > 2000
    root.screenshot(path=str(shots / "trainer-view-hover.png"))


def test_clicking_a_node_follows_it_through_the_pipelines_files(lab, page, shots):
    """The chunked pipeline with a node to point at: a click on the graph fills the journey
    with that node's chunk row, assignment line, new id and partition rows (the feature row
    ticked as arrived unchanged)."""
    _lab.run_notebook(page, lab, JOURNEY_VIEW)
    root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-journey-view").first
    graph = root.locator(".graphpart-graph-view").first
    graph.wait_for(state="visible", timeout=60_000)
    graph.scroll_into_view_if_needed()
    _wait_live(page, graph)
    page.wait_for_timeout(1500)  # sigma's first frame
    stage = graph.locator(".ipysigma-container").first
    hit = _find_node(
        page, stage, lambda w: range(w // 4, w * 3 // 4, 8), lambda h: range(20, h - 20, 8)
    )
    page.mouse.click(*hit)
    panel = root.locator(".graphpart-journey").first
    page.wait_for_function(
        "el => el.textContent.includes('through the pipeline')",
        arg=panel.element_handle(),
        timeout=15_000,
    )
    text = panel.inner_text()
    node = int(text.split("_N node ")[1].split()[0].replace(",", ""))
    assert f"_N.txt line {node + 1:,}:" in text
    assert text.count("the chunk's row") >= 1 and "not the chunk's row" not in text
    root.screenshot(path=str(shots / "journey-view.png"))


def test_the_hover_card_on_a_heterograph_names_the_typed_node_and_its_ids(lab, page, shots):
    """On Davis (women and events) the card drawn on hover reads, line by line, the typed node
    ("woman:3" with its homogeneous id), its owner, new and type-wise ids: the very card Python
    computed for the node a click then selects."""
    _lab.run_notebook(page, lab, HETERO_VIEW)
    root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-graph-view").first
    root.wait_for(state="visible", timeout=60_000)
    _wait_live(page, root)
    page.wait_for_timeout(1500)
    stage = root.locator(".ipysigma-container").first
    hit = _find_node(
        page, stage, lambda w: range(w // 4, w * 3 // 4, 8), lambda h: range(20, h - 20, 8)
    )
    page.wait_for_timeout(400)
    card = root.evaluate("el => el.querySelector('canvas.sigma-hovers')?.dataset.card || ''")
    lines = card.split("\n")
    assert re.match(r"node (woman|event):\d+ \(homogeneous \d+\)$", lines[0]), lines
    assert any(re.match(r"part \d \(local \d+\)$", s) for s in lines), lines
    assert any(re.match(r"new id \d+ \(type-wise \d+\)$", s) for s in lines), lines
    root.screenshot(path=str(shots / "hetero-hover-card.png"))
    page.mouse.click(*hit)
    readout = page.locator(f"{_lab.NOTEBOOK_PANEL} .picked-readout").first
    page.wait_for_function(
        "el => el.textContent.startsWith('node ')", arg=readout.element_handle(), timeout=15_000
    )
    label = readout.inner_text().split(" | ")  # Python's card of the node the click selected
    assert label[0] == lines[0] and label[1] == lines[1] and label[2] in lines


#: ipysigma's controls over the canvas, which no card may be drawn under (webgl_budget.js)
CONTROLS = (
    ".ipysigma-search, .ipysigma-information-display, .ipysigma-information-show-button, "
    ".ipysigma-graph-description, button"
)


def _painted_under(root, selector: str = CONTROLS) -> list[int]:
    """Painted pixels on sigma's hover layer: in all, and under the elements ``selector``
    inside ipysigma's panels."""
    return root.evaluate(
        """(el, sel) => {
            const c = el.querySelector('canvas.sigma-hovers');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            const k = c.width / c.getBoundingClientRect().width;
            const cr = c.getBoundingClientRect();
            const boxes = [...el.querySelectorAll(
                    '.ipysigma-right-panel, .ipysigma-left-panel')]
                .flatMap(p => [...p.querySelectorAll(sel)])
                .filter(e => e.offsetParent)
                .map(e => e.getBoundingClientRect())
                .filter(p => p.width > 0 && p.height > 0)
                .map(p => [
                    Math.floor((p.left - cr.left) * k), Math.floor((p.top - cr.top) * k),
                    Math.ceil((p.right - cr.left) * k), Math.ceil((p.bottom - cr.top) * k)]);
            let all = 0, under = 0;
            for (let y = 0; y < c.height; y++) for (let x = 0; x < c.width; x++) {
                if (d[(y * c.width + x) * 4 + 3] < 128) continue;  // not the card's shadow
                all++;
                if (boxes.some(([x0, y0, x1, y1]) => x >= x0 && x < x1 && y >= y0 && y < y1))
                    under++;
            }
            return [all, under];
        }""",
        selector,
    )


def test_the_hover_card_fits_beside_the_panel_on_several_lines(lab, page, shots):
    """The rightmost node's card is drawn on several lines to its left, clear of ipysigma's
    panel on the right (sigma's own one-line label ran under the panel: 'node 2 | part…')."""
    with _lab.failure_shot(page, shots / "hover-fit-failure.png"):
        root, stage, box = _graph_stage(page, lab, CLICK_VIEW)
        cy = box["y"] + box["height"] / 2
        hit = None
        for dx in range(int(box["width"]) - 20, 0, -6):  # from the right: node 2 comes first
            page.mouse.move(box["x"] + dx, cy)
            if _pointer(page, stage):
                hit = dx
                break
        assert hit, "the mouse found no node on the centre line"
        page.wait_for_timeout(400)
        painted, under = _painted_under(root)
        root.screenshot(path=str(shots / "hover-card-fits.png"))
        assert painted > 3000, painted  # a card of several lines
        assert under == 0, f"{under} pixels of the card under the panel"


def test_changing_num_hops_changes_the_explorers_halo_drawing(lab, page, shots):
    """The explorer's HALO tab draws partition 0 with its HALO; moving the num_hops slider
    (keyboard on its handle) re-partitions and the drawing gains the second hop's copies."""
    with _lab.failure_shot(page, shots / "explorer-hops-failure.png"):
        _lab.run_notebook(page, lab, EXPLORER)
        explorer = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-explorer").first
        explorer.wait_for(state="visible", timeout=60_000)
        status = explorer.locator(".graphpart-status").first
        page.wait_for_function("el => /ready/i.test(el.textContent)", arg=status.element_handle())
        explorer.locator(".graphpart-tabs button", has_text="HALO").first.click()
        title = explorer.locator(".graphpart-view-title", has_text="partition 0").first
        title.wait_for(state="visible", timeout=30_000)
        before = title.inner_text()
        page.wait_for_timeout(1000)
        explorer.screenshot(path=str(shots / "explorer-halo-1hop.png"))
        handle = explorer.locator(".graphpart-num-hops .noUi-handle").first
        handle.click()
        handle.press("ArrowRight")
        page.wait_for_function(
            """([root, old]) => {
                const t = [...root.querySelectorAll('.graphpart-view-title')]
                    .find(e => /partition 0/.test(e.textContent));
                return t && t.textContent !== old;
            }""",
            arg=[explorer.element_handle(), before],
            timeout=60_000,
        )
        after = explorer.locator(".graphpart-view-title", has_text="partition 0").first
        halo = [int(t.split("+ ")[1].split(" HALO")[0]) for t in (before, after.inner_text())]
        assert halo[1] > halo[0], (before, after.inner_text())
        page.wait_for_function("el => /ready/i.test(el.textContent)", arg=status.element_handle())
        page.wait_for_timeout(1000)
        explorer.screenshot(path=str(shots / "explorer-halo-2hops.png"))


def test_id_view_hover_shows_a_nodes_ids_and_a_click_reaches_python(lab, page, shots):
    """IdView of the path 0-1-2, one node per partition: node 1 (new id 1, row 1) sits at the
    centre of the new-id plot. Hovering there shows jupyter-scatter's tooltip with its ids;
    clicking selects it, and Python's card gives its owner and local id."""
    with _lab.failure_shot(page, shots / "id-view-failure.png"):
        _lab.run_notebook(page, lab, ID_VIEW)
        root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-id-view").first
        root.wait_for(state="visible", timeout=60_000)
        page.wait_for_function(
            "el => [...el.querySelectorAll('canvas')].filter(c => c.width > 200).length >= 8",
            arg=root.element_handle(),
            timeout=60_000,
        )
        page.wait_for_function(  # each plot's x range stretched over its width
            "el => el.querySelectorAll('canvas[data-graphpart-aspect]').length === 4",
            arg=root.element_handle(),
            timeout=30_000,
        )
        page.wait_for_timeout(1500)  # the first frames
        # every x axis spans the ids 0-2 and half an id either side, not more (it ran from -3)
        domains = root.evaluate(
            "el => [...el.querySelectorAll('div')].filter(d => d.api)"
            ".map(d => d.api.get('xScale').domain())"
        )
        assert len(domains) == 4 and all(
            abs(lo + 0.5) < 0.05 and abs(hi - 2.5) < 0.05 for lo, hi in domains
        ), domains
        boxes = root.evaluate(
            """el => [...el.querySelectorAll('canvas')].map(c => c.getBoundingClientRect())
                .filter(r => r.width > 200).map(r => ({x: r.x, y: r.y, w: r.width, h: r.height}))"""
        )
        # the id lines' rows are named under their points: no ticks (with blank labels) beside
        ticks = root.locator(".graphpart-id-lines .y-axis .tick")
        assert ticks.count() > 0 and not any(t.is_visible() for t in ticks.all())
        after = boxes[2]  # two canvases per plot: the second plot is "new ids"
        x, y = after["x"] + after["w"] / 2, after["y"] + after["h"] / 2
        page.mouse.move(x - 40, y - 40)
        page.mouse.move(x, y, steps=4)
        page.wait_for_function(
            """el => {
                // the innermost element holding the tooltip's text, shown (not at opacity 0)
                const has = d => /Original Homogeneous Id/i.test(d.textContent);
                const tips = [...el.querySelectorAll('div')].filter(
                    d => has(d) && ![...d.children].some(has));
                return tips.some(d => /part 1/.test(d.closest('div:not(:empty)').parentElement
                                                      .textContent)
                    && d.checkVisibility({opacityProperty: true, visibilityProperty: true}));
            }""",
            arg=root.element_handle(),
            timeout=15_000,
        )
        root.screenshot(path=str(shots / "id-view-hover.png"))
        page.mouse.down()
        page.mouse.up()
        card = root.locator(".graphpart-id-card")
        page.wait_for_function(
            "el => /original homogeneous id/.test(el.textContent)",
            arg=card.element_handle(),
            timeout=15_000,
        )
        assert "part 1 (local id 0)" in card.inner_text()


def test_epoch_cost_presets_in_the_browser_change_the_winner_in_python(lab, page, shots):
    """Notebook 08's EpochCostView: clicking the 1 Gb/s and 100 Gb/s buttons in the browser
    re-prices every setting in Python, and the verdict the page shows names another winner."""
    with _lab.failure_shot(page, shots / "08-failure.png"):
        _lab.run_notebook(page, lab, EPOCH_NOTEBOOK, timeout_ms=240_000)
        # the exercise's choices read whole: an audit saw two cut to "metis k=4 bal=tr..."
        choices = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-exercise .widget-toggle-button")
        assert choices.count() == 4
        cut = [b.inner_text() for b in choices.all() if b.evaluate(
            "el => el.querySelector('.widget-label-basic, span')?.scrollWidth > el.clientWidth"
            " || el.scrollWidth > el.clientWidth + 1")]  # fmt: skip
        assert not cut, cut
        page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-exercise").first.screenshot(
            path=str(shots / "08-exercise.png")
        )
        view = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-epoch-cost").first
        view.wait_for(state="attached", timeout=60_000)
        view.scroll_into_view_if_needed()
        verdict = view.locator(".graphpart-epoch-verdict").first
        for button, text in (
            ("1 Gb/s", "metis k=4 bal=train_mask +edges ("),
            ("100 Gb/s", "random k=4 ("),
        ):
            view.locator("button", has_text=button).first.click()
            page.wait_for_function(
                "([el, t]) => el.textContent.includes(t)",
                arg=[verdict.element_handle(), f"At {button.split()[0]} Gb/s, fastest: {text}"],
                timeout=60_000,
            )
            page.wait_for_timeout(800)
            view.screenshot(path=str(shots / f"08-epoch-cost-{button.split()[0]}gbit.png"))
            # the network slider's readout shows the preset as written ("1", not "1.00")
            readout = view.locator(".widget-readout").first.inner_text().strip()
            assert readout == button.split()[0], readout


def test_the_box_view_streams_batches_and_a_clicked_gpu_reaches_python(lab, page, shots):
    """A box of 8 GPUs in two NVLink groups: Step streams a batch per GPU (the title counts them,
    the NVLink lines widen with the bytes they carry), hovering a GPU or a line writes its facts
    under the drawing (a GPU's reads by place), and clicking a GPU hands Python its rank and
    shows what it read from where."""
    _lab.run_notebook(page, lab, BOX_VIEW)
    root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-box-view").first
    title = root.locator(".graphpart-box-title")
    title.wait_for(state="visible", timeout=60_000)
    assert "8 GPUs in 2 groups" in title.inner_text() and "0 batches" in title.inner_text()
    assert root.locator(".graphpart-box-gpu").count() == 8
    widths = root.locator(".graphpart-box-link").evaluate_all(
        "ls => ls.map(l => +l.getAttribute('stroke-width'))"
    )
    assert len(widths) == 12 and max(widths) == 1  # 6 NVLink pairs a group, nothing carried yet
    for batches in (1, 2):
        root.locator(".graphpart-box-step").click()
        page.wait_for_function(  # the view redraws its children: ask the root each time
            "([el, want]) => el.querySelector('.graphpart-box-title').textContent.includes(want)",
            arg=[root.element_handle(), f"; {batches} batches"],
            timeout=30_000,
        )
    widths = root.locator(".graphpart-box-link").evaluate_all(
        "ls => ls.map(l => +l.getAttribute('stroke-width'))"
    )
    assert max(widths) > 5  # the busiest NVLink pair is drawn wide
    hovered = root.locator(".graphpart-box-hover")
    gpu = root.locator(".graphpart-box-gpu").nth(5)
    gpu.hover()  # the GPU's numbers, in a line under the drawing while the mouse is on it
    tip = hovered.inner_text()
    assert tip.startswith("GPU 5 (group 1):") and "peers" in tip and "host" in tip, tip
    root.screenshot(path=str(shots / "box-view.png"))
    x, y = (
        root.locator(".graphpart-box-link")
        .nth(6)
        .evaluate(
            """p => {  // a point of the arc 4 px off its stroke: thin lines are hovered nearby
            const m = p.getPointAtLength(p.getTotalLength() / 2), c = p.getScreenCTM();
            return [m.x * c.a + c.e, m.y * c.d + c.f - 4];
        }"""
        )
    )
    page.mouse.move(x, y)
    assert hovered.inner_text().startswith("NVLink GPU"), hovered.inner_text()
    page.mouse.move(1, 1)
    assert hovered.inner_text().startswith("Hover a GPU"), hovered.inner_text()
    gpu.click()
    readout = page.locator(f"{_lab.NOTEBOOK_PANEL} .picked-readout").first
    page.wait_for_function(
        "el => el.textContent.trim() === 'gpu 5'", arg=readout.element_handle(), timeout=15_000
    )
    page.wait_for_function(
        "el => el.querySelector('.graphpart-box-detail').textContent.startsWith('GPU 5 (group')",
        arg=root.element_handle(),
        timeout=15_000,
    )
    detail = root.locator(".graphpart-box-detail").inner_text()
    assert "from GPU 4" in detail and "from the host" in detail
    root.screenshot(path=str(shots / "box-view-selected.png"))


def test_a_reload_brings_the_views_back(lab, page, shots):
    """A lecturer reloads the page with the kernel running: the saved notebook's linked views
    and their selection box come back drawn live by WebGL, none left on "Loading widget..."."""
    with _lab.failure_shot(page, shots / "reload-failure.png"):
        _views_root(page, lab, GRAPH_VIEWS, ".graphpart-partition-views", 3)
        page.keyboard.press("Control+s")
        page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=15_000)
        page.reload()
        root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-partition-views").first
        root.wait_for(state="visible", timeout=60_000)
        page.wait_for_function(
            "el => el.querySelectorAll('.ipysigma-widget canvas.sigma-nodes').length >= 3",
            arg=root.element_handle(),
            timeout=60_000,
        )
        texts = page.locator(f"{_lab.NOTEBOOK_PANEL} .jp-OutputArea-output").all_inner_texts()
        assert not [t for t in texts if "Loading widget" in t or _lab.WIDGET_ERROR_TEXT in t]
        root.screenshot(path=str(shots / "reloaded-views.png"))


# JupyterLab's windowing as users get it (this Lab's own attaches every cell at once)
WINDOWING = "@jupyterlab/notebook-extension:tracker"
# PartitionExplorer below 20 tall outputs: its cell is off screen when the notebook opens
EXPLORER_FAR = [r"print('\n'.join(map(str, range(40))))"] * 20 + [
    "from graphpart.datasets import load_karate_club\n"
    "from graphpart.widgets import PartitionExplorer\n"
    "ex = PartitionExplorer(load_karate_club(), num_parts=2, num_hops=1)\nex"
]


def test_after_reloads_the_explorers_tabs_take_clicks(lab, page, shots):
    """An explorer far down a notebook, reloaded three times with the kernel running, in
    JupyterLab's default windowing (a cell off screen is attached late): after every reload a
    click on a tab shows its page. With ipywidgets' Tab, the click went unheard in 3 reloads of 4
    (its tab bar listens only once Lumino says it is attached, and that late cell never did)."""
    _lab.write_code_notebook(lab.root / "_explorer_far.ipynb", EXPLORER_FAR)
    shown = {"HALO": ".graphpart-halo-part", "metrics": ".graphpart-metrics"}

    def show(root, title):
        root.locator(".graphpart-tabs button", has_text=title).first.click()
        root.locator(shown[title]).first.wait_for(state="visible", timeout=15_000)

    def explorer():
        root = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-explorer").first
        root.wait_for(state="attached", timeout=60_000)
        root.scroll_into_view_if_needed()
        root.wait_for(state="visible", timeout=60_000)
        return root

    with lab.settings(WINDOWING, {}), _lab.failure_shot(page, shots / "reload-tabs-failure.png"):
        _lab.run_notebook(page, lab, "_explorer_far.ipynb")
        show(explorer(), "metrics")  # as the audit did
        page.keyboard.press("Escape")
        page.keyboard.press("Control+s")
        page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=15_000)
        for _ in range(3):
            page.reload()
            root = explorer()
            root.locator(shown["metrics"]).first.wait_for(state="visible", timeout=30_000)
            show(root, "HALO")
            show(root, "metrics")
        root.screenshot(path=str(shots / "explorer-reloaded.png"))


LATE_CODE = (
    "import time, anywidget, traitlets\n"
    "from graphpart.widgets.shared_code import shared_code\n"
    "class Echo(anywidget.AnyWidget):\n"
    '    _esm = """export default { render({ model, el }) {\n'
    "      el.classList.add('echo');\n"
    "      const show = () => { el.textContent = model.get('value'); };\n"
    '      show(); model.on(\'change:value\', show); } };"""\n'
    "    value = traitlets.Unicode('first').tag(sync=True)\n"
    "with shared_code(Echo):\n"
    "    echo = Echo()\n"
    "display(echo)\n"
    "time.sleep(4)  # the page asks for the code now; the kernel answers once this cell ends"
)


def test_a_view_whose_shared_code_comes_late_still_hears_the_kernel(lab, page):
    """A view made with ``shared_code`` while its cell runs on gets its code after the cell,
    past anywidget's 2 s for a model's initialize (after which anywidget drops every message
    from the kernel to the model): it shows what Python sets later all the same."""
    _lab.write_code_notebook(lab.root / "_late_code.ipynb", [LATE_CODE, "echo.value = 'second'"])
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _lab.run_notebook(page, lab, "_late_code.ipynb")
    echo = page.locator(f"{_lab.NOTEBOOK_PANEL} .echo").first
    echo.wait_for(state="attached", timeout=30_000)
    page.wait_for_function(
        "el => el.textContent === 'second'", arg=echo.element_handle(), timeout=20_000
    )
    assert not errors, errors


def test_the_big_view_draws_from_typed_arrays_and_answers_hover_click_and_zoom(lab, page, shots):
    """BigGraphView (cosmos.gl, typed arrays): drawn; the mouse over a node shows the card that
    Python computes for it (not a late card of a node passed on the way); a click reaches
    Python's ``selected``; the wheel its ``zoom``."""
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    with _lab.failure_shot(page, shots / "big-view-failure.png"):
        _lab.run_notebook(page, lab, BIG_VIEW)
        box = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-big-graph").first
        page.wait_for_function("el => !!el.dataset.drawn", arg=box.element_handle(), timeout=60_000)
        # drawn fitted to the view, and no frames running after: without a GPU a frame of
        # 100K nodes takes seconds, and frames drawn for nothing hold back the whole page
        fit = box.evaluate(
            """el => {
                const g = el.querySelector('div').__cosmos, r = el.getBoundingClientRect();
                const p = g.getPointPositions(), xs = [], ys = [];
                for (let i = 0; i < p.length; i += 2) {
                    const [sx, sy] = g.spaceToScreenPosition([p[i], p[i + 1]]);
                    xs.push(sx / r.width); ys.push(sy / r.height);
                }
                return [g.requestAnimationFrameId, Math.min(...xs), Math.max(...xs),
                        Math.min(...ys), Math.max(...ys)];
            }"""
        )
        assert fit[0] == 0, fit  # no frames running
        legend = page.locator(f"{_lab.NOTEBOOK_PANEL} .graphpart-big-graph-legend").first
        said = legend.inner_text().replace("\xa0", " ")
        assert "part 0" in said and "cut edge" in said, said
        assert min(fit[1], fit[3]) >= 0.05 and max(fit[2], fit[4]) <= 0.95, fit
        assert min(fit[1], fit[3]) <= 0.15 or max(fit[2], fit[4]) >= 0.85, fit  # fills the view
        page.wait_for_timeout(500)
        stage = box.locator("canvas").first
        node, x, y = box.evaluate(  # the node farthest from any other: the mouse finds it alone
            """el => {
                const g = el.querySelector('div').__cosmos;
                const p = g.getPointPositions(), n = p.length / 2;
                let best = 0, far = -1;
                for (let i = 0; i < n; i++) {
                    let near = Infinity;
                    for (let j = 0; j < n; j++) if (j !== i) near = Math.min(near,
                        (p[2 * i] - p[2 * j]) ** 2 + (p[2 * i + 1] - p[2 * j + 1]) ** 2);
                    if (near > far) { far = near; best = i; }
                }
                const [sx, sy] = g.spaceToScreenPosition([p[2 * best], p[2 * best + 1]]);
                const r = el.getBoundingClientRect();
                return [best, r.left + sx, r.top + sy];
            }"""
        )
        page.mouse.move(x - 30, y - 30)
        page.mouse.move(x, y, steps=6)
        card = box.locator(".graphpart-big-graph-card")
        page.wait_for_function(
            "el => el.textContent.includes('(local ')", arg=card.element_handle(), timeout=15_000
        )
        shown = int(re.match(r"node (\d+)\npart \d+ \(local", card.inner_text()).group(1))
        # Python's card, a fact a line, inside its white box (an audit saw it run out of it)
        assert card.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
        nearest = box.evaluate(  # the node drawn nearest the mouse: the card must be its own
            """(el, [mx, my]) => {
                const g = el.querySelector('div').__cosmos, r = el.getBoundingClientRect();
                const p = g.getPointPositions();
                let best = -1, d = Infinity;
                for (let i = 0; i < p.length / 2; i++) {
                    const [sx, sy] = g.spaceToScreenPosition([p[2 * i], p[2 * i + 1]]);
                    const e = (r.left + sx - mx) ** 2 + (r.top + sy - my) ** 2;
                    if (e < d) { d = e; best = i; }
                }
                return best;
            }""",
            [x, y],
        )
        assert shown == nearest, (shown, nearest, node)
        # the page rings the node it found (no frame drawn): centred on it
        ring = box.locator(".graphpart-big-graph-ring").first.bounding_box()
        assert abs(ring["x"] + ring["width"] / 2 - x) < 2, (ring, x)
        assert abs(ring["y"] + ring["height"] / 2 - y) < 2, (ring, y)
        box.screenshot(path=str(shots / "big-view-hover.png"))
        page.mouse.click(x, y)
        readout = page.locator(f"{_lab.NOTEBOOK_PANEL} .big-readout").first
        page.wait_for_function(
            f"el => el.textContent.includes('selected {shown} ')",
            arg=readout.element_handle(),
            timeout=15_000,
        )
        # the page rings the selected node (among 100K, its own disc is a pixel or two)
        mark = box.locator(".graphpart-big-graph-selected").first.bounding_box()
        assert abs(mark["x"] + mark["width"] / 2 - x) < 2, (mark, x)
        assert abs(mark["y"] + mark["height"] / 2 - y) < 2, (mark, y)
        # a click selects the node the card names, also where another is nearer the click's
        # position: Chromium rounds a click's position to whole pixels, not the pointer's, and
        # an audit's clicks on WordNet selected a neighbour 3 times in 6
        a, b, *at = box.evaluate(
            """el => {
                const g = el.querySelector('div').__cosmos, r = el.getBoundingClientRect();
                const p = g.getPointPositions(), s = [];
                for (let i = 0; i < p.length / 2; i++)
                    s.push(g.spaceToScreenPosition([p[2 * i], p[2 * i + 1]]));
                for (let i = 0; i < s.length; i++) for (let j = 0; j < s.length; j++) {
                    const d = Math.hypot(s[i][0] - s[j][0], s[i][1] - s[j][1]);
                    const inner = ([u, v]) =>
                        u > 40 && v > 40 && u < r.width - 40 && v < r.height - 40;
                    if (i !== j && d > 1 && d < 3 && inner(s[i])) return [i, j,
                        r.left + s[i][0], r.top + s[i][1], r.left + s[j][0], r.top + s[j][1]];
                }
                return [-1, -1];
            }"""
        )
        assert a >= 0, "no two nodes drawn 1-3 px apart"
        page.mouse.move(at[0], at[1])
        page.wait_for_function(
            f"el => (/^node (\\d+)/.exec(el.textContent) || [])[1] === '{a}'",
            arg=card.element_handle(),
            timeout=15_000,
        )
        box.evaluate(
            """(el, [ax, ay, bx, by]) => {
                const stage = el.querySelector('div');
                stage.dispatchEvent(new PointerEvent('pointerdown',
                    {clientX: ax, clientY: ay, bubbles: true}));
                stage.dispatchEvent(new MouseEvent('click',
                    {clientX: bx, clientY: by, bubbles: true}));
            }""",
            at,
        )
        page.wait_for_function(
            f"el => el.textContent.includes('selected {a} ')",
            arg=readout.element_handle(),
            timeout=15_000,
        )
        page.mouse.move(x + 300, y + 300)  # off the node: its card would cover the picture
        page.wait_for_timeout(2000)
        before = np.asarray(Image.open(io.BytesIO(box.screenshot())).convert("L"), dtype=float)
        page.mouse.move(x, y)
        page.mouse.wheel(0, -400)
        page.wait_for_function(
            "el => /zoom (?!1\\.000)[0-9.]+/.test(el.textContent)",
            arg=readout.element_handle(),
            timeout=15_000,
        )
        zoom = ""
        while zoom != readout.inner_text():  # the zoom eases in: until it rests
            zoom = readout.inner_text()
            page.wait_for_timeout(2000)
        assert stage.is_visible()
        page.mouse.move(x + 300, y + 300)
        page.wait_for_timeout(500)
        box.screenshot(path=str(shots / "big-view-zoomed.png"))
        after = np.asarray(Image.open(io.BytesIO(box.screenshot())).convert("L"), dtype=float)
        assert np.abs(after - before).mean() > 5, "the view was not drawn again, zoomed"
        # Ctrl + a notch zooms a notch's worth, not d3's pinch pace (4x: an audit's 20 -> 1280)
        k0 = box.evaluate("el => el.querySelector('div').__cosmos.getZoomLevel()")
        page.mouse.move(x, y)
        page.keyboard.down("Control")
        page.mouse.wheel(0, -100)
        page.keyboard.up("Control")
        page.wait_for_timeout(1500)
        k1 = box.evaluate("el => el.querySelector('div').__cosmos.getZoomLevel()")
        assert 1.05 < k1 / k0 < 1.3, (k0, k1)
        while zoom != readout.inner_text():  # Python heard that zoom too
            zoom = readout.inner_text()
            page.wait_for_timeout(2000)
        page.mouse.move(1, 1)  # out of the view, and back: the wheel alone scrolls the page
        b = stage.bounding_box()
        page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
        _lab.wheel_is_left_to_the_page(page, shots / "big-view-wheel-scrolls.png")
        assert readout.inner_text() == zoom
    assert not errors, errors

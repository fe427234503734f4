"""Every notebook runs top to bottom in a fresh kernel, and each is a consistent jupytext pair.

Notebooks that tests/test_browser.py runs in JupyterLab (``_lab.RUN_IN_BROWSER``) are run here
only where that test cannot run (no Debian Chromium or playwright), so none runs twice.

A notebook is two committed files in notebooks/: NAME.py (jupytext percent format; reviewed and
linted) and NAME.ipynb (what JupyterLab opens). notebooks/jupytext.toml pairs them, so saving in
JupyterLab rewrites both; after editing a .py by hand, `jupytext --sync notebooks/*.py`.
"""

from __future__ import annotations

import difflib
import importlib.util
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest
from jupytext.config import load_jupytext_config
from nbclient import NotebookClient

from tests import _lab

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
SCRIPTS = sorted(NOTEBOOK_DIR.glob("*.py"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    if path.name in _lab.RUN_IN_BROWSER and _lab.browser_tests_can_run():
        pytest.skip("run top to bottom in JupyterLab by tests/test_browser.py, failing on errors")
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    errors = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.output_type == "error"
    ]
    assert not errors


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_every_notebook_has_an_exercise_whose_lesson_is_checked(path):
    """Each notebook asks at least one "predict, then check" question, and every one says
    whether its explanation holds for its data: an exercise that does not hold raises, so the
    notebook run (above, or in JupyterLab) fails."""
    text = path.read_text()
    calls = text.count("Exercise(\n")
    assert calls >= 1, f"{path.name} has no exercise"
    assert text.count("    holds=") >= calls, f"an exercise of {path.name} checks no claim"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), (
        "clear outputs before committing"
    )


def test_notebooks_are_paired_by_the_jupytext_config():
    config = load_jupytext_config(str(NOTEBOOKS[0]))
    assert config is not None, "notebooks/jupytext.toml is missing"
    formats = [config.formats] if isinstance(config.formats, str) else list(config.formats)
    assert formats == ["ipynb,py:percent"]


def test_every_notebook_has_both_files():
    ipynb = {p.stem for p in NOTEBOOKS}
    py = {p.stem for p in SCRIPTS}
    assert ipynb, "no notebooks found"
    assert py <= ipynb, f"no .ipynb for {sorted(py - ipynb)}: run `jupytext --sync notebooks/*.py`"
    assert ipynb <= py, f"no .py for {sorted(ipynb - py)}: run `jupytext --sync notebooks/*.ipynb`"


def _cells(nb) -> list[tuple[str, str]]:
    return [(c.cell_type, c.source) for c in nb.cells]


def _lines(cells: list[tuple[str, str]]) -> list[str]:
    """The cells as lines, for a readable diff."""
    return [
        line + "\n"
        for i, (kind, src) in enumerate(cells)
        for line in [f"-- cell {i} ({kind})", *src.split("\n")]
    ]


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_pair_has_the_same_cells(path):
    """The .py and the .ipynb hold the same cells (type and source; outputs, ids and metadata
    aside)."""
    ipynb = path.with_suffix(".ipynb")
    if not ipynb.exists():
        pytest.fail(f"{path.name} has no {ipynb.name}: run `jupytext --sync notebooks/{path.name}`")
    from_py = _cells(jupytext.read(path, fmt="py:percent"))
    from_ipynb = _cells(nbformat.read(ipynb, as_version=4))
    if from_py == from_ipynb:
        return
    diff = difflib.unified_diff(
        _lines(from_ipynb), _lines(from_py), fromfile=ipynb.name, tofile=path.name, n=1
    )
    pytest.fail(
        f"{path.name} and {ipynb.name} differ; run `jupytext --sync notebooks/{path.name}` "
        "(the newer file wins):\n" + "".join(diff)
    )


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed")
def test_notebooks_pass_ruff():
    """`ruff check notebooks/` with pyproject.toml's settings, long lines (E501) included."""
    cmd = [
        sys.executable,
        "-m",
        "ruff",
        "check",
        "--no-cache",
        "--extend-select",
        "E501",
        "notebooks",
    ]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.name for p in SCRIPTS])
def test_a_notebook_leaves_no_files_behind(path):
    """Notebook 05 left 4.8 MB per run in a ``mkdtemp`` folder, and Dask its scratch space.
    A ``TemporaryDirectory`` is removed when the kernel stops; a notebook that starts its own
    Dask cluster points Dask's scratch space into it."""
    code = path.read_text()
    assert "mkdtemp(" not in code, "use tempfile.TemporaryDirectory (removed with the kernel)"
    if "LocalCluster(" in code:
        assert '"temporary-directory"' in code, "point Dask's scratch space into the notebook's"

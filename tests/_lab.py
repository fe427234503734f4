"""Helpers for the real-browser test: a throwaway JupyterLab server and page actions.

Nothing here imports playwright at module level, so importing this module (pytest's
``--doctest-modules`` does) works on machines without it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
VIEWPORT = {"width": 1400, "height": 1000}

# The notebooks tests/test_browser.py runs top to bottom in JupyterLab, failing on any error
# output; where that test can run, test_notebooks.py does not run them a second time.
RUN_IN_BROWSER = frozenset(
    {
        "01_partitioning_basics.ipynb",
        "02_halo_and_id_mapping.ipynb",
        "03_balance_ntypes.ipynb",
        "04_heterogeneous_graphs.ipynb",
        "08_which_setting_trains_fastest.ipynb",
    }
)


def browser_tests_can_run() -> bool:
    """Whether Debian Chromium and playwright are here, so the real-browser tests run."""
    return CHROMIUM.exists() and importlib.util.find_spec("playwright") is not None


# JupyterLab 4 DOM, checked against JupyterLab 4.6 / ipywidgets 8.1.
NOTEBOOK_PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
KERNEL_INDICATOR = ".jp-Notebook-ExecutionIndicator"  # toolbar item, carries data-status
KERNEL_NAME = ".jp-Toolbar-kernelName"  # toolbar button; reads "No Kernel" until a session exists
CODE_CELL = ".jp-CodeCell"
PROMPT = ".jp-InputArea-prompt"
RUN_MENU = '.lm-MenuBar .lm-MenuBar-itemLabel:text-is("Run")'
RUN_ALL_ITEM = '.lm-Menu-item[data-command="runmenu:run-all"]'
# Error outputs are rendered with the stderr mime type (as are stream=stderr outputs,
# e.g. warnings), so an error is a stderr output whose text holds a traceback.
STDERR_OUTPUT = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
ERROR_OUTPUT = ".jp-RenderedText[data-mime-type*=error]"
WIDGET_ERROR_TEXT = "Error displaying widget"


# Written into the server's private user-settings dir.
LAB_SETTINGS = {
    # no "get notified about Jupyter news?" toast (it would cover the page), no other toasts
    "@jupyterlab/apputils-extension:notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
        "doNotDisturbMode": True,
    },
    # attach every cell to the DOM, so prompts and outputs of off-screen cells can be read
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LabServer:
    """``jupyter lab`` on 127.0.0.1 serving ``root``, with config, runtime, settings and
    workspaces in ``state`` (nothing of the user's own Jupyter setup is read or written)."""

    def __init__(self, root: Path, state: Path, python: str = sys.executable):
        self.root = Path(root)
        self.state = Path(state)
        self.python = python
        self.token = secrets.token_hex(24)
        self.port: int | None = None
        self.proc: subprocess.Popen | None = None
        self.log_path = self.state / "jupyter-lab.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base_url}/{path.lstrip('/')}{sep}token={self.token}"

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        for name in ("config", "runtime", "settings", "workspaces"):
            (self.state / name).mkdir(parents=True, exist_ok=True)
        env.update(
            JUPYTER_CONFIG_DIR=str(self.state / "config"),
            JUPYTER_RUNTIME_DIR=str(self.state / "runtime"),
            JUPYTERLAB_SETTINGS_DIR=str(self.state / "settings"),
            JUPYTERLAB_WORKSPACES_DIR=str(self.state / "workspaces"),
            PYTHONUNBUFFERED="1",
        )
        env.pop("JUPYTER_TOKEN", None)
        return env

    def _settings_path(self, plugin: str) -> Path:
        pkg, name = plugin.split(":")
        return self.state / "settings" / pkg / f"{name}.jupyterlab-settings"

    def _write_settings(self) -> None:
        """User settings for this throwaway Lab: no news prompt nor toasts, all cells in the DOM."""
        for plugin, values in LAB_SETTINGS.items():
            path = self._settings_path(plugin)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))

    @contextlib.contextmanager
    def settings(self, plugin: str, values: dict):
        """``plugin``'s user settings are ``values`` (``{}``: JupyterLab's defaults, as a user
        gets them) for the pages loaded inside the block; this Lab's own settings after it."""
        path = self._settings_path(plugin)
        before = path.read_text() if path.exists() else None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
        try:
            yield
        finally:
            if before is None:
                path.unlink(missing_ok=True)
            else:
                path.write_text(before)

    def _argv(self) -> list[str]:
        argv = [
            self.python,
            "-m",
            "jupyter",
            "lab",
            "--no-browser",
            "--ServerApp.open_browser=False",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.root}",
            f"--IdentityProvider.token={self.token}",
            "--ServerApp.password=",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            f"--LabApp.workspaces_dir={self.state / 'workspaces'}",
            f"--LabApp.user_settings_dir={self.state / 'settings'}",
            "--ServerApp.log_level=WARN",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            argv.append("--allow-root")
        return argv

    def _status(self) -> dict | None:
        req = urllib.request.Request(
            f"{self.base_url}/api/status", headers={"Authorization": f"token {self.token}"}
        )
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                return json.load(r)
        except (urllib.error.URLError, ConnectionError, OSError, ValueError):
            return None

    def start(self, timeout: float = 90, attempts: int = 3) -> None:
        self._write_settings()
        for _ in range(attempts):
            self.port = free_port()
            log = open(self.log_path, "ab")
            try:
                self.proc = subprocess.Popen(
                    self._argv(),
                    cwd=self.root,
                    env=self._env(),
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            finally:
                log.close()
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    break  # died (e.g. the port was taken between free_port and bind): retry
                if self._status() is not None:
                    return
                time.sleep(0.25)
            else:
                self.stop()
                raise TimeoutError(
                    f"JupyterLab did not answer within {timeout}s:\n{self.log_tail()}"
                )
        raise RuntimeError(f"JupyterLab exited during startup:\n{self.log_tail()}")

    def log_tail(self, n: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-n:]
        except OSError:
            return ""

    def stop(self) -> None:
        """Shut the server down with its kernels; kill its process group whatever happens.

        Kernels are started in sessions of their own, so killing the server's group alone
        would leave them behind: ask the server to shut down first (it stops its kernels).
        """
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            try:
                req = urllib.request.Request(
                    f"{self.base_url}/api/shutdown",
                    method="POST",
                    headers={"Authorization": f"token {self.token}"},
                )
                urllib.request.urlopen(req, timeout=10).close()
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                continue
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


# --------------------------------------------------------------------------- page actions


def open_notebook(page, lab: LabServer, name: str, timeout_ms: int = 90_000) -> None:
    """Open ``name`` in a fresh JupyterLab workspace and wait until its kernel is idle.

    A workspace of its own keeps tabs that earlier tests opened from coming back.
    """
    workspace = "t" + secrets.token_hex(6)
    url = lab.url(f"lab/workspaces/{workspace}/tree/{name}")
    page.goto(url, wait_until="domcontentloaded", timeout=timeout_ms)
    page.locator(NOTEBOOK_PANEL).first.wait_for(state="visible", timeout=timeout_ms)
    wait_kernel_idle(page, timeout_ms)


def wait_kernel_idle(page, timeout_ms: int, settle_ms: int = 750) -> None:
    """Wait until the notebook's kernel is started and idle, and stays so for ``settle_ms``.

    While the session starts, the toolbar indicator briefly reads "idle" with "No Kernel"
    as the kernel name, then idle/busy flickers while the kernel answers its first requests:
    a Run All issued then is silently dropped.
    """
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        left = max(1, int((deadline - time.monotonic()) * 1000))
        page.wait_for_function(
            """([ind, name]) => {
                const i = document.querySelector(ind), n = document.querySelector(name);
                if (!i || !n) return false;
                const kernel = n.textContent.trim();
                return i.getAttribute('data-status') === 'idle'
                    && kernel !== '' && kernel !== 'No Kernel';
            }""",
            arg=[f"{NOTEBOOK_PANEL} {KERNEL_INDICATOR}", f"{NOTEBOOK_PANEL} {KERNEL_NAME}"],
            timeout=left,
            polling=100,
        )
        page.wait_for_timeout(settle_ms)
        if page.evaluate(
            "sel => document.querySelector(sel)?.getAttribute('data-status') === 'idle'",
            f"{NOTEBOOK_PANEL} {KERNEL_INDICATOR}",
        ):
            return
        if time.monotonic() > deadline:
            raise TimeoutError("the notebook kernel never settled to idle")


def run_all_cells(page, start_timeout_ms: int = 15_000) -> None:
    """Run -> Run All Cells, through the menu bar; return once the first prompt changed.

    Prompts start blank (see ``clear_outputs``), so a ``[*]`` or ``[n]`` prompt means the
    run began. Should the command be dropped all the same, it is given a second chance.
    """
    for attempt in (1, 2):
        page.locator(RUN_MENU).first.click()
        item = page.locator(RUN_ALL_ITEM).first
        item.wait_for(state="visible", timeout=10_000)
        item.click()
        try:
            page.wait_for_function(
                "sel => [...document.querySelectorAll(sel)]"
                ".some(e => /\\[(\\*|\\d+)\\]/.test(e.textContent))",
                arg=f"{NOTEBOOK_PANEL} {CODE_CELL} {PROMPT}",
                timeout=start_timeout_ms,
                polling=100,
            )
            return
        except Exception:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")  # close the menu, should it still be open
            wait_kernel_idle(page, 60_000)


def prompts(page) -> list[str]:
    return page.eval_on_selector_all(
        f"{NOTEBOOK_PANEL} {CODE_CELL} {PROMPT}", "els => els.map(e => e.textContent.trim())"
    )


def wait_run_all_done(page, timeout_ms: int = 240_000) -> None:
    """Wait until no prompt reads ``[*]`` and every code cell ran (or an error stopped the run).

    Cells with an empty source keep their blank prompt, and a cell whose code is hidden (the
    exercises') has none; they are not waited on (the cells after them are).
    """
    page.wait_for_function(
        """([panel, cell, prompt, stderr, errsel]) => {
            const cells = [...document.querySelectorAll(`${panel} ${cell}`)];
            if (cells.length === 0) return false;
            let pending = false;
            for (const c of cells) {
                const p = c.querySelector(prompt);
                if (!p) continue;  // its code hidden (an exercise's): the cells after it tell
                const text = p.textContent;
                if (text.includes('*')) return false;
                const src = c.querySelector('.jp-InputArea-editor');
                const empty = src && src.textContent.trim() === '';
                if (!/\\[\\d+\\]/.test(text) && !empty) pending = true;
            }
            if (!pending) return true;
            // a failed cell aborts the rest of the queue: done, the caller reports the error
            const errs = [...document.querySelectorAll(`${panel} ${stderr}, ${panel} ${errsel}`)];
            return errs.some(e => e.textContent.includes('Traceback')
                || /^\\w*(Error|Exception)\\b/m.test(e.textContent)
                || /error/i.test(e.getAttribute('data-mime-type') || ''));
        }""",
        arg=[NOTEBOOK_PANEL, CODE_CELL, PROMPT, STDERR_OUTPUT, ERROR_OUTPUT],
        timeout=timeout_ms,
        polling=500,
    )


def error_outputs(page) -> list[str]:
    """Texts of outputs that show an exception, or a widget that failed to render."""
    texts = page.eval_on_selector_all(
        f"{NOTEBOOK_PANEL} {STDERR_OUTPUT}, {NOTEBOOK_PANEL} {ERROR_OUTPUT}",
        "els => els.map(e => e.textContent)",
    )
    bad = [t for t in texts if "Traceback" in t or re.search(r"^\w*(Error|Exception)\b", t, re.M)]
    widget_errors = page.eval_on_selector_all(
        f"{NOTEBOOK_PANEL} .jp-OutputArea-output",
        "(els, needle) => els.map(e => e.textContent).filter(t => t.includes(needle))",
        WIDGET_ERROR_TEXT,
    )
    return bad + widget_errors


# --------------------------------------------------------------------------- stand-in notebook

STANDIN_CODE = r"""
import io

import ipywidgets as widgets
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def render(k):
    fig, ax = plt.subplots(figsize=(4, 3), dpi=80)
    ax.bar(range(k), [1] * k, color=plt.cm.tab10.colors[:k] if k <= 10 else None)
    ax.set_title(f"{k} parts")
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


num_parts = widgets.BoundedIntText(
    value=4, min=2, max=16, description="parts", continuous_update=False
)
num_parts.add_class("graphpart-num-parts")
drawing = widgets.Image(value=render(4), format="png")
drawing.add_class("graphpart-drawing")
status = widgets.HTML("Ready")
status.add_class("graphpart-status")


def on_change(change):
    status.value = "Recomputing..."
    drawing.value = render(change["new"])
    status.value = "Ready"


num_parts.observe(on_change, names="value")
explorer = widgets.VBox([num_parts, status, drawing])
explorer.add_class("graphpart-explorer")
explorer
"""


def clear_outputs(path: Path) -> None:
    """Drop outputs and execution counts, so every prompt starts blank."""
    nb = json.loads(path.read_text())
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    path.write_text(json.dumps(nb, indent=1))


def write_code_notebook(path: Path, cells: list[str], intro: str | None = None) -> Path:
    """A notebook of the given code cells, after an ``intro`` markdown cell if given."""
    code = [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": f"c{i}",
            "metadata": {},
            "outputs": [],
            "source": source.strip(),
        }
        for i, source in enumerate(cells)
    ]
    markdown = [{"cell_type": "markdown", "id": "intro", "metadata": {}, "source": intro}]
    nb = {
        "cells": (markdown if intro else []) + code,
        "metadata": {
            "kernelspec": {
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
                "name": "python3",
            },
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb, indent=1))
    return path


def write_standin_notebook(path: Path) -> Path:
    """A notebook whose last cell shows a fake explorer with the same DOM contract."""
    return write_code_notebook(path, ["print('hello')", STANDIN_CODE], intro="# Stand-in")


@contextlib.contextmanager
def failure_shot(page, path: Path):
    """Save a screenshot of the whole page at ``path`` if the block fails, then fail."""
    try:
        yield
    except BaseException:
        try:
            page.screenshot(path=str(path), full_page=True)
        except Exception:
            pass
        raise


def run_notebook(page, lab: LabServer, name: str, timeout_ms: int = 180_000) -> None:
    """Open notebook ``name``, run all its cells, and check that none shows an error."""
    open_notebook(page, lab, name)
    run_all_cells(page)
    wait_run_all_done(page, timeout_ms=timeout_ms)
    errors = error_outputs(page)
    assert not errors, f"{name} shows errors:\n" + "\n---\n".join(errors)


def wheel_is_left_to_the_page(page, shot: Path) -> None:
    """The wheel alone over a view (the mouse on it) is left to the page, which scrolls at the
    first notch: no one cancels it (a view zooming would), no box in the view overflowing by a
    few pixels takes it, and the view says how to zoom."""
    page.evaluate(
        "() => { window.__wheels = []; addEventListener('wheel', e => __wheels.push(e), "
        "{capture: true}); }"
    )
    scroller = f"document.querySelector('{NOTEBOOK_PANEL} .jp-WindowedPanel-outer')"
    top, room = page.evaluate(
        f"() => [{scroller}.scrollTop, {scroller}.scrollHeight - {scroller}.clientHeight]"
    )
    page.mouse.wheel(0, 240)
    if room - top > 10:  # the first notch scrolls the page, not a box inside the view
        page.wait_for_timeout(500)
        taken = page.evaluate(
            f"() => [{scroller}.scrollTop, [...document.querySelectorAll('{NOTEBOOK_PANEL} *')]"
            ".filter(el => el.scrollTop > 0 && !el.matches('.jp-WindowedPanel-outer'))"
            ".map(el => el.className + ' ' + el.scrollHeight + '>' + el.clientHeight)]"
        )
        assert taken[0] > top and not taken[1], (top, taken)
    hint = page.locator(f"{NOTEBOOK_PANEL} .graphpart-wheel-hint").first
    hint.wait_for(state="visible", timeout=5_000)
    assert "Ctrl + wheel" in hint.inner_text()
    page.screenshot(path=str(shot))
    cancelled = page.evaluate("() => __wheels.map(e => e.defaultPrevented)")
    assert cancelled and not any(cancelled), cancelled

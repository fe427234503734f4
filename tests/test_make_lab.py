"""`make lab` starts a JupyterLab that answers on localhost, serving notebooks/."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.skipif(
    not (ROOT / ".venv" / "bin" / "jupyter").exists(), reason="no .venv: run `make test`"
)
def test_make_lab_answers_on_localhost():
    port = free_port()
    args = "--no-browser --ServerApp.ip=127.0.0.1 --IdentityProvider.token= --ServerApp.password="
    proc = subprocess.Popen(
        ["make", "-s", "lab", f"LAB_PORT={port}", f"LAB_ARGS={args}"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 90
        status = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=2) as r:
                    status = json.load(r)
                    break
            except OSError:
                time.sleep(0.5)
        assert status is not None, (
            proc.stdout.read().decode() if proc.poll() is not None else "no answer"
        )
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab", timeout=5) as r:
            assert r.status == 200 and b"JupyterLab" in r.read()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/contents", timeout=5) as r:
            listing = {c["name"] for c in json.load(r)["content"]}
        assert listing == {
            p.name for p in (ROOT / "notebooks").iterdir() if not p.name.startswith(".")
        }
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)

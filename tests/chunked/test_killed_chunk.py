"""A killed `graphpart chunk --dataset rmat` leaves its sort buckets beside the output and the
Dask workers' scratch in the temporary folder; both carry graphpart's owner marker, and the next
run on that output removes them (issue 61 item 9)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graphpart.fs.owner import read_owner


def graphpart_exe() -> str:
    exe = shutil.which("graphpart", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("the graphpart console script is not installed in this environment")
    return exe


def leftovers(root: Path, tmp: Path) -> list[Path]:
    """Hidden work folders beside the output and in the temporary folder."""
    return sorted(p for d in (root, tmp) for p in d.iterdir() if p.name.startswith("."))


def chunk(exe: str, out: Path, scale: int) -> list[str]:
    command = [exe, "chunk", "--dataset", "rmat", "--dataset-arg", f"scale={scale}"]
    return command + ["--out-dir", str(out), "--num-chunks", "2", "--workers", "1"]


def test_the_next_run_removes_what_a_killed_chunk_run_left(tmp_path):
    pytest.importorskip("distributed")
    exe = graphpart_exe()
    root, tmp = tmp_path / "work", tmp_path / "tmp"
    root.mkdir()
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    # 2**22 edges: drawn on a LocalCluster (one worker), in sort buckets beside the output
    run = subprocess.Popen(
        chunk(exe, root / "out", 18), env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            buckets = [p for p in root.glob(".out.*.tmp") if any(p.glob("[bd]*.*"))]
            scratch = list(tmp.glob(".graphpart-dask.*.tmp"))
            if buckets and scratch:
                break
            assert run.poll() is None, "the run ended before it was killed"
            time.sleep(0.02)
        else:
            pytest.fail("the run wrote no buckets in time")
        run.send_signal(signal.SIGKILL)  # mid-way: buckets written, chunks not yet
        run.wait()
    finally:
        time.sleep(1)
        try:  # the Dask worker processes it started, if they outlived it
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    left = leftovers(root, tmp)
    assert left, "the kill left nothing behind: the test proves nothing"
    assert all(read_owner(p) is not None for p in left), left  # graphpart's marker in each
    again = subprocess.run(
        chunk(exe, root / "out", 8), env=env, capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 0, again.stderr
    assert leftovers(root, tmp) == []
    assert sorted(p.name for p in root.iterdir()) == ["out"]

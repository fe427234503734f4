"""Run the real peers (DGL 2.1, PyG) in their own virtual environment, built by
tools/make_peer_env.sh.

Tests call :func:`run_peer` with a script under ``tests/interop/peer/``; the script writes what
the peer loaded into an ``.npz`` the test compares with graphpart's view. Where the venv is
missing or a peer does not import, the test is skipped with the reason.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).parent
PEER_DIR = HERE / "peer"
FIXTURES = HERE.parents[1] / "graphpart" / "datasets" / "peer_made"


def peer_venv() -> Path:
    default = (
        Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "graphpart" / "peer-venv"
    )
    return Path(os.environ.get("GRAPHPART_PEER_VENV", default))


@functools.lru_cache(maxsize=None)
def _missing(module: str) -> str | None:
    python = peer_venv() / "bin" / "python"
    if not python.exists():
        return (
            f"the peer venv {peer_venv()} does not exist; build it with tools/make_peer_env.sh "
            "(.ci/run does)"
        )
    proc = subprocess.run(
        [str(python), "-c", f"import {module}"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=300,
    )
    if proc.returncode:
        return f"{module} does not import in {peer_venv()}: {proc.stderr.strip().splitlines()[-1:]}"
    return None


def _env(extra: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update({"DGLBACKEND": "pytorch", "OMP_NUM_THREADS": "1"})
    env.update(extra or {})
    return env


def require(module: str) -> None:
    """Skip the calling test unless ``module`` imports in the peer venv."""
    reason = _missing(module)
    if reason:
        pytest.skip(reason)


def run_peer(
    script: str, *args: object, module: str = "dgl", env: dict | None = None, timeout: float = 600
) -> subprocess.CompletedProcess:
    """Run ``tests/interop/peer/<script>`` with the peer venv's python; fail the test on error."""
    require(module)
    python = peer_venv() / "bin" / "python"
    proc = subprocess.run(
        [str(python), str(PEER_DIR / script), *map(str, args)],
        capture_output=True,
        text=True,
        env=_env(env),
        timeout=timeout,
        cwd=str(PEER_DIR),
    )
    if proc.returncode == 77:  # the script found the machine unable to run it
        pytest.skip(
            proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else f"{script} skipped"
        )
    if proc.returncode:
        pytest.fail(
            f"peer script {script} failed "
            f"({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
        )
    return proc


def load_dump(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


if __name__ == "__main__":  # pragma: no cover - a manual check of the venv
    print(peer_venv(), _missing("dgl"), _missing("torch_geometric"), file=sys.stderr)

"""The memory a step may use is what every cgroup of its process leaves, its own first: a job in a
small cgroup is refused in one line, not killed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from graphpart.chunked.plan import cgroup_room


def _tree(tmp_path, version: int, limits: dict[str, str], usage: int, inactive: int):
    """A fake cgroup mount with the process in ``job`` under ``slice``; ``limits`` by folder."""
    limit_name, usage_name, inactive_name = {
        2: ("memory.max", "memory.current", "inactive_file"),
        1: ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"),
    }[version]
    root = tmp_path / "cg"
    mount = root if version == 2 else root / "memory"
    if version == 2:
        (root / "slice" / "job").mkdir(parents=True)
        (root / "cgroup.controllers").write_text("memory\n")
        proc = "0::/slice/job\n"
    else:
        (mount / "slice" / "job").mkdir(parents=True)
        proc = "4:memory:/slice/job\n2:cpu:/\n0::/\n"
    for folder, limit in limits.items():
        d = mount / folder if folder else mount
        (d / limit_name).write_text(limit + "\n")
        (d / usage_name).write_text(f"{usage}\n")
        (d / "memory.stat").write_text(f"active_file 5\n{inactive_name} {inactive}\n")
    (tmp_path / "cgroup").write_text(proc)
    return str(tmp_path / "cgroup"), str(root)


@pytest.mark.parametrize("version", [1, 2])
def test_the_job_s_own_cgroup_limit_counts_not_only_the_root_s(tmp_path, version):
    no_limit = "max" if version == 2 else "9223372036854771712"
    proc, root = _tree(
        tmp_path,
        version,
        {"": no_limit, "slice": str(8 << 30), "slice/job": str(250 << 20)},
        usage=100 << 20,
        inactive=20 << 20,
    )
    assert cgroup_room(proc, root) == (250 - 80) << 20


def test_without_a_limit_anywhere_there_is_no_cgroup_room(tmp_path):
    proc, root = _tree(tmp_path, 2, {"": "max", "slice": "max", "slice/job": "max"}, 1, 0)
    assert cgroup_room(proc, root) is None
    assert cgroup_room(str(tmp_path / "missing"), root) is None


def _own_memory_cgroup() -> Path | None:
    """A folder for a new memory cgroup under this process's own, where this machine lets us."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        hierarchy, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            base = Path("/sys/fs/cgroup/memory") / path.strip("/")
        elif hierarchy == "0" and Path("/sys/fs/cgroup/cgroup.controllers").is_file():
            base = Path("/sys/fs/cgroup") / path.strip("/")
        else:
            continue
        if os.access(base, os.W_OK):
            return base
    return None


def test_a_step_in_a_small_cgroup_is_refused_in_one_line(tmp_path):
    from graphpart.chunked import write_chunked
    from graphpart.datasets import rmat

    base = _own_memory_cgroup()
    if base is None:
        pytest.skip("no memory cgroup this user may create one under")
    write_chunked(rmat(10, seed=0), tmp_path / "c", 2)
    group = base / f"graphpart-test-{os.getpid()}"
    try:
        group.mkdir()
        limit = (
            "memory.limit_in_bytes" if (group / "memory.limit_in_bytes").exists() else "memory.max"
        )
        (group / limit).write_text(str(400 << 20))
    except OSError as e:
        pytest.skip(f"cannot make a memory cgroup here: {e}")
    try:
        cmd = [sys.executable, "-m", "graphpart.cli", "assign", "--in-dir", str(tmp_path / "c"),
               "--out-dir", str(tmp_path / "a"), "--num-parts", "2"]  # fmt: skip
        run = subprocess.run(
            ["sh", "-c", f'echo $$ > "{group}/cgroup.procs" && exec "$@"', "sh", *cmd],
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        group.rmdir()
    assert run.returncode == 2, run.stderr
    assert "of memory and" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "a").exists()

"""The memory a step may use is what every cgroup of its process leaves, its own first: a job in a
small cgroup is refused in one line, not killed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpart.utils.memory import cgroup_room


def _tree(
    tmp_path, version: int, limits: dict[str, str], usage: int, inactive: int, mount="memory",
    stat: str = "",
):  # fmt: skip
    """A fake cgroup mount with the process in ``job`` under ``slice``; ``limits`` by folder."""
    limit_name, usage_name, inactive_name = {
        2: ("memory.max", "memory.current", "inactive_file"),
        1: ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"),
    }[version]
    root = tmp_path / "cg"
    mount = root if version == 2 else root / mount
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
        (d / "memory.stat").write_text(f"{inactive_name} {inactive}\n{stat}")
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


def _in_cgroup(tmp_path, limit: int, cmd: list[str]) -> subprocess.CompletedProcess:
    """Run ``graphpart CMD`` in a new memory cgroup of ``limit`` bytes (skips where none can be
    made)."""
    base = _own_memory_cgroup()
    if base is None:
        pytest.skip("no memory cgroup this user may create one under")
    group = base / f"graphpart-test-{os.getpid()}-{len(cmd)}"
    try:
        group.mkdir()
        name = (
            "memory.limit_in_bytes" if (group / "memory.limit_in_bytes").exists() else "memory.max"
        )
        (group / name).write_text(str(limit))
    except OSError as e:
        pytest.skip(f"cannot make a memory cgroup here: {e}")
    try:
        return subprocess.run(
            ["sh", "-c", f'echo $$ > "{group}/cgroup.procs" && exec "$@"', "sh",
             sys.executable, "-m", "graphpart.cli", *map(str, cmd)],
            capture_output=True,
            text=True,
            timeout=300,
        )  # fmt: skip
    finally:
        group.rmdir()


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory):
    """A chunked R-MAT, its assignment and partitions, made outside any small cgroup."""
    from graphpart.chunked import assign, dispatch, write_chunked
    from graphpart.datasets import rmat

    root = tmp_path_factory.mktemp("cg-pipeline")
    write_chunked(rmat(10, seed=0), root / "c", 2)
    assign(root / "c", root / "a", 2, "fennel")
    dispatch(root / "c", root / "a", root / "p", workers=1, processes=False)
    return root


STEPS = {
    "assign (default metis)": lambda r, t: [
        "assign", "--in-dir", r / "c", "--out-dir", t / "out", "--num-parts", "2"],
    "assign fennel": lambda r, t: [
        "assign", "--in-dir", r / "c", "--out-dir", t / "out", "--num-parts", "2",
        "--algorithm", "fennel"],
    "assign random": lambda r, t: [
        "assign", "--in-dir", r / "c", "--out-dir", t / "out", "--num-parts", "2",
        "--algorithm", "random"],
    "dispatch": lambda r, t: [
        "dispatch", "--in-dir", r / "c", "--partitions-dir", r / "a", "--out-dir", t / "out"],
    "verify": lambda r, t: [
        "verify", r / "p" / "c.json", "--chunked-dir", r / "c", "--partitions-dir", r / "a"],
    "chunk rmat": lambda r, t: [
        "chunk", "--dataset", "rmat", "--dataset-arg", "scale=16", "--num-chunks", "2",
        "--out-dir", t / "out"],
    "chunk dcsbm": lambda r, t: [
        "chunk", "--dataset", "dcsbm", "--dataset-arg", "scale=16", "--num-chunks", "2",
        "--out-dir", t / "out"],
}  # fmt: skip


@pytest.mark.parametrize("step", STEPS)
def test_every_step_in_a_small_cgroup_is_refused_in_one_line(tmp_path, pipeline, step):
    """Each step checks its main process and every worker it starts against the memory really
    free (here a 400 MB cgroup) before it starts: refused in one line, exit 2, never killed."""
    run = _in_cgroup(tmp_path, 400 << 20, STEPS[step](pipeline, tmp_path))
    assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
    assert "of memory and" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


MB = 1 << 20


@pytest.mark.parametrize("version", [1, 2])
def test_page_cache_the_kernel_can_drop_counts_as_free(tmp_path, version):
    # a job that read a 700 MB file in a 1.2 GB cgroup: its pages are active, and droppable
    active = "active_file" if version == 2 else "total_active_file"
    proc, root = _tree(
        tmp_path, version, {"slice/job": str(1200 * MB)}, usage=900 * MB, inactive=0,
        stat=f"{active} {700 * MB}\n",
    )  # fmt: skip
    assert cgroup_room(proc, root) == 1000 * MB


@pytest.mark.parametrize("version", [1, 2])
def test_mapped_dirty_and_writeback_pages_are_not_free(tmp_path, version):
    names = (
        ("active_file", "file_mapped", "file_dirty", "file_writeback")
        if version == 2
        else ("total_active_file", "total_mapped_file", "total_dirty", "total_writeback")
    )
    stat = f"{names[0]} {700 * MB}\n" + "".join(f"{n} {100 * MB}\n" for n in names[1:])
    proc, root = _tree(
        tmp_path, version, {"slice/job": str(1200 * MB)}, usage=900 * MB, inactive=0, stat=stat
    )
    assert cgroup_room(proc, root) == (1200 - 900 + 400) * MB


def test_memory_high_below_memory_max_is_the_limit(tmp_path):
    proc, root = _tree(tmp_path, 2, {"slice/job": str(1000 * MB)}, usage=100 * MB, inactive=0)
    (tmp_path / "cg" / "slice" / "job" / "memory.high").write_text(f"{300 * MB}\n")
    assert cgroup_room(proc, root) == 200 * MB


def test_a_membership_path_climbing_out_of_the_mount_is_not_followed(tmp_path):
    proc, root = _tree(tmp_path, 2, {"slice/job": str(100 * MB)}, usage=0, inactive=0)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "memory.max").write_text(f"{MB}\n")  # would say 1 MB is all there is
    (tmp_path / "cgroup").write_text("0::/slice/../../elsewhere\n")
    assert cgroup_room(proc, root) is None


@pytest.mark.parametrize("mount", ["cpu,memory", "memory,cpuset"])
def test_a_v1_memory_controller_co_mounted_with_others_is_found(tmp_path, mount):
    proc, root = _tree(
        tmp_path, 1, {"slice/job": str(250 * MB)}, usage=100 * MB, inactive=0, mount=mount
    )
    (tmp_path / "cgroup").write_text(f"4:{mount}:/slice/job\n0::/\n")
    assert cgroup_room(proc, root) == 150 * MB
    # and where /proc/self/mountinfo says where it is mounted
    info = tmp_path / "mountinfo"
    info.write_text(
        f"35 31 0:32 / {tmp_path / 'cg' / mount} rw,relatime - cgroup cgroup rw,{mount}\n"
    )
    assert cgroup_room(proc, mountinfo=str(info)) == 150 * MB


def test_mountinfo_finds_a_container_whose_mount_root_is_its_own_cgroup(tmp_path):
    proc, _ = _tree(tmp_path, 2, {"": str(250 * MB)}, usage=50 * MB, inactive=0)
    info = tmp_path / "mountinfo"
    info.write_text(f"41 31 0:38 /slice/job {tmp_path / 'cg'} rw - cgroup2 cgroup2 rw\n")
    assert cgroup_room(proc, mountinfo=str(info)) == 200 * MB


def test_this_machine_s_cgroups_are_read_without_error():
    room = cgroup_room()
    assert room is None or room >= 0


_TEXT = st.one_of(
    st.text(max_size=40),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["max", "", "\n", "9223372036854771712", "-1", "1e9"]),
)


@settings(max_examples=150, deadline=None)
@given(
    limit=_TEXT, usage=_TEXT, stat=_TEXT, high=_TEXT, proc=_TEXT, version=st.sampled_from([1, 2])
)
def test_any_cgroup_file_contents_give_a_room_or_none(
    tmp_path_factory, limit, usage, stat, high, proc, version
):
    tmp = tmp_path_factory.mktemp("fuzz")
    procf, root = _tree(tmp, version, {"slice/job": "1"}, usage=0, inactive=0)
    job = Path(root) / ("" if version == 2 else "memory") / "slice" / "job"
    for name, text in zip(
        ("memory.max" if version == 2 else "memory.limit_in_bytes",
         "memory.current" if version == 2 else "memory.usage_in_bytes",
         "memory.stat", "memory.high"),
        (limit, usage, stat, high),
    ):  # fmt: skip
        (job / name).write_text(text)
    if proc:
        Path(procf).write_text(proc)
    room = cgroup_room(procf, root)
    assert room is None or (isinstance(room, int) and room >= 0)

"""atomic_dir without renameat2: a kill between the two renames loses nothing, and the work
folders of ended runs are removed, never a live run's or one graphpart did not mark."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import graphpart.fs.atomic as gio
import graphpart.fs.owner as owner
from graphpart.fs.atomic import atomic_dir, restore_output

ROOT = Path(__file__).resolve().parents[1]

#: A run of atomic_dir(argv[1]) writing v.txt = argv[2] without renameat2; with argv[3] == "kill"
#: it SIGKILLs itself right after the first of the two renames, with "wait" it stops inside
#: atomic_dir (prints "ready", waits for stdin to close).
RUN = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    import graphpart.fs.atomic as gio

    out, value, mode = sys.argv[1:]
    gio._exchange = lambda a, b: False
    real = os.rename

    def rename(src, dst):
        real(src, dst)
        if mode in ("kill", "partition") and Path(dst).name == gio.OLD:
            os.kill(os.getpid(), signal.SIGKILL)

    os.rename = rename
    if mode == "partition":
        import graphpart as gp
        from graphpart.datasets import load_karate_club

        gp.partition_graph(load_karate_club(), "k", 2, out, seed=1)
    else:
        with gio.atomic_dir(out) as tmp:
            (tmp / "v.txt").write_text(value)
            if mode == "wait":
                print("ready", flush=True)
                sys.stdin.read()
    """
)


def _run(out: Path, value: str, mode: str = "", **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-c", RUN, str(out), value, mode]
    return subprocess.Popen(cmd, env=env, text=True, **kw)


def _siblings(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name != out.name)


def _write(out: Path, value: str) -> None:
    with atomic_dir(out) as tmp:
        (tmp / "v.txt").write_text(value)


@pytest.fixture
def no_exchange(monkeypatch):
    monkeypatch.setattr(gio, "_exchange", lambda a, b: False)


@pytest.mark.parametrize("exchange", [True, False])
def test_replace_and_failure_with_and_without_exchange(tmp_path, monkeypatch, exchange):
    if not exchange:
        monkeypatch.setattr(gio, "_exchange", lambda a, b: False)
    out = tmp_path / "out"
    _write(out, "1")
    _write(out, "2")
    assert (out / "v.txt").read_text() == "2" and _siblings(out) == []
    with pytest.raises(RuntimeError), atomic_dir(out) as tmp:
        (tmp / "v.txt").write_text("3")
        raise RuntimeError
    assert (out / "v.txt").read_text() == "2" and _siblings(out) == []


def test_a_failed_second_rename_puts_the_earlier_output_back(tmp_path, no_exchange, monkeypatch):
    out = tmp_path / "out"
    _write(out, "old")
    real = os.rename

    def rename(src, dst):
        if Path(src).name == gio.NEW:
            raise OSError("refused")
        real(src, dst)

    monkeypatch.setattr(gio.os, "rename", rename)
    with pytest.raises(OSError, match="refused"):
        _write(out, "new")
    assert (out / "v.txt").read_text() == "old" and _siblings(out) == []


def _killed_between_the_renames(out: Path) -> Path:
    _write(out, "old")
    proc = _run(out, "new", "kill")
    assert proc.wait(timeout=120) == -9
    assert not out.exists()  # the window the two-rename fallback has
    (work,) = out.parent.glob(".out.*.tmp")
    assert (work / gio.OLD / "v.txt").read_text() == "old"
    return work


def test_a_kill_between_the_renames_is_undone_by_restore_output(tmp_path):
    out = tmp_path / "out"
    work = _killed_between_the_renames(out)
    assert restore_output(out / "graph.json")  # a reader's call: a file in the output
    assert (out / "v.txt").read_text() == "old"
    assert not restore_output(out)
    assert work.exists()  # readers restore, they do not clean up


def test_a_kill_between_the_renames_is_undone_by_the_next_run(tmp_path, no_exchange, caplog):
    out = tmp_path / "out"
    _killed_between_the_renames(out)
    with atomic_dir(out) as tmp:
        assert (out / "v.txt").read_text() == "old"  # back before the new run builds
        (tmp / "v.txt").write_text("next")
    assert (out / "v.txt").read_text() == "next" and _siblings(out) == []
    assert "restored" in caplog.text


@pytest.mark.parametrize("reader", ["open_partitions", "read_config"])
def test_opening_partitions_restores_them_after_a_kill(tmp_path, reader):
    import graphpart as gp
    from graphpart.datasets import load_karate_club
    from graphpart.storage import open_partitions, read_config

    out = tmp_path / "out"
    gp.partition_graph(load_karate_club(), "k", 2, out, seed=0)
    before = (out / "k.json").read_text()
    proc = _run(out, "", "partition")
    assert proc.wait(timeout=300) == -9 and not out.exists()
    if reader == "open_partitions":  # what load_partition and the metrics read through
        assert open_partitions(out / "k.json").num_parts == 2
    else:  # what chunked's load_orig_ids reads through
        assert read_config(out / "k.json").num_parts == 2
    assert (out / "k.json").read_text() == before
    with pytest.raises(gp.GraphpartError, match="does not exist"):  # nothing to restore
        gp.load_partition(tmp_path / "elsewhere" / "k.json", 0)


def test_stale_work_folders_go_but_a_live_runs_stay(tmp_path, no_exchange):
    out = tmp_path / "out"
    _write(out, "old")
    live = _run(out, "live", "wait", stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert live.stdout.readline() == "ready\n"
        (live_work,) = out.parent.glob(".out.*.tmp")
        _write(out, "mine")  # a run beside the live one leaves it alone
        assert live_work.exists() and (out / "v.txt").read_text() == "mine"
        live.kill()
        live.wait(timeout=60)
    finally:
        live.kill()
    unmarked = tmp_path / ".out.abcdefgh.tmp"  # a name like ours, without graphpart's marker
    unmarked.mkdir()
    legacy = tmp_path / ".out.ijklmnop.old"
    (legacy / "x").mkdir(parents=True)
    other = tmp_path / ".out.x.qrstuvwx.tmp"  # marked, for the output "out.x"
    other.mkdir()
    (other / owner.MARKER).write_text(
        (live_work / owner.MARKER).read_text().replace('"out"', '"out.x"')
    )
    _write(out, "after")
    assert (out / "v.txt").read_text() == "after"
    assert _siblings(out) == sorted([unmarked.name, legacy.name, other.name])


def _foreign(tmp_path: Path, machine: str, pid: int, start: int | None, old: bool) -> Path:
    work = tmp_path / ".out.zzzzzzzz.tmp"
    (work / gio.OLD).mkdir(parents=True, exist_ok=True)
    (work / gio.OLD / "v.txt").write_text("theirs")
    (work / owner.LOCK).touch()
    info = {"graphpart": "atomic_dir", "target": "out", "machine": machine, "pid": pid}
    (work / owner.MARKER).write_text(json.dumps({**info, "start": start}))
    if old:
        past = time.time() - 2 * owner.QUIET_S
        for name in (owner.LOCK, owner.MARKER):
            os.utime(work / name, (past, past))
    return work


def test_an_owner_on_another_machine_is_gone_only_unlocked_and_quiet(tmp_path):
    out = tmp_path / "out"
    work = _foreign(tmp_path, "elsewhere|boot|1", os.getpid(), None, old=False)
    assert not restore_output(out) and work.exists()  # lock free, but recently touched
    work = _foreign(tmp_path, "elsewhere|boot|1", os.getpid(), None, old=True)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys; f = open(sys.argv[1], 'r+'); fcntl.lockf(f, fcntl.LOCK_EX); "
            "print('locked', flush=True); sys.stdin.read()",
            str(work / owner.LOCK),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "locked\n"
        assert not restore_output(out) and (work / gio.OLD).exists()  # quiet, but locked
    finally:
        holder.kill()
        holder.wait(timeout=60)
    assert restore_output(out) and (out / "v.txt").read_text() == "theirs"
    _write(out, "mine")
    assert _siblings(out) == []


def test_a_reused_pid_is_not_the_owner(tmp_path):
    me = owner.identity()
    if me["start"] is None:
        pytest.skip("no /proc: start times unknown")
    work = _foreign(tmp_path, me["machine"], me["pid"], me["start"], old=False)
    assert not owner.owner_gone(work, owner.read_owner(work))  # this very process
    work = _foreign(tmp_path, me["machine"], me["pid"], me["start"] - 1, old=False)
    assert owner.owner_gone(work, owner.read_owner(work))  # an earlier process, same pid
    assert restore_output(tmp_path / "out")


def test_a_claim_holds_its_lock_and_beats(tmp_path, monkeypatch):
    monkeypatch.setattr(owner, "HEARTBEAT_S", 0.05)
    claim = owner.Claim(tmp_path, "out")
    try:
        past = time.time() - 1000
        os.utime(tmp_path / owner.LOCK, (past, past))
        time.sleep(0.5)
        assert time.time() - os.stat(tmp_path / owner.LOCK).st_mtime < 100
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "import fcntl, sys; f = open(sys.argv[1], 'r+'); "
                "fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)",
                str(tmp_path / owner.LOCK),
            ],
            capture_output=True,
        )
        assert probe.returncode != 0  # held by this process
    finally:
        claim.release()


def _dead_work(tmp_path: Path) -> Path:
    """A work folder for ``out`` whose marker names a process of this machine that has ended."""
    me = owner.identity()
    return _foreign(tmp_path, me["machine"], 2**22 - 1, None, old=False)


@pytest.mark.skipif(os.geteuid() != 0, reason="planting another user's folder needs root")
def test_another_users_work_folder_is_neither_adopted_nor_removed(tmp_path):
    work = _dead_work(tmp_path)
    (work / gio.NEW).mkdir()
    for p in [work, *work.rglob("*")]:
        os.lchown(p, 65534, 65534)
    with atomic_dir(tmp_path / "out", resume=True) as tmp:
        assert list(tmp.iterdir()) == []  # a fresh folder, not theirs
    assert (work / gio.OLD / "v.txt").read_text() == "theirs"


def test_a_dead_runs_old_output_that_is_a_link_is_not_restored(tmp_path):
    work = _dead_work(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(work / gio.OLD, elsewhere)
    (work / gio.OLD).symlink_to(elsewhere)
    assert not restore_output(tmp_path / "out")
    assert not os.path.lexists(tmp_path / "out")
    assert (elsewhere / "v.txt").read_text() == "theirs"

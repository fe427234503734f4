"""dispatch --resume: a killed run's state is an input from the past. Whatever of it is swapped,
truncated, emptied or replaced (a same-size file of another run, its times kept), the resume
equals a clean run: what checks is kept, the rest redone."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys

import pytest

import graphpart as gp
from graphpart.chunked import assign, verify, write_chunked

d = importlib.import_module("graphpart.chunked.dispatch")
r = importlib.import_module("graphpart.chunked._resume")

_KILL_AT_PART_2 = """
import importlib, os, sys
d = importlib.import_module("graphpart.chunked.dispatch")
r = importlib.import_module("graphpart.chunked._resume")
real = r.build_part
def build_part(*args):
    if args[1] == 2:
        os._exit(9)  # as the kernel's OOM killer would: no cleanup at all
    return real(*args)
r.build_part = build_part
d.dispatch(sys.argv[1], sys.argv[2], sys.argv[3], workers=1, processes=False)
"""

GRAPH = "fused_csc_sampling_graph.pt"


def _arrays(path):
    from graphpart.interop.graphbolt import load_graphbolt

    gb = load_graphbolt(path)
    named = {"indptr": gb.indptr, "indices": gb.indices}
    named.update({f"n/{k}": v for k, v in gb.node_attributes.items()})
    named.update({f"e/{k}": v for k, v in gb.edge_attributes.items()})
    return {k: v.tolist() for k, v in named.items() if v is not None}


@pytest.fixture(scope="module")
def killed(tmp_path_factory):
    """A chunked graph, its assignment, a clean run's output, and a run killed at partition 2
    (partitions 0 and 1 finished)."""
    root = tmp_path_factory.mktemp("resume")
    write_chunked(gp.datasets.rmat(10, seed=0, feat_dim=2), root / "ch", 3)
    assign(root / "ch", root / "asg", 4, "fennel")
    d.dispatch(root / "ch", root / "asg", root / "fresh", workers=1, processes=False)
    args = [str(root / x) for x in ("ch", "asg", "out")]
    run = subprocess.run([sys.executable, "-c", _KILL_AT_PART_2, *args], capture_output=True)
    assert run.returncode == 9, run.stderr.decode()[-2000:]
    return root


@pytest.fixture
def state(killed, tmp_path, monkeypatch):
    """A copy of the killed state; ``state.resume()`` resumes it and returns the partitions it
    built."""
    shutil.copytree(killed, tmp_path / "s", symlinks=True)
    root = tmp_path / "s"
    (work,) = [p for p in root.iterdir() if p.name.startswith(".out.")]
    built = []
    real = r.build_part
    monkeypatch.setattr(r, "build_part", lambda *a: built.append(a[1]) or real(*a))

    class State:
        new = work / "new"

        @staticmethod
        def resume(**kw):
            cfg = d.dispatch(
                root / "ch", root / "asg", root / "out", workers=1, processes=False, resume=True,
                **kw,
            )  # fmt: skip
            return cfg, sorted(built)

        @staticmethod
        def assert_clean(cfg):
            assert verify(cfg, root / "ch", root / "asg").ok
            assert not any(p.name.startswith(".out.") for p in root.iterdir())
            assert not list((root / "out").rglob(r.DONE))
            for p in range(4):
                assert _arrays(cfg.parent / f"part{p}" / GRAPH) == _arrays(
                    root / "fresh" / f"part{p}" / GRAPH
                )

    State.root = root
    return State


def test_a_killed_dispatch_resumes_without_redoing_finished_partitions(state):
    assert (state.new / "part1" / r.DONE).is_file()
    cfg, built = state.resume()
    assert built == [2, 3]
    state.assert_clean(cfg)


def _same_size_other_bytes(path):
    st = os.stat(path)
    b = bytearray(path.read_bytes())
    b[len(b) // 2] ^= 0xFF
    path.write_bytes(bytes(b))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # as cp -p, tar or touch -r keep them


def _marker(state, p=1):
    return state.new / f"part{p}" / r.DONE


def _rewrite(state, edit):
    m = json.loads(_marker(state).read_text())
    edit(m)
    _marker(state).write_text(json.dumps(m))


FILE_FAULTS = {
    "deleted": lambda f: f.unlink(),
    "emptied": lambda f: f.write_bytes(b""),
    "truncated": lambda f: f.write_bytes(f.read_bytes()[:100]),
    "same size, times kept": _same_size_other_bytes,
}


@pytest.mark.parametrize("fault", FILE_FAULTS)
def test_a_finished_partition_whose_file_changed_is_redone(state, fault):
    FILE_FAULTS[fault](state.new / "part1" / GRAPH)
    cfg, built = state.resume()
    assert built == [1, 2, 3]
    state.assert_clean(cfg)


def test_an_extra_file_in_a_finished_partition_is_redone(state):
    (state.new / "part1" / "node_feat.dgl.bak").write_bytes(b"x")
    cfg, built = state.resume()
    assert built == [1, 2, 3]
    state.assert_clean(cfg)


MARKER_FAULTS = {
    "emptied": lambda s: _marker(s).write_bytes(b""),
    "truncated": lambda s: _marker(s).write_bytes(_marker(s).read_bytes()[:40]),
    "binary": lambda s: _marker(s).write_bytes(bytes(range(256))),
    "a list": lambda s: _marker(s).write_text("[]"),
    "the old shape": lambda s: _marker(s).write_text('{"nodes": 1, "halo_nodes": 0, "edges": 2}'),
    "no files": lambda s: _rewrite(s, lambda m: m.pop("files")),
    "a bool count": lambda s: _rewrite(s, lambda m: m["stats"].update(nodes=True)),
    "a negative count": lambda s: _rewrite(s, lambda m: m["stats"].update(edges=-1)),
    "a short key": lambda s: _rewrite(s, lambda m: m.update(key="ab")),
    "another part's id": lambda s: _rewrite(s, lambda m: m.update(part=0)),
    "a file's size": lambda s: _rewrite(s, lambda m: m["files"][GRAPH].__setitem__(0, 1)),
    "deep": lambda s: _marker(s).write_text("[" * 100_000 + "]" * 100_000),
    "a folder": lambda s: (_marker(s).unlink(), _marker(s).mkdir()),
}


@pytest.mark.parametrize("fault", MARKER_FAULTS)
def test_a_damaged_marker_means_its_partition_is_redone(state, fault):
    MARKER_FAULTS[fault](state)
    cfg, built = state.resume()
    assert built == [1, 2, 3]
    state.assert_clean(cfg)


def test_swapped_finished_partitions_are_redone(state):
    """Each folder is whole with its own marker, but in the other's place."""
    os.rename(state.new / "part0", state.new / "x")
    os.rename(state.new / "part1", state.new / "part0")
    os.rename(state.new / "x", state.new / "part1")
    cfg, built = state.resume()
    assert built == [0, 1, 2, 3]
    state.assert_clean(cfg)


def test_a_chunk_replaced_with_the_same_size_and_times_starts_over(state):
    """The key is the chunks' bytes, not their paths, sizes and times."""
    chunk = sorted((state.root / "ch" / "edges").iterdir())[0]
    st = os.stat(chunk)
    lines = chunk.read_bytes().splitlines(keepends=True)
    i, j = next(
        (i, j)
        for i in range(9)
        for j in range(9)
        if lines[i] != lines[j] and len(lines[i]) == len(lines[j])
    )
    lines[i], lines[j] = lines[j], lines[i]  # two edges swapped: the same bytes, other edge ids
    chunk.write_bytes(b"".join(lines))
    os.utime(chunk, ns=(st.st_atime_ns, st.st_mtime_ns))
    cfg, built = state.resume()
    assert built == [0, 1, 2, 3]
    assert verify(cfg, state.root / "ch", state.root / "asg").ok


def test_resume_with_another_assignment_starts_over(state):
    assign(state.root / "ch", state.root / "asg", 4, "ldg")  # another assignment, same folder
    cfg, built = state.resume()
    assert built == [0, 1, 2, 3]
    assert verify(cfg, state.root / "ch", state.root / "asg").ok


def test_resume_with_other_options_starts_over(state):
    cfg, built = state.resume(num_hops=0)
    assert built == [0, 1, 2, 3]
    assert verify(cfg, state.root / "ch", state.root / "asg").ok


def test_stray_work_of_the_killed_run_is_removed(state):
    (state.new / "part9").mkdir()
    (state.new / "part9" / r.DONE).write_text("{}")
    (state.new / "stray.bin").write_bytes(b"x")
    cfg, built = state.resume()
    assert built == [2, 3]
    state.assert_clean(cfg)
    kept = sorted(p.name for p in cfg.parent.iterdir() if not p.name.startswith("part"))
    assert kept == [cfg.name, "edge_counts"]


def _victim(root):
    victim = root / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("precious")
    return victim


def test_a_planted_link_for_new_is_refused_and_its_target_untouched(state):
    """A dead run's ``new`` that is a link (planted beside a marker naming a dead process) would
    have had every file in its target deleted as a leftover, and the partitions written there."""
    victim = _victim(state.root)
    shutil.rmtree(state.new)
    state.new.symlink_to(victim)
    with pytest.raises(gp.GraphpartError, match="symbolic link"):
        state.resume()
    assert sorted(p.name for p in victim.iterdir()) == ["keep.txt"]
    assert not (state.root / "out").exists()


def test_a_finished_file_replaced_by_a_link_is_refused(state):
    f = state.new / "part1" / GRAPH
    f.unlink()
    f.symlink_to(state.new / "part0" / GRAPH)
    with pytest.raises(gp.GraphpartError, match="symbolic link"):
        state.resume()


def test_a_link_deep_in_the_dead_runs_folder_is_refused(state):
    victim = _victim(state.root)
    (state.new / "part3").mkdir(exist_ok=True)
    (state.new / "part3" / "inner").symlink_to(victim)
    with pytest.raises(gp.GraphpartError, match="symbolic link"):
        state.resume()
    assert (victim / "keep.txt").read_text() == "precious"


def test_a_hard_link_in_the_dead_runs_folder_is_refused(state):
    victim = _victim(state.root)
    os.link(victim / "keep.txt", state.new / "part0" / "keep.txt")
    with pytest.raises(gp.GraphpartError, match="2 names"):
        state.resume()
    assert (victim / "keep.txt").read_text() == "precious"


def test_the_inputs_key_reads_no_file_of_the_assignment_again(tmp_path, monkeypatch):
    """The key hashes the assignment as dispatch read it: walking every file under
    --partitions-dir again cost a second pass over N lines of text, resume or not."""
    write_chunked(gp.datasets.rmat(8, seed=0), tmp_path / "ch", 2)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "fennel")
    monkeypatch.setattr(
        r, "folder_digests", lambda folder, **k: pytest.fail(f"walked {folder}")
        if os.path.samefile(folder, tmp_path / "asg") else {}
    )  # fmt: skip
    d.dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", workers=1, processes=False)

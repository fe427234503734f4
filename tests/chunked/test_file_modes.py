"""Every file and folder graphpart writes gets the mode the user's umask gives (issue 61):
``0666 & ~umask`` for files, ``0777 & ~umask`` for folders, never ``tempfile``'s 0600, so
trainers running as another user can read their partition."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import graphpart as gp
from graphpart.chunked import assign, dispatch, write_chunked
from graphpart.datasets import load_karate_club


@pytest.fixture(params=[0o022, 0o077], ids=["umask022", "umask077"])
def umask(request):
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def wrong_modes(root: Path, umask: int) -> list[str]:
    """Every path under ``root`` (itself included) whose mode is not what ``umask`` gives."""
    bad = []
    for path in [root, *root.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        want = (0o777 if path.is_dir() else 0o666) & ~umask
        if mode != want:
            bad.append(f"{path.relative_to(root)}: {oct(mode)} (want {oct(want)})")
    return bad


@pytest.mark.parametrize("format", ["graphpart", "dgl", "graphbolt"])
def test_partition_graph_output_follows_the_umask(tmp_path, umask, format):
    out = tmp_path / "out"
    gp.partition_graph(load_karate_club(), "k", 2, out, seed=0, return_mapping=True, format=format)
    assert wrong_modes(out, umask) == []


@pytest.mark.parametrize("format", ["graphbolt", "dgl"])
def test_chunked_dispatch_output_follows_the_umask(tmp_path, umask, format):
    write_chunked(load_karate_club(), tmp_path / "ch", 2)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, workers=1)
    dispatch(
        tmp_path / "ch",
        tmp_path / "asg",
        tmp_path / "out",
        format=format,
        save_orig_nids=True,
        save_orig_eids=True,
        workers=1,
    )
    for name in ("ch", "asg", "out"):
        assert wrong_modes(tmp_path / name, umask) == [], name

"""`graphpart verify` of dispatch's default (GraphBolt) output works without --partitions-dir:
dispatch records the assignment it read, verify uses it while it is there unchanged (issue 61)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from graphpart import GraphpartError
from graphpart.chunked import assign, dispatch, verify, write_assignment, write_chunked
from graphpart.cli import main
from graphpart.datasets import load_karate_club


@pytest.fixture
def written(tmp_path):
    write_chunked(load_karate_club(), tmp_path / "ch", 2)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, workers=1)
    cfg = dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", workers=1)
    return tmp_path, cfg


def test_the_plain_command_verifies_graphbolt_output(written, capsys):
    tmp_path, cfg = written
    assert main(["verify", str(cfg), "--chunked-dir", str(tmp_path / "ch")]) == 0
    assert "OK" in capsys.readouterr().out


def test_an_output_moved_with_its_assignment_still_verifies(written):
    tmp_path, _ = written
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    for name in ("out", "asg"):
        shutil.move(tmp_path / name, moved / name)
    assert verify(moved / "out" / "ch.json", tmp_path / "ch").ok


@pytest.mark.parametrize("how", ["removed", "changed"])
def test_a_missing_or_changed_assignment_is_not_used(written, how):
    tmp_path, cfg = written
    shutil.rmtree(tmp_path / "asg")
    if how == "changed":  # another assignment at the same place: its ids would be wrong
        write_assignment(tmp_path / "asg", {"_N": np.arange(34) % 2}, 2, "custom")
    with pytest.raises(GraphpartError, match="give the assignment it was written from"):
        verify(cfg, tmp_path / "ch")


def test_dispatch_records_each_edge_chunks_counts_and_verify_reads_the_chunks_once(
    written, monkeypatch
):
    """GraphBolt's edges are keyed by new ids, whose offsets come from each chunk's owned edges:
    dispatch records them, so verify reads the chunks once, not twice."""
    import importlib

    tmp_path, cfg = written
    record = np.load(cfg.parent / "edge_counts" / "chunks.npy")
    assert record.shape == (2, 3)  # 2 chunks: rows, then the edges each of 2 partitions owns
    assert record[:, 0].sum() == 156 and (record[:, 0] == record[:, 1:].sum(axis=1)).all()
    verify_module = importlib.import_module("graphpart.chunked.verify")

    def no_counting_pass(*args):
        raise AssertionError("a pass to count the chunks' edges")

    monkeypatch.setattr(verify_module, "_owned_counts", no_counting_pass)
    assert verify(cfg, tmp_path / "ch").ok


@pytest.mark.parametrize("how", ["wrong counts", "wrong shape", "removed"])
def test_a_wrong_record_of_the_counts_costs_a_pass_never_the_verdict(written, how, caplog):
    tmp_path, cfg = written
    path = cfg.parent / "edge_counts" / "chunks.npy"
    record = np.load(path)
    if how == "wrong counts":  # an edge moved to the other partition's count
        record[0, 1:] += [1, -1]
        np.save(path, record)
    elif how == "wrong shape":
        np.save(path, record[:, :2])
    else:
        path.unlink()
    assert verify(cfg, tmp_path / "ch").ok
    assert ("differs from the chunks" in caplog.text) == (how == "wrong counts")

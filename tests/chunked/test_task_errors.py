"""Errors inside Dask tasks reach the user as one GraphpartError: bad input from a worker without
a worker traceback in the log, and a worker killed for memory as a sentence that says which
partition, how much memory, and what to do."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

import graphpart as gp
from graphpart.chunked import ClusterOptions, assign, write_chunked
from graphpart.chunked._dask import run_tasks
from graphpart.chunked.dispatch import dispatch
from graphpart.datasets import load_karate_club


def _refuse(x):
    raise gp.GraphpartError(f"chunk {x} is bad")


def test_a_graphpart_error_in_a_task_is_raised_without_a_worker_traceback(dask_client, caplog):
    with caplog.at_level(logging.WARNING), pytest.raises(gp.GraphpartError, match="chunk 1 is bad"):
        run_tasks(dask_client, _refuse, [(1,), (2,)], False, "refuse")
    assert not [r for r in caplog.records if "Compute Failed" in r.getMessage()]


@pytest.mark.parametrize("fmt", ["graphpart", "dgl"])
def test_a_killed_worker_names_the_partition_its_size_and_what_to_do(
    fmt, tmp_path, dask_client, monkeypatch
):
    from distributed import Future, KilledWorker

    write_chunked(load_karate_club(), tmp_path / "ch", 2)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "random", seed=0, client=dask_client)
    real_result = Future.result

    def result(self, *args, **kwargs):
        if self.key.startswith("write-partitions") and self.key.endswith("-1"):
            raise KilledWorker(self.key, "tcp://127.0.0.1:1", 3)
        return real_result(self, *args, **kwargs)

    monkeypatch.setattr(Future, "result", result)
    with pytest.raises(gp.GraphpartError) as e:
        dispatch(
            tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client, format=fmt
        )
    message = str(e.value)
    assert message.startswith("partition 1 did not fit in a Dask worker:")
    assert "worker memory limit is" in message and "--memory-limit" in message
    if fmt == "graphpart":  # written out of core: the partition's size is not what matters
        assert "out of core needs about" in message and "whatever its size" in message
    else:
        assert "edges need about" in message and "more partitions" in message
        assert "--balance-edges" in message
    assert not (tmp_path / "out").exists()


def test_the_cli_prints_one_line_for_a_bad_chunk_on_a_dask_cluster(tmp_path):
    write_chunked(load_karate_club(), tmp_path / "ch", 2)
    edge = sorted((tmp_path / "ch" / "edges").iterdir())[0]
    lines = edge.read_text().splitlines()
    edge.write_text("\n".join(["0 99"] + lines[1:]) + "\n")
    (tmp_path / "asg").mkdir()
    (tmp_path / "asg" / "_N.txt").write_text("0\n1\n" * 17)
    run = subprocess.run(
        [sys.executable, "-m", "graphpart.cli", "dispatch", "--in-dir", str(tmp_path / "ch")]
        + ["--partitions-dir", str(tmp_path / "asg"), "--out-dir", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 2, run.stderr[-2000:]
    assert run.stderr.strip().splitlines() == [
        f"graphpart: error: {edge}: destination id 99 is out of range for node type '_N', "
        "which has 34 nodes"
    ], run.stderr[-3000:]


def test_dispatch_refuses_before_any_task_when_a_worker_cannot_hold_a_partition(tmp_path):
    g = gp.datasets.rmat(10, seed=0)
    write_chunked(g, tmp_path / "ch", 2)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "fennel")
    with pytest.raises(
        gp.GraphpartError, match=r"dispatch phase \d needs about [0-9.]+ [KMG]?B per Dask"
    ):
        dispatch(
            tmp_path / "ch",
            tmp_path / "asg",
            tmp_path / "out",
            workers=1,
            processes=False,
            memory_limit="500MB",  # a worker starts, but phase 2 needs about 0.7 GB
        )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("step", ["assign", "dispatch"])
def test_a_memory_limit_no_worker_can_start_under_is_one_line_at_once(tmp_path, step):
    import time

    write_chunked(gp.datasets.rmat(6, seed=0), tmp_path / "ch", 2)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "fennel")
    t = time.monotonic()
    with pytest.raises(gp.GraphpartError, match="memory_limit '1KB' is below what a Dask worker"):
        if step == "assign":
            assign(tmp_path / "ch", tmp_path / "a2", 2, "random", memory_limit="1KB")
        else:
            dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", memory_limit="1KB")
    assert time.monotonic() - t < 10 and not (tmp_path / "out").exists()


def test_assign_metis_refuses_in_one_line_when_the_edges_cannot_fit(tmp_path, monkeypatch):
    from graphpart.utils import memory

    write_chunked(gp.datasets.rmat(10, seed=0), tmp_path / "ch", 2)
    monkeypatch.setattr(memory, "available_memory", lambda: 100 << 20)
    with pytest.raises(gp.GraphpartError, match="metis on 1,024 nodes .* --algorithm fennel"):
        assign(tmp_path / "ch", tmp_path / "asg", 2, "metis")
    assert not (tmp_path / "asg").exists()


def test_dask_warnings_go_to_a_log_file_that_is_named_at_the_end(caplog, capfd):
    from graphpart.chunked._dask import dask_client

    with (
        caplog.at_level(logging.INFO, logger="graphpart"),
        dask_client(ClusterOptions(workers=1, processes=False)),
    ):
        logging.getLogger("distributed.nanny").warning("Restarting worker (planted)")
    assert "Restarting worker" not in capfd.readouterr().err  # off the terminal
    line = next(r.getMessage() for r in caplog.records if "Dask logged" in r.getMessage())
    path = line.rsplit("see ", 1)[1]
    assert "1 warning(s)" in line and "Restarting worker (planted)" in open(path).read()


def test_a_quiet_cluster_writes_no_log_file(caplog):
    from graphpart.chunked._dask import dask_client

    with (
        caplog.at_level(logging.INFO, logger="graphpart"),
        dask_client(ClusterOptions(workers=1, processes=False)),
    ):
        pass
    assert not [r for r in caplog.records if "Dask logged" in r.getMessage()]

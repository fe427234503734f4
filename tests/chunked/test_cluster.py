"""Dispatch on a real multi-process Dask cluster: `dask scheduler` + two `dask worker` processes on
127.0.0.1.

One test runs against the cluster by address; another kills a worker while the
run is under way and checks the output is still complete and correct.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import graphpart as gp
from graphpart.chunked import dispatch, verify, write_assignment, write_chunked
from graphpart.datasets import sbm

from ..helpers import LIKE_PARTITION_GRAPH, assert_same_partitions

DASK = Path(sys.executable).parent / "dask"
pytestmark = pytest.mark.skipif(
    not DASK.exists(), reason=f"the dask command is not installed at {DASK}"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two single-threaded workers (no nanny: a killed worker stays dead)."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "5"}
    logs = tmp_path / "logs"
    logs.mkdir()
    procs = [
        subprocess.Popen(
            [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=open(logs / "scheduler", "w"),
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    ]
    for i in range(2):
        procs.append(
            subprocess.Popen(
                [
                    str(DASK),
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--no-dashboard",
                    "--name",
                    f"w{i}",
                    "--memory-limit",
                    "2GB",
                ],
                stdout=open(logs / f"worker{i}", "w"),
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        )
    from distributed import Client

    deadline = time.monotonic() + 60
    while True:
        try:
            with Client(address, timeout="5s") as c:
                if len(c.scheduler_info()["workers"]) == 2:
                    break
        except OSError:
            pass
        if time.monotonic() > deadline:
            pytest.fail(
                "the Dask cluster did not start: " + (logs / "scheduler").read_text()[-2000:]
            )
        time.sleep(0.5)
    yield address, procs
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        p.wait()


def _graph_and_assignment(tmp_path, num_chunks: int, block: int):
    g = sbm(block_sizes=[block] * 4, p_in=0.02, p_out=0.001, seed=1, feat_dim=8, train_frac=0.2)
    write_chunked(g, tmp_path / "ch", num_chunks, graph_name="g")
    parts = {"_N": np.random.default_rng(0).integers(0, 3, g.num_nodes())}
    write_assignment(tmp_path / "asg", parts, 3, "custom")
    gp.partition_graph(g, "g", 3, tmp_path / "mem", part_method=parts["_N"])
    return g


def test_dispatch_on_a_scheduler_by_address(cluster, tmp_path):
    address, _ = cluster
    _graph_and_assignment(tmp_path, 6, 300)
    cfg = dispatch(
        tmp_path / "ch",
        tmp_path / "asg",
        tmp_path / "out",
        scheduler=address,
        **LIKE_PARTITION_GRAPH,
    )
    assert_same_partitions(cfg, tmp_path / "mem" / "g.json")
    assert verify(cfg, tmp_path / "ch").ok


def test_killing_a_worker_mid_run_still_gives_the_full_output(cluster, tmp_path):
    address, procs = cluster
    _graph_and_assignment(tmp_path, 48, 2000)
    victim = procs[2]
    killed = threading.Event()

    def kill_when_running() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed.is_set():
            # The run is under way once the first pieces appear in the temporary sibling of the
            # output.
            if any(
                p.name.endswith(".npz") for d in tmp_path.glob(".out.*") for p in d.rglob("*.npz")
            ):
                os.killpg(victim.pid, signal.SIGKILL)
                killed.set()
                return
            time.sleep(0.01)

    watcher = threading.Thread(target=kill_when_running)
    watcher.start()
    cfg = dispatch(
        tmp_path / "ch",
        tmp_path / "asg",
        tmp_path / "out",
        scheduler=address,
        **LIKE_PARTITION_GRAPH,
    )
    watcher.join()
    assert killed.is_set() and victim.wait(10) is not None  # the worker really died during the run
    assert_same_partitions(cfg, tmp_path / "mem" / "g.json")
    assert verify(cfg, tmp_path / "ch").ok
    leftovers = [
        p for p in (tmp_path / "out").rglob("*") if p.name.startswith(".") or p.name == "_work"
    ]
    assert leftovers == []


def test_a_local_cluster_leaves_nothing_in_the_temporary_folder(tmp_path):
    """Dask's workers left <tmp>/dask-scratch-space (locks, spill folders) after every run."""
    ch = write_chunked(sbm([30, 30], 0.2, 0.01, seed=0), tmp_path / "ch", 2).parent
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    cmd = [sys.executable, "-m", "graphpart.cli", "assign", "--in-dir", str(ch)]
    cmd += ["--num-parts", "2", "--out-dir", str(tmp_path / "asg"), "--workers", "1"]
    cmd += ["--algorithm", "random"]  # on a LocalCluster
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert [p.name for p in tmp.iterdir() if not p.name.endswith(".log")] == []


def _malloc_env() -> dict:
    return {k: os.environ.get(k) for k in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")}


def test_local_cluster_workers_allocate_from_the_heap_up_to_32_mib(monkeypatch):
    """Dask's nannies set MALLOC_TRIM_THRESHOLD_ alone, which pins glibc's mmap threshold at
    128 KiB: every temporary array was mapped afresh (numpy 1.3-3x slower in the workers)."""
    from graphpart.chunked._dask import dask_client
    from graphpart.chunked.cluster import ClusterOptions

    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    with dask_client(ClusterOptions.of(None, workers=1)) as c:
        found = list(c.run(_malloc_env).values())
    assert found == [
        {"MALLOC_MMAP_THRESHOLD_": str(1 << 25), "MALLOC_TRIM_THRESHOLD_": str(1 << 26)}
    ]

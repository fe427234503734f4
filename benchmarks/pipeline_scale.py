"""The chunked pipeline at scale, side by side with the in-memory partition_graph, in one run.

R-MAT (default scale 22, edge factor 10: ~4M nodes, ~41M edges) with 32-dim
float32 node features and a train mask, chunked into 16 chunks (CSV edges,
numpy features; then again in parquet). Runs, on a LocalCluster of 2 worker
processes with a 3 GB memory limit each:

* ``assign`` random (on Dask) and Fennel (one streaming pass, in the driver);
* ``dispatch`` with the random assignment, polling each worker's RSS;
* the in-memory ``load_chunked`` + ``partition_graph`` with the same assignment,
  in a fresh process (its peak RSS from ``getrusage``), whose config must equal
  the pipeline's, and partition 0's edges too;
* edge cuts of random vs Fennel at this scale, and random vs Fennel vs METIS at
  ``--metis-scale`` (where METIS fits comfortably).

Usage: ``.venv/bin/python benchmarks/pipeline_scale.py [--scale 22] [--edge-factor 10]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

MiB = 1 << 20


def prepare(scale: int, edge_factor: int, out: Path, chunks: int, fmt: str) -> None:
    from graphpart.chunked import write_chunked
    from graphpart.datasets import rmat

    g = rmat(scale, edge_factor, seed=0, feat_dim=32, train_frac=0.1)
    write_chunked(
        g,
        out,
        chunks,
        graph_name="rmat",
        edge_format=fmt,
        node_data_format="numpy" if fmt == "csv" else fmt,
        edge_data_format="numpy",
    )


def in_memory(chunked: Path, assignment: Path, out: Path) -> None:
    import graphpart as gp
    from graphpart.chunked import load_chunked, read_assignment

    t = time.perf_counter()
    g = load_chunked(chunked)
    parts, k = read_assignment(assignment, chunked)
    gp.partition_graph(g, "rmat", k, out, part_method=parts["_N"], num_hops=1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"seconds": time.perf_counter() - t, "peak_rss": peak}))


def _child(*args: str) -> dict:
    proc = subprocess.run(
        [sys.executable, __file__, *args], check=True, capture_output=True, text=True
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


class RssMonitor:
    """Polls the RSS of each Dask worker process (and keeps the peak) while a step runs."""

    def __init__(self, client) -> None:
        import psutil

        self.procs = {w: psutil.Process(pid) for w, pid in client.run(os.getpid).items()}
        self.peak = dict.fromkeys(self.procs, 0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            for w, p in self.procs.items():
                try:
                    self.peak[w] = max(self.peak[w], p.memory_info().rss)
                except Exception:  # a worker restarting: skip this sample
                    pass
            time.sleep(0.05)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def edge_cut(chunked: Path, assignment: Path) -> float:
    """Fraction of edges whose ends lie in different parts, one edge chunk at a time."""
    from graphpart.chunked import read_assignment, read_edges, read_metadata

    meta = read_metadata(chunked)
    parts, _ = read_assignment(assignment, meta)
    cut = total = 0
    for e in meta.etypes:
        for c in range(len(meta.edges[e].paths)):
            s, d = read_edges(meta, e, c)
            cut += int(np.count_nonzero(parts[e[0]][s] != parts[e[2]][d]))
            total += len(s)
    return cut / max(total, 1)


def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=22)
    ap.add_argument("--edge-factor", type=int, default=10)
    ap.add_argument("--chunks", type=int, default=16)
    ap.add_argument("--parts", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--memory-limit", default="3GB")
    ap.add_argument("--metis-scale", type=int, default=18)
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args()
    from distributed import Client, LocalCluster

    from graphpart.chunked import assign, dispatch, read_metadata

    root = Path(args.workdir or tempfile.mkdtemp(prefix="pipeline_scale."))
    rows = []
    csv = root / "csv"
    _, t_prep = timed(
        subprocess.run,
        [
            sys.executable,
            __file__,
            "prepare",
            str(args.scale),
            str(args.edge_factor),
            str(csv),
            str(args.chunks),
            "csv",
        ],
        check=True,
    )
    meta = read_metadata(csv)
    n, m = sum(meta.num_nodes.values()), sum(meta.num_edges.values())
    print(
        f"R-MAT scale {args.scale}: {n:,} nodes, {m:,} edges; chunked (CSV + numpy) in "
        f"{t_prep:.1f} s",
        flush=True,
    )
    with (
        LocalCluster(
            n_workers=args.workers,
            threads_per_worker=1,
            memory_limit=args.memory_limit,
            processes=True,
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        _, t_rand = timed(assign, csv, root / "random", args.parts, "random", seed=0, client=client)
        _, t_fen = timed(assign, csv, root / "fennel", args.parts, "fennel")
        with RssMonitor(client) as mon:
            cfg, t_disp = timed(dispatch, csv, root / "random", root / "out", client=client)
        worker_peak = max(mon.peak.values())
        with RssMonitor(client) as mon_f:
            _, t_disp_f = timed(dispatch, csv, root / "fennel", root / "out_fennel", client=client)
        pq = root / "parquet"
        subprocess.run(
            [
                sys.executable,
                __file__,
                "prepare",
                str(args.scale),
                str(args.edge_factor),
                str(pq),
                str(args.chunks),
                "parquet",
            ],
            check=True,
        )
        _, t_disp_pq = timed(dispatch, pq, root / "random", root / "out_pq", client=client)
    mem = _child("inmemory", str(csv), str(root / "random"), str(root / "mem"))
    same_cfg = json.loads(cfg.read_text()) == {
        **json.loads((root / "mem" / "rmat.json").read_text()),
        "part_method": "random",
    }
    import torch

    a = torch.load(root / "out" / "part0" / "graph.pt", weights_only=True, mmap=True)
    b = torch.load(root / "mem" / "part0" / "graph.pt", weights_only=True, mmap=True)
    same_p0 = torch.equal(a["src"], b["src"]) and torch.equal(a["dst"], b["dst"])
    cut_r, cut_f = edge_cut(csv, root / "random"), edge_cut(csv, root / "fennel")
    rows += [
        ("assign random (Dask, 2 workers)", f"{t_rand:.1f} s", ""),
        ("assign Fennel (one pass, driver)", f"{t_fen:.1f} s", f"{m / t_fen / 1e6:.2f} M edges/s"),
        (
            "dispatch, CSV edges (random assignment)",
            f"{t_disp:.1f} s",
            f"{m / t_disp / 1e6:.2f} M edges/s",
        ),
        (
            "dispatch, CSV edges (Fennel assignment)",
            f"{t_disp_f:.1f} s",
            f"{m / t_disp_f / 1e6:.2f} M edges/s",
        ),
        (
            "dispatch, parquet edges and features",
            f"{t_disp_pq:.1f} s",
            f"{m / t_disp_pq / 1e6:.2f} M edges/s",
        ),
        (
            "end to end: assign random + dispatch (CSV)",
            f"{t_rand + t_disp:.1f} s",
            f"{m / (t_rand + t_disp) / 1e6:.2f} M edges/s",
        ),
        (
            "in-memory load_chunked + partition_graph",
            f"{mem['seconds']:.1f} s",
            f"{m / mem['seconds'] / 1e6:.2f} M edges/s",
        ),
    ]
    print("\n| step | wall time | throughput |\n|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")
    print(
        "\nPeak RSS per worker (dispatch, random): "
        f"{', '.join(f'{v / MiB:,.0f} MiB' for v in mon.peak.values())}"
    )
    print(
        "Peak RSS per worker (dispatch, Fennel): "
        f"{', '.join(f'{v / MiB:,.0f} MiB' for v in mon_f.peak.values())}"
    )
    print(
        f"Peak RSS in-memory run: {mem['peak_rss'] / MiB:,.0f} MiB; worker/in-memory = "
        f"{worker_peak / mem['peak_rss']:.2f}"
    )
    print(f"Output equals the in-memory output: config {same_cfg}, partition 0 edges {same_p0}")
    print(
        f"Edge cut at scale {args.scale}, {args.parts} parts: random {cut_r:.3f}, Fennel "
        f"{cut_f:.3f}"
    )
    small = root / "small"
    subprocess.run(
        [
            sys.executable,
            __file__,
            "prepare",
            str(args.metis_scale),
            str(args.edge_factor),
            str(small),
            "8",
            "numpy",
        ],
        check=True,
    )
    cuts = {}
    for algo in ("random", "fennel", "ldg", "metis"):
        _, t = timed(
            assign,
            small,
            root / f"small_{algo}",
            args.parts,
            algo,
            seed=0,
            **({"processes": False, "workers": 1} if algo == "random" else {}),
        )
        cuts[algo] = (edge_cut(small, root / f"small_{algo}"), t)
    print(
        f"Edge cut at scale {args.metis_scale}, {args.parts} parts: "
        + ", ".join(f"{a} {c:.3f} ({t:.1f} s)" for a, (c, t) in cuts.items())
    )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "prepare":
        prepare(
            int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
        )
    elif len(sys.argv) > 1 and sys.argv[1] == "inmemory":
        in_memory(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
    else:
        main()

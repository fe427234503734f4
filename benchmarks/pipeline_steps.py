"""The chunked pipeline's CLI steps end to end at R-MAT scales, with every process's peak RSS.

Each step runs as the user would run it (``graphpart chunk | assign | dispatch | verify``), as a
subprocess whose process tree (Dask's scheduler-side process and its worker processes included) is
polled every 0.2 s: the table gives each step's wall time, the peak RSS of its main process and of
its largest child, the disk its output takes, and for ``assign`` the cut and the largest part's
node count and in-degree against the mean. With ``--profile`` each step runs under
``step_profile.py`` and its row also lists its phases (wall, CPU of every process, cores busy).

Usage::

    .venv/bin/python benchmarks/pipeline_steps.py --scales 20 22 --parts 16 --workdir /work/scale

Keep ``--workdir`` on a disk with room (``graphpart plan`` says how much); outputs of a scale are
deleted before the next unless ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import psutil

GiB = 1 << 30
EXE = str(Path(sys.executable).with_name("graphpart"))


class TreePeaks:
    """Peak RSS of a process and of each of its descendants, sampled in a thread; with
    ``watch``, also the peak bytes of the files under that folder (every 2 s)."""

    def __init__(self, pid: int, watch: Path | None = None) -> None:
        self.root = psutil.Process(pid)
        self.peaks: dict[int, int] = {}
        self.watch, self.disk_peak, self.last_disk = watch, 0, 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                procs = [self.root, *self.root.children(recursive=True)]
            except psutil.NoSuchProcess:
                return
            for p in procs:
                try:
                    self.peaks[p.pid] = max(self.peaks.get(p.pid, 0), p.memory_info().rss)
                except psutil.NoSuchProcess:
                    pass
            if self.watch is not None and time.monotonic() - self.last_disk > 2:
                self.disk_peak = max(self.disk_peak, _tree_bytes(self.watch))
                self.last_disk = time.monotonic()
            time.sleep(0.2)

    def close(self) -> tuple[int, int]:
        self.stop.set()
        self.thread.join()
        main = self.peaks.pop(self.root.pid, 0)
        return main, max(self.peaks.values(), default=0)


def _tree_bytes(folder: Path) -> int:
    """Disk the files under ``folder`` take now (blocks allocated, as ``du`` counts: a file laid
    out ahead of its contents counts what is written; files vanishing meanwhile are skipped)."""
    total = 0
    for root, _, files in os.walk(folder):  # a folder removed meanwhile is skipped, not raised
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_blocks * 512
            except OSError:
                pass
    return total


#: Where each step's stderr is kept (``--workdir``), set by :func:`main`.
LOGS: Path | None = None


#: With ``--profile``, each step runs under ``step_profile.py`` (its phases' wall and CPU).
PROFILE = False


def run_step(name: str, args: list[str], watch: Path | None = None) -> dict:
    t = time.perf_counter()
    exe = [sys.executable, str(Path(__file__).with_name("step_profile.py"))] if PROFILE else [EXE]
    proc = subprocess.Popen([*exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peaks = TreePeaks(proc.pid, watch)
    out, err = proc.communicate()
    main, child = peaks.close()
    lines = err.decode().splitlines()
    row = {
        "step": name,
        "seconds": round(time.perf_counter() - t, 1),
        "main_gib": round(main / GiB, 2),
        "child_gib": round(child / GiB, 2),
        "rc": proc.returncode,
        "stderr": "\n".join(x for x in lines if not x.startswith("profile"))[-400:].strip(),
    }
    if PROFILE:
        row["phases"] = [json.loads(x[8:]) for x in lines if x.startswith("profile {")]
        total = [json.loads(x[14:]) for x in lines if x.startswith("profile-total ")]
        row["cores"] = total[0]["cores"] if total else None
    if watch is not None:
        row["peak_disk_gib"] = round(peaks.disk_peak / GiB, 2)
    if LOGS is not None:  # the step's progress lines: each phase's elapsed time
        (LOGS / f"{name.replace(' ', '-')}.log").write_bytes(err)
    print(json.dumps(row), flush=True)
    return row


def disk(path: Path) -> float:
    return _tree_bytes(path) / GiB


def assignment_quality(chunked: Path, assignment: Path) -> dict:
    """Cut fraction, and the largest part's nodes and in-degree against the mean (one chunk at a
    time)."""
    from graphpart.chunked import read_assignment, read_metadata
    from graphpart.chunked.read import read_edges

    meta = read_metadata(chunked)
    parts, k = read_assignment(assignment, meta)
    p = parts["_N"]
    e = next(iter(meta.etypes))
    cut = m = 0
    indeg = np.zeros(k, dtype=np.int64)
    for c in range(len(meta.edges[e].paths)):
        s, d = read_edges(meta, e, c)
        cut += int((p[s] != p[d]).sum())
        indeg += np.bincount(p[d], minlength=k)
        m += len(s)
    nodes = np.bincount(p, minlength=k)
    return {
        "cut": round(cut / max(m, 1), 4),
        "nodes_max_mean": round(float(nodes.max() / nodes.mean()), 3),
        "indeg_max_mean": round(float(indeg.max() / indeg.mean()), 3),
    }


def predict(chunks: Path, args, assignment: Path | None) -> dict:
    """``graphpart plan``'s peak memory (GiB) per step, and phase 2's disk."""
    from graphpart.chunked import assignment_loads, plan_pipeline, read_metadata
    from graphpart.chunked.assign import assignment_halo

    meta = read_metadata(chunks)
    out_edges = "--out-edges" in args.dispatch_args.split()
    fmt = next(
        (a.split("=")[1] for a in args.dispatch_args.split() if a.startswith("--format=")),
        "graphbolt",
    )
    sizes = {"out_edges": out_edges, "format": fmt}
    if assignment is not None:
        nodes, indeg, leaving = assignment_loads(assignment, args.parts, meta)
        sizes["part_nodes"], sizes["leaving"] = nodes, int(leaving.sum())
        sizes["part_edges"] = indeg + leaving if out_edges else indeg
        sizes["halo"] = assignment_halo(assignment, args.parts, meta)
    extra = args.assign_args.split()
    if "--metis-max-edges" in extra:
        sizes["metis_max_edges"] = int(extra[extra.index("--metis-max-edges") + 1])
    steps = plan_pipeline(meta, args.parts, args.algorithm, workers=args.workers, **sizes)
    out = {s.step: round(s.memory / GiB, 2) for s in steps}
    out["disk"] = round(next(s.disk for s in steps if s.step == "dispatch phase 2") / GiB, 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default="rmat", choices=["rmat", "dcsbm"])
    ap.add_argument(
        "--dataset-arg", action="append", default=[], help="e.g. community_size=4096 (dcsbm)"
    )
    ap.add_argument("--scales", type=int, nargs="+", default=[20])
    ap.add_argument("--parts", type=int, default=16)
    ap.add_argument("--chunks", type=int, default=64)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--memory-limit", default="7GB")
    ap.add_argument("--algorithm", default="fennel")
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/pipeline_steps"))
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--steps", default="chunk,assign,dispatch,verify")
    ap.add_argument(
        "--assign-args", default="", help="more assign options, e.g. '--metis-max-edges 16777216'"
    )
    ap.add_argument(
        "--dispatch-args", default="", help="more dispatch options, e.g. '--out-edges --format=dgl'"
    )
    ap.add_argument(
        "--profile", action="store_true", help="each step's phases: wall, CPU, cores busy"
    )
    args = ap.parse_args()
    global LOGS, PROFILE
    PROFILE = args.profile
    LOGS = args.workdir
    LOGS.mkdir(parents=True, exist_ok=True)
    steps = args.steps.split(",")
    rows = []
    for scale in args.scales:
        w = args.workdir / f"{args.dataset}{scale}"
        w.mkdir(parents=True, exist_ok=True)
        chunks, asg, out = w / "chunks", w / f"asg-{args.algorithm}", w / "parts"
        if "chunk" in steps:
            rows.append(
                run_step(
                    f"chunk {scale}",
                    [
                        "chunk",
                        "--dataset",
                        args.dataset,
                        "--dataset-arg",
                        f"scale={scale}",
                        "--dataset-arg",
                        "seed=0",
                        *[x for a in args.dataset_arg for x in ("--dataset-arg", a)],
                        "--num-chunks",
                        str(args.chunks),
                        "--edge-format",
                        "numpy",
                        "--out-dir",
                        str(chunks),
                    ],
                )
            )
            rows[-1]["disk_gib"] = round(disk(chunks), 2)
        predicted = {}
        if "assign" in steps:
            predicted = predict(chunks, args, None)
            rows.append(
                run_step(
                    f"assign {args.algorithm} {scale}",
                    [
                        "assign",
                        "--in-dir",
                        str(chunks),
                        "--out-dir",
                        str(asg),
                        "--num-parts",
                        str(args.parts),
                        "--algorithm",
                        args.algorithm,
                        *["--workers", str(args.workers), "--memory-limit", args.memory_limit],
                        *args.assign_args.split(),
                    ],
                )
            )
            a = f"assign {args.algorithm}"
            rows[-1]["predicted_gib"] = predicted.get(a, predicted.get(f"{a} (driver)"))
            rows[-1]["predicted_child_gib"] = predicted.get(f"{a} (streams)")
            if rows[-1]["rc"] == 0:
                rows[-1].update(assignment_quality(chunks, asg))
                predicted = predict(chunks, args, asg)
        if "dispatch" in steps:
            rows.append(
                run_step(
                    f"dispatch {scale}",
                    [
                        "dispatch",
                        "--in-dir",
                        str(chunks),
                        "--partitions-dir",
                        str(asg),
                        "--out-dir",
                        str(out),
                        "--workers",
                        str(args.workers),
                        "--memory-limit",
                        args.memory_limit,
                        *args.dispatch_args.split(),
                    ],
                    watch=w,  # the output, its temporary sibling and the pieces inside it
                )
            )
            rows[-1]["predicted_gib"] = predicted.get("dispatch phase 2")
            rows[-1]["predicted_disk_gib"] = predicted.get("disk")
            rows[-1]["peak_disk_gib"] = round(rows[-1]["peak_disk_gib"] - disk(chunks), 2)
            if rows[-1]["rc"] == 0:
                rows[-1]["disk_gib"] = round(disk(out), 2)
                edges = json.loads(next(out.glob("*.json")).read_text())["num_edges"]
                rows[-1]["bytes_per_edge"] = round(disk(out) * GiB / edges, 2)
        if "verify" in steps:
            cfg = next(out.glob("*.json"), out / "missing.json")
            rows.append(
                run_step(
                    f"verify {scale}",
                    [
                        "verify",
                        str(cfg),
                        "--chunked-dir",
                        str(chunks),
                        "--partitions-dir",
                        str(asg),
                        "--workers",
                        str(args.workers),
                        "--memory-limit",
                        args.memory_limit,
                    ],
                )
            )
            rows[-1]["predicted_gib"] = predicted.get("verify (driver)")
            rows[-1]["predicted_child_gib"] = predicted.get("verify")
        if not args.keep:
            shutil.rmtree(w, ignore_errors=True)
    head = (
        "| step | wall s | main GiB | largest child GiB | plan GiB | disk GiB | plan disk | notes |"
    )
    print("\n" + head)
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        keys = ("cut", "nodes_max_mean", "indeg_max_mean", "bytes_per_edge", "peak_disk_gib")
        notes = {k: r[k] for k in keys if k in r}
        if r["rc"]:
            notes["failed"] = r["stderr"][-200:]
        print(
            f"| {r['step']} | {r['seconds']} | {r['main_gib']} | {r['child_gib']} | "
            f"{r.get('predicted_gib', '')} | {r.get('disk_gib', '')} | "
            f"{r.get('predicted_disk_gib', '')} | {notes or ''} |"
        )


if __name__ == "__main__":
    main()

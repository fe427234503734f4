"""graphpart.partition_graph vs dgl.distributed.partition_graph, side by side in one run.

    python benchmarks/partition_vs_dgl.py [--scale 20] [--edge-factor 10] [--parts 8]

R-MAT (Graph500 parameters; scale 20 and edge factor 10 give ~1M nodes and ~10M
undirected edges), 16-dim float features and a 10% train mask; 8 parts, 1 HALO
hop; with and without balance_ntypes=train_mask + balance_edges. Each run is a
fresh process, so its peak RSS is its own. DGL runs from its own virtual
environment (tools/make_peer_env.sh, through benchmarks/make_dgl_env.sh, creates it on first
use). The machines are noisy: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"


def make_graph(scale: int, edge_factor: int, directory: Path) -> dict:
    from graphpart.datasets.rmat import rmat

    g = rmat(scale, edge_factor=edge_factor, seed=0, feat_dim=16, train_frac=0.1)
    directory.mkdir(parents=True, exist_ok=True)
    s, d = g.edges()
    np.save(directory / "src.npy", s.numpy())
    np.save(directory / "dst.npy", d.numpy())
    np.save(directory / "num_nodes.npy", np.array(g.num_nodes()))
    np.save(directory / "feat.npy", g.ndata["feat"].numpy())
    np.save(directory / "train_mask.npy", g.ndata["train_mask"].numpy())
    return {"num_nodes": g.num_nodes(), "num_edges": g.num_edges()}


def peak_rss_gb(python: str, script: str, args: list[str]) -> tuple[dict, float]:
    # /usr/bin/time is not everywhere; wait4 on the child gives its own ru_maxrss.
    proc = subprocess.Popen(
        [python, str(HERE / script), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "DGLBACKEND": "pytorch"},
    )
    stdout = proc.stdout.read()
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code:
        # a peer that does not fit the machine is a result (killed by the kernel: -9), recorded
        # with the peak it reached; graphpart failing is not
        if script == "_dgl_side.py":
            tail = stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
            return {"failed": f"exit {code} {tail[0][:200]}".strip()}, usage.ru_maxrss / 1e6
        raise SystemExit(f"{script} failed:\n{stderr.decode()[-3000:]}")
    return json.loads(stdout.decode().strip().splitlines()[-1]), usage.ru_maxrss / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--edge-factor", type=int, default=10)
    ap.add_argument("--parts", type=int, default=8)
    ap.add_argument("--skip-dgl", action="store_true")
    args = ap.parse_args()
    gdir = OUT / f"rmat{args.scale}_ef{args.edge_factor}"
    info = make_graph(args.scale, args.edge_factor, gdir)
    print(
        f"R-MAT scale {args.scale}, edge factor {args.edge_factor}: {info['num_nodes']:,} nodes, "
        f"{info['num_edges']:,} edges; {args.parts} parts, 1 hop",
        flush=True,
    )
    dgl_python = None
    if not args.skip_dgl:
        venv = subprocess.run(
            ["bash", str(HERE / "make_dgl_env.sh")], capture_output=True, text=True, check=True
        )
        dgl_python = str(Path(venv.stdout.strip().splitlines()[-1]) / "bin" / "python")
    rows = []
    for balance in (False, True):
        label = "balance_ntypes+balance_edges" if balance else "plain"
        sides = [("graphpart", sys.executable, "_graphpart_side.py")]
        if dgl_python:
            sides.append(("dgl", dgl_python, "_dgl_side.py"))
        for name, python, script in sides:
            out_dir = OUT / f"parts_{name}"
            shutil.rmtree(out_dir, ignore_errors=True)
            res, rss = peak_rss_gb(
                python, script, [str(gdir), str(out_dir), str(args.parts), "1" if balance else "0"]
            )
            if "failed" in res:
                row = {"config": label, "side": name, "failed": res["failed"], "peak_rss_gb": rss}
                rows.append(row)
                print(json.dumps(row), flush=True)
                continue
            tr = np.array(res["train_per_part"])
            row = {
                "config": label,
                "side": name,
                "wall_s": round(res["wall_s"], 2),
                "metis_s": round(res["metis_s"], 2),
                "peak_rss_gb": round(rss, 2),
                "edge_cut": res["edge_cut"],
                "train_max_over_mean": round(float(tr.max() / tr.mean()), 3),
                "worst_constraint": max(res["constraints"].values()),
                "constraints": res["constraints"],
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
            shutil.rmtree(out_dir, ignore_errors=True)
    print(
        "\n| config | side | wall s | METIS s | wall / METIS | peak RSS GB | edge cut | train "
        "max/mean | worst constraint max/mean |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "failed" in r:
            print(f"| {r['config']} | {r['side']} | did not finish: {r['failed']} | | | "
                  f"{r['peak_rss_gb']:.2f} | | | |")  # fmt: skip
            continue
        print(
            f"| {r['config']} | {r['side']} | {r['wall_s']} | {r['metis_s']} | "
            f"{r['wall_s'] / max(r['metis_s'], 1e-9):.2f} | {r['peak_rss_gb']} | "
            f"{r['edge_cut']:,} | {r['train_max_over_mean']} | {r['worst_constraint']} |"
        )
    if dgl_python:
        print()
        for label in ("plain", "balance_ntypes+balance_edges"):
            a = next(r for r in rows if r["config"] == label and r["side"] == "graphpart")
            b = next(r for r in rows if r["config"] == label and r["side"] == "dgl")
            if "failed" in b:
                print(f"{label}: DGL did not finish ({b['failed']})")
                continue
            print(
                f"{label}: graphpart/DGL wall {a['wall_s'] / b['wall_s']:.2f}x, peak RSS "
                f"{a['peak_rss_gb'] / b['peak_rss_gb']:.2f}x, edge cut "
                f"{a['edge_cut'] / b['edge_cut']:.3f}x"
            )
    (OUT / "partition_vs_dgl.json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()

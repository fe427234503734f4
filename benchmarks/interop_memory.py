"""Reading a 1M-node DGL partition: graphpart's reader vs DGL 2.1's own load_partition, one run.

    .venv/bin/python benchmarks/interop_memory.py [--scale 20] [--feat-dim 64]

Writes an R-MAT graph (scale 20: 1,048,576 nodes, ~16M edges) with a float32 feature matrix as
ONE partition in DGL's format (graphpart's partition_graph(format="dgl")), then, each in a fresh
process, loads partition 0 and touches every feature row (a sum):

- graphpart: graphpart.load_partition (the .venv);
- DGL: dgl.distributed.load_partition (the peer venv, tools/make_peer_env.sh).

Reported per side: load time, and memory after the load: anonymous RSS (private memory the
reader allocated) and file-backed RSS (pages of the mapped files), against the bytes of the
arrays in the files. "Costs no more memory than the arrays it maps" means anonymous memory
growth near zero: the arrays stay in the page cache, shared, not copied.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent

PROBE = r"""
import json, os, sys, time
def status():
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("RssAnon", "RssFile", "VmHWM"):
                out[k] = int(v.split()[0]) / 1024
    return out
side, config = sys.argv[1], sys.argv[2]
if side == "dgl":
    os.environ["DGLBACKEND"] = "pytorch"
    from dgl.distributed import load_partition
    import torch
else:
    from graphpart import load_partition
    import torch
before = status()
t = time.perf_counter()
g, nfeat, efeat, *_ = load_partition(config, 0)
load_s = time.perf_counter() - t
after_load = status()
total = float(sum(v.double().sum() for v in nfeat.values()))
s, d = g.edges()
edges = int(s.sum() + d.sum()) & 1
after_touch = status()
print(json.dumps({"load_s": load_s, "before": before, "after_load": after_load,
                  "after_touch": after_touch, "check": total, "num_nodes": int(g.num_nodes()),
                  "num_edges": int(g.num_edges())}))
"""


def run(python: str, side: str, config: Path) -> dict:
    env = {**os.environ, "OMP_NUM_THREADS": "2"}
    env.pop("PYTHONPATH", None)
    out = subprocess.run(
        [python, "-c", PROBE, side, str(config)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--feat-dim", type=int, default=64)
    args = ap.parse_args()
    import torch

    import graphpart as gp
    from graphpart import datasets

    peer = subprocess.run(
        ["bash", str(ROOT / "tools" / "make_peer_env.sh")], capture_output=True, text=True
    )
    peer_python = (
        peer.stdout.strip().splitlines()[-1] + "/bin/python" if peer.returncode == 0 else None
    )
    with tempfile.TemporaryDirectory() as tmp:
        g = datasets.rmat(args.scale, seed=0)
        n = g.num_nodes()
        g.ndata["feat"] = torch.randn(n, args.feat_dim, generator=torch.Generator().manual_seed(0))
        g.ndata["label"] = torch.randint(0, 10, (n,), generator=torch.Generator().manual_seed(1))
        t = time.perf_counter()
        gp.partition_graph(
            g, "rmat", 1, Path(tmp) / "p", format="dgl", num_hops=1, part_method="random"
        )
        write_s = time.perf_counter() - t
        config = Path(tmp) / "p" / "rmat.json"
        files = {p.name: p.stat().st_size / 2**20 for p in (Path(tmp) / "p" / "part0").iterdir()}
        del g
        rows = {"graphpart": run(sys.executable, "graphpart", config)}
        if peer_python:
            rows["DGL 2.1"] = run(peer_python, "dgl", config)
    print(
        f"R-MAT scale {args.scale}, feature dim {args.feat_dim}; one partition in DGL's format, "
        "written in "
        f"{write_s:.1f} s; files (MiB): {json.dumps({k: round(v, 1) for k, v in files.items()})}"
    )
    print(
        "| reader | nodes | edges | load | anonymous RSS growth (load / + touch all) | file-backed "
        "RSS after touch | peak RSS |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, r in rows.items():
        anon_load = r["after_load"]["RssAnon"] - r["before"]["RssAnon"]
        anon_touch = r["after_touch"]["RssAnon"] - r["before"]["RssAnon"]
        print(
            f"| {name} | {r['num_nodes']:,} | {r['num_edges']:,} | {r['load_s']:.2f} s | "
            f"{anon_load:,.0f} / {anon_touch:,.0f} MiB | {r['after_touch']['RssFile']:,.0f} MiB | "
            f"{r['after_touch']['VmHWM']:,.0f} MiB |"
        )
    if len(rows) == 2:
        a, b = rows["graphpart"], rows["DGL 2.1"]
        grew = [r["after_touch"]["RssAnon"] - r["before"]["RssAnon"] for r in (a, b)]
        print(
            f"\ngraphpart / DGL: load time {a['load_s'] / b['load_s']:.2f}x, anonymous growth "
            f"{grew[0] / max(grew[1], 1):.2f}x; "
            "same feature checksum: "
            f"{abs(a['check'] - b['check']) < 1e-3 * max(1.0, abs(b['check']))}"
        )


if __name__ == "__main__":
    main()

"""Digests of the figures a restructuring must not change: assignments, trainer ids, edge cut,
balance, replication, local graphs, configs and file sizes of the in-memory path, and the
assignment files and configs of the chunked pipeline (random, Fennel, METIS).

Run it on two checkouts and compare::

    git worktree add /tmp/before <rev>
    PYTHONPATH=/tmp/before .venv/bin/python benchmarks/figures_digest.py /tmp/before.json
    PYTHONPATH=. .venv/bin/python benchmarks/figures_digest.py /tmp/after.json
    diff /tmp/before.json /tmp/after.json

Only public calls that both sides have are used (keywords by name). With ``--names`` the class
names a balance record gives are kept in the config digests; without it they are left out.
``--time`` also prints the best of 3 of two calls on R-MAT scale 16 (noisy: compare runs made
alternately on the same machine).
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch

import graphpart as gp
from graphpart import datasets


def _h(a) -> str:
    return hashlib.sha256(np.ascontiguousarray(np.asarray(a)).tobytes()).hexdigest()[:16]


def _config(path: Path, names: bool) -> str:
    cfg = json.loads(Path(path).read_text())
    if not names:
        cfg.get("balance", {}).pop("ntypes", None)
        loads = cfg.get("balance", {}).get("loads", {})
        cfg.get("balance", {})["loads"] = sorted(loads.values())
    return hashlib.sha256(json.dumps(cfg, sort_keys=True).encode()).hexdigest()[:16]


def figures(names: bool = False) -> dict:
    sbm = datasets.sbm([300] * 6, 0.05, 0.002, seed=1)
    sbm.ndata["train_mask"] = torch.from_numpy(np.arange(sbm.num_nodes()) % 3 == 0)
    cases = {
        "karate metis": (datasets.load_karate_club(), 2, {}),
        "karate random": (datasets.load_karate_club(), 3, {"part_method": "random"}),
        "sbm balanced": (sbm, 4, {"balance_ntypes": "train_mask", "balance_edges": True}),
        "sbm trainers": (sbm, 2, {"num_trainers_per_machine": 3, "num_hops": 2}),
        "rmat sample": (datasets.rmat(12, 8, seed=0), 4, {"metis_max_edges": 5000}),
        "davis hetero": (datasets.load_davis_southern_women(), 2, {}),
    }
    out = {}
    for name, (g, k, kw) in cases.items():
        p = gp.partition(g, k, seed=0, **kw)
        m = p.metrics
        d = Path(tempfile.mkdtemp())
        gp.partition_graph(g, "x", k, d, seed=0, **kw)
        out[name] = {
            "node_part": _h(p.node_part),
            "trainer": _h(p.trainer_id),
            "edge_cut": int(m.edge_cut),
            "balance": {q: round(float(v), 6) for q, v in m.balance.items()},
            "replication": round(float(m.replication_factor), 6),
            "local0": _h(p.local_graph(0).edges()[0].numpy()),
            "config": _config(d / "x.json", names),
            "file sizes": [f.stat().st_size for f in sorted(d.rglob("*.pt"))],
        }
    from graphpart.chunked import assign, dispatch, write_chunked

    d = Path(tempfile.mkdtemp())
    write_chunked(sbm, d / "ch", 3)
    for alg in ("random", "fennel", "metis"):
        kw = {"workers": 1, "processes": False} if alg == "random" else {}
        kw |= {} if alg == "random" else {"balance_ntypes": "train_mask"}
        assign(d / "ch", d / f"a_{alg}", 3, alg, seed=0, **kw)
        parts = {
            f.name: _h(np.loadtxt(f, dtype=np.int64))
            for f in sorted((d / f"a_{alg}").glob("*.txt"))
        }
        cfg = dispatch(d / "ch", d / f"a_{alg}", d / f"o_{alg}", workers=1, processes=False)
        out[f"chunked {alg}"] = {"parts": parts, "config": _config(cfg, names)}
    return out


def timings() -> dict[str, float]:
    import time

    g = datasets.rmat(16, 16, seed=0)
    calls = {
        "partition metis k=8": lambda: gp.partition(g, 8, seed=0),
        "partition_graph random k=8": lambda: gp.partition_graph(
            g, "r", 8, tempfile.mkdtemp(), part_method="random", seed=0
        ),
    }
    best = {}
    for name, call in calls.items():
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            call()
            runs.append(time.perf_counter() - t0)
        best[name] = round(min(runs), 3)
    return best


if __name__ == "__main__":
    if "--time" in sys.argv:
        print(timings())
    args = [a for a in sys.argv[1:] if a not in ("--names", "--time")]
    result = figures(names="--names" in sys.argv)
    Path(args[0]).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(f"{len(result)} cases -> {args[0]}")

"""Every balance setting partitions (issue 31): notebook 03's grid, and the three splits balanced
together, on WordNet, a Gene-Ontology-like heterograph and R-MAT, with 1, 2 and 4 trainers per
machine. Prints one row per (graph, trainers): settings run, refused, held as well as possible
(a BalanceWarning), and, over the settings that balance a split at a tolerance of at most 3%,
the worst machine- and trainer-level max/mean of nodes and of the balanced split(s).

    .venv/bin/python benchmarks/balance_settings.py                 # WordNet, GO-like, R-MAT 14-18
    .venv/bin/python benchmarks/balance_settings.py --rmat-only --scales 20 21  # larger R-MAT
    .venv/bin/python benchmarks/balance_settings.py --rmat-only --scales 23 --trainers 2

Large scales run one (scale, trainers) per process side by side on the two cores; the last column
is the process's peak RSS so far (ru_maxrss), the whole script's, graph included.
"""

from __future__ import annotations

import argparse
import resource
import time
import warnings

import numpy as np
import torch

import graphpart as gp
from graphpart.datasets import load, rmat
from graphpart.errors import BalanceWarning
from graphpart.metrics import partition_metrics

SPLITS = ("train_mask", "val_mask", "test_mask")
#: Notebook 03's grid, as partition() arguments, plus the three splits balanced together.
SETTINGS = [
    {"part_method": m, "balance": b, "balance_edges": e, "ufactor": u}
    for m in ("random", "metis")
    for b in ((None, "train_mask") if m == "metis" else (None,))
    for e in ((False, True) if m == "metis" else (False,))
    for u in ((10, 100) if m == "metis" else (None,))
] + [{"part_method": "metis", "balance": list(SPLITS), "balance_edges": True, "ufactor": None}]


def _splits(g: gp.Graph, seed: int = 0) -> gp.Graph:
    """20% train, 10% val, 10% test of every node type."""
    rng = np.random.default_rng(seed)
    for t in g.ntypes:
        r = rng.random(g.num_nodes(t))
        for name, lo, hi in (("train_mask", 0, 0.2), ("val_mask", 0.2, 0.3), ("test", 0.3, 0.4)):
            g.node_data(t)["test_mask" if name == "test" else name] = torch.from_numpy(
                (r >= lo) & (r < hi)
            )
    return g


def go_like(seed: int = 0) -> gp.Graph:
    """A heterograph shaped like the Gene Ontology: 3 term types of different sizes, 9 relations
    with heavy-tailed in-degrees (a few general terms take most links), one of only 11 edges."""
    rng = np.random.default_rng(seed)
    n = {"BP": 30_000, "MF": 12_000, "CC": 4_000}
    rels = [
        ("BP", "is_a", "BP", 2.0),
        ("BP", "part_of", "BP", 0.3),
        ("BP", "regulates", "BP", 0.25),
        ("MF", "is_a", "MF", 1.5),
        ("CC", "is_a", "CC", 1.5),
        ("CC", "part_of", "CC", 0.8),
        ("MF", "part_of", "BP", 0.05),
        ("BP", "has_part", "MF", 0.02),
        ("MF", "occurs_in", "CC", None),
    ]
    edges = {}
    for s, r, d, f in rels:
        m = 11 if f is None else int(f * n[s])
        dst = (rng.pareto(1.1, m) * 3).astype(np.int64) % n[d]
        edges[(s, r, d)] = (rng.integers(0, n[s], m), dst)
    return gp.Graph.from_typed_edges(edges, num_nodes=n)


def _run(g: gp.Graph, trainers: int, machines: int) -> dict:
    out = {"settings": 0, "refused": [], "warned": 0, "nodes": 1.0, "split": 1.0, "tnodes": 1.0}
    out["tsplit"], out["seconds"] = 1.0, 0.0
    for s in SETTINGS:
        opts = gp.MetisOptions(ufactor=s["ufactor"]) if s["ufactor"] else None
        t = time.perf_counter()
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", BalanceWarning)
                p = gp.partition(
                    g,
                    machines,
                    part_method=s["part_method"],
                    balance_ntypes=s["balance"],
                    balance_edges=s["balance_edges"],
                    num_trainers_per_machine=trainers,
                    metis_options=opts,
                    seed=0,
                )
        except gp.GraphpartError as e:
            out["refused"].append(f"{s}: {e}")
            continue
        out["seconds"] += time.perf_counter() - t
        out["settings"] += 1
        out["warned"] += any(w.category is BalanceWarning for w in caught)
        if s["balance"] is None or s["part_method"] == "random" or (s["ufactor"] or 30) > 30:
            continue  # what a setting does not balance, or allows 10% on, says nothing here
        m = partition_metrics(p)
        split_keys = [k for k in ("train nodes", "val nodes", "test nodes") if k in m.balance]
        if s["balance"] == "train_mask":
            split_keys = ["train nodes"]
        out["nodes"] = max(out["nodes"], m.balance["nodes"])
        out["split"] = max([out["split"], *(m.balance[k] for k in split_keys)])
        if m.trainer_balance:
            out["tnodes"] = max(out["tnodes"], m.trainer_balance["nodes"])
            out["tsplit"] = max([out["tsplit"], *(m.trainer_balance[k] for k in split_keys)])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scales", type=int, nargs="*", default=[14, 16, 18])
    ap.add_argument("--machines", type=int, default=3)
    ap.add_argument("--trainers", type=int, nargs="*", default=[1, 2, 4])
    ap.add_argument("--rmat-only", action="store_true", help="skip WordNet and the GO-like graph")
    args = ap.parse_args()
    graphs = []
    if not args.rmat_only:
        graphs += [
            ("WordNet", lambda: _splits(load("wordnet"))),
            ("GO-like", lambda: _splits(go_like())),
        ]
    graphs += [(f"R-MAT {s}", lambda s=s: _splits(rmat(s, seed=0))) for s in args.scales]
    print(f"{len(SETTINGS)} settings (notebook 03's grid + train/val/test together), "
          f"{args.machines} machines")  # fmt: skip
    print("| graph | trainers | partitioned | refused | held as well as possible | machine nodes "
          "| machine split | trainer nodes | trainer split | seconds | peak RSS GiB |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, make in graphs:
        g = make()
        for trainers in args.trainers:
            r = _run(g, trainers, args.machines)
            tn = f"{r['tnodes']:.3f}" if trainers > 1 else "-"
            ts = f"{r['tsplit']:.3f}" if trainers > 1 else "-"
            print(
                f"| {name} | {trainers} | {r['settings']} | {len(r['refused'])} | {r['warned']} | "
                f"{r['nodes']:.3f} | {r['split']:.3f} | {tn} | {ts} | {r['seconds']:.0f} | "
                f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.1f} |",
                flush=True,
            )
            for line in r["refused"]:
                print(f"    refused: {line[:300]}")


if __name__ == "__main__":
    main()

"""How low can the balanced cut of partition_vs_dgl.py's graph go? Strong, slow partitioners as
probes.

    .venv/bin/python benchmarks/cut_ceiling.py metis [--ncuts 4] [--niter 20] [--rounds 10 20]
    python -m venv /tmp/kvenv && /tmp/kvenv/bin/pip install kahip numpy
    /tmp/kvenv/bin/python benchmarks/cut_ceiling.py kahip [--mode FASTSOCIAL|ECOSOCIAL|STRONGSOCIAL]

Both read the graph benchmarks/partition_vs_dgl.py wrote (benchmarks/out/rmat20_ef10; run that
first). ``metis``: METIS on every edge (weighted by how many directed edges join the pair) with
the four constraints of ``balance_ntypes=train_mask, balance_edges=True``, then graphpart's
refinement. ``kahip``: KaHIP's kaffpa on every edge with one weight per node (20 x in-degree + 1:
KaHIP balances a single weight, so this is a relaxation of the four constraints); it imports only
numpy and kahip, so it runs in a scratch venv. Minutes to half an hour: not part of the suite.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

GRAPH = Path(__file__).resolve().parent / "out" / "rmat20_ef10"
PARTS = 8


def load():
    src, dst = np.load(GRAPH / "src.npy"), np.load(GRAPH / "dst.npy")
    n = int(np.load(GRAPH / "num_nodes.npy"))
    return src, dst, n, np.load(GRAPH / "train_mask.npy").astype(bool)


def weighted_csr(src, dst, n):
    """Symmetric CSR of the nodes with edges; a pair's weight counts its directed edges."""
    keep = src != dst
    key = np.concatenate([src[keep] * n + dst[keep], dst[keep] * n + src[keep]])
    pairs, weight = np.unique(key, return_counts=True)
    rows, cols = pairs // n, pairs % n
    deg = np.bincount(rows, minlength=n)
    connected = deg > 0
    new_id = np.cumsum(connected) - 1
    xadj = np.concatenate([[0], np.cumsum(deg[connected])])
    return xadj, new_id[cols], weight, connected


def report(name, part, src, dst, train, seconds):
    indeg = np.bincount(dst, minlength=len(part))
    worst = []
    for mask in (train, ~train):
        for w in (None, indeg[mask]):
            loads = np.bincount(part[mask], weights=w, minlength=PARTS)
            worst.append(loads.max() / loads.mean())
    print(
        f"{name}: cut {int((part[src] != part[dst]).sum()):,}, worst constraint max/mean "
        f"{max(worst):.3f} (train in-degree {worst[1]:.3f}), {seconds:.0f} s",
        flush=True,
    )


def fill_edgeless(part, train):
    """Deal the nodes without edges out, class by class, to the parts with fewest of that class."""
    for cls in (True, False):
        todo = np.flatnonzero((part < 0) & (train == cls))
        have = np.bincount(part[(part >= 0) & (train == cls)], minlength=PARTS)
        level = np.repeat(np.arange(PARTS), np.maximum(have.max() - have, 0))[: len(todo)]
        part[todo] = np.concatenate([level, np.arange(len(todo) - len(level)) % PARTS])
    return part


def run_metis(args):
    from graphpart.partitioning._metis_ctypes import part_graph
    from graphpart.partitioning.balance import balance_weights
    from graphpart.partitioning.options import MetisOptions
    from graphpart.partitioning.refine import refine_assignment

    src, dst, n, train = load()
    t = time.perf_counter()
    weights, classes = balance_weights(n, train, True, np.bincount(dst, minlength=n))
    xadj, adj, wgt, connected = weighted_csr(src, dst, n)
    sub = np.ascontiguousarray(weights[connected])
    ub = 1.03 * weights.sum(0) / sub.sum(0)  # the edgeless nodes fill the node counts afterwards
    _, sub_part = part_graph(
        xadj,
        adj,
        PARTS,
        vwgt=sub,
        adjwgt=wgt,
        ubvec=ub,
        options=MetisOptions(ncuts=args.ncuts, niter=args.niter),
        seed=3,
    )
    part = np.full(n, -1)
    part[connected] = sub_part
    part = fill_edgeless(part, train)
    report(
        f"METIS on every edge, ncuts={args.ncuts}, niter={args.niter}",
        part,
        src,
        dst,
        train,
        time.perf_counter() - t,
    )
    rng = np.random.default_rng(0)
    done = 0
    for rounds in args.rounds:
        part = refine_assignment(
            src, dst, part, PARTS, weights, classes, np.full(4, 1.03), rng, rounds=rounds - done
        )
        done = rounds
        report(f"  + {rounds} rounds of refinement", part, src, dst, train, time.perf_counter() - t)


def run_kahip(args):
    import kahip

    src, dst, n, train = load()
    t = time.perf_counter()
    xadj, adj, wgt, connected = weighted_csr(src, dst, n)
    vwgt = 20 * np.bincount(dst, minlength=n)[connected] + 1
    _, blocks = kahip.kaffpa(
        vwgt.tolist(),
        xadj.tolist(),
        wgt.tolist(),
        adj.tolist(),
        PARTS,
        0.03,
        True,
        0,
        getattr(kahip, args.mode),
    )
    part = np.full(n, -1)
    part[connected] = np.asarray(blocks)
    report(
        f"KaHIP kaffpa {args.mode}",
        fill_edgeless(part, train),
        src,
        dst,
        train,
        time.perf_counter() - t,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="probe", required=True)
    m = sub.add_parser("metis")
    m.add_argument("--ncuts", type=int, default=4)
    m.add_argument("--niter", type=int, default=20)
    m.add_argument("--rounds", type=int, nargs="*", default=[10, 20])
    k = sub.add_parser("kahip")
    k.add_argument(
        "--mode", default="FASTSOCIAL", choices=["FASTSOCIAL", "ECOSOCIAL", "STRONGSOCIAL"]
    )
    args = ap.parse_args()
    run_metis(args) if args.probe == "metis" else run_kahip(args)


if __name__ == "__main__":
    main()

"""One epoch of graphpart.training's replay on R-MAT scale 20 (issue 21's target: <= 15 s).

R-MAT scale 20 (1,048,576 nodes, ~16M edges), 10% training nodes, fanouts 15/10/5 (from the
seeds), batch 1024, 8 trainers: 8 machines x 1 trainer and 4 machines x 2 trainers, on a METIS
partitioning (balance_ntypes=train_mask). Times the replay alone (the partitioning is made once,
untimed), best of ``--repeat``: as graphpart runs it (torch on one thread during the replay) and
with torch's default threads, side by side; ``--load N`` keeps N busy processes running meanwhile
(a shared machine).

    .venv/bin/python benchmarks/epoch_replay.py --repeat 3
    .venv/bin/python benchmarks/epoch_replay.py --scale 17 --load 2
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import resource
import time

import torch

import graphpart as gp
import graphpart.training.replay as replay_module
from graphpart.datasets import rmat
from graphpart.training import estimate_epoch, replay_epochs


def _busy() -> None:
    while True:
        pass


def _timed(p, repeat: int, default_threads: bool):
    one = replay_module._one_thread
    if default_threads:  # torch's own thread count, as before graphpart pinned one
        replay_module._one_thread = contextlib.nullcontext
    try:
        best, c = float("inf"), None
        for _ in range(repeat):
            t = time.perf_counter()
            c = replay_epochs(p, fanouts=[15, 10, 5], batch_size=1024, seed=0)
            best = min(best, time.perf_counter() - t)
        return best, c
    finally:
        replay_module._one_thread = one


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--load", type=int, default=0, help="busy processes running meanwhile")
    args = ap.parse_args()
    g = rmat(args.scale, seed=0, train_frac=0.1)
    print(
        f"R-MAT scale {args.scale}: {g.num_nodes():,} nodes, {g.num_edges():,} edges, "
        f"torch threads {torch.get_num_threads()}"
    )
    for machines, trainers in ((8, 1), (4, 2)):
        t = time.perf_counter()
        p = gp.partition(
            g, machines, num_trainers_per_machine=trainers, balance_ntypes="train_mask", seed=0
        )
        made = time.perf_counter() - t
        hogs = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(args.load)]
        for h in hogs:
            h.start()
        try:
            best, c = _timed(p, args.repeat, default_threads=False)
            default, _ = _timed(p, args.repeat, default_threads=True)
        finally:
            for h in hogs:
                h.terminate()
        est = estimate_epoch(c)
        tot = c.totals()
        print(
            f"| {machines} machines x {trainers} trainers | {best:.2f} s (torch's "
            f"{torch.get_num_threads()} threads: {default:.2f} s, load {args.load}) | "
            f"{int(c.num_steps.max())} steps | {tot['edges_local'] + tot['edges_remote']:,.0f} "
            f"sampled edges | {tot['inputs']:,.0f} input rows | est. epoch "
            f"{est.epoch_s:.3f} s, straggler {est.straggler_ratio:.2f}x | partition {made:.0f} s |"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {rss:,.0f} MiB")


if __name__ == "__main__":
    main()

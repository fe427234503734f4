"""Neighbour sampling in GLT's three modes on one GPU (issue 43): the same sampler, the same
random stream, the topology in host memory (``CPU``), its edge arrays in pinned host memory with
the sampling on the GPU (``ZERO_COPY``), or all of it on the GPU (``CUDA``).

Run (on a machine with a GPU)::

    python benchmarks/gpu_sampling.py --scale 20 --fanouts 15,10,5 --batch 1024
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import graphpart as gp  # noqa: E402
from graphpart.sampling import NeighborSampler, Topology  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--fanouts", default="15,10,5")
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    fanouts = [int(f) for f in args.fanouts.split(",")]
    topo = Topology.from_graph(gp.datasets.rmat(args.scale, seed=0))
    gen = torch.Generator().manual_seed(1)
    batches = [torch.randint(0, topo.num_nodes, (args.batch,), generator=gen) for _ in range(8)]
    out = {"scale": args.scale, "nodes": topo.num_nodes, "edges": topo.num_edges,
           "fanouts": fanouts, "batch": args.batch, "cases": []}  # fmt: skip
    if torch.cuda.is_available():
        out["device"] = torch.cuda.get_device_name(0)
    for mode in ("CPU", "ZERO_COPY", "CUDA"):
        if mode != "CPU" and not torch.cuda.is_available():
            continue
        t = topo.to_mode(mode)
        sampler = NeighborSampler(t, fanouts, seed=0)
        sync = torch.cuda.synchronize if mode != "CPU" else (lambda: None)
        for b in batches[:3]:
            sampler.sample(b)
        sync()
        times, edges = [], 0
        for i in range(args.reps):
            s = time.perf_counter()
            mb = sampler.sample(batches[i % 8])
            sync()
            times.append(time.perf_counter() - s)
            edges += mb.num_sampled_edges
        sec = statistics.median(times)
        row = {"mode": mode, "ms_per_batch": 1e3 * sec,
               "sampled_edges_per_s": edges / args.reps / sec}  # fmt: skip
        out["cases"].append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

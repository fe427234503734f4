"""``graphpart plan`` for R-MAT scales not generated here: each step's memory and disk from the
counts alone (what ``plan`` prints from a ``metadata.json``), beside this machine's free disk.

Usage::

    .venv/bin/python benchmarks/plan_at_scale.py --scales 26 27 --parts 16 32 --chunks 64 128

The graph's counts are R-MAT's with edge factor 16 after deduplication (measured: 1.06 B
edges at scale 26, 528.7 M at 25), its HALO nodes per part as measured at
scale 26 (``--halo-per-edge``, HALO nodes over edges).
"""

from __future__ import annotations

import argparse
import shutil
from types import SimpleNamespace

import numpy as np

from graphpart.chunked.plan import plan_pipeline

#: Edges R-MAT keeps after deduplication, per node (measured at scales 22-26).
EDGES_PER_NODE = {22: 15.56, 24: 15.68, 25: 15.76, 26: 15.80}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scales", type=int, nargs="+", default=[26, 27])
    ap.add_argument("--parts", type=int, nargs="+", default=[16])
    ap.add_argument("--chunks", type=int, nargs="+", default=[64])
    ap.add_argument("--halo-per-edge", type=float, default=0.15)
    ap.add_argument("--where", default="/work")
    args = ap.parse_args()
    free = shutil.disk_usage(args.where).free
    print(f"free disk under {args.where}: {free / 2**30:.1f} GiB")
    for scale, k, chunks in zip(args.scales, args.parts, args.chunks):
        n = 1 << scale
        e = int(n * EDGES_PER_NODE.get(scale, 16.0))
        et = ("_N", "_E", "_N")
        meta = SimpleNamespace(
            num_nodes={"_N": n},
            num_edges={et: e},
            edges={et: SimpleNamespace(counts=[e // chunks] * chunks, paths=[""] * chunks)},
            node_data={},
            edge_data={},
        )
        halo = np.full(k, int(args.halo_per_edge * e / k))
        chunk_disk = (8 if n < 2**31 else 16) * e  # int32 ids where they fit
        print(f"\nR-MAT {scale}: {n:,} nodes, {e:,} edges, {k} parts, {chunks} chunks")
        print(f"  chunk: {chunk_disk / 2**30:.1f} GiB of numpy chunks")
        total = chunk_disk
        for s in plan_pipeline(meta, k, "fennel", leaving=int(0.9 * e), halo=halo):
            print(f"  {s.row()}")
            if s.step == "dispatch phase 2":
                total += s.disk
        verdict = "fits" if total <= free else "does NOT fit"
        print(f"  chunks + dispatch: {total / 2**30:.1f} GiB of disk: {verdict}")


if __name__ == "__main__":
    main()

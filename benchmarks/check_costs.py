"""What the hostile-input checks of issue 61 cost, against the work they guard.

- the memory rule: reading this process's cgroups (``utils.memory.available_memory``) and a
  step's plan summed (``chunked.plan.check_step_memory``);
- ``fs.atomic.foreign_part`` over a killed dispatch's work folder (every file of every
  partition ``lstat``-ed) against building those partitions;
- the resume key: the assignment hashed as dispatch read it (``_resume.assignment_digest``)
  against walking and hashing its text files again (what the key read before).

Usage::

    .venv/bin/python benchmarks/check_costs.py --scale 22 --parts 64
"""

from __future__ import annotations

import argparse
import importlib
import tempfile
import time
from pathlib import Path

import numpy as np
from _timing import best_of

from graphpart.chunked import assign, plan, write_chunked
from graphpart.chunked.assign import read_assignment
from graphpart.chunked.format import read_metadata
from graphpart.datasets import rmat
from graphpart.fs.atomic import foreign_part
from graphpart.fs.digest import folder_digests
from graphpart.utils import memory

resume = importlib.import_module("graphpart.chunked._resume")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=22)
    ap.add_argument("--parts", type=int, default=64)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="check-costs-"))
    rows = []
    rows.append(("available_memory() (cgroups read)", best_of(memory.available_memory, 50)))

    g = rmat(16, seed=0)
    write_chunked(g, root / "small", 4)
    meta = read_metadata(root / "small")
    needs = plan.plan_pipeline(meta, 4, "none")
    rows.append(
        (
            "check_step_memory (dispatch)",
            best_of(lambda: plan.check_step_memory(needs, "dispatch", 2, ""), 50),
        )
    )

    # a work folder shaped as dispatch's: part<i>/ with its four files, for --parts partitions
    work = root / "work"
    for p in range(args.parts):
        d = work / "new" / f"part{p}"
        d.mkdir(parents=True)
        for name in ("fused_csc_sampling_graph.pt", "node_feat.dgl", "edge_feat.dgl", "done.json"):
            (d / name).write_bytes(b"x")
    rows.append(
        (f"foreign_part, {args.parts} partitions' folder", best_of(lambda: foreign_part(work), 5))
    )

    # the resume key at scale: the assignment as read vs its files walked and hashed again
    n = 1 << args.scale
    parts = {"_N": np.random.default_rng(0).integers(0, args.parts, n)}
    asg = root / "asg"
    asg.mkdir()
    np.savetxt(asg / "_N.txt", parts["_N"], fmt="%d")
    (asg / "partition_meta.json").write_text('{"num_parts": %d}' % args.parts)
    rows.append(
        (
            f"assignment_digest, {n:,} nodes (as read)",
            best_of(lambda: resume.assignment_digest(parts, asg), 3),
        )
    )
    rows.append(("folder_digests of its files (before)", best_of(lambda: folder_digests(asg), 3)))
    time.perf_counter()
    write_chunked(rmat(args.scale - 4, seed=0), root / "c", 4)
    assign(root / "c", root / "a", 4, "random")
    t_asg = best_of(lambda: read_assignment(root / "a", read_metadata(root / "c")), 3)
    rows.append((f"read_assignment, {1 << (args.scale - 4):,} nodes (context)", t_asg))

    print("| check | seconds |\n|---|---|")
    for what, secs in rows:
        print(f"| {what} | {secs:.6f} |")


if __name__ == "__main__":
    main()

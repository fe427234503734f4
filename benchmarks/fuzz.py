"""The long fuzz run (``make fuzz``): thousands of mutations of peer-written partitions.

The same harness as ``tests/test_fuzz.py`` (``tests/fuzzing.py``): each case copies a partition
folder written by DGL (``.dgl`` or GraphBolt files), PyG, GLT or graphpart, mutates one file
(bytes, a torch zip member, the unpickled object tree, or a JSON value), opens it, and checks
that it loads or is refused with a one-line GraphpartError within 2 s and 200 MB. The suite runs
seeds ``0..299``; this runs ``--cases`` seeds per target from ``--start`` (default: a fresh range
each day), so each run tries new cases. A broken case prints its target and seed: add the seed to
``REGRESSIONS`` in ``tests/test_fuzz.py`` once it is fixed.

    python benchmarks/fuzz.py                       # 2,000 cases per target
    python benchmarks/fuzz.py --cases 200 --target karate-pyg --start 5000
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzzing import TARGET_NAMES, Fuzzer  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=2000, help="cases per target")
    ap.add_argument("--start", type=int, default=None, help="first seed (default: from the date)")
    ap.add_argument("--target", action="append", choices=TARGET_NAMES, help="(repeatable)")
    args = ap.parse_args(argv)
    start = (
        args.start if args.start is not None else 300 + int(time.time() // 86400) % 1000 * 10_000
    )
    targets = args.target or TARGET_NAMES
    counts: dict[str, collections.Counter] = {t: collections.Counter() for t in targets}
    slowest: dict[str, float] = dict.fromkeys(targets, 0.0)
    largest: dict[str, float] = dict.fromkeys(targets, 0.0)
    broken = []
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as work, Fuzzer(Path(work)) as fuzzer:
        for target in targets:
            for seed in range(start, start + args.cases):
                o = fuzzer.run(target, seed)
                counts[target][o.result] += 1
                slowest[target] = max(slowest[target], o.seconds)
                largest[target] = max(largest[target], o.megabytes)
                if o.result == "broken":
                    broken.append(f"{o.case}: {o.message}")
                    print(f"BROKEN {broken[-1]}", flush=True)
    took = time.perf_counter() - began
    print(f"\nseeds {start}..{start + args.cases - 1} per target, {took:.0f} s\n")
    print("| target | cases | load | GraphpartError | broken | slowest case (s) | most MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for t in targets:
        c = counts[t]
        print(
            f"| {t} | {sum(c.values())} | {c['load']} | {c['error']} | {c['broken']} | "
            f"{slowest[t]:.2f} | {largest[t]:.0f} |"
        )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

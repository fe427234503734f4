"""Feature lookups on a real GPU: GLT's hot/cold split against its two bounds (issue 43).

- **upper bound**: the whole table in GPU memory, one ``torch.index_select`` there;
- **lower bound**: the whole table in pinned host memory, rows gathered there into pinned memory
  and copied over the bus (what a trainer without a cache does);
- **graphpart** ``Feature(..., device_group_list=[DeviceGroup(0, [0])], device=0)``: the hot
  ``split_ratio`` of the rows on the GPU (hottest first), the rest in pinned host memory; its
  counts are the simulation's (checked).

Ids are drawn per lookup from a skewed distribution (rank ``r`` with weight ``(r + 1) ** -a``,
``a = 0.8``, as sampled neighbours of a power-law graph are) and uniformly. Lookups per second
and GB/s (rows x row bytes / time) are the median over ``--reps`` timed lookups after warm-up,
each ended by ``torch.cuda.synchronize()``.

Run (on a machine with a GPU)::

    python benchmarks/gpu_gather.py --rows 8000000 --width 128 --batch 100000 --out results.json
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

from graphpart.features import DeviceGroup, Feature  # noqa: E402


def _time(fn, reps: int) -> float:
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=8_000_000)
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--batch", type=int, default=100_000)
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--ratios", default="0.05,0.2,0.5,0.8,1.0")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("gpu_gather.py needs a CUDA GPU")
    n, w, b = args.rows, args.width, args.batch
    dev = torch.device("cuda", 0)
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(n, w, generator=gen)
    row_bytes = w * x.element_size()
    weights = (torch.arange(n, dtype=torch.float64) + 1) ** -0.8
    rank_to_node = torch.randperm(n, generator=gen)
    hot_first = rank_to_node  # the hottest rank first: what a degree or pre-sampling order gives

    def ids(kind: str) -> torch.Tensor:
        if kind == "uniform":
            return torch.randint(0, n, (b,), generator=gen)
        return rank_to_node[torch.multinomial(weights, b, replacement=True, generator=gen)]

    batches = {k: [ids(k) for _ in range(8)] for k in ("skewed", "uniform")}
    results = {
        "device": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "rows": n,
        "width": w,
        "batch": b,
        "cases": [],
    }

    def case(name, kind, fn, ratio=None, hit_rate=None):
        it = iter(range(10**9))
        sec = _time(lambda: fn(batches[kind][next(it) % 8]), args.reps)
        row = {
            "case": name,
            "ids": kind,
            "split_ratio": ratio,
            "hit_rate": hit_rate,
            "lookups_per_s": 1 / sec,
            "gbyte_s": b * row_bytes / sec / 1e9,
            "ms": sec * 1e3,
        }
        results["cases"].append(row)
        print(json.dumps(row), flush=True)

    table = {"gpu": x.to(dev)}
    for kind in batches:
        case(
            "upper: whole table on the GPU",
            kind,
            lambda i: torch.index_select(table["gpu"], 0, i.to(dev)),
        )
    del table["gpu"]
    torch.cuda.empty_cache()
    table["pinned"] = x.pin_memory()

    def host_gather(i):
        staged = torch.empty((len(i), w), dtype=x.dtype, pin_memory=True)
        torch.index_select(table["pinned"], 0, i, out=staged)
        return staged.to(dev, non_blocking=True)

    for kind in batches:
        case("lower: host gather + copy", kind, host_gather)
    del table["pinned"]
    group = [DeviceGroup(0, [0])]
    for ratio in (float(r) for r in args.ratios.split(",")):
        f = Feature(x, ratio, order=hot_first, device_group_list=group, device=0, with_gpu=True)
        sim = Feature(x, ratio, order=hot_first, device_group_list=group, device=0,
                      with_gpu=False)  # fmt: skip
        for kind in batches:
            sim.reset_stats()
            got = f[batches[kind][0].to(dev)]
            want = sim[batches[kind][0]]
            assert torch.equal(got.cpu(), want), "the GPU's rows differ from the simulation's"
            assert f.box.stats[0].totals() == sim.box.stats[0].totals()
            f.reset_stats()
            case("graphpart Feature, one GPU", kind, lambda i, f=f: f[i.to(dev)], ratio,
                 None)  # fmt: skip
            results["cases"][-1]["hit_rate"] = f.stats.hit_rate
            f.reset_stats()
        del f, sim
        torch.cuda.empty_cache()
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

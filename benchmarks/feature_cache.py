"""Feature-cache hit rates, simulator throughput and gather throughput on R-MAT, in one run.

R-MAT scale 20 (edge factor 16), in-neighbour sampling with fanouts (15, 10, 5)
and batch size 1024 over a random 10% of nodes as the train set. One epoch is
pre-sampled (GNNLab's PreSC: its access counts order the ``presample`` cache
and warm the dynamic caches), the next epoch is measured. For each cache
ratio, every static ordering, every dynamic policy and both oracles replay the
measured epoch. Then ``Feature.__getitem__`` gathers the measured batches'
rows (128-dim float32) next to a plain ``torch.index_select`` of the same rows
(the memory-bandwidth ceiling), on the CPU and, when CUDA is present, on the GPU.

Usage: ``.venv/bin/python benchmarks/feature_cache.py [--scale 20] [--json out.json]``
"""

from __future__ import annotations

import argparse
import json
import time

import torch


def interleaved(fns: dict, repeat: int) -> dict:
    """Best time of each callable, taking turns (a noisy machine slows all of them alike)."""
    best = {k: float("inf") for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            t = time.perf_counter()
            fn()
            best[k] = min(best[k], time.perf_counter() - t)
    return best


def throughput(trace, pre, orders, ratio, repeat) -> dict:
    """Lookups per second of each policy's replay at ``ratio``: best of ``repeat`` fresh (warmed)
    caches."""
    from graphpart.features import (
        BeladyCache,
        StaticCache,
        capacity_for,
        make_cache,
        oracle_order,
        simulate,
    )

    cap = capacity_for(ratio, trace.num_nodes)
    makers = {name: (lambda o=o: StaticCache(o, cap)) for name, o in orders.items()}
    makers["oracle"] = lambda: StaticCache(oracle_order(trace), cap)
    for name in ("lru", "fifo", "clock", "sieve"):

        def make(name=name):
            c = make_cache(name, trace.num_nodes, cap)
            simulate(pre, c)  # warm-up, not timed
            return c

        makers[name] = make
    makers["belady"] = lambda: BeladyCache(trace, cap)
    best = {}
    for _ in range(repeat):
        for name, make in makers.items():
            run = simulate(trace, make())
            best[name] = max(best.get(name, 0.0), run.lookups_per_second)
    return best


def gather_rates(x, batches, ratio, order, device, repeat):
    """GB/s of Feature lookups (static and LRU) and of index_select, over the same batches."""
    from graphpart.features import Feature

    nbytes = sum(len(b) for b in batches) * x[0].numel() * x.element_size()
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    fns = {}
    if device == "cuda":
        xs = x.to(device)  # the ceiling: every row already in GPU memory
        dev_batches = [b.to(device) for b in batches]
        host = x.pin_memory()

        def plain():
            for b in dev_batches:
                torch.index_select(xs, 0, b)
            sync()

        def host_copy():  # no cache: gather on the host, copy over PCIe
            for b in batches:
                torch.index_select(host, 0, b).pin_memory().to(device, non_blocking=True)
            sync()

        fns["index_select (all rows on GPU)"] = plain
        fns["host gather + copy (no cache)"] = host_copy
    else:
        dev_batches = batches

        def plain():
            for b in batches:
                torch.index_select(x, 0, b)

        fns["index_select"] = plain
    for cache in ("static", "lru"):
        f = Feature(x, split_ratio=ratio, order=order, cache=cache, device=device)

        def look(f=f):
            for b in dev_batches:
                f[b]
            sync()

        fns[f"Feature[{cache}]"] = look
    return {k: nbytes / t / 1e9 for k, t in interleaved(fns, repeat).items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--edge-factor", type=int, default=16)
    ap.add_argument("--train-frac", type=float, default=0.1)
    ap.add_argument("--fanouts", default="15,10,5")
    ap.add_argument("--batch-size", type=int, default=1024)
    ap.add_argument("--ratios", default="0.05,0.1,0.2")
    ap.add_argument("--dim", type=int, default=128)
    ap.add_argument("--gather-ratio", type=float, default=0.1)
    ap.add_argument("--gather-batches", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--presample-epochs", type=int, default=3)
    ap.add_argument("--device", default=None, help="cpu or cuda (default: cuda when present)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    from graphpart.datasets import rmat
    from graphpart.features import (
        degree_order,
        hit_rate_table,
        oracle_order,
        random_order,
        record_trace,
    )
    from graphpart.sampling import NeighborLoader, Topology

    device = a.device or ("cuda" if torch.cuda.is_available() else "cpu")
    fanouts = [int(f) for f in a.fanouts.split(",")]
    ratios = [float(r) for r in a.ratios.split(",")]
    res: dict = {"args": vars(a), "threads": torch.get_num_threads(), "device": device}
    t = time.perf_counter()
    g = rmat(a.scale, a.edge_factor, seed=a.seed)
    topo = Topology.from_graph(g)
    n = topo.num_nodes
    res["graph"] = {"nodes": n, "edges": topo.num_edges, "seconds": time.perf_counter() - t}
    train = torch.randperm(n, generator=torch.Generator().manual_seed(a.seed))[
        : int(a.train_frac * n)
    ]
    loader = NeighborLoader(topo, fanouts, seeds=train, batch_size=a.batch_size, seed=a.seed)
    t = time.perf_counter()
    pre = record_trace(loader, a.presample_epochs)
    res["presample"] = {
        "seconds": time.perf_counter() - t,
        "batches": pre.num_batches,
        "lookups": pre.num_lookups,
    }
    trace = record_trace(loader, 1)  # the next epoch: new shuffle, new samples
    res["trace"] = {
        "batches": trace.num_batches,
        "lookups": trace.num_lookups,
        "distinct": int((trace.counts() > 0).sum()),
    }
    print(
        f"R-MAT scale {a.scale}: {n:,} nodes, {topo.num_edges:,} edges; {len(train):,} train "
        "seeds; "
        f"{trace.num_batches} batches, {trace.num_lookups:,} lookups per epoch "
        f"({a.presample_epochs} pre-sampling epochs: {res['presample']['seconds']:.1f} s)"
    )
    orders = {
        "random": random_order(n, a.seed),
        "in-degree": degree_order(topo, "in"),
        "out-degree": degree_order(topo, "out"),
        "presample": oracle_order(pre),
    }
    table = hit_rate_table(trace, ratios, orders, warmup=pre)
    res["hit_rates"] = {p: r.tolist() for p, r in table.rates.items()}
    res["lookups_per_second"] = throughput(trace, pre, orders, a.gather_ratio, a.repeat)
    print(
        "\n| policy | "
        + " | ".join(f"{r:.0%}" for r in ratios)
        + f" | M lookups/s at {a.gather_ratio:.0%} |"
    )
    print("|---|" + "---|" * (len(ratios) + 1))
    for p, r in table.rates.items():
        lps = res["lookups_per_second"][p] / 1e6
        print(f"| {p} | " + " | ".join(f"{v:.1%}" for v in r) + f" | {lps:.0f} |")
    ratio_pre = [p / o for p, o in zip(table.rates["presample"], table.rates["oracle"])]
    res["presample_vs_oracle"] = ratio_pre
    print("\npre-sampling / static oracle: " + ", ".join(f"{v:.3f}" for v in ratio_pre))
    x = torch.randn(n, a.dim)
    batches = [trace.batch(i) for i in range(min(a.gather_batches, trace.num_batches))]
    res["gather_GBps"] = {}
    for dev in ["cpu"] + (["cuda"] if device == "cuda" else []):
        rates = gather_rates(x, batches, a.gather_ratio, orders["presample"], dev, a.repeat)
        res["gather_GBps"][dev] = rates
        print(
            f"\ngather on {dev} ({a.dim}-dim float32, split_ratio {a.gather_ratio}, {len(batches)} "
            "batches), GB/s:"
        )
        for k, v in rates.items():
            print(f"  {k:34s} {v:7.2f}")
    if device == "cuda":
        res["gpu"] = torch.cuda.get_device_name()
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(res, fh, indent=1)


if __name__ == "__main__":
    main()

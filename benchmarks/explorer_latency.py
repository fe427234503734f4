"""How long PartitionExplorer blocks the kernel, and how long a redraw takes, on ~100K edges.

    .venv/bin/python benchmarks/explorer_latency.py [--scale 14 --edge-factor 6]

The handler time is what the UI waits for (the kernel is free again after it);
the redraw (partitioning, the two WebGL views, the balance figure, the metrics) runs in a
background thread.
"""

from __future__ import annotations

import argparse
import logging
import time

import matplotlib

matplotlib.use("Agg")

from graphpart.datasets import rmat  # noqa: E402
from graphpart.widgets import PartitionExplorer  # noqa: E402

log = logging.getLogger("explorer_latency")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=14)
    ap.add_argument("--edge-factor", type=int, default=6)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    g = rmat(
        args.scale,
        edge_factor=args.edge_factor,
        seed=0,
        train_frac=0.1,
        val_frac=0.1,
        test_frac=0.1,
    )
    log.info("%s", g)
    t = time.perf_counter()
    ex = PartitionExplorer(g, num_parts=4)
    log.info("%-14s first partitioning and drawing: %.2f s", "create", time.perf_counter() - t)
    for name, value in [
        ("num_parts", 8),
        ("balance_ntypes", "train_mask"),
        ("balance_edges", True),
        ("num_hops", 2),
        ("part_method", "random"),
    ]:
        t = time.perf_counter()
        ex.controls[name].value = value
        blocked = time.perf_counter() - t
        ex.wait(300)
        log.info(
            "%-14s handler %.1f ms, redraw done after %.2f s",
            name,
            1000 * blocked,
            time.perf_counter() - t,
        )


if __name__ == "__main__":
    main()

"""Cut and balance of the streaming assignment (chunked, edge-balanced) against in-memory METIS
with ``balance_edges=True``, on R-MAT and on an SBM with communities, at scales where METIS fits.

Usage: ``.venv/bin/python benchmarks/streaming_quality.py --scales 20 21 --parts 16``
(``--graphs sbm --methods metis metis-sample --sample 0.125`` for one graph and some methods)

For each graph: chunked to numpy edges (8 chunks), then ``stream_partition`` (Fennel and LDG:
in-degree and node caps at 1.05, refinement passes), ``metis-sample`` (what
``assign --algorithm metis --metis-max-edges`` runs: METIS on a streamed sample of ``--sample``
of the edges, then refinement passes over every edge) and ``metis_assignment(balance_edges=True)``
(the in-memory path, which also balances nodes). Prints one row per run and the ratio of each
cut to METIS's.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time

import numpy as np


def graphs(scale: int, which: list[str]):
    from graphpart.datasets import rmat, sbm

    if "rmat" in which:
        yield f"R-MAT scale {scale}", rmat(scale, seed=0)
    if "sbm" not in which:
        return
    blocks = 256
    size = (1 << scale) // blocks
    # communities: about 16 neighbours inside a node's block and 4 outside it
    yield (
        f"SBM 2^{scale} nodes, {blocks} blocks",
        sbm([size] * blocks, p_in=16 / size, p_out=4 / (1 << scale), seed=0),
    )


def measure(name, parts, s, d, k, seconds):
    nodes = np.bincount(parts, minlength=k)
    indeg = np.bincount(parts[d], minlength=k)
    row = {
        "graph": name[0],
        "method": name[1],
        "cut": round(float((parts[s] != parts[d]).mean()), 4),
        "nodes_max_mean": round(float(nodes.max() / nodes.mean()), 3),
        "indeg_max_mean": round(float(indeg.max() / indeg.mean()), 3),
        "seconds": round(seconds, 1),
    }
    print(json.dumps(row), flush=True)
    return row


def main() -> None:
    from graphpart.chunked import read_metadata, write_chunked
    from graphpart.chunked._metis import sampled_metis
    from graphpart.chunked.stream import stream_partition
    from graphpart.partitioning.metis import metis_assignment

    ap = argparse.ArgumentParser()
    ap.add_argument("--scales", type=int, nargs="+", default=[20])
    ap.add_argument("--parts", type=int, default=16)
    ap.add_argument("--graphs", nargs="+", default=["rmat", "sbm"], choices=["rmat", "sbm"])
    ap.add_argument(
        "--methods", nargs="+", default=["fennel", "ldg", "metis-sample", "metis"],
        choices=["fennel", "ldg", "metis-sample", "metis"],
    )  # fmt: skip
    ap.add_argument("--sample", type=float, default=0.125, help="metis-sample: share of edges")
    args = ap.parse_args()
    rows = []
    for scale in args.scales:
        for gname, g in graphs(scale, args.graphs):
            s, d = (x.numpy() for x in g.edges())
            with tempfile.TemporaryDirectory() as tmp:
                meta = read_metadata(write_chunked(g, tmp + "/c", 8, edge_format="numpy"))
                for alg in [a for a in args.methods if a in ("fennel", "ldg")]:
                    t = time.perf_counter()
                    p = stream_partition(meta, args.parts, alg, balance_edges=True)
                    rows.append(measure((gname, alg), p, s, d, args.parts, time.perf_counter() - t))
                if "metis-sample" in args.methods:
                    t = time.perf_counter()
                    classes = np.zeros(g.num_nodes(), dtype=np.int32)
                    budget = int(args.sample * g.num_edges())
                    p = sampled_metis(meta, args.parts, classes, True, budget, seed=0)
                    name = (gname, f"metis-sample ({args.sample:g} of the edges)")
                    rows.append(measure(name, p, s, d, args.parts, time.perf_counter() - t))
            t = time.perf_counter()
            p = np.asarray(
                metis_assignment(s, d, g.num_nodes(), args.parts, balance_edges=True, seed=0)
            )
            rows.append(measure((gname, "metis"), p, s, d, args.parts, time.perf_counter() - t))
            del g, s, d
    print("\n| graph | method | cut | cut / METIS | nodes max/mean | in-degree max/mean | s |")
    print("|---|---|---|---|---|---|---|")
    metis = {r["graph"]: r["cut"] for r in rows if r["method"] == "metis"}
    for r in rows:
        print(
            f"| {r['graph']} | {r['method']} | {r['cut']} | {r['cut'] / metis[r['graph']]:.2f} | "
            f"{r['nodes_max_mean']} | {r['indeg_max_mean']} | {r['seconds']} |"
        )


if __name__ == "__main__":
    main()

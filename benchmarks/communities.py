"""Cuts on a graph with communities and power-law degrees (a degree-corrected SBM): METIS on every
edge in memory (``metis_max_edges=None``: no sample) against the routes of the chunked pipeline,
at scales where METIS fits.

For each scale: ``datasets.dcsbm`` (average degree 16, communities of 4096 nodes, mixing 0.2,
exponent 2.5), chunked in 64 numpy chunks; METIS in memory (``graphpart.partition``), then
``chunked.assign`` by default (METIS: every edge within 8 GB, else the graph coarsened), with
``--metis-max-edges`` at a quarter and a fifth of the edges, and Fennel; each cut against METIS's.
The default route beyond memory is measured with ``pipeline_steps.py --dataset dcsbm``.

Usage::

    .venv/bin/python benchmarks/communities.py --scales 20 21 --workdir /work/scale
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

import numpy as np

PARAMS = {"avg_degree": 16, "community_size": 4096, "mixing": 0.2, "exponent": 2.5, "seed": 0}


def main() -> None:
    import graphpart as gp
    from graphpart.chunked import assign, load_chunked, read_assignment
    from graphpart.chunked.ingest import dcsbm_chunked

    ap = argparse.ArgumentParser()
    ap.add_argument("--scales", type=int, nargs="+", default=[20])
    ap.add_argument("--parts", type=int, default=16)
    ap.add_argument("--workdir", type=Path, default=Path("/tmp/communities"))
    args = ap.parse_args()
    k = args.parts
    for scale in args.scales:
        w = args.workdir / f"dcsbm{scale}"
        shutil.rmtree(w, ignore_errors=True)
        dcsbm_chunked(w / "c", 64, scale, edge_format="numpy", **PARAMS)
        g = load_chunked(w / "c")
        s, d = (x.numpy() for x in g.edges())
        label = g.ndata["label"].numpy()

        def cut(p):
            return float((p[s] != p[d]).mean())

        row = {"scale": scale, "nodes": g.num_nodes(), "edges": g.num_edges()}
        row["planted"] = round(cut(label), 4)
        t = time.time()
        full = gp.partition(g, k, part_method="metis", num_hops=0, seed=0, metis_max_edges=None)
        full = np.asarray(full.node_part)
        row["metis in memory"] = (round(cut(full), 4), round(time.time() - t, 1))
        del g
        m = len(s)
        routes = {
            "assign (default)": {},
            "assign metis --metis-max-edges E/4": {"algorithm": "metis", "metis_max_edges": m // 4},
            "assign metis --metis-max-edges E/5": {"algorithm": "metis", "metis_max_edges": m // 5},
            "assign fennel": {"algorithm": "fennel"},
        }
        for name, kw in routes.items():
            t = time.time()
            out = assign(w / "c", w / name.replace(" ", "_").replace("/", ""), k, seed=0, **kw)
            p = read_assignment(out, w / "c")[0]["_N"]
            row[name] = (round(cut(p), 4), round(cut(p) / cut(full), 3), round(time.time() - t, 1))
        print(json.dumps(row), flush=True)
        shutil.rmtree(w, ignore_errors=True)


if __name__ == "__main__":
    main()

"""graphpart.partition_graph vs DGL's partition_graph and KaMinPar, side by side in one run.

    python benchmarks/partition_vs_dgl.py [--graph rmat|dcsbm|wordnet|4elt|mdual|copter2]
        [--scale 20] [--edge-factor 10] [--community-size 2048] [--mixing 0.15] [--parts 8 32]
        [--configs plain balanced] [--skip-dgl] [--skip-kaminpar]

The graph: R-MAT (Graph500 parameters; scale 20 and edge factor 10 give ~1M nodes and ~10M
undirected edges), a degree-corrected stochastic block model (``graphpart.datasets.dcsbm``:
communities of ``--community-size`` nodes, ``--mixing`` of the draws leaving them, average degree
16, degrees a power law of exponent 2.5), WordNet, or one of METIS's meshes; 16-dim float features
and a 10% train mask. 1 HALO hop; ``plain`` and ``balanced`` (balance_ntypes=train_mask +
balance_edges). Each side runs in a fresh process, so its peak RSS is its own: graphpart's default,
DGL 2.1 from its own virtual environment (tools/make_peer_env.sh, through
benchmarks/make_dgl_env.sh, creates it on first use), and KaMinPar (``.venv/bin/pip install -e
.[bench]``; its one balance constraint: plain only). The machines are noisy: compare ratios within
one run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"


def make_graph(args: argparse.Namespace, directory: Path) -> dict:
    """Write the benchmark graph's edges, features and train mask as .npy files."""
    from graphpart.datasets import NodeTask, attach_node_data

    task = NodeTask(feat_dim=16, train_frac=0.1)
    if args.graph == "rmat":
        from graphpart.datasets.rmat import rmat

        g = rmat(args.scale, edge_factor=args.edge_factor, seed=0, task=task)
    elif args.graph == "dcsbm":
        from graphpart.datasets import dcsbm

        g = dcsbm(args.scale, 16, args.community_size, args.mixing, seed=0, task=task)
    elif args.graph == "wordnet":
        from graphpart import Graph
        from graphpart.datasets import load_wordnet
        from graphpart.homogeneous import HomogeneousGraph

        h = HomogeneousGraph.of(load_wordnet())  # DGL's side builds one homogeneous graph
        g = Graph.from_edges(h.src, h.dst, num_nodes=int(h.node_offsets[-1]))
        g = attach_node_data(g, np.random.default_rng(0), task)
    else:
        from graphpart.datasets import load_metis_graph

        g = attach_node_data(load_metis_graph(args.graph), np.random.default_rng(0), task)
    directory.mkdir(parents=True, exist_ok=True)
    s, d = g.edges()
    np.save(directory / "src.npy", s.numpy())
    np.save(directory / "dst.npy", d.numpy())
    np.save(directory / "num_nodes.npy", np.array(g.num_nodes()))
    np.save(directory / "feat.npy", g.ndata["feat"].numpy())
    np.save(directory / "train_mask.npy", g.ndata["train_mask"].numpy())
    return {"num_nodes": g.num_nodes(), "num_edges": g.num_edges()}


def graph_name(args: argparse.Namespace) -> str:
    if args.graph == "rmat":
        return f"rmat{args.scale}_ef{args.edge_factor}"
    if args.graph == "dcsbm":
        return f"dcsbm{args.scale}_c{args.community_size}_mix{args.mixing}"
    return args.graph


def peak_rss_gb(python: str, script: str, args: list[str]) -> tuple[dict, float]:
    # /usr/bin/time is not everywhere; wait4 on the child gives its own ru_maxrss.
    proc = subprocess.Popen(
        [python, str(HERE / script), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "DGLBACKEND": "pytorch"},
    )
    stdout = proc.stdout.read()
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code:
        # a peer that does not fit the machine is a result (killed by the kernel: -9), recorded
        # with the peak it reached; graphpart failing is not
        if script == "_dgl_side.py":
            tail = stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
            return {"failed": f"exit {code} {tail[0][:200]}".strip()}, usage.ru_maxrss / 1e6
        raise SystemExit(f"{script} failed:\n{stderr.decode()[-3000:]}")
    return json.loads(stdout.decode().strip().splitlines()[-1]), usage.ru_maxrss / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--graph", default="rmat", choices=["rmat", "dcsbm", "wordnet", "4elt", "mdual", "copter2"]
    )
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--edge-factor", type=int, default=10)
    ap.add_argument("--community-size", type=int, default=2048)
    ap.add_argument("--mixing", type=float, default=0.15)
    ap.add_argument("--parts", type=int, nargs="+", default=[8])
    ap.add_argument("--configs", nargs="+", default=["plain", "balanced"])
    ap.add_argument("--skip-dgl", action="store_true")
    ap.add_argument("--skip-kaminpar", action="store_true")
    args = ap.parse_args()
    gdir = OUT / graph_name(args)
    info = make_graph(args, gdir)
    print(
        f"{graph_name(args)}: {info['num_nodes']:,} nodes, {info['num_edges']:,} edges; "
        f"parts {args.parts}, 1 hop",
        flush=True,
    )
    dgl_python = None
    if not args.skip_dgl:
        venv = subprocess.run(
            ["bash", str(HERE / "make_dgl_env.sh")], capture_output=True, text=True, check=True
        )
        dgl_python = str(Path(venv.stdout.strip().splitlines()[-1]) / "bin" / "python")
    kaminpar = not args.skip_kaminpar and importlib.util.find_spec("kaminpar") is not None
    if not args.skip_kaminpar and not kaminpar:
        print(
            "KaMinPar is not installed (pip install -e .[bench]): its side is left out", flush=True
        )
    rows = []
    for k in args.parts:
        for label in args.configs:
            balance = label == "balanced"
            sides = [("graphpart", sys.executable, "_graphpart_side.py")]
            if dgl_python:
                sides.append(("dgl", dgl_python, "_dgl_side.py"))
            if kaminpar and not balance:
                sides.append(("kaminpar", sys.executable, "_kaminpar_side.py"))
            for name, python, script in sides:
                out_dir = OUT / f"parts_{name}"
                shutil.rmtree(out_dir, ignore_errors=True)
                argv = [str(gdir), str(out_dir), str(k), "1" if balance else "0"]
                if name == "kaminpar":
                    argv = [str(gdir), str(k)]
                res, rss = peak_rss_gb(python, script, argv)
                row = {"parts": k, "config": label, "side": name, "peak_rss_gb": round(rss, 2)}
                if "failed" in res:
                    row["failed"] = res["failed"]
                else:
                    tr = np.array(res["train_per_part"])
                    row.update(
                        wall_s=round(res["wall_s"], 2),
                        metis_s=round(res["metis_s"], 2),
                        edge_cut=res["edge_cut"],
                        train_max_over_mean=round(float(tr.max() / tr.mean()), 3),
                        worst_constraint=max(res["constraints"].values()),
                        constraints=res["constraints"],
                    )
                rows.append(row)
                print(json.dumps(row), flush=True)
                shutil.rmtree(out_dir, ignore_errors=True)
    print(
        "\n| parts | config | side | wall s | partitioner s | peak RSS GB | edge cut | train "
        "max/mean | worst constraint max/mean |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "failed" in r:
            print(f"| {r['parts']} | {r['config']} | {r['side']} | did not finish: {r['failed']} "
                  f"| | {r['peak_rss_gb']:.2f} | | | |")  # fmt: skip
            continue
        print(
            f"| {r['parts']} | {r['config']} | {r['side']} | {r['wall_s']} | {r['metis_s']} | "
            f"{r['peak_rss_gb']} | {r['edge_cut']:,} | {r['train_max_over_mean']} | "
            f"{r['worst_constraint']} |"
        )
    print()
    for k in args.parts:
        for label in args.configs:
            got = {r["side"]: r for r in rows if r["parts"] == k and r["config"] == label}
            a, b, c = (got.get(side) for side in ("graphpart", "dgl", "kaminpar"))
            line = f"{k} parts, {label}:"
            if b and "failed" not in b:
                line += (
                    f" graphpart/DGL wall {a['wall_s'] / b['wall_s']:.2f}x, peak RSS "
                    f"{a['peak_rss_gb'] / b['peak_rss_gb']:.2f}x, edge cut "
                    f"{a['edge_cut'] / b['edge_cut']:.3f}x;"
                )
            peers = [r["edge_cut"] for r in (b, c) if r and "failed" not in r]
            if peers:
                line += f" cut / the better peer's {a['edge_cut'] / min(peers):.3f}x"
            print(line)
    (OUT / f"partition_vs_dgl_{graph_name(args)}.json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()

"""Foundation benchmarks: dataset loading, generators and id conversion, each beside a peer.

Every case runs in its own subprocess so that peak memory (max RSS) belongs to
that case alone. Times are the best of ``--repeat`` runs; on these noisy
machines compare the ratios, not the absolute numbers.

    python benchmarks/run_all.py              # all cases, markdown table on stdout
    python benchmarks/run_all.py --case rmat20
"""

from __future__ import annotations

import argparse
import bisect
import json
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
from _timing import best_of


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---------------------------------------------------------------- cases
# Each returns {"what": ..., "graphpart_s": ..., "peer": ..., "peer_s": ..., "note": ...}


def case_rmat20(repeat):
    from graphpart.datasets import rmat

    t = best_of(lambda: rmat(20, seed=0), repeat)
    g = rmat(20, seed=0)
    return {
        "what": f"R-MAT scale 20 ({g.num_nodes():,} nodes, {g.num_edges():,} edges, deduplicated)",
        "graphpart_s": t,
        "peer": "-",
        "peer_s": None,
    }


def case_sbm(repeat):
    import networkx as nx

    from graphpart.datasets import sbm

    sizes, p_in, p_out = [2000] * 5, 0.01, 0.0005
    probs = (np.full((5, 5), p_out) + np.eye(5) * (p_in - p_out)).tolist()
    t = best_of(lambda: sbm(sizes, p_in, p_out, seed=0), repeat)
    peer = best_of(lambda: nx.stochastic_block_model(sizes, probs, seed=0, sparse=True), 1)
    return {
        "what": "SBM, 5 blocks x 2,000 nodes",
        "graphpart_s": t,
        "peer": "networkx.stochastic_block_model(sparse=True)",
        "peer_s": peer,
    }


def _python_metis_reader(path):
    """A straightforward line-by-line reader, as one would write it in plain Python."""
    src, dst = [], []
    with open(path) as f:
        lines = [ln for ln in f if not ln.startswith("%")]
    n = int(lines[0].split()[0])
    for v, line in enumerate(lines[1 : 1 + n]):
        for u in line.split():
            src.append(v)
            dst.append(int(u) - 1)
    return np.array(src), np.array(dst)


def case_metis_mdual(repeat):
    from graphpart.datasets import read_metis_graph
    from graphpart.datasets.meshes import metis_graphs_dir

    path = metis_graphs_dir() / "mdual.graph"
    if not path.exists():
        return {"what": "read mdual.graph", "skipped": "libmetis-doc not installed"}
    t = best_of(lambda: read_metis_graph(path), repeat)
    peer = best_of(lambda: _python_metis_reader(path), repeat)
    return {
        "what": "read METIS mdual.graph (258,569 nodes, 1,026,264 edges)",
        "graphpart_s": t,
        "peer": "line-by-line Python parser",
        "peer_s": peer,
    }


def case_wordnet(repeat):
    import os
    import tempfile

    from graphpart.datasets import load_wordnet
    from graphpart.datasets.wordnet import wordnet_dir

    if not (wordnet_dir() / "data.noun").exists():
        return {"what": "load WordNet", "skipped": "wordnet-base not installed"}
    os.environ["GRAPHPART_CACHE_DIR"] = tempfile.mkdtemp()
    first = best_of(load_wordnet, 1)  # parse and write the cache
    cold = best_of(lambda: load_wordnet(cache=False), repeat)
    warm = best_of(lambda: load_wordnet(), repeat)
    g = load_wordnet()
    return {
        "what": f"load WordNet ({g.num_nodes():,} synsets, {g.num_edges():,} edges, "
        f"{len(g.canonical_etypes)} edge types)",
        "graphpart_s": cold,
        "peer": "graphpart, from the cache",
        "peer_s": warm,
        "note": f"cold parse vs cached load; first load incl. cache write {first:.2f} s",
    }


def case_ids(repeat):
    import torch

    from graphpart import IDConverter

    counts = [100_000] * 10
    conv = IDConverter([f"t{i}" for i in range(10)], counts, [], [])
    ids = torch.randint(0, sum(counts), (1_000_000,), generator=torch.Generator().manual_seed(0))
    t = best_of(lambda: conv.nid_hom2het(ids), repeat)
    offsets = np.cumsum([0] + counts).tolist()
    id_list = ids.tolist()

    def per_id():  # one bisect per id, as a scalar converter does
        return [(bisect.bisect_right(offsets, i) - 1, i) for i in id_list]

    peer = best_of(per_id, 1)
    return {
        "what": "homogeneous -> heterogeneous, 1,000,000 node ids, 10 types",
        "graphpart_s": t,
        "peer": "scalar bisect per id",
        "peer_s": peer,
    }


CASES = {
    "rmat20": case_rmat20,
    "sbm": case_sbm,
    "metis_mdual": case_metis_mdual,
    "wordnet": case_wordnet,
    "ids": case_ids,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--case", choices=sorted(CASES))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.case:
        out = CASES[args.case](args.repeat)
        out["peak_rss_mib"] = peak_rss_mib()
        print(json.dumps(out))
        return
    rows = []
    for name in CASES:
        res = subprocess.run(
            [sys.executable, __file__, "--case", name, "--repeat", str(args.repeat)],
            capture_output=True,
            text=True,
            check=True,
        )
        rows.append(json.loads(res.stdout.strip().splitlines()[-1]))
    print("| case | graphpart | peer | peer time | graphpart vs peer | peak RSS |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        if "skipped" in r:
            print(f"| {r['what']} | skipped: {r['skipped']} | | | | |")
            continue
        peer_s = r.get("peer_s")
        ratio = f"{peer_s / r['graphpart_s']:.1f}x faster" if peer_s else "-"
        if r.get("note"):  # a comparison with itself (e.g. cold vs cached)
            ratio = f"{r['graphpart_s'] / peer_s:.0f}x ({r['note']})"
        peer_txt = f"{peer_s:.3f} s" if peer_s else "-"
        print(
            f"| {r['what']} | {r['graphpart_s']:.3f} s | {r['peer']} | {peer_txt} | {ratio} | "
            f"{r['peak_rss_mib']:.0f} MiB |"
        )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    main()

"""The source graphs of the peer-made fixtures (tests/interop/fixtures/<name>/graph.npz) as
graphpart graphs."""

from __future__ import annotations

import numpy as np
import torch

from graphpart import Graph

from .peers import FIXTURES

ETYPES = [
    ("user", "buys", "item"),
    ("item", "bought_by", "user"),
    ("item", "has", "tag"),
    ("user", "follows", "user"),
]
NUM = {"user": 6, "item": 5, "tag": 4}


def arrays(name: str) -> dict[str, np.ndarray]:
    with np.load(FIXTURES / name / "graph.npz") as z:
        return {k: z[k] for k in z.files}


def karate() -> Graph:
    a = {k: torch.from_numpy(v) for k, v in arrays("karate").items()}
    return Graph.from_edges(
        a["src"],
        a["dst"],
        num_nodes=int(a["num_nodes"]),
        ndata={k: a[k] for k in ("feat", "label", "train_mask")},
        edata={"w": a["w"]},
    )


def hetero3() -> Graph:
    a = {k: torch.from_numpy(v) for k, v in arrays("hetero3").items()}
    nd = {t: {} for t in NUM}
    for key in ("user/feat", "user/train_mask", "item/feat", "item/label", "tag/feat"):
        t, name = key.split("/")
        nd[t][name] = a[key]
    return Graph.from_typed_edges(
        {e: (a[f"{e[1]}/src"], a[f"{e[1]}/dst"]) for e in ETYPES},
        num_nodes=NUM,
        ndata=nd,
        edata={ETYPES[0]: {"w": a["buys/w"]}},
    )


GRAPHS = {"karate": karate, "hetero3": hetero3}

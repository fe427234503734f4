"""Small graphs that several test modules build (plain functions: call them, don't import tests).

``karate()`` is the karate club with a feature and an edge weight; ``hetero_graph(seed)`` a
three-type shop graph whose edges and data depend only on ``seed``.
"""

from __future__ import annotations

import numpy as np
import torch

from graphpart import Graph
from graphpart.datasets import load_karate_club


def hetero_graph(seed: int = 0) -> Graph:
    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(seed)
    counts = {"user": 40, "item": 30, "tag": 12}
    edges, edata = {}, {}
    for s, r, d, m in [
        ("user", "buys", "item", 120),
        ("item", "bought_by", "user", 90),
        ("user", "follows", "user", 80),
        ("item", "has", "tag", 50),
    ]:
        edges[(s, r, d)] = (rng.integers(0, counts[s], m), rng.integers(0, counts[d], m))
        edata[(s, r, d)] = {"w": torch.randn(m, generator=gen)}
    ndata = {
        t: {
            "feat": torch.randn(c, 4, generator=gen),
            "train_mask": torch.rand(c, generator=gen) < 0.3,
        }
        for t, c in counts.items()
    }
    return Graph.from_typed_edges(edges, num_nodes=counts, ndata=ndata, edata=edata)


def karate() -> Graph:
    g = load_karate_club()
    g.ndata["feat"] = torch.randn(g.num_nodes(), 3, generator=torch.Generator().manual_seed(0))
    g.edata["w"] = torch.arange(g.num_edges(), dtype=torch.float32)
    return g

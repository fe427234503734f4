"""Small graphs that several test modules build (plain functions: call them, don't import tests).

``karate()`` is the karate club with a feature and an edge weight; ``hetero_graph(seed)`` a
three-type shop graph whose edges and data depend only on ``seed``; ``rare_hetero_graph()`` a
shop graph with a rare relation and a two-node type, which some partition of three always lacks;
``shop(seed)`` issue 19's larger one, with two tags and a relation of two edges (METIS left one of
three parts empty).
"""

from __future__ import annotations

import numpy as np
import torch

from graphpart import Graph
from graphpart.datasets import load_karate_club, sbm


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


def rare_hetero_graph(seed: int = 0) -> Graph:
    """320 users, 300 items, 2 ``tiny`` nodes; ``user:recalls:item`` has 11 edges into items 0
    and 1 only, ``item:in:tiny`` 40: over 3 parts, one part holds no ``tiny`` node and no
    ``in`` edge, and one holds no ``recalls`` edge. Every type has node data, every relation
    ``w``."""
    rng = np.random.default_rng(seed)
    gen = torch.Generator().manual_seed(seed)
    counts = {"user": 320, "item": 300, "tiny": 2}
    edges, edata = {}, {}
    for s, r, d, m in [
        ("user", "buys", "item", 1500),
        ("item", "bought_by", "user", 1200),
        ("user", "follows", "user", 900),
        ("user", "recalls", "item", 11),
        ("item", "in", "tiny", 40),
    ]:
        hi = 2 if r == "recalls" else counts[d]
        edges[(s, r, d)] = (rng.integers(0, counts[s], m), rng.integers(0, hi, m))
        edata[(s, r, d)] = {"w": torch.randn(m, generator=gen)}
    ndata = {
        t: {
            "feat": torch.randn(c, 4, generator=gen),
            "train_mask": torch.rand(c, generator=gen) < 0.3,
        }
        for t, c in counts.items()
    }
    return Graph.from_typed_edges(edges, num_nodes=counts, ndata=ndata, edata=edata)


def shop(seed: int = 0) -> Graph:
    """500 users, 300 items, 2 tags and a relation of 2 edges, with a ``train_mask`` per type."""
    rng = np.random.default_rng(seed)
    counts = {"user": 500, "item": 300, "tag": 2}
    edges = {
        (s, r, d): (rng.integers(0, counts[s], m), rng.integers(0, counts[d], m))
        for s, r, d, m in [
            ("user", "buys", "item", 2000),
            ("item", "bought_by", "user", 1500),
            ("user", "follows", "user", 1000),
            ("item", "has", "tag", 2),
        ]
    }
    ndata = {t: {"train_mask": torch.from_numpy(rng.random(c) < 0.3)} for t, c in counts.items()}
    return Graph.from_typed_edges(edges, num_nodes=counts, ndata=ndata)


def shop_masks(g: Graph) -> dict[str, torch.Tensor]:
    """``balance_ntypes`` of :func:`shop`: each type's train mask."""
    return {t: g.node_data(t)["train_mask"] for t in g.ntypes}


def karate() -> Graph:
    g = load_karate_club()
    g.ndata["feat"] = torch.randn(g.num_nodes(), 3, generator=torch.Generator().manual_seed(0))
    g.edata["w"] = torch.arange(g.num_edges(), dtype=torch.float32)
    return g


def masked_sbm() -> Graph:
    """Three communities of 40 nodes with train / val / test masks (the sweep and widget tests)."""
    return sbm(
        block_sizes=[40, 40, 40],
        p_in=0.2,
        p_out=0.02,
        seed=0,
        train_frac=0.2,
        val_frac=0.1,
        test_frac=0.1,
    )


def train_in_two_communities(block: int, p_in: float, p_out: float, seed: int = 0) -> Graph:
    """Notebook 08's graph: 8 communities of ``block`` nodes, the train nodes concentrated in the
    first two (half of theirs, 5% of the others')."""
    g = sbm([block] * 8, p_in, p_out, seed=seed)
    rng = np.random.default_rng(seed)
    train = np.zeros(g.num_nodes(), bool)
    train[: 2 * block] = rng.random(2 * block) < 0.5
    train[2 * block :] = rng.random(6 * block) < 0.05
    g.ndata["train_mask"] = torch.from_numpy(train)
    return g

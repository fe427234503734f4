"""R-MAT and SBM generators, and the node data they attach."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpart import GraphpartError
from graphpart.datasets import NodeTask, attach_node_data, rmat, sbm


def keys(g):
    s, d = g.edges()
    return s * g.num_nodes() + d


# ------------------------------------------------------------------ R-MAT


def test_rmat_size_and_simple():
    g = rmat(12, seed=1)
    s, d = g.edges()
    assert g.num_nodes() == 4096
    assert 0.8 * 16 * 4096 < g.num_edges() <= 16 * 4096
    assert not bool((s == d).any())
    assert torch.unique(keys(g)).numel() == g.num_edges()


def test_rmat_is_skewed():
    deg = rmat(14, seed=0).out_degrees().double()
    assert deg.max() > 20 * deg.mean()  # power-law-ish, unlike an Erdos-Renyi graph


def test_rmat_seeded_is_reproducible():
    a, b, c = rmat(10, seed=3), rmat(10, seed=3), rmat(10, seed=4)
    assert torch.equal(keys(a), keys(b))
    # Another seed, another graph: compared as edge sets, so a new edge order alone won't pass.
    assert set(keys(a).tolist()) != set(keys(c).tolist())


def test_rmat_generator_seed_advances():
    rng = np.random.default_rng(0)
    assert not torch.equal(keys(rmat(8, seed=rng)), keys(rmat(8, seed=rng)))


def test_rmat_symmetric():
    g = rmat(10, seed=0, symmetric=True)
    s, d = g.edges()
    fwd = torch.sort(s * g.num_nodes() + d).values
    bwd = torch.sort(d * g.num_nodes() + s).values
    assert torch.equal(fwd, bwd)


def test_rmat_without_permutation_concentrates_on_low_ids():
    g = rmat(12, seed=0, permute=False)
    deg = g.out_degrees()
    assert int(deg.argmax()) == 0  # quadrant a is most likely at every level


def test_rmat_self_loops_allowed():
    g = rmat(6, edge_factor=64, seed=0, self_loops=True)
    s, d = g.edges()
    assert bool((s == d).any())


def test_rmat_node_data():
    g = rmat(9, seed=0, num_classes=4, feat_dim=8, train_frac=0.6, val_frac=0.2, test_frac=0.2)
    assert g.ndata["feat"].shape == (512, 8) and g.ndata["feat"].dtype == torch.float32
    assert set(g.ndata["label"].tolist()) <= {0, 1, 2, 3}


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"scale": -1}, "scale must be an int in"),
        ({"scale": 40}, "scale must be an int in"),
        ({"scale": 4, "edge_factor": -2}, "edge_factor must be"),
        ({"scale": 4, "a": 0.9, "b": 0.2}, "a \\+ b \\+ c <= 1"),
        ({"scale": 4, "seed": "x"}, "seed must be an int"),
    ],
)
def test_rmat_bad_input(kwargs, match):
    with pytest.raises(GraphpartError, match=match):
        rmat(**kwargs)


# ------------------------------------------------------------------ SBM


def test_sbm_complete_blocks():
    g = sbm([4, 3], p_in=1.0, p_out=0.0, seed=0)
    assert g.num_edges() == 4 * 3 + 3 * 2  # both directions of every in-block pair
    assert g.ndata["label"].tolist() == [0] * 4 + [1] * 3


def test_sbm_complete_directed():
    g = sbm([3, 2], p_in=1.0, p_out=1.0, directed=True, seed=0)
    assert g.num_edges() == 5 * 4  # every ordered pair, no loops


def test_sbm_no_loops_no_duplicates_symmetric():
    g = sbm([30, 20, 10], p_in=0.5, p_out=0.1, seed=2)
    s, d = g.edges()
    assert not bool((s == d).any())
    assert torch.unique(keys(g)).numel() == g.num_edges()
    assert torch.equal(torch.sort(s * 60 + d).values, torch.sort(d * 60 + s).values)


def test_sbm_edge_density_matches_probabilities():
    g = sbm([400, 400], p_in=0.05, p_out=0.005, seed=0)
    lab = g.ndata["label"]
    s, d = g.edges()
    inside = int((lab[s] == lab[d]).sum()) // 2
    across = int((lab[s] != lab[d]).sum()) // 2
    assert abs(inside - 0.05 * 2 * 400 * 399 / 2) < 300
    assert abs(across - 0.005 * 400 * 400) < 100


def test_sbm_probability_matrix():
    probs = np.array([[0.0, 1.0], [0.0, 0.0]])
    g = sbm([2, 2], probs=probs, directed=True, seed=0)
    s, d = g.edges()
    assert bool((s < 2).all()) and bool((d >= 2).all()) and g.num_edges() == 4


def test_sbm_empty_and_single_blocks():
    g = sbm([0, 1, 5], p_in=1.0, seed=0)
    assert g.num_nodes() == 6 and g.num_edges() == 20


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        (([],), {}, "non-empty list"),
        (([3, -1],), {}, "non-empty list of non-negative"),
        (([3, 3],), {"probs": np.ones((3, 3))}, "2x2 matrix"),
        (([3, 3],), {"p_in": 1.5}, "probabilities in \\[0, 1\\]"),
        (([3, 3],), {"probs": np.array([[0, 1], [0, 0]])}, "symmetric"),
    ],
)
def test_sbm_bad_input(args, kwargs, match):
    with pytest.raises(GraphpartError, match=match):
        sbm(*args, **kwargs)


def test_sbm_features_are_informative():
    g = sbm([200, 200], p_in=0.01, p_out=0.001, seed=0, feat_dim=16)
    x, y = g.ndata["feat"], g.ndata["label"]
    centroids = torch.stack([x[y == k].mean(0) for k in (0, 1)])
    pred = torch.cdist(x, centroids).argmin(1)
    assert (pred == y).float().mean() > 0.9


# ------------------------------------------------------------------ masks


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 200), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_masks_disjoint_with_requested_sizes(n, a, b, c):
    total = a + b + c
    if total > 1:
        a, b, c = a / total, b / total, c / total
    from graphpart import Graph

    g = attach_node_data(
        Graph.from_edges([], [], num_nodes=n),
        np.random.default_rng(0),
        NodeTask(train_frac=a, val_frac=b, test_frac=c),
    )
    if not any((a, b, c)):
        assert "train_mask" not in g.ndata
        return
    masks = torch.stack([g.ndata[f"{k}_mask"] for k in ("train", "val", "test")]).int()
    assert bool((masks.sum(0) <= 1).all())
    for m, f in zip(masks, (a, b, c)):
        assert abs(int(m.sum()) - f * n) <= 1


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"train_frac": 0.7, "val_frac": 0.5}, "at most 1"),
        ({"train_frac": -0.1}, "fraction in \\[0, 1\\]"),
        ({"num_classes": -1}, "num_classes"),
        ({"feat_dim": 2.5}, "feat_dim"),
    ],
)
def test_a_bad_node_task_is_refused_when_made_and_before_any_draw(kwargs, match):
    with pytest.raises(GraphpartError, match=match):
        NodeTask(**kwargs)
    with pytest.raises(GraphpartError, match=match):
        rmat(40, **kwargs)  # 2**40 nodes: refused for its task before its size is looked at


def test_a_generator_with_planted_labels_refuses_num_classes():
    with pytest.raises(GraphpartError, match="num_classes applies to rmat only"):
        sbm([5, 5], num_classes=3)


def test_a_generator_refuses_a_graph_this_machine_cannot_hold_before_drawing():
    """sbm([10**9] * 2) was a bare MemoryError; [300000] * 2 asked for 335 GiB (issue 30)."""
    import time

    import graphpart as gp
    from graphpart.datasets import rmat, sbm

    t0 = time.perf_counter()
    for make in (lambda: sbm([10**9] * 2), lambda: sbm([300_000] * 2), lambda: rmat(31)):
        with pytest.raises(gp.GraphpartError, match="GiB available: ask for a smaller graph"):
            make()
    assert time.perf_counter() - t0 < 2

"""The degree-corrected SBM: communities, power-law degrees, and the same graph in blocks."""

from __future__ import annotations

import numpy as np
import pytest

from graphpart import GraphpartError
from graphpart.chunked import load_chunked
from graphpart.chunked.ingest import dcsbm_chunked
from graphpart.datasets import dcsbm


@pytest.fixture(scope="module")
def graph():
    return dcsbm(14, 16, community_size=512, mixing=0.2, seed=3)


def test_a_partition_keeping_communities_whole_cuts_about_the_mixing(graph):
    s, d = (x.numpy() for x in graph.edges())
    label = graph.ndata["label"].numpy()
    assert abs((label[s] != label[d]).mean() - 0.2) < 0.03
    assert np.bincount(label).tolist() == [512] * 32


def test_degrees_follow_a_power_law_and_the_graph_is_simple_and_undirected(graph):
    s, d = (x.numpy() for x in graph.edges())
    deg = np.bincount(s, minlength=graph.num_nodes())
    assert deg.max() > 20 * np.median(deg)  # hubs: not the Poisson degrees of a plain SBM
    assert not (s == d).any()
    key = s * graph.num_nodes() + d
    assert len(np.unique(key)) == len(key)
    assert np.array_equal(np.sort(key), np.sort(d * graph.num_nodes() + s))


def test_the_chunked_writer_gives_the_same_graph_and_labels(tmp_path):
    kw = {"community_size": 100, "mixing": 0.3, "exponent": 2.2, "seed": 7}
    g = dcsbm(11, 10, train_frac=0.1, **kw)
    c = load_chunked(dcsbm_chunked(tmp_path / "c", 4, 11, 10, train_frac=0.1, **kw))
    assert [x.tolist() for x in c.edges()] == [x.tolist() for x in g.edges()]
    for name in ("label", "train_mask"):
        assert np.array_equal(c.ndata[name].numpy(), g.ndata[name].numpy())


def test_another_seed_gives_another_graph():
    a, b = (dcsbm(10, 8, community_size=64, seed=s).edges()[1].numpy() for s in (0, 1))
    assert len(a) != len(b) or (a != b).any()


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"scale": 0}, "scale must be an integer >= 1"),
        ({"scale": 40}, "scale must be"),
        ({"scale": 10, "avg_degree": 0}, "avg_degree must lie in"),
        ({"scale": 10, "community_size": 0}, "community_size must be an integer >= 1"),
        ({"scale": 10, "mixing": 1.5}, "mixing must lie in"),
        ({"scale": 10, "exponent": 2}, "exponent must lie in"),
    ],
)
def test_arguments_out_of_range_are_refused(kw, message):
    with pytest.raises(GraphpartError, match=message):
        dcsbm(**kw)

"""Metrics: exact values on small graphs; memory and disk agree."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.metrics import communication_volume, edge_cut, metrics_from_disk
from graphpart.utils.report import Report

from .graphs import hetero_graph, karate


def path_graph_partition():
    # 0-1-2-3 path (both directions), parts [0, 0, 1, 1].
    src = [0, 1, 1, 2, 2, 3]
    dst = [1, 0, 2, 1, 3, 2]
    g = gp.Graph.from_edges(src, dst, ndata={"train_mask": torch.tensor([True, False, True, True])})
    return gp.partition(g, 2, part_method=np.array([0, 0, 1, 1]), num_hops=1)


def test_exact_values_on_a_path():
    m = path_graph_partition().metrics
    assert m.edge_cut == 2 and m.edge_cut_fraction == pytest.approx(2 / 6)
    assert m.communication_volume == 2
    assert m.inner_nodes.tolist() == [2, 2]
    assert m.halo_by_hop.tolist() == [[1], [1]]
    assert m.replication_factor == pytest.approx(6 / 4)
    assert m.splits["train_mask"].tolist() == [1, 2]
    assert m.balance["train nodes"] == pytest.approx(2 / 1.5)


def test_helpers():
    part = np.array([0, 1, 1])
    assert edge_cut(np.array([0, 1]), np.array([1, 2]), part) == 1
    assert communication_volume(np.array([0, 1]), np.array([1, 2]), part) == 2


def test_hops_are_counted_separately():
    p = gp.partition(karate(), 3, num_hops=2, seed=0)
    m = p.metrics
    assert m.halo_by_hop.shape == (3, 2)
    for i in range(3):
        hop = p.local_graph(i).ndata["halo_hop"]
        assert m.halo_by_hop[i].tolist() == [int((hop == 1).sum()), int((hop == 2).sum())]


@pytest.mark.parametrize("hops", [1, 2])
def test_disk_metrics_equal_memory(tmp_path, hops):
    g = hetero_graph()
    p = gp.partition(g, 3, num_hops=hops, seed=0)
    gp.partition_graph(g, "shop", 3, tmp_path, num_hops=hops, seed=0)
    a, b = p.metrics, metrics_from_disk(tmp_path / "shop.json")
    for field in ["edge_cut", "communication_volume", "replication_factor"]:
        assert getattr(a, field) == getattr(b, field), field
    assert np.array_equal(a.halo_by_type, b.halo_by_type)
    assert np.array_equal(a.splits["train_mask"], b.splits["train_mask"])


def test_disk_metrics_without_halo_say_unknown(tmp_path):
    gp.partition_graph(karate(), "k", 2, tmp_path, num_hops=0, seed=0)
    m = metrics_from_disk(tmp_path / "k.json")
    assert m.edge_cut is None
    assert "n/a" in str(m.report())


def test_edge_cut_matches_brute_force():
    g = karate()
    p = gp.partition(g, 3, seed=0)
    s, d = g.edges()
    assert p.metrics.edge_cut == int((p.node_part[s.numpy()] != p.node_part[d.numpy()]).sum())


def test_report_renders_text_and_html():
    r = gp.partition(hetero_graph(), 2, seed=0).report()
    text = str(r)
    assert "edge cut" in text and "HALO hop 1" in text and "inner user" in text
    html = r._repr_html_()
    assert html.startswith("<div>") and "<table>" in html


def test_a_reports_long_texts_may_wrap_in_html_and_its_figures_may_not():
    r = Report(
        "2 settings",
        {
            "setting": ["metis k=4 bal=train_mask", "random k=4"],
            "epoch": ["1.3 ms", "1.5 ms"],
            "cut": [0.5, 0.25],
        },
        {},
    )
    html = r._repr_html_()
    assert html.count("class='graphpart-text'") == 3  # the setting column's head and cells
    assert "<td class='graphpart-text'>random k=4</td>" in html and "<td>1.3 ms</td>" in html
    # a narrow column breaks a setting's name after = before a word, never in k=4 or train_mask
    assert ">metis k=4 bal=<wbr>train_mask</td>" in html


def test_disk_metrics_report_the_class_balance_partition_made(tmp_path):
    g = karate()
    kw = dict(balance_ntypes=g.ndata["label"], balance_edges=True, seed=0)
    p = gp.partition(g, 3, **kw)
    gp.partition_graph(g, "k", 3, tmp_path, **kw)
    a, b = p.metrics, metrics_from_disk(tmp_path / "k.json")
    assert {"class 0", "class 1", "in-degree"} <= set(a.constraints)
    assert a.balance == b.balance
    for name, load in a.constraints.items():
        assert np.array_equal(load, b.constraints[name]), name
    # the loads are what each partition holds: class 1 nodes per partition
    labels = g.ndata["label"].numpy()
    assert (
        b.constraints["class 1"].tolist()
        == np.bincount(p.node_part[labels == 1], minlength=3).tolist()
    )
    assert "balance class 1 (max/mean)" in str(b.report())


@pytest.mark.parametrize(
    "record, match",
    [
        ({"loads": {"class 0": [1, 2]}}, "3 non-negative ints"),
        ({"loads": {"class 0": [1, -2, 3]}}, "non-negative"),
        ({"loads": [1, 2, 3]}, "balance loads must be"),
        ("x", "balance loads must be"),
    ],
)
def test_a_lying_balance_record_is_refused(tmp_path, record, match):
    import json

    gp.partition_graph(karate(), "k", 3, tmp_path, seed=0)
    cfg = json.loads((tmp_path / "k.json").read_text())
    cfg["balance"] = record
    (tmp_path / "k.json").write_text(json.dumps(cfg))
    with pytest.raises(gp.FormatError, match=match):
        metrics_from_disk(tmp_path / "k.json")


@pytest.mark.parametrize(
    "record, match",
    [
        ({"loads": {"class 0": [10**30, 1, 1]}}, "non-negative ints"),
        ({"loads": {"nodes": [1, 1, 1]}}, "'class <label>' or one of \\['in-degree'\\]"),
    ],
)
def test_a_record_cannot_overflow_or_replace_measured_balance(tmp_path, record, match):
    import json

    gp.partition_graph(karate(), "k", 3, tmp_path, seed=0)
    cfg = json.loads((tmp_path / "k.json").read_text())
    cfg["balance"] = record
    (tmp_path / "k.json").write_text(json.dumps(cfg))
    with pytest.raises(gp.FormatError, match=match):
        metrics_from_disk(tmp_path / "k.json")

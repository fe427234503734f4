"""Balancing several node data fields at once (issue 31): train, val and test per machine and
per trainer, classes named after the fields."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.datasets import sbm
from graphpart.partitioning.fields import MAX_COMBINATIONS, as_fields, fields_balance
from graphpart.partitioning.loads import trainer_loads

SPLITS = ["train_mask", "val_mask", "test_mask"]


def _split_graph(seed: int = 0) -> gp.Graph:
    g = sbm([300] * 4, 0.03, 0.002, seed=seed)
    r = np.random.default_rng(seed).random(g.num_nodes())
    g.ndata["train_mask"] = torch.from_numpy(r < 0.3)
    g.ndata["val_mask"] = torch.from_numpy((r >= 0.3) & (r < 0.4))
    g.ndata["test_mask"] = torch.from_numpy((r >= 0.4) & (r < 0.5))
    return g


def test_three_masks_make_one_class_per_split_named_after_it():
    p = gp.partition(_split_graph(), 3, balance_ntypes=SPLITS, seed=0)
    assert p.balance_labels == ("none", "train", "val", "test")
    r = np.random.default_rng(0).random(1200)
    expected = np.select([r < 0.3, r < 0.4, r < 0.5], [1, 2, 3], 0)
    assert np.array_equal(p.balance_classes, expected)


@pytest.mark.parametrize("trainers", [1, 2, 4])
def test_every_split_is_balanced_per_machine_and_per_trainer(trainers):
    g = _split_graph()
    p = gp.partition(
        g, 3, balance_ntypes=SPLITS, balance_edges=True, num_trainers_per_machine=trainers, seed=0
    )
    m = p.metrics
    for split in ("train", "val", "test"):
        assert m.balance[f"{split} nodes"] <= 1.05, (split, m.balance)
        if trainers > 1:
            assert m.trainer_balance[f"{split} nodes"] <= 1.10, (split, m.trainer_balance)


def test_the_cli_takes_fields_separated_by_commas(tmp_path, monkeypatch):
    from graphpart.cli import main
    from graphpart.graph.npz import save_graph
    from graphpart.storage import open_partitioning

    save_graph(_split_graph(), tmp_path / "g.npz")
    argv = ["partition", "--graph", str(tmp_path / "g.npz"), "--graph-name", "g"]
    argv += ["--num-parts", "2", "--balance-ntypes", ",".join(SPLITS)]
    assert main([*argv, "--out-path", str(tmp_path / "o"), "--quiet"]) == 0
    loads = open_partitioning(tmp_path / "o" / "g.json").recorded_balance
    assert {"class train", "class val", "class test", "class none"} <= set(loads)


def test_a_heterograph_crosses_types_with_the_combinations():
    from ..graphs import hetero_graph

    g = hetero_graph()
    t0, t1 = g.ntypes[:2]
    g.node_data(t0)["train_mask"] = torch.arange(g.num_nodes(t0)) % 3 == 0
    g.node_data(t1)["val_mask"] = torch.arange(g.num_nodes(t1)) % 2 == 0
    values, names = fields_balance(g, ["train_mask", "val_mask"])
    assert sorted(set(names.values())) == ["none", "train", "train+val", "val"]  # item has both
    p = gp.partition(g, 2, balance_ntypes=["train_mask", "val_mask"], seed=0)
    assert f"{t0}:train" in p.balance_labels and f"{t1}:val" in p.balance_labels


@pytest.mark.parametrize(
    "fields, match",
    [
        (["train_mask", "nope"], "no node data named 'nope' to balance"),
        (["train_mask", "train_mask"], "must name distinct fields"),
        (["train_mask", "ids"], f"combinations of values; at most {MAX_COMBINATIONS}"),
        (["f"] * 9, "at most 8 at once"),
    ],
)
def test_bad_field_lists_are_refused_in_one_line(fields, match):
    g = _split_graph()
    g.ndata["ids"] = torch.arange(g.num_nodes())
    with pytest.raises(gp.GraphpartError, match=match):
        gp.partition(g, 2, balance_ntypes=fields, seed=0)


def test_as_fields_reads_lists_and_commas_and_leaves_the_rest():
    assert as_fields("a, b") == ["a", "b"] and as_fields(("a",)) == ["a"]
    assert as_fields("a") is None and as_fields(np.array([1, 0])) is None and as_fields({}) is None


def test_trainer_loads_count_every_trainer():
    g = _split_graph()
    p = gp.partition(g, 2, balance_ntypes=SPLITS, num_trainers_per_machine=2, seed=0)
    loads = trainer_loads(p)
    assert len(loads["nodes"]) == 4 and int(loads["nodes"].sum()) == 1200
    assert int(loads["train nodes"].sum()) == int(g.ndata["train_mask"].sum())
    assert int(loads["in-degree"].sum()) == g.num_edges()
    assert "trainer balance train nodes (max/mean)" in str(p.report())
    assert trainer_loads(gp.partition(g, 2, seed=0)) == {}


def test_trainer_balance_is_read_back_from_disk_and_shown_by_inspect(tmp_path, capsys):
    from graphpart.cli import main
    from graphpart.metrics import metrics_from_disk

    p = gp.partition(_split_graph(), 2, balance_ntypes=SPLITS, num_trainers_per_machine=2, seed=0)
    gp.storage.save_partitions(p, "g", tmp_path / "o")
    on_disk = metrics_from_disk(tmp_path / "o" / "g.json")
    assert on_disk.trainer_balance == pytest.approx(p.metrics.trainer_balance)
    assert main(["inspect", str(tmp_path / "o" / "g.json")]) == 0
    assert "trainer balance train nodes (max/mean)" in capsys.readouterr().out

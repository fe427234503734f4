"""read_config: a typed, validated PartitionConfig over DGL's JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest

import graphpart as gp
from graphpart import FormatError
from graphpart.datasets import load_karate_club
from graphpart.storage import PartitionConfig, read_config


@pytest.fixture
def written(tmp_path):
    g = load_karate_club()
    gp.partition_graph(
        g, "k", 2, tmp_path / "out", balance_ntypes="label", seed=0, num_trainers_per_machine=2
    )
    return tmp_path / "out" / "k.json"


def test_the_config_reads_as_typed_fields(written):
    cfg = read_config(written)
    assert isinstance(cfg, PartitionConfig)
    assert (cfg.graph_name, cfg.num_parts, cfg.halo_hops, cfg.num_trainers_per_machine) == (
        "k",
        2,
        1,
        2,
    )
    assert cfg.ntypes == ["_N"] and cfg.etypes == ["_N:_E:_N"]
    assert cfg.node_bounds.shape == (2, 1, 2) and int(cfg.node_bounds[-1, 0, 1]) == 34
    assert sorted(cfg.balance_loads) == ["class label=0", "class label=1"]
    assert cfg.balanced_classes == ["label=0", "label=1"]
    assert len(cfg.trainer_loads["nodes"]) == 4
    assert cfg.book(1).partid == 1


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("num_trainers_per_machine", 0, "num_trainers_per_machine must be an int"),
        ("num_trainers_per_machine", "2", "num_trainers_per_machine must be an int"),
        ("balance", {"ntypes": "train", "edges": False, "loads": {}}, "balance ntypes must be"),
    ],
)
def test_a_bad_field_is_refused_in_one_line(written, key, value, message):
    cfg = json.loads(written.read_text())
    cfg[key] = value
    written.write_text(json.dumps(cfg))
    with pytest.raises(FormatError, match=message):
        read_config(written)


def test_the_chunked_pipeline_records_the_same_balance(tmp_path, written):
    from graphpart.chunked import assign, dispatch, write_chunked

    g = load_karate_club()
    write_chunked(g, tmp_path / "chunks", 2)
    assign(
        tmp_path / "chunks",
        tmp_path / "parts",
        2,
        "fennel",
        balance_ntypes="label",
        balance_edges=True,
    )
    out = dispatch(
        tmp_path / "chunks", tmp_path / "parts", tmp_path / "disp", workers=1, processes=False
    )
    cfg = read_config(out)
    assert cfg.balanced_classes == read_config(written).balanced_classes
    counts = sum(np.asarray(v) for k, v in cfg.balance_loads.items() if k.startswith("class"))
    assert counts.tolist() == np.diff(cfg.node_bounds[:, 0]).ravel().tolist()
    assert cfg.balance_loads["in-degree"].sum() == g.num_edges()

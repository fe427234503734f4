"""Hostile partition configs (graphpart's and DGL's): each value the issue found planted in a real
config; every one is a FormatError naming the config, never another exception."""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest

import graphpart as gp
from graphpart.datasets import peer_partitions
from graphpart.errors import FormatError

from ..helpers import runs_within


@pytest.fixture
def config(tmp_path):
    src = peer_partitions("karate", "dgl")
    shutil.copytree(src.parent, tmp_path / "dgl")
    return tmp_path / "dgl" / src.name


def _edit(config, change) -> None:
    doc = json.loads(config.read_text())
    change(doc)
    config.write_text(json.dumps(doc))


def _set(key, value):
    return lambda d: d.__setitem__(key, value)


HOSTILE = {
    "node_map end 2^70": (
        lambda d: d["node_map"].__setitem__("_N", [[0, 17], [17, 2**70]]),
        "node_map ranges are not integer pairs",
    ),
    "node_map: 5": (_set("node_map", 5), "node_map must map each of"),
    "mixed-type type ids": (_set("ntypes", {"_N": [0]}), "ntypes must map names to the ids"),
    "a bool type id": (_set("ntypes", {"_N": False}), "ntypes must map names to the ids"),
    "5e6 parts for 34 nodes": (_set("num_parts", 5_000_000), "node_map must hold one"),
    "halo_hops 2^62": (_set("halo_hops", 2**62), r"halo_hops must be an int in \[0, 2\^62\)"),
    "num_nodes 2^70": (_set("num_nodes", 2**70), r"num_nodes must be an int in \[0, 2\^62\)"),
    "a NUL byte in a path": (
        lambda d: d["part-0"].__setitem__("part_graph", "part0/gra\x00ph.dgl"),
        "part_graph path 'part0/gra",
    ),
    "a 5000-character path": (
        lambda d: d["part-0"].__setitem__("part_graph", "x/" * 2500 + "graph.dgl"),
        "its part_graph file",
    ),
    "a path out of the folder": (
        lambda d: d["part-0"].__setitem__("part_graph", "../../etc/passwd"),
        "points outside",
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_config_value_is_a_format_error(config, name):
    change, pattern = HOSTILE[name]
    _edit(config, change)
    with pytest.raises(FormatError, match=pattern):
        src = gp.storage.open_partitions(config)
        src.load(0)


def test_a_part_file_in_a_symlink_loop_is_refused(config):
    loop = config.parent / "loop"
    os.symlink(loop, loop)
    _edit(config, lambda d: d["part-0"].__setitem__("part_graph", "loop"))
    with pytest.raises(FormatError, match="part_graph"):
        gp.storage.open_partitions(config).load(0)


def test_a_fifo_as_a_part_file_is_refused(config):
    fifo = config.parent / "part0" / "node_feat.dgl"
    fifo.unlink()
    os.mkfifo(fifo)
    run = runs_within(  # a reader that opens the FIFO blocks forever: a subprocess, with a timeout
        "import graphpart as gp\n"
        "try:\n"
        f"    gp.storage.open_partitions({str(config)!r}).load(0)\n"
        "except gp.FormatError as e:\n"
        "    print(e)\n",
        60,
    )
    assert re.search("node_feats file: .* is a FIFO, not a regular file", run.stdout), run


def test_a_deeply_nested_config_is_refused(config):
    config.write_text('{"graph_name": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(FormatError, match="nested too deeply"):
        gp.storage.open_partitions(config)


def test_nan_in_a_config_is_refused(config):
    config.write_text(config.read_text().replace('"halo_hops": 1', '"halo_hops": NaN'))
    with pytest.raises(FormatError, match="NaN is not JSON"):
        gp.storage.open_partitions(config)

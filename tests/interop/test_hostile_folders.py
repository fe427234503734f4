"""Hostile PyG and GLT partition folders: each planted as the file the issue describes; every one
is a FormatError in bounded time and memory, never a hang, a traceback or gigabytes."""

from __future__ import annotations

import os
import shutil

import pytest
import torch

import graphpart as gp
from graphpart.datasets import peer_partitions
from graphpart.errors import FormatError

from ..helpers import runs_within


def _copy(tmp_path, graph: str, peer: str):
    root = tmp_path / peer
    shutil.copytree(peer_partitions(graph, peer), root)
    return root


def _refused_within(root, pattern: str, seconds: float = 60, memory_mb: int = 400) -> str:
    """Open ``root`` in a fresh interpreter capped at ``memory_mb`` above its start."""
    run = runs_within(
        "import resource, graphpart as gp\n"
        "rss = int(open('/proc/self/status').read().split('VmSize:')[1].split()[0]) * 1024\n"
        f"limit = rss + {memory_mb} * 2**20\n"
        "resource.setrlimit(resource.RLIMIT_AS, (limit, limit))\n"
        "try:\n"
        f"    gp.storage.open_partitioning({str(root)!r})\n"
        "    print('LOADED')\n"
        "except gp.FormatError as e:\n"
        "    print('REFUSED', e)\n",
        seconds,
    )
    assert run.returncode == 0 and "REFUSED" in run.stdout, (run.stdout + run.stderr)[-2000:]
    assert __import__("re").search(pattern, run.stdout), run.stdout
    return run.stdout


def test_a_fifo_in_place_of_a_pyg_file_is_refused_at_once(tmp_path):
    root = _copy(tmp_path, "karate", "pyg")
    (root / "part_0" / "node_feats.pt").unlink()
    os.mkfifo(root / "part_0" / "node_feats.pt")
    _refused_within(root, "node_feats.pt is not a regular file", seconds=30)


def test_a_glt_file_linking_out_of_the_folder_is_refused(tmp_path):
    root = _copy(tmp_path, "karate", "glt")
    outside = tmp_path / "secret.pt"
    shutil.copy(root / "node_pb.pt", outside)
    (root / "node_pb.pt").unlink()
    (root / "node_pb.pt").symlink_to(outside)
    with pytest.raises(FormatError, match="node_pb.pt is a symbolic link"):
        gp.storage.open_partitions(root)


def test_a_pyg_feature_file_of_one_tensor_under_400_names_is_refused(tmp_path):
    root = _copy(tmp_path, "karate", "pyg")
    path = root / "part_0" / "node_feats.pt"
    d = torch.load(path, weights_only=True)
    big = torch.zeros(len(d["global_id"]), 60_000)  # 8 MB on disk
    d["feats"] = {f"f{i}": big for i in range(400)}  # 3.2 GB once reordered per name
    torch.save(d, path)
    assert path.stat().st_size < 20 * 2**20
    _refused_within(root, "one tensor appears under many names")


def test_pyg_feature_ids_outside_the_node_map_are_refused(tmp_path):
    root = _copy(tmp_path, "karate", "pyg")
    path = root / "part_1" / "node_feats.pt"
    d = torch.load(path, weights_only=True)
    d["global_id"] = d["global_id"].clone()
    d["global_id"][0] = 2**62
    torch.save(d, path)
    with pytest.raises(FormatError, match=r"outside the partition map's \[0, 34\)"):
        gp.storage.open_partitioning(root)


@pytest.mark.parametrize("bad", [2 * 10**8, -5])
def test_glt_edge_ids_without_edge_pb_are_checked_before_sizing(tmp_path, bad):
    root = _copy(tmp_path, "karate", "glt")
    (root / "edge_pb.pt").unlink()
    eids = torch.load(root / "part1" / "graph" / "eids.pt", weights_only=True).clone()
    eids[0] = bad
    torch.save(eids, root / "part1" / "graph" / "eids.pt")
    _refused_within(root, "must number their 156 edges 0..155", memory_mb=300)


def test_glt_without_edge_pb_still_loads(tmp_path):
    root = _copy(tmp_path, "karate", "glt")
    (root / "edge_pb.pt").unlink()
    p = gp.storage.open_partitioning(root)
    assert p.graph.num_edges() == 156


def test_a_deeply_nested_pyg_meta_is_refused(tmp_path):
    root = _copy(tmp_path, "karate", "pyg")
    (root / "META.json").write_text('{"num_parts": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(FormatError, match="META.json is not a JSON document .nested too deeply"):
        gp.storage.open_partitions(root)


def test_a_graphpart_error_is_one_printable_line():
    e = gp.GraphpartError("file says \x1b[2J\x1b[31mhello\nworld" + "x" * 5000)
    assert str(e).isprintable() and "\n" not in str(e) and len(str(e)) < 2100
    assert "\\x1b[2J" in str(e)


def test_a_pyg_edge_feats_entry_whose_feats_is_a_tensor_is_refused(tmp_path):
    """``feats`` a tensor where a dict of names belongs: a RuntimeError traceback (issue 30)."""
    root = _copy(tmp_path, "hetero3", "pyg")
    f = root / "part_0" / "edge_feats.pt"
    ef = torch.load(f, weights_only=False)
    for d in ef.values():
        d["feats"] = torch.tensor([1.0, 2.0])
    torch.save(ef, f)
    with pytest.raises(FormatError, match="feats should map names to tensors"):
        gp.storage.open_partitioning(root)


def test_a_graphpart_graph_file_holding_a_bare_tensor_is_refused(tmp_path):
    """graphpart's own part0/graph.pt holding a tensor: an IndexError traceback (issue 30)."""
    gp.partition_graph(gp.datasets.load_karate_club(), "k", 2, tmp_path / "o", seed=0)
    torch.save(torch.tensor([1, 2]), tmp_path / "o" / "part0" / "graph.pt")
    with pytest.raises(FormatError, match="holds a Tensor, not a dict"):
        gp.storage.open_partitioning(tmp_path / "o" / "k.json")


def test_a_json_bomb_within_the_size_limit_is_refused_in_bounded_memory(tmp_path):
    """A 60 MB config of empty lists took 1.8 GB and 41 s; 250 MB ended in a MemoryError."""
    from graphpart.fs.untrusted import JSON_LIMIT

    gp.partition_graph(gp.datasets.load_karate_club(), "k", 2, tmp_path / "o", seed=0)
    cfg = tmp_path / "o" / "k.json"
    text = cfg.read_text()
    pad = "[]," * ((JSON_LIMIT + 10) // 3)
    cfg.write_text(text[:-1] + f', "zz": [{pad}[]]}}')
    _refused_within(cfg, "a JSON document here is at most", seconds=20, memory_mb=300)

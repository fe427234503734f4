"""What partition files hold: one rule for every format (storage.files.stored_dtype), checked
before any work; DGL's tensor files read back only what DGL itself loads."""

from __future__ import annotations

import importlib
import struct

import pytest
import torch

import graphpart as gp
from graphpart.datasets import load_karate_club
from graphpart.interop.dgl_tensors import load_tensors, save_tensors

write = importlib.import_module("graphpart.storage.write")


@pytest.mark.parametrize("format", ["graphpart", "dgl", "graphbolt"])
def test_uint64_data_is_refused_before_partitioning(tmp_path, format, monkeypatch):
    g = load_karate_club()
    g.ndata["x"] = torch.arange(34).to(torch.uint64)
    monkeypatch.setattr(write, "partition", lambda *a, **k: pytest.fail("partitioned first"))
    with pytest.raises(gp.GraphpartError, match="'x' of type '_N' is uint64, which no partition"):
        gp.partition_graph(g, "k", 2, tmp_path / "out", format=format)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("format", ["graphpart", "dgl", "graphbolt"])
def test_uint16_and_uint32_are_stored_wider_and_said_once(tmp_path, format, caplog):
    g = load_karate_club()
    g.ndata["a"] = (65535 - torch.arange(34)).to(torch.uint16)
    g.edata["b"] = (2**32 - 1 - torch.arange(g.num_edges())).to(torch.uint32)
    gp.partition_graph(g, "k", 2, tmp_path / "out", format=format, seed=0)
    assert caplog.text.count("stored as wider signed integers") == 1
    assert "'a' of type '_N' (uint16 -> int32)" in caplog.text
    got = [gp.load_partition(tmp_path / "out" / "k.json", i) for i in range(2)]
    a = torch.cat([r[1]["_N/a"] for r in got])
    b = torch.cat([r[2]["_N:_E:_N/b"] for r in got])
    assert a.dtype == torch.int32 and b.dtype == torch.int64
    assert sorted(a.tolist()) == sorted(range(65535 - 33, 65536))
    assert sorted(b.tolist()) == sorted(range(2**32 - g.num_edges(), 2**32))


@pytest.mark.parametrize("bits", [16, 32, 64])
def test_a_dgl_tensor_file_with_unsigned_data_dgl_cannot_load_is_refused(tmp_path, bits):
    # so verify fails on output the peer cannot load
    path = tmp_path / "f.dgl"
    save_tensors(path, {"_N/x": torch.arange(4, dtype=torch.int64)})
    raw = bytearray(path.read_bytes())
    at = raw.index(struct.pack("<BBH", 0, 64, 1))
    raw[at : at + 4] = struct.pack("<BBH", 1, bits, 1)
    path.write_bytes(bytes(raw))
    with pytest.raises(gp.GraphpartError, match="unsupported dtype"):
        load_tensors(path)

"""Damaged and hostile DGL files: a FormatError naming the file and the byte offset, never a crash
or a huge allocation."""

from __future__ import annotations

import json
import struct

import pytest
import torch

import graphpart as gp
from graphpart.errors import FormatError
from graphpart.interop import load_graphs, load_tensors, save_tensors
from graphpart.interop._binary import NDARRAY_MAGIC

from ..helpers import runs_within
from .peers import FIXTURES

GRAPH_FILE = FIXTURES / "hetero3" / "graph.dgl"
TENSOR_FILE = FIXTURES / "karate" / "tensors.dgl"


@pytest.mark.parametrize("path,loader", [(GRAPH_FILE, load_graphs), (TENSOR_FILE, load_tensors)])
def test_every_truncation_is_a_format_error(tmp_path, path, loader):
    raw = path.read_bytes()
    cut = tmp_path / "cut.dgl"
    for n in sorted(
        {*range(0, len(raw), max(1, len(raw) // 300)), len(raw) - 1, 8, 4096, 4104} - {len(raw)}
    ):
        if n > len(raw):
            continue
        cut.write_bytes(raw[:n])
        with pytest.raises(FormatError, match=r"cut\.dgl"):
            loader(cut)


@pytest.mark.parametrize("path,loader", [(GRAPH_FILE, load_graphs), (TENSOR_FILE, load_tensors)])
def test_wrong_magic(tmp_path, path, loader):
    raw = bytearray(path.read_bytes())
    raw[0] ^= 0xFF
    bad = tmp_path / "bad.dgl"
    bad.write_bytes(bytes(raw))
    with pytest.raises(FormatError, match="at byte 0: expected the DGL .* magic number"):
        loader(bad)


def _first(raw: bytes, magic: int) -> int:
    return raw.index(struct.pack("<Q", magic))


def _patched(tmp_path, raw: bytes, at: int, fmt: str, value) -> object:
    b = bytearray(raw)
    struct.pack_into(fmt, b, at, value)
    p = tmp_path / "patched.dgl"
    p.write_bytes(bytes(b))
    return p


def test_lying_lengths_and_shapes(tmp_path):
    save_tensors(tmp_path / "t.dgl", {"name": torch.arange(4)})
    raw = (tmp_path / "t.dgl").read_bytes()
    nd = _first(raw, NDARRAY_MAGIC)
    cases = [
        (8, "<Q", 1 << 60, "claims"),  # tensor count
        (24, "<Q", 1 << 50, "claims"),  # name length
        (nd + 24, "<i", 1 << 20, "ndim"),  # huge ndim
        (nd + 24, "<i", -3, "ndim"),
        (nd + 32, "<q", -5, "negative dimension"),  # shape
        (nd + 32, "<q", 1 << 40, "needs"),  # shape disagrees with the byte count
        (nd + 40, "<q", 1 << 40, "needs"),  # byte count
        (nd + 28, "<B", 9, "unsupported dtype"),  # dtype code
        (nd + 16, "<i", 2, "device type 2"),  # a GPU array
    ]
    for at, fmt, value, message in cases:
        with pytest.raises(FormatError, match=message):
            load_tensors(_patched(tmp_path, raw, at, fmt, value))


def test_lying_graph_records(tmp_path):
    raw = GRAPH_FILE.read_bytes()
    with pytest.raises(FormatError, match="claims .* graphs"):
        load_graphs(_patched(tmp_path, raw, 24, "<Q", 1 << 40))
    with pytest.raises(FormatError, match="version 7"):
        load_graphs(_patched(tmp_path, raw, 8, "<Q", 7))
    with pytest.raises(FormatError, match="first graph should start"):
        load_graphs(_patched(tmp_path, raw, 4096, "<Q", 99))


def test_out_of_range_node_ids_are_refused(tmp_path):
    from graphpart import Graph
    from graphpart.interop import save_graphs

    save_graphs(tmp_path / "g.dgl", [Graph.from_edges([0, 1], [1, 2])])
    raw = bytearray((tmp_path / "g.dgl").read_bytes())
    coo = _first(bytes(raw), 0xDD61FFD305DFF127)
    struct.pack_into(
        "<q", raw, coo + 8, 2
    )  # num_cols (destinations) 3 -> 2: destination 2 is out of range
    (tmp_path / "g.dgl").write_bytes(bytes(raw))
    with pytest.raises(FormatError, match="lie in"):
        load_graphs(tmp_path / "g.dgl")


def test_a_pickle_in_place_of_a_dgl_file_is_not_run(tmp_path):
    import os
    import pickle

    class Payload:
        def __reduce__(self):
            return os.system, ("touch /tmp/graphpart_dgl_pwned",)

    (tmp_path / "x.dgl").write_bytes(pickle.dumps(Payload()))
    for loader in (load_graphs, load_tensors):
        with pytest.raises(FormatError, match="magic number"):
            loader(tmp_path / "x.dgl")
    assert not os.path.exists("/tmp/graphpart_dgl_pwned")


def test_csr_edge_ids_must_be_a_permutation(tmp_path):
    from graphpart import Graph
    from graphpart.interop import save_graphs

    save_graphs(
        tmp_path / "g.dgl", [Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 0])], formats=("csr",)
    )
    raw = bytearray((tmp_path / "g.dgl").read_bytes())
    csr = raw.rindex(struct.pack("<Q", 0xDD6CD31205DFF127))  # the relation's CSR (the last one)
    data = raw.index(
        struct.pack("<Q", NDARRAY_MAGIC),
        raw.index(
            struct.pack("<Q", NDARRAY_MAGIC), raw.index(struct.pack("<Q", NDARRAY_MAGIC), csr) + 8
        )
        + 8,
    )  # third NDArray: the edge ids
    struct.pack_into("<q", raw, data + 48 + 8, 0)  # edge ids [0, 1, 2, 3] -> [0, 0, 2, 3]
    (tmp_path / "g.dgl").write_bytes(bytes(raw))
    with pytest.raises(FormatError, match="permutation"):
        load_graphs(tmp_path / "g.dgl")


def test_a_tiny_pickle_cannot_size_a_huge_memo(tmp_path):
    import shutil

    from graphpart import load_partition
    from graphpart.datasets import peer_partitions

    shutil.copytree(peer_partitions("karate", "glt"), tmp_path / "p")
    (tmp_path / "p" / "META").write_bytes(b"\x80\x02N" + b"r" + struct.pack("<I", 2**32 - 1) + b".")
    with pytest.raises(FormatError, match="META must be one dict"):
        load_partition(tmp_path / "p", 0)


def test_strided_views_over_a_tiny_storage_are_refused(tmp_path):
    import shutil

    from graphpart import load_partition
    from graphpart.datasets import peer_partitions

    shutil.copytree(peer_partitions("karate", "pyg"), tmp_path / "p")
    torch.save(
        torch.zeros(1, dtype=torch.int64).expand(2_000_000_000), tmp_path / "p" / "node_map.pt"
    )
    with pytest.raises(FormatError, match="strided view"):
        load_partition(tmp_path / "p", 0)


def test_a_tiny_pickle_of_shared_references_loads_at_once(tmp_path):
    nested = [torch.zeros(1)]
    for _ in range(8):  # 64**8 paths to one tensor, a few hundred bytes on disk
        nested = [nested] * 64
    path = tmp_path / "node_map.pt"
    torch.save(nested, path)
    assert path.stat().st_size < 10_000
    run = runs_within(
        "from pathlib import Path; from graphpart.interop.safe_load import load_torch\n"
        f"load_torch(Path({str(path)!r}), 'node map'); print('loaded')",
        60,
    )
    assert run.returncode == 0 and "loaded" in run.stdout, run.stderr[-2000:]


def test_a_glt_meta_of_shared_lists_is_refused_at_once(tmp_path):
    import pickle

    nested = [1]
    for _ in range(8):
        nested = [nested] * 64
    (tmp_path / "glt").mkdir()
    (tmp_path / "glt" / "META").write_bytes(pickle.dumps(nested, protocol=2))
    run = runs_within(
        "import graphpart as gp\n"
        "try:\n"
        f"    gp.load_partition({str(tmp_path / 'glt')!r}, 0)\n"
        "except gp.FormatError as e:\n"
        "    print(len(str(e)), 'refused')\n",
        60,
    )
    assert run.returncode == 0 and "refused" in run.stdout, run.stderr[-2000:]
    assert int(run.stdout.split()[0]) < 500  # the message shows a short excerpt


@pytest.mark.parametrize("peer, parts", [("pyg", 50_000_000), ("glt", 2**40), ("pyg", 3)])
def test_a_foreign_part_count_is_checked_against_the_folder(tmp_path, peer, parts):
    import pickle
    import shutil

    from graphpart.datasets import peer_partitions

    root = tmp_path / peer
    shutil.copytree(peer_partitions("karate", peer), root)
    if peer == "pyg":
        meta = json.loads((root / "META.json").read_text())
        meta["num_parts"] = parts
        (root / "META.json").write_text(json.dumps(meta))
    else:
        import graphpart.interop.safe_load as sl

        meta = sl.load_pickle_records(root / "META", "META", allow_tensors=False, limit=2)[0]
        meta["num_parts"] = parts
        (root / "META").write_bytes(pickle.dumps(meta, protocol=2))
    with pytest.raises(FormatError, match="partitions, but the folder holds|has no folder"):
        gp.load_partition(root, 0)


def test_a_partition_folder_that_is_a_link_is_refused(tmp_path):
    import shutil

    from graphpart.datasets import peer_partitions

    root = tmp_path / "pyg"
    shutil.copytree(peer_partitions("karate", "pyg"), root)
    shutil.move(root / "part_1", tmp_path / "elsewhere")
    (root / "part_1").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(FormatError, match="part_1 is a symbolic link"):
        gp.load_partition(root, 0)

"""The torch zip layout written one block at a time, and read one slice at a time."""

from __future__ import annotations

import io
import pickle
import zipfile

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpart.errors import FormatError
from graphpart.interop import torch_zip
from graphpart.interop.torch_zip import Stream, TorchZipWriter, read_torch_zip

DTYPES = ["int64", "int32", "int8", "uint8", "bool", "float32", "float64", "float16"]


def write(path, tree, blocks):
    with open(path, "wb") as f:
        w = TorchZipWriter(f, tree)
        for stream, rows in blocks:
            w.append(stream, rows)
        w.close()


@pytest.fixture(params=[False, True], ids=["zip", "zip64"])
def zip64(request, monkeypatch):
    """Every record and offset in ZIP64 form too (as files past 4 GiB take it)."""
    if request.param:
        monkeypatch.setattr(torch_zip, "ZIP64_LIMIT", 0)
    return request.param


@settings(max_examples=30, deadline=None)
@given(
    dtype=st.sampled_from(DTYPES),
    rows=st.integers(0, 40),
    width=st.sampled_from([(), (3,)]),
    cuts=st.lists(st.integers(0, 40), max_size=4),
)
def test_streams_load_in_torch_as_the_arrays_they_were_given(
    tmp_path_factory, dtype, rows, width, cuts
):
    rng = np.random.default_rng(rows)
    a = (rng.random((rows, *width)) * 100).astype(dtype)
    s = Stream(dtype, a.shape)
    cut = sorted({0, rows, *(min(c, rows) for c in cuts)})
    path = tmp_path_factory.mktemp("z") / "g.pt"
    write(
        path,
        {"n": rows, "a": s, "d": {"k": np.arange(3)}},
        [(s, a[i:j]) for i, j in zip(cut, cut[1:])],
    )
    for mmap in (False, True):
        got = torch.load(path, weights_only=True, mmap=mmap)
        assert got["n"] == rows and got["d"]["k"].tolist() == [0, 1, 2]
        assert got["a"].numpy().dtype == a.dtype and np.array_equal(got["a"].numpy(), a)
    lazy = read_torch_zip(path)
    assert np.array_equal(lazy["a"].read(), a) and np.array_equal(lazy["a"][1:3], a[1:3])


def test_a_valid_zip_with_crcs_and_torch_alignment(tmp_path, zip64):
    s = Stream("int64", (1000,))
    write(
        tmp_path / "g.pt",
        {"src": s, "w": torch.ones(5)},
        [(s, np.arange(600)), (s, np.arange(600, 1000))],
    )
    with zipfile.ZipFile(tmp_path / "g.pt") as z:
        assert z.testzip() is None  # every CRC right
        names = z.namelist()
    assert (
        names[0] == "archive/data.pkl" and "archive/data/0" in names and "archive/version" in names
    )
    for key, array in read_torch_zip(tmp_path / "g.pt").items():
        assert array.offset % 64 == 0, key  # what torch's memory-mapped load expects
    assert torch.load(tmp_path / "g.pt", weights_only=True, mmap=True)["src"].sum() == 499500


def test_reads_what_torch_save_writes(tmp_path, zip64):
    want = {"a": torch.arange(7), "b": {"c": torch.rand(4, 2)}, "n": 3}
    torch.save(want, tmp_path / "t.pt")
    got = read_torch_zip(tmp_path / "t.pt")
    assert got["n"] == 3 and got["a"][2:5].tolist() == [2, 3, 4]
    assert np.array_equal(got["b"]["c"].read(), want["b"]["c"].numpy())


def test_a_stream_left_short_or_overfilled_is_refused(tmp_path):
    s = Stream("int64", (4,))
    with open(tmp_path / "g.pt", "wb") as f:
        w = TorchZipWriter(f, {"s": s})
        w.append(s, np.arange(3))
        with pytest.raises(ValueError, match="do not fit"):
            w.append(s, np.arange(2))
        with pytest.raises(ValueError, match="3 of 4|24 of 32"):
            w.close()


class _Evil:
    def __reduce__(self):
        return (print, ("pwned",))


def test_a_tree_with_other_objects_is_refused(tmp_path):
    torch.save({"a": torch.arange(3)}, tmp_path / "t.pt")
    with zipfile.ZipFile(tmp_path / "t.pt") as z:
        files = {n: z.read(n) for n in z.namelist()}
    files["t/data.pkl"] = pickle.dumps({"a": _Evil()}, protocol=2)  # torch names it by stem
    with zipfile.ZipFile(tmp_path / "evil.pt", "w") as z:
        for n, b in files.items():
            z.writestr(n, b)
    with pytest.raises(FormatError, match="print is not part of a tree of tensors"):
        read_torch_zip(tmp_path / "evil.pt")


def test_a_storage_shorter_than_its_tensor_is_refused(tmp_path):
    torch.save({"a": torch.arange(3)}, tmp_path / "t.pt")
    with zipfile.ZipFile(tmp_path / "t.pt") as z:
        files = {n: z.read(n) for n in z.namelist()}
    files["t/data/0"] = files["t/data/0"][:8]
    with zipfile.ZipFile(tmp_path / "short.pt", "w") as z:
        for n, b in files.items():
            z.writestr(n, b)
    with pytest.raises(FormatError, match="holds 8 bytes, not 3 items"):
        read_torch_zip(tmp_path / "short.pt")


@pytest.mark.parametrize("data", [b"", b"PK\x05\x06" + b"\0" * 18, b"not a zip at all" * 10])
def test_not_a_zip_is_a_format_error(tmp_path, data):
    (tmp_path / "x.pt").write_bytes(data)
    with pytest.raises(FormatError, match="x.pt"):
        read_torch_zip(tmp_path / "x.pt")


def test_writes_into_a_file_object(tmp_path):
    f = io.BytesIO()
    s = Stream("float32", (2, 2))
    w = TorchZipWriter(f, {"x": s})
    w.append(s, np.ones((2, 2)))
    w.close()
    f.seek(0)
    assert torch.load(f, weights_only=True)["x"].sum() == 4

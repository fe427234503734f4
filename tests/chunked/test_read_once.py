"""Dispatch's phase 1 fingerprints each chunk file (for --resume) from the read that parses it,
not a second pass over the file (issue 61 item 11), in every chunk format."""

from __future__ import annotations

import builtins
import hashlib
import io
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import torch

from graphpart.chunked import assign, dispatch, write_chunked
from graphpart.chunked._files import read_array
from graphpart.datasets import sbm
from graphpart.fs.digest import file_digest

#: Bytes beyond a file's size its readers may take again: a .npy header, a parquet footer, the
#: first block of a text file (its first line is checked before pyarrow parses it).
SLACK = 96 << 10


class CountingFile(io.RawIOBase):
    """A file read through Python's ``read``/``readinto`` (never numpy's ``fromfile``, which
    reads past Python), every byte counted for its path."""

    def __init__(self, path: str, tally: Counter) -> None:
        super().__init__()
        self._f, self._path, self._tally = io.FileIO(path, "r"), path, tally

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._f.seek(offset, whence)

    def tell(self) -> int:
        return self._f.tell()

    def readinto(self, buffer) -> int:
        n = self._f.readinto(buffer)
        self._tally[self._path] += n or 0
        return n

    def close(self) -> None:
        self._f.close()
        super().close()


@pytest.fixture
def counted_reads(monkeypatch, tmp_path):
    """Bytes read per file under ``tmp_path / "ch"`` while the fixture is active."""
    tally: Counter = Counter()
    real_open = builtins.open
    root = str(tmp_path / "ch")

    def counting_open(file, mode="r", *args, **kwargs):
        name = file if isinstance(file, str) else getattr(file, "__fspath__", lambda: None)()
        if isinstance(name, str) and name.startswith(root) and mode == "rb" and not args:
            return (
                io.BufferedReader(CountingFile(name, tally))
                if kwargs
                else CountingFile(name, tally)
            )
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    return tally


@pytest.mark.parametrize("fmt", ["numpy", "csv", "parquet"])
def test_phase_1_reads_each_chunk_once(fmt, tmp_path, dask_client, counted_reads):
    g = sbm(block_sizes=[1500, 1500], p_in=0.05, p_out=0.002, seed=0, feat_dim=16)
    g.edata["w"] = torch.rand(g.num_edges(), dtype=torch.float32)
    names = dict(edge_format=fmt, node_data_format=fmt, edge_data_format=fmt)
    write_chunked(g, tmp_path / "ch", 2, graph_name="g", **names)
    assign(tmp_path / "ch", tmp_path / "asg", 2, "metis", seed=0)  # its loads recorded
    counted_reads.clear()  # writing the chunks read nothing of theirs; count from here
    dispatch(tmp_path / "ch", tmp_path / "asg", tmp_path / "out", client=dask_client)
    chunks = [p for p in (tmp_path / "ch").rglob("*") if p.is_file() and p.stat().st_size > SLACK]
    # large enough that a second read shows: the edges' chunks, and their data's or features'
    assert {p.parent.name for p in chunks} >= {"edges"} and len(chunks) >= 4, chunks
    for p in chunks:
        assert counted_reads[str(p)] <= p.stat().st_size + SLACK, (p.name, p.stat().st_size)


@pytest.mark.parametrize("fmt", ["numpy", "csv", "parquet"])
def test_the_digest_of_the_read_is_the_file_digest(fmt, tmp_path):
    g = sbm(block_sizes=[50, 50], p_in=0.2, p_out=0.01, seed=0)
    write_chunked(g, tmp_path / "ch", 1, graph_name="g", edge_format=fmt)
    path = next(Path(tmp_path / "ch").rglob(f"*{'.npy' if fmt == 'numpy' else '.' + fmt}"))
    spec = {"name": fmt, "delimiter": " "} if fmt == "csv" else {"name": fmt}
    digests: list[str] = []
    a = read_array(path, spec, digests=digests)
    assert np.array_equal(a, read_array(path, spec))
    assert digests == [file_digest(path)] == [hashlib.sha256(path.read_bytes()).hexdigest()]

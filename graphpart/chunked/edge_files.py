"""Edge-list files larger than memory, read in blocks: ``.npy`` ``(E, 2)`` integer arrays (read
through a memory map), parquet with two integer columns (row groups), and text with two integers
a line (SNAP's and OGB's raw lists; ``#`` and ``%`` lines are comments)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..fs.untrusted import check_regular_file
from ._files import check_npy_header, leading_lines, parquet_columns, text_columns

__all__ = ["edge_blocks"]


def edge_file_kind(path: str | os.PathLike) -> str:
    """``"numpy"``, ``"parquet"`` or ``"text"``, from the suffix.

    Parameters
    ----------
    path : str or os.PathLike
        The edge-list file; only its suffix is read (``.npy``, ``.parquet``, in any case;
        every other suffix is text).

    Returns
    -------
    str
        ``"numpy"``, ``"parquet"`` or ``"text"``.
    """
    suffix = Path(path).suffix.lower()
    return {".npy": "numpy", ".parquet": "parquet"}.get(suffix, "text")


def _check(block: np.ndarray, path: Path) -> np.ndarray:
    if block.ndim != 2 or block.shape[1] != 2 or block.dtype.kind not in "iu":
        raise GraphpartError(
            f"{path}: an edge list holds two integer columns (src dst), got shape "
            f"{block.shape} and dtype {block.dtype}"
        )
    if block.dtype == np.uint64 and len(block) and block.max() >= 2**63:
        raise GraphpartError(f"{path}: node id {int(block.max())} is past the largest int64")
    return block


def _text_start(path: Path) -> tuple[int, str]:
    """Where the edges start (past the comment and blank lines at the top) and their delimiter:
    the first edge's tab, comma or else space. Lines end at ``\\n``, ``\\r\\n`` or ``\\r``,
    and none is read past :data:`~graphpart.chunked._files.LINE_LIMIT` bytes."""
    start = 0
    with open(path, "rb") as f:
        for line, end in leading_lines(f, path):
            if line.strip() and line[:1] not in (b"#", b"%"):
                return start, "\t" if b"\t" in line else ("," if b"," in line else " ")
            start = end
    return start, " "


def _text_blocks(path: Path, block: int) -> Iterator[np.ndarray]:
    start, delimiter = _text_start(path)
    columns = text_columns(
        path,
        delimiter,
        start=start,
        max_columns=2,
        types={"f0": "int64", "f1": "int64"},
        what="an edge list of two integers a line",
    )
    with contextlib.closing(columns):
        for cols in columns:
            if len(cols) != 2:
                raise GraphpartError(f"{path}: expected two integers a line, got {len(cols)}")
            a = np.stack(cols, axis=1)
            for lo in range(0, len(a), block):
                yield _check(a[lo : lo + block], path)


def edge_blocks(path: str | os.PathLike, block: int) -> Iterator[np.ndarray]:
    """The edges of ``path`` as ``(rows, 2)`` integer blocks of at most ``block`` rows.

    Parameters
    ----------
    path : str or os.PathLike
        A regular file: ``.npy`` of shape ``(E, 2)`` (memory-mapped), parquet with two integer
        columns (read a batch of ``block`` rows at a time), or text with two integers a line,
        separated by tabs, commas or spaces (the first line that is not a comment decides).
    block : int
        The most rows in one block (at least 1).

    Yields
    ------
    numpy.ndarray
        An ``(rows, 2)`` block of ``(src, dst)`` ids, in file order: int64 for text, the
        file's integer dtype otherwise.

    Raises
    ------
    GraphpartError
        If the file is not a regular file, does not hold two integer columns, or holds a
        ``uint64`` id past the largest int64.
    """
    path = check_regular_file(Path(path), "edge list")
    kind = edge_file_kind(path)
    if kind == "numpy":
        check_npy_header(path)
        a = _check(np.load(path, mmap_mode="r", allow_pickle=False), path)
        for lo in range(0, len(a), block):
            yield np.array(a[lo : lo + block])
    elif kind == "parquet":
        with contextlib.closing(parquet_columns(path, block)) as batches:
            for cols in batches:
                yield _check(np.stack(cols, axis=1) if cols else np.zeros((0, 0)), path)
    else:
        yield from _text_blocks(path, block)


def count_and_check(path: str | os.PathLike, block: int) -> tuple[int, int]:
    """``(edges, largest id)`` of an edge-list file, in one pass; negative ids are refused.

    Parameters
    ----------
    path : str or os.PathLike
        The edge-list file, in a format :func:`edge_blocks` reads.
    block : int
        Rows read at a time (at least 1).

    Returns
    -------
    tuple of (int, int)
        The number of edges and the largest node id (-1 for a file without edges).

    Raises
    ------
    GraphpartError
        If a node id is negative, or :func:`edge_blocks` refuses the file.
    """
    total, top = 0, -1
    with contextlib.closing(edge_blocks(path, block)) as blocks:
        for b in blocks:
            if not len(b):
                continue
            if b.min() < 0:
                raise GraphpartError(f"{path}: node ids must be non-negative, got {int(b.min())}")
            top = max(top, int(b.max()))
            total += len(b)
    return total, top

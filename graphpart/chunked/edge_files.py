"""Edge-list files larger than memory, read in blocks: ``.npy`` ``(E, 2)`` integer arrays (read
through a memory map), parquet with two integer columns (row groups), and text with two integers
a line (SNAP's and OGB's raw lists; ``#`` and ``%`` lines are comments)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..fs.untrusted import check_regular_file
from ..utils.check import describe_exception

__all__ = ["edge_blocks", "count_and_check", "edge_file_kind"]


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


def _text_blocks(path: Path, block: int) -> Iterator[np.ndarray]:
    import pyarrow.csv as pcsv

    opts = pcsv.ReadOptions(autogenerate_column_names=True, block_size=1 << 24)
    parse = pcsv.ParseOptions(delimiter=_delimiter(path), ignore_empty_lines=True)
    convert = pcsv.ConvertOptions(column_types={"f0": "int64", "f1": "int64"})
    try:
        reader = pcsv.open_csv(
            _without_comments(path), read_options=opts, parse_options=parse, convert_options=convert
        )
        for batch in reader:
            if batch.num_columns != 2:
                raise GraphpartError(
                    f"{path}: expected two integers a line, got {batch.num_columns}"
                )
            a = np.stack([batch.column(0).to_numpy(), batch.column(1).to_numpy()], axis=1)
            for lo in range(0, len(a), block):
                yield a[lo : lo + block]
    except GraphpartError:
        raise
    except Exception as e:  # pyarrow's own errors for lines that are not two integers
        raise GraphpartError(
            f"{path}: not an edge list of two integers a line ({describe_exception(e)})"
        ) from None


def _delimiter(path: Path) -> str:
    with open(path, "rb") as f:
        for line in f:
            if line.strip() and line[:1] not in (b"#", b"%"):
                return "\t" if b"\t" in line else ("," if b"," in line else " ")
    return " "


def _without_comments(path: Path):
    """A stream of the file's bytes with its leading comment lines skipped."""
    f = open(path, "rb")  # noqa: SIM115 (closed by pyarrow with the reader)
    pos = 0
    while True:
        line = f.readline()
        if not line or line[:1] not in (b"#", b"%"):
            break
        pos = f.tell()
    f.seek(pos)
    return f


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
        from ._files import check_npy_header

        check_npy_header(path)
        a = _check(np.load(path, mmap_mode="r", allow_pickle=False), path)
        for lo in range(0, len(a), block):
            yield np.array(a[lo : lo + block])
    elif kind == "parquet":
        import pyarrow.parquet as pq

        try:
            f = pq.ParquetFile(path)
            for batch in f.iter_batches(batch_size=block):
                yield _check(
                    np.stack([batch.column(i).to_numpy() for i in range(batch.num_columns)], 1),
                    path,
                )
        except GraphpartError:
            raise
        except Exception as e:
            raise GraphpartError(
                f"{path}: not a parquet edge list ({describe_exception(e)})"
            ) from None
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
    for b in edge_blocks(path, block):
        if len(b):
            if b.min() < 0:
                raise GraphpartError(f"{path}: node ids must be non-negative, got {int(b.min())}")
            top = max(top, int(b.max()))
        total += len(b)
    return total, top

"""Read and write one chunk file: ``csv`` (with a delimiter), ``numpy`` (``.npy``) or
``parquet``."""

from __future__ import annotations

import contextlib
import hashlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ..errors import GraphpartError
from ..fs.untrusted import check_regular_file
from ..utils.check import short_repr

__all__ = [
    "FORMATS",
    "CHUNK_VALUES",
    "is_chunk_dtype",
    "read_array",
    "write_array",
    "check_chunk_format",
    "check_npy_header",
    "leading_lines",
    "text_columns",
    "parquet_columns",
    "parquet_rows",
    "TEXT_BLOCK",
    "PARQUET_BATCH",
    "LINE_LIMIT",
]

#: Chunk formats of the chunked graph format, and the file suffix graphpart writes for each.
FORMATS = {"csv": ".csv", "numpy": ".npy", "parquet": ".parquet"}


def check_chunk_format(fmt: object, where: str) -> dict:
    """A valid ``{"name": ..., "delimiter": ...}`` format spec, or a ``GraphpartError`` naming
    ``where``."""
    if not isinstance(fmt, dict) or "name" not in fmt:
        raise GraphpartError(
            f"{where}: 'format' must be an object with a 'name', got {short_repr(fmt)}"
        )
    name = fmt["name"]
    if not isinstance(name, str) or name not in FORMATS:
        raise GraphpartError(
            f"{where}: unknown chunk format {short_repr(name)}; expected one of {list(FORMATS)}"
        )
    if name == "csv":
        delim = fmt.get("delimiter", ",")
        if not isinstance(delim, str) or len(delim) != 1:
            raise GraphpartError(
                f"{where}: csv 'delimiter' must be one character, got {short_repr(delim)}"
            )
        return {"name": "csv", "delimiter": delim}
    return {"name": name}


#: Text pyarrow parses at a time (bytes): a line must fit in one, and a reader holds one.
TEXT_BLOCK = 1 << 24
#: Parquet rows decoded at a time (pyarrow's batches of 2**24 rows peaked at 4x their size).
PARQUET_BATCH = 1 << 20
#: The longest line read to sniff a text file's columns or skip its comment lines.
LINE_LIMIT = 1 << 20


def leading_lines(f: BinaryIO, path: Path, limit: int = LINE_LIMIT) -> Iterator[tuple[bytes, int]]:
    """The lines of an open binary file from its position, each with the offset just after it.

    A line ends at ``\\n``, ``\\r\\n`` or ``\\r`` (as pyarrow reads them); a line longer than
    ``limit`` bytes is refused, so a file that is one huge line is never held whole.
    """
    buf, pos = b"", f.tell()
    while True:
        cut = min((i for i in (buf.find(b"\n"), buf.find(b"\r")) if i >= 0), default=-1)
        if cut < 0:
            if len(buf) > limit:
                raise GraphpartError(
                    f"{path}: a line longer than {limit:,} bytes at byte {pos:,}; expected rows of "
                    "numbers, one a line"
                )
            more = f.read(1 << 16)
            if not more:
                if buf:
                    yield buf, pos + len(buf)
                return
            buf += more
            continue
        end = cut + 1 + (buf[cut : cut + 2] == b"\r\n")
        pos += end
        yield buf[:cut], pos
        buf = buf[end:]


def _foreign_failure(path: Path, what: str, e: Exception) -> GraphpartError:
    """A library's failure on a file from elsewhere: its error's name, never its message (which
    may quote the file's bytes)."""
    return GraphpartError(f"{path} cannot be read as {what} ({type(e).__name__})")


def _numeric_columns(columns, path: Path) -> list[np.ndarray]:
    """Arrow columns as numpy arrays, once each is found to hold numbers and no empty value
    (checked on the Arrow types: text is never converted)."""
    import pyarrow as pa

    out = []
    for j, c in enumerate(columns):
        t = c.type.value_type if pa.types.is_dictionary(c.type) else c.type
        if not (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)):
            raise GraphpartError(
                f"chunk file {path}: column {j} holds {t} values; chunks hold numbers (bool, "
                "int, uint or float)"
            )
        if c.null_count:
            raise GraphpartError(f"chunk file {path}: column {j} has {c.null_count:,} empty values")
        out.append(np.array(c))
    return out


def _check_columns(cols: list[np.ndarray], path: Path) -> list[np.ndarray]:
    for j, c in enumerate(cols):
        if not is_chunk_dtype(c.dtype):
            raise GraphpartError(
                f"chunk file {path}: column {j} holds '{c.dtype.kind}'-kind values "
                f"({c.dtype.name}); chunks hold {CHUNK_VALUES}"
            )
    return cols


def text_columns(
    path: Path,
    delimiter: str,
    *,
    start: int = 0,
    max_columns: int | None = None,
    types: dict | None = None,
    what: str = "rows of numbers",
    file: BinaryIO | None = None,
) -> Iterator[list[np.ndarray]]:
    """The numeric columns of a text file of rows, a block of :data:`TEXT_BLOCK` bytes at a
    time, from byte ``start``.

    The first line is read (bounded by :data:`LINE_LIMIT`) and its columns counted before
    pyarrow parses anything; the reader and the file are closed on every path, an abandoned
    generator's included. Failures name pyarrow's error, never the file's bytes. ``file``:
    ``path`` already open (read from there, left open).
    """
    import pyarrow.csv as pcsv

    f = open(path, "rb") if file is None else file  # noqa: SIM115 (closed below)
    reader = None
    try:
        f.seek(start)
        first = next((line for line, _ in leading_lines(f, path) if line.strip()), None)
        if first is None:
            return
        found = first.count(delimiter.encode()) + 1
        if max_columns is not None and found > max_columns:
            raise GraphpartError(
                f"{path}: its first row has {found:,} values, more than the {max_columns:,} of "
                f"{what}"
            )
        f.seek(start)
        try:
            reader = pcsv.open_csv(
                f,
                read_options=pcsv.ReadOptions(
                    autogenerate_column_names=True, block_size=TEXT_BLOCK
                ),
                parse_options=pcsv.ParseOptions(delimiter=delimiter, ignore_empty_lines=True),
                convert_options=pcsv.ConvertOptions(column_types=types or {}),
            )
            for batch in reader:
                yield _numeric_columns(batch.columns, path)
        except GraphpartError:
            raise
        except Exception as e:  # pyarrow's errors quote the lines they fail on
            raise GraphpartError(
                f"{path} does not hold {what} ({type(e).__name__}; check the delimiter "
                f"{short_repr(delimiter)}, and that every row has as many values as the first)"
            ) from None
    finally:
        if reader is not None:
            reader.close()
        if file is None:
            f.close()


def parquet_columns(
    path: Path, rows: int = PARQUET_BATCH, file: BinaryIO | None = None
) -> Iterator[list[np.ndarray]]:
    """The numeric columns of a parquet file, ``rows`` at a time (at most
    :data:`PARQUET_BATCH`): whatever its row groups, a batch is decoded at a time. Columns
    that are not numbers are refused from the schema, before anything is decoded. ``file``:
    ``path`` already open (read from there, left open)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    f = open(path, "rb") if file is None else file  # noqa: SIM115 (closed below)
    try:
        try:
            pf = pq.ParquetFile(f)
            schema = pf.schema_arrow
        except Exception as e:
            raise _foreign_failure(path, "parquet", e) from None
        _numeric_columns([pa.array([], type=field.type) for field in schema], path)
        try:
            for batch in pf.iter_batches(batch_size=max(1, min(rows, PARQUET_BATCH))):
                yield _numeric_columns(batch.columns, path)
        except GraphpartError:
            raise
        except Exception as e:
            raise _foreign_failure(path, "parquet", e) from None
    finally:
        if file is None:
            f.close()
        _release_arrow_memory()


def parquet_rows(path: Path) -> int:
    """The rows a parquet file declares in its footer (read before any column is decoded)."""
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path).metadata.num_rows
    except Exception as e:
        raise _foreign_failure(path, "parquet", e) from None


class DigestingFile(io.RawIOBase):
    """A file opened for reading whose bytes are hashed (SHA-256) as a reader takes them, so a
    chunk is fingerprinted by the one read that parses it. Bytes are hashed in file order: a
    reader that seeks back (numpy rereads its magic) or jumps ahead (parquet's footer) adds
    nothing out of order, and :meth:`hexdigest` reads only what no read has hashed.

    Parameters
    ----------
    path : pathlib.Path
        The file.
    """

    def __init__(self, path: Path) -> None:
        super().__init__()
        self._f = open(path, "rb")  # noqa: SIM115 (closed by close())
        self._hash = hashlib.sha256()
        self._hashed = 0  # every byte before this offset is in the hash

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._f.tell()

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self._f.seek(offset, whence)

    def readinto(self, buffer) -> int:
        at = self._f.tell()
        n = self._f.readinto(buffer)
        if n and at <= self._hashed < at + n:
            with memoryview(buffer) as view:
                self._hash.update(view.cast("B")[self._hashed - at : n])
            self._hashed = at + n
        return n

    def hexdigest(self) -> str:
        """The SHA-256 of the whole file (the bytes no read took are read now), as
        :func:`graphpart.fs.digest.file_digest` gives it."""
        self._f.seek(self._hashed)
        while block := self._f.read(1 << 20):
            self._hash.update(block)
        self._hashed = self._f.tell()
        return self._hash.hexdigest()

    def close(self) -> None:
        self._f.close()
        super().close()


def read_array(
    path: Path,
    fmt: dict,
    max_rows: int | None = None,
    max_columns: int | None = None,
    digests: list[str] | None = None,
) -> np.ndarray:
    """The array in one chunk file: 1-D for one column, 2-D ``(rows, columns)`` otherwise.

    The file is hostile until checked: a regular file only; a ``.npy`` header must describe
    exactly the bytes that follow it, and a parquet footer its rows, before anything is sized
    by them; text is parsed a block at a time; none of them is read past ``max_rows`` rows or
    ``max_columns`` values a row; the values must be numbers (a column of text is refused, not
    read as objects). With ``digests``, the file's SHA-256 is appended to it, taken from the
    same read (:class:`DigestingFile`).
    """
    path = check_regular_file(path, "chunk file")
    if digests is None:
        return _read_array(path, fmt, max_rows, max_columns, None)
    with DigestingFile(path) as f:  # one read parses the chunk and fingerprints it
        a = _read_array(path, fmt, max_rows, max_columns, f)
        digests.append(f.hexdigest())
    return a


def _read_array(
    path: Path, fmt: dict, max_rows: int | None, max_columns: int | None, f: BinaryIO | None
) -> np.ndarray:
    name = fmt["name"]
    if name == "numpy":
        shape, _ = check_npy_header(path)
        _check_rows(path, shape[0] if shape else 1, max_rows)
        if max_columns is not None and len(shape) > 1 and int(np.prod(shape[1:])) > max_columns:
            raise GraphpartError(
                f"chunk file {path}: rows of shape {list(shape[1:])}, but a row here holds at "
                f"most {max_columns:,} values"
            )
        try:
            cols = [np.load(path if f is None else f, allow_pickle=False)]
        except Exception as e:
            raise _foreign_failure(path, "numpy", e) from None
    else:
        if name == "parquet":
            _check_rows(path, parquet_rows(path), max_rows)
            # parquet is read from its end (the footer): its bytes once into memory, in order,
            # fingerprinted as they come (compressed: small beside the columns decoded)
            blocks = parquet_columns(path, file=None if f is None else _in_memory(f))
        else:
            if Path(path).stat().st_size == 0:
                return np.zeros(0, dtype=np.int64)
            blocks = text_columns(path, fmt["delimiter"], max_columns=max_columns, file=f)
        parts, rows = [], 0
        with contextlib.closing(blocks):
            for cols in blocks:
                rows += len(cols[0]) if cols else 0
                _check_rows(path, rows, max_rows, "at least ")
                parts.append(cols)
        if not parts:
            return np.zeros(0, dtype=np.int64)
        cols = [np.concatenate([p[j] for p in parts]) for j in range(len(parts[0]))]
        del parts
    _check_columns(cols, path)
    if len(cols) == 1:
        return np.ascontiguousarray(cols[0])
    return np.stack(cols, axis=1) if cols else np.zeros((0,), dtype=np.int64)


def _in_memory(f: BinaryIO):
    """The rest of ``f`` as an in-memory file pyarrow reads (one sequential read of ``f``)."""
    import pyarrow as pa

    return pa.BufferReader(f.read())


def _check_rows(path: Path, rows: int, max_rows: int | None, qualifier: str = "") -> None:
    if max_rows is not None and rows > max_rows:
        raise GraphpartError(
            f"chunk file {path} holds {qualifier}{rows:,} rows, but the metadata allows "
            f"{max_rows:,}"
        )


#: What chunks may hold, as messages say it.
CHUNK_VALUES = "numbers (bool, int, uint or float, of at most 64 bits)"


def is_chunk_dtype(dtype: np.dtype) -> bool:
    """Whether chunks may hold values of ``dtype``: bool, signed or unsigned ints and floats of
    at most 8 bytes, what a torch tensor holds and so every partition writer (``float128`` is
    not: it crashed every partition task of ``dispatch``).

    Examples
    --------
    >>> [is_chunk_dtype(np.dtype(t)) for t in ("uint32", "float16", "longdouble", "U3", "c8")]
    [True, True, False, False, False]
    """
    return (
        dtype.kind in "biuf"
        and dtype.itemsize <= 8
        and dtype.fields is None
        and dtype.subdtype is None
        and not dtype.hasobject
    )


def check_npy_header(path: Path) -> tuple[tuple[int, ...], np.dtype]:
    """The shape and dtype in a ``.npy`` header, once they match the bytes after it and the
    dtype is one chunks may hold (checked before ``np.load`` sizes anything by them)."""
    try:
        with open(path, "rb") as f:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
            start = f.tell()
    except Exception as e:
        raise _foreign_failure(path, "numpy", e) from None
    if not is_chunk_dtype(dtype):
        raise GraphpartError(f"chunk file {path} holds {dtype} values; chunks hold {CHUNK_VALUES}")
    expected = int(np.prod(shape, dtype=object)) * dtype.itemsize
    found = path.stat().st_size - start
    if expected != found:
        raise GraphpartError(
            f"chunk file {path}: its header declares shape {short_repr(shape)} of {dtype} "
            f"({expected:,} bytes), but {found:,} bytes follow"
        )
    return tuple(shape), dtype


def _release_arrow_memory() -> None:
    """Arrow's allocator keeps freed memory for reuse; a worker reading chunk after chunk should
    not."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


def write_array(path: Path, array: np.ndarray, fmt: dict) -> None:
    """Write ``array`` (1-D or 2-D) as one chunk file (``path`` already has its suffix)."""
    array = np.asarray(array)
    if array.ndim > 2:
        array = array.reshape(len(array), -1)
    if fmt["name"] == "numpy":
        np.save(path, array, allow_pickle=False)
        return
    cols = [array] if array.ndim == 1 else [array[:, j] for j in range(array.shape[1])]
    if fmt["name"] == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.table({str(j): c for j, c in enumerate(cols)}), path)
        return
    import pyarrow as pa
    import pyarrow.csv as pcsv

    if not len(array):
        Path(path).write_bytes(b"")
        return
    table = pa.table({str(j): c for j, c in enumerate(cols)})
    pcsv.write_csv(
        table,
        path,
        write_options=pcsv.WriteOptions(include_header=False, delimiter=fmt["delimiter"]),
    )

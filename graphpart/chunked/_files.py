"""Read and write one chunk file: ``csv`` (with a delimiter), ``numpy`` (``.npy``) or
``parquet``."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..fs.untrusted import check_regular_file
from ..utils.check import short_repr

__all__ = [
    "FORMATS",
    "NUMERIC_KINDS",
    "read_array",
    "write_array",
    "check_format",
    "check_npy_header",
]

#: Chunk formats of the chunked graph format, and the file suffix graphpart writes for each.
FORMATS = {"csv": ".csv", "numpy": ".npy", "parquet": ".parquet"}


def check_format(fmt: object, where: str) -> dict:
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


def read_array(path: Path, fmt: dict) -> np.ndarray:
    """The array in one chunk file: 1-D for one column, 2-D ``(rows, columns)`` otherwise.

    The file is hostile until checked: a regular file only; a ``.npy`` header must describe
    exactly the bytes that follow it (before anything is sized by it); the values must be
    numbers (a CSV column of text is refused, not read as objects).
    """
    path = check_regular_file(path, "chunk file")
    try:
        if fmt["name"] == "numpy":
            check_npy_header(path)
            cols = [np.load(path, allow_pickle=False)]
        elif fmt["name"] == "parquet":
            import pyarrow.parquet as pq

            table = pq.read_table(path)
            cols = [table.column(i).to_numpy() for i in range(table.num_columns)]
        else:
            cols = _read_csv(path, fmt["delimiter"])
    except GraphpartError:
        raise
    except Exception as e:  # numpy and pyarrow raise many types for damaged files
        # the library's message may quote the file's bytes: name the error, never the content
        raise GraphpartError(
            f"chunk file {path} cannot be read as {fmt['name']} ({type(e).__name__}; check "
            f"the format and delimiter the metadata names)"
        ) from None
    if fmt["name"] != "numpy":
        cols = [np.array(c) for c in cols]  # own the memory, so Arrow's can go back now
        _release_arrow_memory()
    for c in cols:
        if c.dtype.kind not in NUMERIC_KINDS or c.dtype.fields is not None:
            raise GraphpartError(
                f"chunk file {path} holds '{c.dtype.kind}'-kind values ({c.dtype.name}); "
                "chunks hold numbers (bool, int, uint or float)"
            )
    if len(cols) == 1:
        return np.ascontiguousarray(cols[0])
    return np.stack(cols, axis=1) if cols else np.zeros((0,), dtype=np.int64)


#: numpy dtype kinds a chunk may hold: bool, signed and unsigned ints, floats.
NUMERIC_KINDS = "biuf"


def check_npy_header(path: Path) -> None:
    """A ``.npy`` header whose shape and dtype match the bytes after it (checked before
    ``np.load`` sizes anything by it)."""
    with open(path, "rb") as f:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(f)
        else:
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(f)
        start = f.tell()
    if dtype.kind not in NUMERIC_KINDS or dtype.fields is not None or dtype.hasobject:
        raise GraphpartError(
            f"chunk file {path} holds {dtype} values; chunks hold numbers (bool, int, uint or "
            "float)"
        )
    expected = int(np.prod(shape, dtype=object)) * dtype.itemsize
    found = path.stat().st_size - start
    if expected != found:
        raise GraphpartError(
            f"chunk file {path}: its header declares shape {short_repr(shape)} of {dtype} "
            f"({expected:,} bytes), but {found:,} bytes follow"
        )


def _release_arrow_memory() -> None:
    """Arrow's allocator keeps freed memory for reuse; a worker reading chunk after chunk should
    not."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


def _read_csv(path: Path, delimiter: str) -> list[np.ndarray]:
    import pyarrow.csv as pcsv

    if Path(path).stat().st_size == 0:
        return [np.zeros(0, dtype=np.int64)]
    table = pcsv.read_csv(
        path,
        read_options=pcsv.ReadOptions(autogenerate_column_names=True),
        parse_options=pcsv.ParseOptions(delimiter=delimiter),
    )
    return [table.column(i).to_numpy() for i in range(table.num_columns)]


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

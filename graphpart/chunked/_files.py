"""Read and write one chunk file: ``csv`` (with a delimiter), ``numpy`` (``.npy``) or
``parquet``."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import GraphpartError

__all__ = ["FORMATS", "read_array", "write_array", "check_format"]

#: Chunk formats of the chunked graph format, and the file suffix graphpart writes for each.
FORMATS = {"csv": ".csv", "numpy": ".npy", "parquet": ".parquet"}


def check_format(fmt: object, where: str) -> dict:
    """A valid ``{"name": ..., "delimiter": ...}`` format spec, or a ``GraphpartError`` naming
    ``where``."""
    if not isinstance(fmt, dict) or "name" not in fmt:
        raise GraphpartError(f"{where}: 'format' must be an object with a 'name', got {fmt!r}")
    name = fmt["name"]
    if name not in FORMATS:
        raise GraphpartError(
            f"{where}: unknown chunk format {name!r}; expected one of {list(FORMATS)}"
        )
    if name == "csv":
        delim = fmt.get("delimiter", ",")
        if not isinstance(delim, str) or len(delim) != 1:
            raise GraphpartError(f"{where}: csv 'delimiter' must be one character, got {delim!r}")
        return {"name": "csv", "delimiter": delim}
    return {"name": name}


def read_array(path: Path, fmt: dict) -> np.ndarray:
    """The array in one chunk file: 1-D for one column, 2-D ``(rows, columns)`` otherwise."""
    try:
        if fmt["name"] == "numpy":
            return np.load(path, allow_pickle=False)
        if fmt["name"] == "parquet":
            import pyarrow.parquet as pq

            table = pq.read_table(path)
            cols = [table.column(i).to_numpy() for i in range(table.num_columns)]
        else:
            cols = _read_csv(path, fmt["delimiter"])
    except FileNotFoundError:
        raise GraphpartError(f"chunk file {path} does not exist") from None
    except (OSError, ValueError) as e:
        raise GraphpartError(f"chunk file {path} cannot be read as {fmt['name']}: {e}") from None
    if fmt["name"] != "numpy":
        cols = [
            np.array(c) for c in cols
        ]  # own the memory, so Arrow's can go back to the system now
        _release_arrow_memory()
    if len(cols) == 1:
        return np.ascontiguousarray(cols[0])
    return np.stack(cols, axis=1) if cols else np.zeros((0,), dtype=np.int64)


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

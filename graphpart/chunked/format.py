"""The chunked graph format: ``metadata.json`` plus chunk files, read and validated.

Follows DGL's specification (keys ``graph_name``, ``node_type``,
``num_nodes_per_type``, ``edge_type``, ``num_edges_per_type``, ``edges``,
``node_data``, ``edge_data``; chunk formats ``csv``, ``numpy``, ``parquet``).
Relative chunk paths resolve against the folder of ``metadata.json``. graphpart
adds optional keys DGL ignores: ``counts`` (rows per chunk) on every chunk spec,
and ``dtype`` / ``shape`` (trailing dimensions) on data specs, so CSV data reads
back with its original dtype.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..fs.untrusted import check_regular_file, read_json
from ..graph.schema import check_data_name, etype_str, parse_etype
from ..storage.config import check_graph_name
from ..typing import CanonicalEType
from ..utils.check import Options, check_count, is_file_name, short_repr
from ..utils.units import fmt_bytes
from ._files import CHUNK_VALUES, check_chunk_format, is_chunk_dtype, read_array

__all__ = [
    "ChunkFormat",
    "ChunkSpec",
    "ChunkedMetadata",
    "read_metadata",
    "check_num_parts_for",
    "check_node_count",
    "chunk_edges",
    "row_bytes",
    "METADATA",
]

METADATA = "metadata.json"
#: Counts in the metadata (nodes, edges, rows) lie below this.
MAX_COUNT = 1 << 62
#: At most this many trailing dimensions, of at most this many values per row, in a data spec.
MAX_DIMS, MAX_ROW = 8, 1 << 32
#: The most values a row of a text chunk holds where the metadata records no shape (a line is
#: parsed only once its values are counted).
TEXT_COLUMNS = 4096


@dataclass(frozen=True)
class ChunkFormat(Options):
    """How a chunked graph is written: its name, and the file format of each kind of chunk.

    Every writer of chunks (:func:`~graphpart.chunked.write_chunked`, the ``*_chunked``
    generators, ``graphpart chunk``) takes one, or its fields by name.

    Attributes
    ----------
    graph_name : str or None, default None
        The ``graph_name`` of ``metadata.json``; ``None``: the output folder's name, its
        characters other than letters, digits and ``_`` made ``_``.
    edge_format, node_data_format, edge_data_format : {"csv", "numpy", "parquet"}
        The format of the edge chunks (default ``"csv"``, as DGL's examples) and of the node
        and edge data chunks (default ``"numpy"``).
    delimiter : str, default " "
        The CSV delimiter, one character (DGL's examples use a space).

    Examples
    --------
    >>> ChunkFormat(edge_format="parquet").chunk("edge_format")
    {'name': 'parquet'}
    >>> ChunkFormat(delimiter="ab")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: edge_format: csv 'delimiter' must be one character, got 'ab'
    """

    option_word = "chunk format option"

    graph_name: str | None = None
    edge_format: str = "csv"
    node_data_format: str = "numpy"
    edge_data_format: str = "numpy"
    delimiter: str = " "

    def __post_init__(self) -> None:
        if self.graph_name is not None:
            check_graph_name(self.graph_name)
        for kind in ("edge_format", "node_data_format", "edge_data_format"):
            self.chunk(kind)

    def chunk(self, kind: str) -> dict:
        """The checked format of one kind of chunk, as the metadata records it.

        Parameters
        ----------
        kind : {"edge_format", "node_data_format", "edge_data_format"}

        Returns
        -------
        dict
            ``{"name": "csv", "delimiter": ...}``, ``{"name": "numpy"}`` or
            ``{"name": "parquet"}``.
        """
        return check_chunk_format({"name": getattr(self, kind), "delimiter": self.delimiter}, kind)

    def name_for(self, out_dir: Path) -> str:
        """The graph name written to ``out_dir``: ``graph_name``, or the folder's name.

        Parameters
        ----------
        out_dir : pathlib.Path
            The chunked graph's folder.

        Returns
        -------
        str
        """
        if self.graph_name is not None:
            return self.graph_name
        name = re.sub(r"\W", "_", Path(out_dir).absolute().name, flags=re.ASCII)
        return check_graph_name(name or "graph")


@dataclass(frozen=True)
class ChunkSpec:
    """One ``ChunkFileSpec``: a format and the (resolved) chunk files, with optional row counts.

    Attributes
    ----------
    format : dict
        The checked format: ``{"name": "csv", "delimiter": ...}``, ``{"name": "numpy"}`` or
        ``{"name": "parquet"}``.
    paths : tuple of pathlib.Path
        The chunk files, in order; relative paths resolved against the metadata's folder.
    counts : tuple of int or None, default None
        Rows per chunk (graphpart's ``counts`` key), or ``None`` where the metadata has none.
    dtype : str or None, default None
        The numpy dtype the rows are cast to on reading (graphpart's ``dtype`` key), or
        ``None`` to keep the file's.
    shape : tuple of int, default ()
        The trailing dimensions of a row (graphpart's ``shape`` key); ``()`` keeps the
        file's.
    limit : int or None, default None
        The most rows one chunk may hold where ``counts`` are not recorded: the count of the
        type's nodes or edges (set by :func:`read_metadata`).
    """

    format: dict
    paths: tuple[Path, ...]
    counts: tuple[int, ...] | None = None
    dtype: str | None = None
    shape: tuple[int, ...] = ()
    limit: int | None = None

    def read(self, i: int, digests: list[str] | None = None) -> np.ndarray:
        """Chunk ``i`` as an array, in the recorded dtype and trailing shape when known.

        Its rows are checked against the recorded count, and its values against the recorded
        shape, before anything uses them (the metadata may lie).

        Parameters
        ----------
        i : int
            The chunk's position in :attr:`paths`.
        digests : list of str, optional
            The file's SHA-256 is appended here, from the same read (no second pass).

        Returns
        -------
        numpy.ndarray
            The chunk's rows, writable: 1-D for one column, else ``(rows, columns)``, reshaped
            to ``(rows, *shape)`` where ``shape`` is recorded.

        Raises
        ------
        GraphpartError
            If the file cannot be read, or its rows or values per row differ from the
            recorded ``counts`` or ``shape``.
        """
        rows = self.counts[i] if self.counts is not None else self.limit
        width = int(np.prod(self.shape)) if self.shape else TEXT_COLUMNS
        a = read_array(self.paths[i], self.format, rows, width, digests)  # never past either
        if self.counts is not None and len(a) != self.counts[i]:
            raise GraphpartError(
                f"chunk file {self.paths[i]} holds {len(a):,} rows, but the metadata's counts "
                f"say {self.counts[i]:,}"
            )
        if not a.flags.writeable:  # arrow-backed: torch wants to own writable memory
            a = a.copy()
        if self.dtype is not None and a.dtype != np.dtype(self.dtype):
            a = a.astype(self.dtype)
        if self.shape and a.shape[1:] != self.shape:
            if a.size != len(a) * int(np.prod(self.shape)):
                raise GraphpartError(
                    f"chunk file {self.paths[i]} holds rows of {a.size // max(len(a), 1)} "
                    f"values, but the metadata's shape {list(self.shape)} needs "
                    f"{int(np.prod(self.shape))}"
                )
            a = a.reshape(len(a), *self.shape)
        return a


@dataclass(frozen=True)
class ChunkedMetadata:
    """A parsed, structurally validated ``metadata.json``.

    Attributes
    ----------
    path : Path
        The metadata file.
    graph_name : str
    ntypes : list of str
    num_nodes : dict of str to int
    etypes : list of (src, rel, dst)
    num_edges : dict of (src, rel, dst) to int
    edges : dict of (src, rel, dst) to ChunkSpec
    node_data : dict of str to dict of str to ChunkSpec
    edge_data : dict of (src, rel, dst) to dict of str to ChunkSpec
    """

    path: Path
    graph_name: str
    ntypes: list[str]
    num_nodes: dict[str, int]
    etypes: list[CanonicalEType]
    num_edges: dict[CanonicalEType, int]
    edges: dict[CanonicalEType, ChunkSpec]
    node_data: dict[str, dict[str, ChunkSpec]]
    edge_data: dict[CanonicalEType, dict[str, ChunkSpec]]


def row_bytes(spec: ChunkSpec) -> int:
    """Bytes of one row of a data field, from its recorded dtype and shape (8 bytes a value
    where the metadata records no dtype).

    Parameters
    ----------
    spec : ChunkSpec
        The field's chunks.

    Returns
    -------
    int
        The bytes a row takes in memory.
    """
    width = int(np.prod(spec.shape)) if spec.shape else 1
    return width * (np.dtype(spec.dtype).itemsize if spec.dtype else 8)


def chunk_edges(meta: ChunkedMetadata, etype: CanonicalEType) -> list[int]:
    """Edges in each chunk of ``etype``: the recorded counts, else an even split of the type's
    edges (the estimate the plans size a chunk by; no chunk is read).

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata.
    etype : tuple of (str, str, str)
        The edge type.

    Returns
    -------
    list of int
        One count per chunk, in chunk order.
    """
    spec = meta.edges[etype]
    chunks = len(spec.paths)
    if spec.counts:
        return [int(c) for c in spec.counts]
    return [-(-meta.num_edges[etype] // max(chunks, 1))] * chunks


def _fail(path: Path, msg: str) -> GraphpartError:
    return GraphpartError(f"{path}: {msg}")


def _str_list(meta: dict, key: str, path: Path) -> list[str]:
    v = meta.get(key)
    if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
        raise _fail(path, f"'{key}' must be a list of non-empty strings, got {short_repr(v)}")
    if len(set(v)) != len(v):
        raise _fail(path, f"'{key}' lists a name twice: {short_repr(v)}")
    return v


def _is_count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x < MAX_COUNT


def _counts(meta: dict, key: str, n: int, path: Path) -> list[int]:
    v = meta.get(key)
    if v is None:
        raise _fail(
            path,
            f"'{key}' is missing; it must list {n} counts (DGL's chunking script "
            "omits it, but the pipeline needs it)",
        )
    if not isinstance(v, list) or len(v) != n or not all(_is_count(x) for x in v):
        raise _fail(
            path, f"'{key}' must be a list of {n} integers in [0, 2^62), got {short_repr(v)}"
        )
    return v


def _spec(raw: object, where: str, root: Path, path: Path) -> ChunkSpec:
    if not isinstance(raw, dict) or "format" not in raw or "data" not in raw:
        raise _fail(
            path, f"{where} must be an object with 'format' and 'data', got {short_repr(raw)}"
        )
    fmt = check_chunk_format(raw["format"], f"{path}: {where}")
    data = raw["data"]
    if not isinstance(data, list) or not data or not all(isinstance(p, str) and p for p in data):
        raise _fail(
            path, f"{where}.data must be a non-empty list of file paths, got {short_repr(data)}"
        )
    paths = tuple(Path(p) if os.path.isabs(p) else root / p for p in data)
    for p in paths:
        check_regular_file(p, f"{path}: {where} chunk file")
    counts = raw.get("counts")
    if counts is not None and (
        not isinstance(counts, list)
        or len(counts) != len(paths)
        or not all(_is_count(c) for c in counts)
    ):
        raise _fail(
            path,
            f"{where}.counts must list one row count in [0, 2^62) per chunk, got "
            f"{short_repr(counts)}",
        )
    dtype = raw.get("dtype")
    if dtype is not None and not _numeric_dtype(dtype):
        raise _fail(
            path,
            f"{where}.dtype must name a numpy dtype of {CHUNK_VALUES}, got {short_repr(dtype)}",
        )
    shape = raw.get("shape", [])
    if (
        not isinstance(shape, list)
        or len(shape) > MAX_DIMS
        or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in shape)
        or int(np.prod(shape, dtype=object)) > MAX_ROW
    ):
        raise _fail(
            path,
            f"{where}.shape must list at most {MAX_DIMS} positive trailing dimensions, got "
            f"{short_repr(shape)}",
        )
    return ChunkSpec(fmt, paths, tuple(counts) if counts is not None else None, dtype, tuple(shape))


def check_type_names(ntypes: list[str], etypes: list[str]) -> None:
    """Refuse type names the chunked pipeline cannot write as file names, before any work:
    node types name assignment files (``<ntype>.txt``) and merged id maps, canonical edge types
    (``"src:rel:dst"``) name merged edge id maps (``orig_eids/<etype>.npy``); each must be a
    plain file name (:func:`~graphpart.utils.check.is_file_name`: at most 200 bytes in UTF-8,
    no ``/``), node types without ``:``. ``read_metadata`` and ``write_chunked`` both check, so
    no step writes what a later one refuses.

    Parameters
    ----------
    ntypes : list of str
        The node type names.
    etypes : list of str
        The canonical edge types, as ``"src:rel:dst"``.

    Raises
    ------
    GraphpartError
        Naming the first name refused, and why.

    Examples
    --------
    >>> check_type_names(["paper"], ["paper:cites:paper"])
    >>> check_type_names(["é" * 150], [])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: node type 'ééé...' (300 bytes in UTF-8) becomes a file ...
    """
    for kind, names in (("node type", ntypes), ("edge type", etypes)):
        for t in names:
            if not is_file_name(t) or (kind == "node type" and ":" in t):
                size = len(t.encode("utf-8", "surrogatepass")) if isinstance(t, str) else 0
                raise GraphpartError(
                    f"{kind} {short_repr(t, 40)} ({size} bytes in UTF-8) becomes a file name: it "
                    "must be printable, at most 200 bytes in UTF-8, without '/', '\\' or '..'"
                    + (", and without ':'" if kind == "node type" else "")
                )


def check_node_count(num_nodes: int, where: str | os.PathLike) -> None:
    """Refuse a node count this machine cannot hold before anything is sized by it: every step
    holds at least one int64 per node (its partition, its new id). Readers of the metadata and
    the writers of chunked graphs check the same, so that no step writes what the next refuses.

    Parameters
    ----------
    num_nodes : int
        The graph's nodes, all types.
    where : str or path
        What the message names (the metadata, or the folder being written).

    Raises
    ------
    GraphpartError
        When 8 bytes per node exceed this machine's memory.
    """
    import psutil

    total = psutil.virtual_memory().total
    if 8 * num_nodes > total:
        raise _fail(
            where,
            f"{num_nodes:,} nodes; the pipeline holds 8 bytes per node "
            f"({fmt_bytes(8 * num_nodes)}), more than this machine's "
            f"{fmt_bytes(total)}",
        )


def _numeric_dtype(name: object) -> bool:
    if not isinstance(name, str):
        return False
    try:
        dt = np.dtype(name)
    except Exception:  # numpy raises TypeError, ValueError or SyntaxError for odd strings
        return False
    return is_chunk_dtype(dt)


def _data_specs(
    meta: dict, key: str, known: list[str], root: Path, path: Path
) -> dict[str, dict[str, ChunkSpec]]:
    """``node_data`` or ``edge_data``: ``{type: {feature: ChunkSpec}}`` for declared types only."""
    out = {}
    kind = "node" if key == "node_data" else "edge"
    raw = meta.get(key) or {}
    if not isinstance(raw, dict):
        raise _fail(path, f"{key} must map {kind} types to their data, got {short_repr(raw)}")
    for t, fields in raw.items():
        if t not in known:
            raise _fail(
                path, f"{key} has unknown {kind} type {short_repr(t)}; {kind} types: {known[:10]}"
            )
        if not isinstance(fields, dict):
            raise _fail(path, f"{key}[{t!r}] must map feature names to chunk specs")
        for k in fields:
            try:
                check_data_name(k, f"{key}[{t!r}]: {kind} data")
            except GraphpartError as e:
                raise _fail(path, str(e)) from None
        out[t] = {k: _spec(s, f"{key}[{t!r}][{k!r}]", root, path) for k, s in fields.items()}
    return out


def read_metadata(path: str | os.PathLike) -> ChunkedMetadata:
    """Parse and check ``metadata.json`` (a file, or the folder holding it).

    Checks the schema, the counts, that every edge type joins declared node
    types, that every chunk file exists and every format is known. Row counts
    and id ranges are checked when the chunks are read (:func:`load_chunked`).

    Parameters
    ----------
    path : str or os.PathLike
        The ``metadata.json`` file, or the folder that holds it. Made absolute, so the chunk
        paths stay valid for processes started in another folder.

    Returns
    -------
    ChunkedMetadata
        The parsed metadata, with every chunk path resolved.

    Raises
    ------
    GraphpartError
        If the file is missing or not valid chunked-graph metadata, a chunk file is missing,
        or the node count would not fit in this machine's memory (8 bytes per node).
    """
    path = Path(path).absolute()  # chunk paths stay valid for workers started elsewhere
    if path.is_dir():
        path = path / METADATA
    if not path.exists():
        raise GraphpartError(f"chunked graph metadata {path} does not exist")
    meta = read_json(path, "chunked graph metadata")
    if not isinstance(meta, dict):
        raise _fail(path, f"the top level must be a JSON object, got {type(meta).__name__}")
    name = meta.get("graph_name")
    if not is_file_name(name):
        raise _fail(
            path, f"'graph_name' must be a plain name (it becomes a file name), got {name!r:.80}"
        )
    root = path.parent
    ntypes = _str_list(meta, "node_type", path)
    etype_names = _str_list(meta, "edge_type", path)
    try:
        check_type_names(ntypes, etype_names)
    except GraphpartError as e:
        raise _fail(path, str(e)) from None
    nn = dict(zip(ntypes, _counts(meta, "num_nodes_per_type", len(ntypes), path)))
    etypes = []
    for e in etype_names:
        parts = e.split(":")
        if len(parts) != 3 or not all(parts):
            raise _fail(path, f"edge type {short_repr(e)} must be 'src:rel:dst'")
        if parts[0] not in nn or parts[2] not in nn:
            raise _fail(path, f"edge type {e!r} joins a node type not in node_type {ntypes}")
        etypes.append(parse_etype(e))
    ne = dict(zip(etypes, _counts(meta, "num_edges_per_type", len(etypes), path)))
    check_node_count(sum(nn.values()), path)
    raw_edges = meta.get("edges")
    if not isinstance(raw_edges, dict) or set(raw_edges) != set(etype_names):
        got = sorted(raw_edges) if isinstance(raw_edges, dict) else raw_edges
        raise _fail(
            path,
            f"'edges' must hold one entry per edge type {short_repr(etype_names)}, got "
            f"{short_repr(got)}",
        )
    edges = {
        parse_etype(e): replace(_spec(s, f"edges[{e!r}]", root, path), limit=ne[parse_etype(e)])
        for e, s in raw_edges.items()
    }
    node_data = {
        t: {k: replace(spec, limit=nn[t]) for k, spec in specs.items()}
        for t, specs in _data_specs(meta, "node_data", ntypes, root, path).items()
    }
    raw_edge_data = _data_specs(meta, "edge_data", etype_names, root, path)
    edge_data = {
        parse_etype(e): {k: replace(spec, limit=ne[parse_etype(e)]) for k, spec in specs.items()}
        for e, specs in raw_edge_data.items()
    }
    for t, specs in node_data.items():  # declared counts against the rows recorded
        for k, spec in specs.items():
            if spec.counts is not None and sum(spec.counts) != nn[t]:
                raise _fail(
                    path,
                    f"node_data[{t!r}][{k!r}] records {sum(spec.counts):,} rows but "
                    f"num_nodes_per_type says {nn[t]:,} nodes of type {t!r}",
                )
    for e, spec in edges.items():
        if spec.counts is not None and sum(spec.counts) != ne[e]:
            raise _fail(
                path,
                f"edges[{etype_str(e)!r}] records {sum(spec.counts):,} rows but "
                f"num_edges_per_type says {ne[e]:,}",
            )
    for e, specs in edge_data.items():
        for k, spec in specs.items():
            if len(spec.paths) != len(edges[e].paths):
                raise _fail(
                    path,
                    f"edge_data[{etype_str(e)!r}][{k!r}] has {len(spec.paths)} chunks but "
                    f"edges[{etype_str(e)!r}] has {len(edges[e].paths)}; edge features must be "
                    "chunked like their edges",
                )
    return ChunkedMetadata(path, name, ntypes, nn, etypes, ne, edges, node_data, edge_data)


def check_num_parts_for(num_parts: object, meta: ChunkedMetadata, where: str = "") -> int:
    """``num_parts`` as an int from 1 to the graph's node count (1 for a graph without nodes),
    the rule ``assign`` writes by, ``dispatch`` reads by and ``plan`` plans by.

    Parameters
    ----------
    num_parts : object
        The partition count asked for.
    meta : ChunkedMetadata
        The chunked graph (its node counts).
    where : str, default ""
        A prefix for the message (e.g. the assignment folder).

    Returns
    -------
    int
        ``num_parts``.

    Raises
    ------
    GraphpartError
        When it is not an int from 1 to the graph's node count.
    """
    total = sum(meta.num_nodes.values())
    k = check_count(num_parts, "num_parts", low=1)
    if k > max(total, 1):
        most = f"the graph's {total:,} nodes" if total else "1 (the graph has no nodes)"
        raise GraphpartError(f"{where}num_parts must be between 1 and {most}, got {k:,}")
    return k

"""Write an in-memory graph in the chunked graph format, atomically."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..fs.atomic import atomic_dir
from ..graph.core import Graph, check_graph
from ..graph.schema import check_data_name, etype_str
from ..utils.check import check_count, short_repr
from ._files import FORMATS, write_array
from ._owned import SUBFOLDERS, check_chunked_out
from .format import METADATA, ChunkFormat, check_node_count, check_type_names

__all__ = ["write_chunked"]

#: Chunks per edge type at most (each is a file): more is a mistake, not a plan.
MAX_CHUNKS = 1 << 20


def check_num_chunks(num_chunks: object, rows: int | None = None) -> int:
    """``num_chunks`` as an int from 1 to ``rows`` (the most rows any chunked array has, when
    known; empty chunks are allowed up to 1024) and at most :data:`MAX_CHUNKS`, else a one-line
    refusal: checked before any work.

    Parameters
    ----------
    num_chunks : object
        The value to check.
    rows : int or None, default None
        The most rows any array to be chunked has; ``None`` where not known yet.

    Returns
    -------
    int
        ``num_chunks``, from 1 to ``min(2**20, max(1024, rows))`` (``2**20`` without ``rows``).

    Raises
    ------
    GraphpartError
        If ``num_chunks`` is not an integer in that range.

    Examples
    --------
    >>> check_num_chunks(4, rows=78)
    4
    >>> check_num_chunks(10**9, rows=78)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: num_chunks must be at most 1024, got 1000000000
    """
    high = MAX_CHUNKS if rows is None else min(MAX_CHUNKS, max(1024, int(rows)))
    return check_count(num_chunks, "num_chunks", low=1, high=high)


def _bounds(n: int, k: int) -> np.ndarray:
    """``k + 1`` cut points splitting ``n`` rows into ``k`` near-equal chunks."""
    return (np.arange(k + 1, dtype=np.int64) * n) // k


def chunk_stem(index: str, *names: str) -> str:
    """The stem of a chunk file: ``index`` (the type's position, and the field's: one-to-one,
    whatever the names) then the names, readable, in at most 48 ASCII letters, digits, ``_``
    and ``-``: two types or fields whose names differ never share a file, and no name makes
    a file name too long.

    Examples
    --------
    >>> chunk_stem("e0", "a:r_x:b"), chunk_stem("e1", "a_r:x:b")
    ('e0-a_r_x_b', 'e1-a_r_x_b')
    >>> chunk_stem("n0.1", "paper", "é" * 300)[:20], len(chunk_stem("n0.1", "x" * 300))
    ('n0.1-paper-_________', 53)
    """
    readable = "-".join(re.sub(r"[^A-Za-z0-9_]", "_", name) for name in names)
    return f"{index}-{readable[:48]}"


def _write_chunks(
    folder: Path, stem: str, array: np.ndarray, k: int, fmt: dict, root: Path, data: bool
) -> dict:
    cut = _bounds(len(array), k)
    paths = []
    for i in range(k):
        file = folder / f"{stem}-part{i}{FORMATS[fmt['name']]}"
        write_array(file, array[cut[i] : cut[i + 1]], fmt)
        paths.append(file.relative_to(root).as_posix())
    spec = {"format": fmt, "data": paths, "counts": np.diff(cut).tolist()}
    if data:
        spec["dtype"] = str(array.dtype)
        spec["shape"] = list(array.shape[1:])
    return spec


def write_chunked(
    g: Graph,
    out_dir: str | os.PathLike,
    num_chunks: int,
    chunk_format: ChunkFormat | None = None,
    **names: object,
) -> Path:
    """Write ``g`` (data included) as a chunked graph under ``out_dir``; returns the metadata path.

    Every edge type and every feature is split into ``num_chunks`` near-equal
    chunks (edge features exactly like their edges). ``num_nodes_per_type``,
    ``num_edges_per_type`` and per-chunk row counts are always written. The
    folder appears only when complete (written to a temporary sibling first).

    Parameters
    ----------
    g : Graph
        The graph, homogeneous or heterogeneous, with its node and edge data.
    out_dir : path
        The chunked graph's folder: new, empty, or an earlier chunked graph of graphpart's,
        replaced whole.
    num_chunks : int
        Chunks per edge type and per feature: from 1 to ``max(1024, largest node or edge
        count)``, at most ``2**20``.
    chunk_format : ChunkFormat or None, default None
        The graph's name and its chunks' formats (:class:`~graphpart.chunked.ChunkFormat`;
        ``None``: its defaults).
    **names
        :class:`~graphpart.chunked.ChunkFormat` fields by name (``edge_format="parquet"``).

    Returns
    -------
    pathlib.Path
        The path of the written ``metadata.json`` (``out_dir / "metadata.json"``).
    """
    check_graph(g)
    check_type_names(list(g.ntypes), [etype_str(e) for e in g.canonical_etypes])
    for t in g.ntypes:  # what read_metadata will require of the data names, before any write
        for name_ in g.node_data(t):
            check_data_name(name_, f"node data of {short_repr(t)}")
    for e in g.canonical_etypes:
        for name_ in g.edge_data(e):
            check_data_name(name_, f"edge data of {short_repr(etype_str(e))}")
    rows = max([g.num_nodes(t) for t in g.ntypes] + [g.num_edges(e) for e in g.canonical_etypes])
    k = check_num_chunks(num_chunks, rows)
    out_dir = Path(out_dir)
    chunk_format = ChunkFormat.of(chunk_format, **names)
    name = chunk_format.name_for(out_dir)
    kinds = ("edge_format", "node_data_format", "edge_data_format")
    fmts = {kind: chunk_format.chunk(kind) for kind in kinds}
    check_chunked_out(out_dir)
    with atomic_dir(out_dir) as tmp:
        for sub in SUBFOLDERS:
            (tmp / sub).mkdir()
        meta = {
            "graph_name": name,
            "node_type": g.ntypes,
            "num_nodes_per_type": [g.num_nodes(t) for t in g.ntypes],
            "edge_type": [etype_str(e) for e in g.canonical_etypes],
            "num_edges_per_type": [g.num_edges(e) for e in g.canonical_etypes],
            "edges": {},
            "node_data": {},
            "edge_data": {},
        }
        for ei, e in enumerate(g.canonical_etypes):
            s, d = g.edges(e)
            ids = edge_chunk_dtype(fmts["edge_format"], max(g.num_nodes(t) for t in g.ntypes))
            pairs = np.stack([s.numpy(), d.numpy()], axis=1).astype(ids)
            meta["edges"][etype_str(e)] = _write_chunks(
                tmp / "edges",
                chunk_stem(f"e{ei}", etype_str(e)),
                pairs,
                k,
                fmts["edge_format"],
                tmp,
                data=False,
            )
            fields = {
                name_: _write_chunks(
                    tmp / "edge_data",
                    chunk_stem(f"e{ei}.{fi}", etype_str(e), name_),
                    v.numpy(),
                    k,
                    fmts["edge_data_format"],
                    tmp,
                    data=True,
                )
                for fi, (name_, v) in enumerate(g.edge_data(e).items())
            }
            if fields:
                meta["edge_data"][etype_str(e)] = fields
        for ti, t in enumerate(g.ntypes):
            fields = {
                name_: _write_chunks(
                    tmp / "node_data",
                    chunk_stem(f"n{ti}.{fi}", t, name_),
                    v.numpy(),
                    k,
                    fmts["node_data_format"],
                    tmp,
                    data=True,
                )
                for fi, (name_, v) in enumerate(g.node_data(t).items())
            }
            if fields:
                meta["node_data"][t] = fields
        (tmp / METADATA).write_text(json.dumps(meta, indent=2))
    return out_dir / METADATA


def check_stream_output(out_dir: Path, chunk_format: ChunkFormat) -> None:
    """What :func:`write_edge_stream` will refuse, checked before the work that feeds it: the
    graph name and an ``out_dir`` that may not be replaced.

    Parameters
    ----------
    out_dir : pathlib.Path
        The folder to be written: it must be new, empty, or an earlier chunked graph of
        graphpart's.
    chunk_format : ChunkFormat
        The name and formats (checked when made; the name may come from ``out_dir``).

    Raises
    ------
    GraphpartError
        If one of them would be refused.
    """
    chunk_format.name_for(out_dir)
    check_chunked_out(out_dir)


def edge_chunk_dtype(fmt: dict, num_nodes: int) -> np.dtype:
    """The dtype edge chunks are written in: int32 for ``.npy`` chunks where every id fits
    (below ``num_nodes``, the largest node count of a type: half the bytes to write and read
    in every pass), else int64.

    Parameters
    ----------
    fmt : dict
        The chunk format (``{"name": "numpy" | "csv" | "parquet", ...}``).
    num_nodes : int
        The largest node count of a node type.

    Returns
    -------
    numpy.dtype
        int32 or int64.

    Examples
    --------
    >>> edge_chunk_dtype({"name": "numpy"}, 2**31 - 1), edge_chunk_dtype({"name": "csv"}, 5)
    (dtype('int32'), dtype('int64'))
    """
    narrow = fmt["name"] == "numpy" and num_nodes <= np.iinfo(np.int32).max
    return np.dtype(np.int32 if narrow else np.int64)


def _stream_chunks(
    folder: Path, stem: str, blocks: Iterable[np.ndarray], total: int, k: int, fmt: dict, root: Path
) -> dict:
    """Write ``total`` rows arriving in ``blocks`` as ``k`` near-equal chunks (the cut points of
    :func:`write_chunked`), holding at most one chunk and one block."""
    cut = _bounds(total, k)
    paths, pending, held, i, seen = [], [], 0, 0, 0
    for block in blocks:
        seen += len(block)
        if seen > total:
            raise GraphpartError(f"{stem}: more than the {total:,} rows counted arrived")
        pending.append(block)
        held += len(block)
        while i < k and held >= cut[i + 1] - cut[i]:
            rows = np.concatenate(pending) if len(pending) > 1 else pending[0]
            size = int(cut[i + 1] - cut[i])
            file = folder / f"{stem}-part{i}{FORMATS[fmt['name']]}"
            write_array(file, rows[:size], fmt)
            paths.append(file.relative_to(root).as_posix())
            pending, held, i = [rows[size:]], held - size, i + 1
    if seen != total:
        raise GraphpartError(f"{stem}: {seen:,} rows arrived but {total:,} were counted")
    while i < k:  # no edges at all: k empty chunks, as write_chunked writes them
        file = folder / f"{stem}-part{i}{FORMATS[fmt['name']]}"
        write_array(file, np.zeros((0, 2), dtype=edge_chunk_dtype(fmt, 0)), fmt)
        paths.append(file.relative_to(root).as_posix())
        i += 1
    return {"format": fmt, "data": paths, "counts": np.diff(cut).tolist()}


def write_edge_stream(
    out_dir: str | os.PathLike,
    num_chunks: int,
    num_nodes: int,
    edge_blocks: Callable[[], Iterable[np.ndarray]],
    num_edges: int,
    node_data: dict[str, np.ndarray],
    chunk_format: ChunkFormat | None = None,
) -> Path:
    """Write a graph of one node and edge type whose ``num_edges`` edges arrive as ``(rows, 2)``
    blocks from ``edge_blocks()`` (called once); returns the metadata path.

    The files and ``metadata.json`` are those :func:`write_chunked` writes for the same graph;
    memory is one chunk and one block, plus ``node_data``.

    Parameters
    ----------
    out_dir : str or os.PathLike
        The chunked graph's folder: new, empty, or an earlier chunked graph of graphpart's,
        replaced whole.
    num_chunks : int
        Chunks of the edges and of each node field: from 1 to ``max(1024, num_edges,
        num_nodes)``, at most ``2**20``.
    num_nodes : int
        Nodes of the graph (type ``_N``).
    edge_blocks : callable
        Called once with no argument; returns an iterable of blocks, each reshaped to
        ``(rows, 2)`` int64 ``(src, dst)`` pairs. Ids are not checked here.
    num_edges : int
        The edges the blocks hold in all (type ``("_N", "_E", "_N")``).
    node_data : dict of str to numpy.ndarray
        Node fields, one row per node, written in chunks with their dtype and shape.
    chunk_format : ChunkFormat or None, default None
        The graph's name and its chunks' formats (edge data has none here).

    Returns
    -------
    pathlib.Path
        The path of the written ``metadata.json``.

    Raises
    ------
    GraphpartError
        If an argument is refused, or the blocks hold more or fewer than ``num_edges``
        rows (nothing is written then).
    """
    k = check_num_chunks(num_chunks, max(int(num_edges), int(num_nodes)))
    out_dir = Path(out_dir)
    chunk_format = chunk_format or ChunkFormat()
    name = chunk_format.name_for(out_dir)
    efmt, nfmt = chunk_format.chunk("edge_format"), chunk_format.chunk("node_data_format")
    check_node_count(int(num_nodes), out_dir)  # what read_metadata would refuse, refused first
    check_chunked_out(out_dir)
    etype = "_N:_E:_N"
    with atomic_dir(out_dir) as tmp:
        for sub in SUBFOLDERS:
            (tmp / sub).mkdir()
        meta = {
            "graph_name": name,
            "node_type": ["_N"],
            "num_nodes_per_type": [int(num_nodes)],
            "edge_type": [etype],
            "num_edges_per_type": [int(num_edges)],
            "edges": {},
            "node_data": {},
            "edge_data": {},
        }
        source = edge_blocks()
        try:  # a reader left open past an error can abort the interpreter at exit
            ids = edge_chunk_dtype(efmt, int(num_nodes))
            blocks = (np.asarray(b, dtype=np.int64).reshape(-1, 2).astype(ids) for b in source)
            meta["edges"][etype] = _stream_chunks(
                tmp / "edges", chunk_stem("e0", etype), blocks, int(num_edges), k, efmt, tmp
            )
        finally:
            getattr(source, "close", lambda: None)()
        fields = {
            field: _write_chunks(
                tmp / "node_data", chunk_stem(f"n0.{fi}", "_N", field), v, k, nfmt, tmp, data=True
            )
            for fi, (field, v) in enumerate(node_data.items())
        }
        if fields:
            meta["node_data"]["_N"] = fields
        (tmp / METADATA).write_text(json.dumps(meta, indent=2))
    return out_dir / METADATA

"""Load a chunked graph into memory, checking every chunk against ``metadata.json``."""

from __future__ import annotations

import os

import numpy as np
import torch

from ..errors import GraphpartError
from ..graph.core import Graph
from ..graph.schema import etype_str
from ..homogeneous import homogeneous_ids, type_offsets
from ..utils.check import short_repr
from .format import ChunkedMetadata, ChunkSpec, read_metadata

__all__ = ["load_chunked", "read_edges", "read_data", "homogeneous_edges"]


def read_edges(
    meta: ChunkedMetadata, etype, i: int, digests: list[str] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Chunk ``i`` of one edge type as ``(src, dst)`` type-wise ids, checked against the node
    counts.

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata.
    etype : tuple of (str, str, str)
        The canonical edge type, a key of ``meta.edges``.
    i : int
        The chunk's position among the edge type's chunks.
    digests : list of str, optional
        The chunk file's SHA-256 is appended here, from the same read.

    Returns
    -------
    src, dst : numpy.ndarray
        int64 source and destination ids, from the chunk's first two columns.

    Raises
    ------
    GraphpartError
        If the chunk lacks two integer columns, its row count differs from the recorded
        one, or an id is outside its node type's range.
    """
    spec = meta.edges[etype]
    a = spec.read(i, digests)
    if a.size == 0:
        a = a.reshape(0, 2)
    if a.ndim != 2 or a.shape[1] < 2 or a.dtype.kind not in "iu":
        raise GraphpartError(
            f"{spec.paths[i]}: an edge chunk must hold two integer columns (src dst), "
            f"got shape {a.shape} and dtype {a.dtype}"
        )
    src, dst = a[:, 0].astype(np.int64), a[:, 1].astype(np.int64)
    for ids, t, side in ((src, etype[0], "source"), (dst, etype[2], "destination")):
        n = meta.num_nodes[t]
        if len(ids) and (ids.min() < 0 or ids.max() >= n):
            bad = ids[(ids < 0) | (ids >= n)][0]
            raise GraphpartError(
                f"{spec.paths[i]}: {side} id {int(bad)} is out of range for node type "
                f"{short_repr(t)}, which has {n} nodes"
            )
    return src, dst


def homogeneous_edges(
    meta: ChunkedMetadata, ntypes: list[str], etypes: list
) -> tuple[np.ndarray, ...]:
    """Every edge in homogeneous ids (types numbered in the order given): ``src, dst, etype, typed
    eid``.

    Holds the whole edge list: for the steps that need it in memory (METIS, ParMETIS export).

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata.
    ntypes : list of str
        Every node type, in the order that numbers the homogeneous ids.
    etypes : list of tuple of (str, str, str)
        The canonical edge types to read, in this order; ``etype`` is the position here.

    Returns
    -------
    src, dst, etype, typed_eid : numpy.ndarray
        One int64 entry per edge, edge type after edge type and chunk after chunk: the
        homogeneous end ids, the edge type's position in ``etypes``, and the edge's id
        among the edges of its type.
    """
    offsets = type_offsets([meta.num_nodes[t] for t in ntypes])
    cols: list[list[np.ndarray]] = [[], [], [], []]
    for ei, e in enumerate(etypes):
        row0 = 0
        for c in range(len(meta.edges[e].paths)):
            s, d = read_edges(meta, e, c)
            cols[0].append(homogeneous_ids(ntypes.index(e[0]), s, offsets))
            cols[1].append(homogeneous_ids(ntypes.index(e[2]), d, offsets))
            cols[2].append(np.full(len(s), ei, dtype=np.int64))
            cols[3].append(np.arange(row0, row0 + len(s), dtype=np.int64))
            row0 += len(s)
    return tuple(np.concatenate(x) if x else np.zeros(0, dtype=np.int64) for x in cols)


def read_data(spec: ChunkSpec, expect_rows: list[int] | None, what: str) -> np.ndarray:
    """All chunks of one feature, concatenated; ``expect_rows`` are the rows each chunk must
    have.

    Parameters
    ----------
    spec : ChunkSpec
        The feature's chunks.
    expect_rows : list of int or None
        The rows each chunk must hold (an edge feature: its edge chunks' edge counts);
        ``None`` checks only the recorded counts.
    what : str
        How the error message names the feature.

    Returns
    -------
    numpy.ndarray
        Every chunk's rows, in chunk order.

    Raises
    ------
    GraphpartError
        If a chunk cannot be read or its rows differ from ``expect_rows`` or the recorded
        counts.
    """
    parts = []
    for i in range(len(spec.paths)):
        a = spec.read(i)
        if expect_rows is not None and len(a) != expect_rows[i]:
            raise GraphpartError(
                f"{spec.paths[i]}: {what} chunk {i} has {len(a)} rows but its edge chunk has "
                f"{expect_rows[i]} edges"
            )
        parts.append(a)
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def load_chunked(path: str | os.PathLike) -> Graph:
    """Read a chunked graph (``metadata.json`` or its folder) into a :class:`~graphpart.Graph`.

    Every chunk is checked: edge ids within their node type's range, row counts
    against the metadata, edge-feature chunks against their edge chunks.

    Parameters
    ----------
    path : str or os.PathLike
        ``metadata.json``, or the folder that holds it.

    Returns
    -------
    Graph
        The graph with its node and edge data: a homogeneous graph when the only node type is
        ``_N`` and the only edge type ``("_N", "_E", "_N")``, else a heterogeneous one.

    Raises
    ------
    GraphpartError
        If the metadata or a chunk is invalid, or the chunks disagree with the metadata's
        counts.

    Examples
    --------
    >>> import tempfile
    >>> from graphpart.chunked import write_chunked
    >>> from graphpart.datasets import load_karate_club
    >>> g = load_karate_club()
    >>> out = write_chunked(g, tempfile.mkdtemp() + "/karate", num_chunks=3)
    >>> h = load_chunked(out)
    >>> h.num_edges(), bool((h.ndata["label"] == g.ndata["label"]).all())
    (156, True)
    """
    meta = read_metadata(path)
    edges, edata = {}, {}
    for e in meta.etypes:
        chunks = [read_edges(meta, e, i) for i in range(len(meta.edges[e].paths))]
        src = np.concatenate([c[0] for c in chunks])
        dst = np.concatenate([c[1] for c in chunks])
        if len(src) != meta.num_edges[e]:
            raise GraphpartError(
                f"{meta.path}: edge type {short_repr(etype_str(e))} has {len(src)} edges in its "
                f"chunks, "
                f"but num_edges_per_type says {meta.num_edges[e]}"
            )
        edges[e] = (torch.from_numpy(src), torch.from_numpy(dst))
        rows = [len(c[0]) for c in chunks]
        edata[e] = {
            k: torch.from_numpy(read_data(s, rows, f"edge_data[{etype_str(e)!r}][{k!r}]"))
            for k, s in meta.edge_data.get(e, {}).items()
        }
    ndata = {}
    for t, fields in meta.node_data.items():
        ndata[t] = {}
        for k, s in fields.items():
            a = read_data(s, None, f"node_data[{t!r}][{k!r}]")
            if len(a) != meta.num_nodes[t]:
                raise GraphpartError(
                    f"{meta.path}: node_data[{short_repr(t)}][{short_repr(k)}] has {len(a)} rows, "
                    f"but node type "
                    f"{short_repr(t)} has {meta.num_nodes[t]} nodes"
                )
            ndata[t][k] = torch.from_numpy(a)
    if meta.ntypes == ["_N"] and len(meta.etypes) == 1 and meta.etypes[0] == ("_N", "_E", "_N"):
        ((s, d),) = edges.values()
        return Graph.from_edges(
            s, d, num_nodes=meta.num_nodes["_N"], ndata=ndata.get("_N"), edata=edata[meta.etypes[0]]
        )
    return Graph.from_typed_edges(edges, num_nodes=meta.num_nodes, ndata=ndata, edata=edata)

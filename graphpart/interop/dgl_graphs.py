"""``dgl.save_graphs`` / ``dgl.load_graphs`` files (format version 2), in numpy and torch alone.

File layout::

    0     u64 magic 0xDD2E4FF046B4A13F, u64 version 2, u64 graph type 2, u64 number of graphs
    32    (not initialised by DGL up to byte 4096: never compared; written as zeros here)
    4096  u64 offset of the first graph record
    4104  labels: u64 count, then (string name, NDArray) pairs
    ...   one record per graph: HeteroGraph, node data per node type, edge data per edge type,
          node type names, edge (relation) names
    end   u64 L, u64 count, u64 offsets[count], u64 L       (L = 8 * (count + 1))

A HeteroGraph is its metagraph (an ImmutableGraph: magic + CSR whose rows are source node types,
columns destination node types and data edge type ids), one UnitGraph per edge type and the node
count of every type. A UnitGraph stores the formats it saves and allows (``code | 1 << 32`` with
COO = 1, CSR = 2, CSC = 4) and, per saved format in that order, the unit metagraph and the
matrix. Matrices write ``num_cols`` before ``num_rows``; COO edge ids are implicit (its data is
an empty array), CSR/CSC data are edge ids.

Reading maps the file: node and edge data are views of it, never copies.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import torch

from .._io import atomic_write
from ..errors import FormatError
from ..graph import Graph
from ._binary import Reader, Writer

__all__ = ["load_graphs", "save_graphs", "GRAPH_FILE_MAGIC"]

logger = logging.getLogger(__name__)

GRAPH_FILE_MAGIC = 0xDD2E4FF046B4A13F
_HETERO_MAGIC = 0xDD589FBE35224ABF
_IMMUTABLE_MAGIC = 0xDD3C5FFE20046ABF
_UNIT_MAGIC = 0xDD2E60F0F6B4A127
_COO_MAGIC = 0xDD61FFD305DFF127
_CSR_MAGIC = 0xDD6CD31205DFF127
_NEW_CODE = 1 << 32
_COO, _CSR, _CSC = 1, 2, 4
_FORMATS = {"coo": _COO, "csr": _CSR, "csc": _CSC}
_HEADER = 4096


# ---------------------------------------------------------------------------------- reading
def _named(r: Reader, what: str) -> dict[str, torch.Tensor]:
    out = {}
    for i in range(r.count(what, 16)):
        at = r.pos
        name = r.string(f"the name of {what}[{i}]")
        if name in out:
            raise r.fail(f"{what}: name {name!r} appears twice", at)
        out[name] = r.ndarray(f"{what} {name!r}")
    return out


def _csr(r: Reader, what: str) -> tuple[int, int, torch.Tensor, torch.Tensor, torch.Tensor]:
    r.magic(_CSR_MAGIC, f"CSR matrix ({what})")
    cols, rows = r.i64("num_cols"), r.i64("num_rows")
    indptr, indices, data = (r.ndarray(f"{what} {k}") for k in ("indptr", "indices", "data"))
    r.flag("the sorted flag")
    at = r.pos
    if (
        rows < 0
        or cols < 0
        or indptr.shape != (rows + 1,)
        or indices.dim() != 1
        or data.shape != indices.shape
    ):
        raise r.fail(
            f"{what}: CSR of {rows}x{cols} has indptr {tuple(indptr.shape)}, indices "
            f"{tuple(indices.shape)}, data {tuple(data.shape)}",
            at,
        )
    if indptr.dtype not in (torch.int32, torch.int64):
        raise r.fail(f"{what}: CSR indptr must be int32 or int64, got {indptr.dtype}", at)
    ip = indptr.to(torch.int64)
    if rows and (int(ip[0]) != 0 or int(ip[-1]) != len(indices) or bool((ip[1:] < ip[:-1]).any())):
        raise r.fail(f"{what}: CSR indptr is not non-decreasing from 0 to {len(indices)}", at)
    _check_ids(r, indices, cols, f"{what} indices", at)
    _check_permutation(r, data, f"{what} edge ids", at)
    return rows, cols, ip, indices.to(torch.int64), data.to(torch.int64)


def _check_permutation(r: Reader, ids: torch.Tensor, what: str, at: int) -> None:
    """``ids`` must hold each of ``0..len-1`` once (edge ids that place every edge exactly once)."""
    _check_ids(r, ids, len(ids), what, at)
    if len(ids) and not bool(torch.bincount(ids.to(torch.int64), minlength=len(ids)).eq(1).all()):
        raise r.fail(f"{what} repeat an id: they must be a permutation of 0..{len(ids) - 1}", at)


def _check_ids(r: Reader, ids: torch.Tensor, bound: int, what: str, at: int) -> None:
    if ids.dtype not in (torch.int32, torch.int64):  # DGL's only id types
        raise r.fail(f"{what} must be int32 or int64 ids, got {ids.dtype}", at)
    if len(ids) and (int(ids.min()) < 0 or int(ids.max()) >= bound):
        raise r.fail(
            f"{what} must lie in [0, {bound}), got [{int(ids.min())}, {int(ids.max())}]", at
        )


def _metagraph(r: Reader, what: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, int]:
    """An ImmutableGraph: ``(src type, dst type, edge id)`` per metaedge, and the node count."""
    r.magic(_IMMUTABLE_MAGIC, f"ImmutableGraph ({what})")
    at = r.pos
    n, cols, indptr, indices, data = _csr(r, what)
    if cols != n:
        raise r.fail(f"{what}: a metagraph is square (types x types), got {n} x {cols}", at)
    src = torch.repeat_interleave(torch.arange(n), torch.diff(indptr))
    return src, indices, data, n


def _coo(r: Reader, what: str) -> tuple[int, int, torch.Tensor, torch.Tensor]:
    r.magic(_COO_MAGIC, f"COO matrix ({what})")
    cols, rows = r.i64("num_cols"), r.i64("num_rows")
    row, col, data = (r.ndarray(f"{what} {k}") for k in ("row", "col", "data"))
    r.flag("row_sorted")
    r.flag("col_sorted")
    at = r.pos
    if row.shape != col.shape or row.dim() != 1:
        raise r.fail(f"{what}: COO row {tuple(row.shape)} and col {tuple(col.shape)} differ", at)
    _check_ids(r, row, rows, f"{what} rows", at)
    _check_ids(r, col, cols, f"{what} cols", at)
    if len(data):  # edge ids given explicitly: put edges in id order
        if len(data) != len(row):
            raise r.fail(f"{what}: COO has {len(row)} edges but {len(data)} edge ids", at)
        _check_permutation(r, data, f"{what} edge ids", at)
        order = torch.empty_like(data, dtype=torch.int64)
        order[data.to(torch.int64)] = torch.arange(len(data))
        row, col = row[order], col[order]
    return rows, cols, row.to(torch.int64), col.to(torch.int64)


def _unit_graph(r: Reader, what: str) -> tuple[torch.Tensor, torch.Tensor, int, int]:
    """One relation: ``(src, dst, num_src, num_dst)`` in edge id order."""
    r.magic(_UNIT_MAGIC, f"UnitGraph ({what})")
    at = r.pos
    saved, _allowed = r.i64("the saved formats"), r.i64("the allowed formats")
    code = saved & 0xFFFFFFFF if saved & _NEW_CODE else {1: _COO, 2: _CSR, 3: _CSC}.get(saved, 0)
    if not code or code & ~7:
        raise r.fail(f"{what}: saved formats {saved:#x} name none of COO, CSR, CSC", at)
    result = None
    for fmt in (_COO, _CSR, _CSC):
        if not code & fmt:
            continue
        _metagraph(r, f"{what} unit metagraph")
        if fmt == _COO:
            rows, cols, s, d = _coo(r, what)
            got = (s, d, rows, cols)
        else:
            rows, cols, indptr, indices, eids = _csr(r, what)
            major = torch.repeat_interleave(torch.arange(rows), torch.diff(indptr))
            s, d = (major, indices) if fmt == _CSR else (indices, major)
            src, dst = torch.empty_like(s), torch.empty_like(d)
            src[eids], dst[eids] = s, d
            got = (src, dst, rows, cols) if fmt == _CSR else (src, dst, cols, rows)
        result = result or got  # the first saved format is read; later ones repeat it
    return result


def _hetero_graph(r: Reader, what: str) -> Graph:
    r.magic(_HETERO_MAGIC, f"HeteroGraph ({what})")
    msrc, mdst, meid, num_ntypes = _metagraph(r, f"{what} metagraph")
    num_etypes = r.count(f"{what} relation graphs", 8)
    if num_etypes != len(meid) or sorted(meid.tolist()) != list(range(num_etypes)):
        raise r.fail(
            f"{what}: {num_etypes} relation graphs but the metagraph has edge ids {meid.tolist()}"
        )
    rels = [_unit_graph(r, f"{what} relation {i}") for i in range(num_etypes)]
    at = r.pos
    counts = [r.i64(f"node count {i}") for i in range(r.count(f"{what} node counts", 8))]
    if len(counts) != num_ntypes:
        raise r.fail(f"{what}: {len(counts)} node counts for {num_ntypes} node types", at)
    at = r.pos
    ndata = [
        _named(r, f"{what} node data of type {i}") for i in range(r.count(f"{what} node data", 8))
    ]
    edata = [
        _named(r, f"{what} edge data of type {i}") for i in range(r.count(f"{what} edge data", 8))
    ]
    ntypes, rel_names = r.strings(f"{what} node type names"), r.strings(f"{what} edge type names")
    if (len(ndata), len(ntypes)) != (num_ntypes, num_ntypes) or (len(edata), len(rel_names)) != (
        num_etypes,
    ) * 2:
        raise r.fail(
            f"{what}: {num_ntypes} node and {num_etypes} edge types, but data/names for "
            f"{len(ndata)}/{len(ntypes)} and {len(edata)}/{len(rel_names)}",
            at,
        )
    src_t, dst_t = (
        torch.empty(num_etypes, dtype=torch.int64),
        torch.empty(num_etypes, dtype=torch.int64),
    )
    src_t[meid], dst_t[meid] = msrc, mdst
    edges, edict, ndict = {}, {}, {}
    for i, (s, d, ns, nd) in enumerate(rels):
        st, dt = ntypes[int(src_t[i])], ntypes[int(dst_t[i])]
        if (ns, nd) != (counts[int(src_t[i])], counts[int(dst_t[i])]):
            raise r.fail(
                f"{what}: relation {rel_names[i]!r} is {ns}x{nd} but its types have "
                f"{counts[int(src_t[i])]} and {counts[int(dst_t[i])]} nodes"
            )
        edges[(st, rel_names[i], dt)] = (s, d)
        edict[(st, rel_names[i], dt)] = edata[i]
    for t, data in zip(ntypes, ndata):
        ndict[t] = data
    try:
        return Graph.from_typed_edges(
            edges, num_nodes=dict(zip(ntypes, counts)), ndata=ndict, edata=edict, copy=False
        )  # the mapped file's views: no second copy
    except (
        Exception
    ) as exc:  # GraphpartError from the Graph's own checks (duplicate types, data rows)
        raise r.fail(f"{what} is not a valid graph: {exc}") from None


def load_graphs(path: str | os.PathLike) -> tuple[list[Graph], dict[str, torch.Tensor]]:
    """Read a ``dgl.save_graphs`` file: ``(graphs, labels)``, data memory-mapped.

    Examples
    --------
    >>> import tempfile, os
    >>> from graphpart.datasets import load_karate_club
    >>> path = os.path.join(tempfile.mkdtemp(), "g.dgl")
    >>> save_graphs(path, [load_karate_club()], {"y": torch.tensor([1])})
    >>> graphs, labels = load_graphs(path)
    >>> graphs[0].num_edges(), sorted(graphs[0].ndata), labels["y"].tolist()
    (156, ['label'], [1])
    """
    r = Reader(path)
    r.magic(GRAPH_FILE_MAGIC, "DGL graph file")
    version, kind, n = r.u64("the version"), r.u64("the graph type"), r.u64("the number of graphs")
    if version != 2 or kind != 2:
        raise r.fail(
            f"only version 2 heterograph files are read (DGL >= 0.5), got version {version} type "
            f"{kind}",
            8,
        )
    if n > r.size // 64:
        raise r.fail(f"the file claims {n} graphs, more than its {r.size} bytes can hold", 24)
    r.pos = _HEADER
    start = r.u64("the offset of the first graph")
    labels = _named(r, "labels")
    if start != r.pos:
        raise r.fail(
            f"the first graph should start at byte {r.pos}, the header says {start}", _HEADER
        )
    graphs, starts = [], []
    for i in range(n):
        starts.append(r.pos)
        graphs.append(_hetero_graph(r, f"graph {i}"))
    at = r.pos
    size = r.u64("the trailer size")
    offsets = [r.u64(f"graph offset {i}") for i in range(r.count("the graph offsets", 8))]
    if (
        size != 8 * (len(offsets) + 1)
        or offsets != starts
        or r.u64("the trailer size") != size
        or r.pos != r.size
    ):
        raise r.fail(
            f"the trailer should list the {n} graph offsets {starts} and end the file; it lists "
            f"{offsets[:8]} (size {size}) and the file is {r.size} bytes",
            at,
        )
    return graphs, labels


# ---------------------------------------------------------------------------------- writing
def _write_csr(w: Writer, rows: int, cols: int, indptr, indices, data) -> None:
    w.u64(_CSR_MAGIC)
    w.i64(cols)
    w.i64(rows)
    for a in (indptr, indices, data):
        w.ndarray(a)
    w.u8(0)


def _write_metagraph(w: Writer, n: int, src: torch.Tensor, dst: torch.Tensor) -> None:
    order = torch.argsort(src, stable=True)  # rows by source type, edge type order within a row
    indptr = torch.zeros(n + 1, dtype=torch.int64)
    indptr[1:] = torch.cumsum(torch.bincount(src, minlength=n), 0)
    w.u64(_IMMUTABLE_MAGIC)
    _write_csr(w, n, n, indptr, dst[order], order.to(torch.int64))


def _write_unit(
    w: Writer, s: torch.Tensor, d: torch.Tensor, ns: int, nd: int, same: bool, code: int
) -> None:
    w.u64(_UNIT_MAGIC)
    w.i64(code | _NEW_CODE)
    w.i64(7 | _NEW_CODE)
    unit = (
        (torch.tensor([0]), torch.tensor([0])) if same else (torch.tensor([0]), torch.tensor([1]))
    )
    for fmt in (_COO, _CSR, _CSC):
        if not code & fmt:
            continue
        _write_metagraph(w, 1 if same else 2, *unit)
        if fmt == _COO:
            w.u64(_COO_MAGIC)
            w.i64(nd)
            w.i64(ns)
            w.ndarray(s)
            w.ndarray(d)
            w.ndarray(torch.zeros(0, dtype=torch.int64))
            w.u8(0)
            w.u8(0)
            continue
        major, minor, n_major, n_minor = (s, d, ns, nd) if fmt == _CSR else (d, s, nd, ns)
        order = torch.argsort(major, stable=True)
        indptr = torch.zeros(n_major + 1, dtype=torch.int64)
        indptr[1:] = torch.cumsum(torch.bincount(major, minlength=n_major), 0)
        _write_csr(w, n_major, n_minor, indptr, minor[order], order.to(torch.int64))


def _write_named(w: Writer, data: dict) -> None:
    w.u64(len(data))
    for name, t in data.items():
        w.string(name)
        w.ndarray(t)


def _write_graph(w: Writer, g: Graph, code: int) -> None:
    ntypes, etypes = g.ntypes, g.canonical_etypes
    w.u64(_HETERO_MAGIC)
    tid = {t: i for i, t in enumerate(ntypes)}
    _write_metagraph(
        w,
        len(ntypes),
        torch.tensor([tid[e[0]] for e in etypes], dtype=torch.int64),
        torch.tensor([tid[e[2]] for e in etypes], dtype=torch.int64),
    )
    w.u64(len(etypes))
    for e in etypes:
        s, d = g.edges(e)
        _write_unit(
            w,
            s.to(torch.int64),
            d.to(torch.int64),
            g.num_nodes(e[0]),
            g.num_nodes(e[2]),
            e[0] == e[2],
            code,
        )
    w.u64(len(ntypes))
    for t in ntypes:
        w.i64(g.num_nodes(t))
    w.u64(len(ntypes))
    for t in ntypes:
        _write_named(w, dict(g.node_data(t).items()))
    w.u64(len(etypes))
    for e in etypes:
        _write_named(w, dict(g.edge_data(e).items()))
    w.strings(list(ntypes))
    w.strings([e[1] for e in etypes])


def save_graphs(
    path: str | os.PathLike,
    graphs: list[Graph],
    labels: dict | None = None,
    formats: tuple[str, ...] | list[str] = ("coo",),
) -> None:
    """Write graphs as ``dgl.save_graphs`` does (version 2), atomically.

    ``formats`` picks the sparse matrices stored per relation (``"coo"``, ``"csr"``, ``"csc"``);
    DGL reads any of them. Bool data is stored as uint8, as DGL stores it.
    """
    if isinstance(graphs, Graph):
        graphs = [graphs]
    bad = [f for f in formats if f not in _FORMATS]
    if bad or not formats:
        raise FormatError(
            f"formats must be a non-empty subset of {sorted(_FORMATS)}, got {list(formats)}"
        )
    code = 0
    for f in formats:
        code |= _FORMATS[f]
    with atomic_write(Path(path)) as f:
        w = Writer(f)
        for v in (GRAPH_FILE_MAGIC, 2, 2, len(graphs)):
            w.u64(v)
        f.write(bytes(_HEADER - 32))
        w.u64(0)  # the first graph's offset: patched below, once the labels' size is known
        _write_named(w, dict(labels or {}))
        end = w.tell()
        f.seek(_HEADER)
        w.u64(end)
        f.seek(end)
        offsets = []
        for g in graphs:
            offsets.append(w.tell())
            _write_graph(w, g, code)
        size = 8 * (len(offsets) + 1)
        w.u64(size)
        w.u64(len(offsets))
        for o in offsets:
            w.u64(o)
        w.u64(size)

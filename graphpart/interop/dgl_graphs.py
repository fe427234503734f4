"""Read ``dgl.save_graphs`` files (format version 2) in numpy and torch alone (the layout:
:mod:`graphpart.interop.dgl_layout`). Reading maps the file: node and edge data are views of it,
never copies. :func:`save_graphs` (:mod:`graphpart.interop.dgl_graphs_save`) is re-exported here.
"""

from __future__ import annotations

import logging
import os

import torch

from ..graph.core import Graph
from ._binary import Reader
from .dgl_graphs_save import save_graphs
from .dgl_layout import (
    COO,
    COO_MAGIC,
    CSC,
    CSR,
    CSR_MAGIC,
    GRAPH_FILE_MAGIC,
    HEADER,
    HETERO_MAGIC,
    IMMUTABLE_MAGIC,
    NEW_CODE,
    UNIT_MAGIC,
)

__all__ = ["load_graphs", "save_graphs"]

logger = logging.getLogger(__name__)


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
    r.magic(CSR_MAGIC, f"CSR matrix ({what})")
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
    r.magic(IMMUTABLE_MAGIC, f"ImmutableGraph ({what})")
    at = r.pos
    n, cols, indptr, indices, data = _csr(r, what)
    if cols != n:
        raise r.fail(f"{what}: a metagraph is square (types x types), got {n} x {cols}", at)
    src = torch.repeat_interleave(torch.arange(n), torch.diff(indptr))
    return src, indices, data, n


def _coo(r: Reader, what: str) -> tuple[int, int, torch.Tensor, torch.Tensor]:
    r.magic(COO_MAGIC, f"COO matrix ({what})")
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
    r.magic(UNIT_MAGIC, f"UnitGraph ({what})")
    at = r.pos
    saved, _allowed = r.i64("the saved formats"), r.i64("the allowed formats")
    code = saved & 0xFFFFFFFF if saved & NEW_CODE else {1: COO, 2: CSR, 3: CSC}.get(saved, 0)
    if not code or code & ~7:
        raise r.fail(f"{what}: saved formats {saved:#x} name none of COO, CSR, CSC", at)
    result = None
    for fmt in (COO, CSR, CSC):
        if not code & fmt:
            continue
        _metagraph(r, f"{what} unit metagraph")
        if fmt == COO:
            rows, cols, s, d = _coo(r, what)
            got = (s, d, rows, cols)
        else:
            rows, cols, indptr, indices, eids = _csr(r, what)
            major = torch.repeat_interleave(torch.arange(rows), torch.diff(indptr))
            s, d = (major, indices) if fmt == CSR else (indices, major)
            src, dst = torch.empty_like(s), torch.empty_like(d)
            src[eids], dst[eids] = s, d
            got = (src, dst, rows, cols) if fmt == CSR else (src, dst, cols, rows)
        result = result or got  # the first saved format is read; later ones repeat it
    return result


def _hetero_graph(r: Reader, what: str) -> Graph:
    r.magic(HETERO_MAGIC, f"HeteroGraph ({what})")
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

    Parameters
    ----------
    path : str or os.PathLike
        A file written by ``dgl.save_graphs`` (format version 2, DGL >= 0.5) or by
        :func:`save_graphs`.

    Returns
    -------
    graphs : list of Graph
        The graphs in file order; their node and edge data are views of the mapped file.
    labels : dict of str to torch.Tensor
        The labels dict stored with the graphs (empty when none was saved).

    Raises
    ------
    FormatError
        The file is not a version 2 heterograph file, or is truncated or inconsistent.

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
    r.pos = HEADER
    start = r.u64("the offset of the first graph")
    labels = _named(r, "labels")
    if start != r.pos:
        raise r.fail(
            f"the first graph should start at byte {r.pos}, the header says {start}", HEADER
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

"""Write ``dgl.save_graphs`` files (format version 2) that DGL loads, byte-identical to DGL's own
past its uninitialised header (the layout: :mod:`graphpart.interop.dgl_layout`)."""

from __future__ import annotations

import os
from pathlib import Path

import torch

from ..errors import FormatError
from ..fs.atomic import atomic_write
from ..graph.core import Graph
from ._binary import Writer
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
    SPARSE_FORMATS,
    UNIT_MAGIC,
)

__all__ = ["save_graphs"]


def _write_csr(w: Writer, rows: int, cols: int, indptr, indices, data) -> None:
    w.u64(CSR_MAGIC)
    w.i64(cols)
    w.i64(rows)
    for a in (indptr, indices, data):
        w.ndarray(a)
    w.u8(0)


def _write_metagraph(w: Writer, n: int, src: torch.Tensor, dst: torch.Tensor) -> None:
    order = torch.argsort(src, stable=True)  # rows by source type, edge type order within a row
    indptr = torch.zeros(n + 1, dtype=torch.int64)
    indptr[1:] = torch.cumsum(torch.bincount(src, minlength=n), 0)
    w.u64(IMMUTABLE_MAGIC)
    _write_csr(w, n, n, indptr, dst[order], order.to(torch.int64))


def _write_unit(
    w: Writer, s: torch.Tensor, d: torch.Tensor, ns: int, nd: int, same: bool, code: int
) -> None:
    w.u64(UNIT_MAGIC)
    w.i64(code | NEW_CODE)
    w.i64(7 | NEW_CODE)
    unit = (
        (torch.tensor([0]), torch.tensor([0])) if same else (torch.tensor([0]), torch.tensor([1]))
    )
    for fmt in (COO, CSR, CSC):
        if not code & fmt:
            continue
        _write_metagraph(w, 1 if same else 2, *unit)
        if fmt == COO:
            w.u64(COO_MAGIC)
            w.i64(nd)
            w.i64(ns)
            w.ndarray(s)
            w.ndarray(d)
            w.ndarray(torch.zeros(0, dtype=torch.int64))
            w.u8(0)
            w.u8(0)
            continue
        major, minor, n_major, n_minor = (s, d, ns, nd) if fmt == CSR else (d, s, nd, ns)
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
    w.u64(HETERO_MAGIC)
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

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; it is replaced atomically.
    graphs : list of Graph
        The graphs to store, in order (a single :class:`~graphpart.Graph` is taken as a list of
        one).
    labels : dict of str to torch.Tensor, optional
        Named tensors stored beside the graphs, as DGL's ``labels``; default none.
    formats : tuple or list of str, default ("coo",)
        A non-empty subset of ``"coo"``, ``"csr"``, ``"csc"``: the matrices stored per relation.

    Raises
    ------
    FormatError
        ``formats`` is empty or names another format, or a tensor has a dtype DGL cannot store.
    """
    if isinstance(graphs, Graph):
        graphs = [graphs]
    bad = [f for f in formats if f not in SPARSE_FORMATS]
    if bad or not formats:
        raise FormatError(
            f"formats must be a non-empty subset of {sorted(SPARSE_FORMATS)}, got {list(formats)}"
        )
    code = 0
    for f in formats:
        code |= SPARSE_FORMATS[f]
    with atomic_write(Path(path)) as f:
        w = Writer(f)
        for v in (GRAPH_FILE_MAGIC, 2, 2, len(graphs)):
            w.u64(v)
        f.write(bytes(HEADER - 32))
        w.u64(0)  # the first graph's offset: patched below, once the labels' size is known
        _write_named(w, dict(labels or {}))
        end = w.tell()
        f.seek(HEADER)
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

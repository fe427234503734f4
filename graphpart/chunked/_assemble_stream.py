"""Dispatch, phase 2 out of core: a partition's files written one block at a time.

Two formats are written this way: graphpart's (the arrays :func:`~graphpart.chunked._assemble.
build_part` writes in memory, in the same order) and GraphBolt's, DGL's
``fused_csc_sampling_graph.pt`` with its features in ``node_feat.dgl`` / ``edge_feat.dgl``. No
array the size of the partition's edges is ever held, so a worker's memory does not depend on
how large its partition is:

1. One pass over the partition's pieces marks its HALO nodes in a bitmap over all nodes (the
   sources of owned edges outside it; with ``out_edges``, also the destinations of the edges
   leaving it, which are then sorted by new edge id out of core: their order is (owner, edge
   type, run of chunks, position), so they are appended to one file per owner and read back owner by
   owner). For GraphBolt it also counts each local node's in-edges.
2. The local node ids follow (inner nodes, then the HALO nodes in id order), kept in one int64
   array over all nodes; the node data is written in blocks.
3. A second pass over the owned pieces, then the owners' files, relabels each block of edges and
   appends it to every edge record at once (graphpart's format), or to the CSC buckets that
   :class:`~graphpart.chunked._csc.CscBuckets` sorts by destination, one bucket at a time
   (GraphBolt's).

Memory: ``B + 13 N + 8 L`` (``N`` nodes in the graph, ``L`` local nodes, at most ``N``; the local
id map is int32 where ``L`` fits; GraphBolt adds ``16 L`` for the in-degrees and offsets, and
``4 N`` with ``out_edges``) plus one piece (at most one run of chunks' edges) or one block or
bucket of :data:`BLOCK` rows. Disk while a partition is written, deleted after: 40 bytes per
leaving edge, and for GraphBolt 32 bytes per local edge.
"""

from __future__ import annotations

import contextlib
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from ..errors import GraphpartError
from ..graph.schema import etype_str
from ..index import count_into, group_order, part_ranges
from ..interop.dgl_tensors import save_tensors_streamed
from ..interop.graphbolt import NAMES, GraphBoltStore, graphbolt_tree, id_dtype, type_dtype
from ..interop.torch_zip import Stream
from ..partitioning.halo import edge_fields, node_fields
from ..storage.files import (
    ORIG_EIDS,
    ORIG_NIDS,
    graph_tree,
    part_file_names,
    stored_dtype,
    streamed_torch_file,
    write_feats_file,
)
from ._csc import CscBuckets
from ._shuffle import Plan, load_piece

__all__ = ["build_part_streamed", "BLOCK"]

#: Rows read, relabelled and written at a time.
BLOCK = 1 << 22
_COLS = 5  # a leaving edge in its owner's file: src, dst, original id, new id, edge type


def _npz_field(path: Path, key: str) -> tuple[np.dtype, tuple[int, ...]]:
    """The dtype and shape of one array of a piece, from its header alone."""
    with zipfile.ZipFile(path) as z, z.open(f"{key}.npy") as f:
        version = np.lib.format.read_magic(f)
        read = (
            np.lib.format.read_array_header_1_0
            if version == (1, 0)
            else np.lib.format.read_array_header_2_0
        )
        shape, _, dtype = read(f)
    return np.dtype(dtype), tuple(shape)


def _piece_field(path: Path, key: str) -> np.ndarray:
    """One array of a piece (the others are not read)."""
    with np.load(path, allow_pickle=False) as z:
        return z[key]


def _field_stream(items: list[tuple[np.dtype, tuple[int, ...]]], rows: int, what: str) -> Stream:
    """One stream for rows that arrive from several pieces: their row shape, and their common dtype
    as partition files store it (uint16 and uint32 wider: ``stored_dtype``)."""
    shapes = {s[1:] for _, s in items}
    if len(shapes) > 1:
        raise GraphpartError(f"{what}: the chunks' rows have different shapes {sorted(shapes)}")
    dtype = np.result_type(*(d for d, _ in items)) if items else np.dtype(np.float32)
    return Stream(np.dtype(stored_dtype(dtype, what)), (rows, *(shapes.pop() if shapes else ())))


class _Leaving:
    """The edges leaving a partition, one append-only file per owner: read back owner by owner
    they are in new edge id order."""

    def __init__(self, folder: Path, num_parts: int) -> None:
        self.folder = folder
        shutil.rmtree(folder, ignore_errors=True)  # a killed task's files
        folder.mkdir(parents=True)
        self.files = [folder / f"owner{q}.bin" for q in range(num_parts)]
        self.rows = np.zeros(num_parts, dtype=np.int64)
        self.handles = [open(f, "wb") for f in self.files]

    def add(self, owner: np.ndarray, cols: np.ndarray) -> None:
        order, counts = group_order(owner, len(self.files))
        ends = np.cumsum(counts)
        for q in np.flatnonzero(counts):  # a loop over owners, not edges
            cols[order[ends[q] - counts[q] : ends[q]]].tofile(self.handles[q])
        self.rows += counts

    def blocks(self):
        for h in self.handles:
            h.close()
        for q, f in enumerate(self.files):
            for lo in range(0, int(self.rows[q]), BLOCK):
                n = min(BLOCK, int(self.rows[q]) - lo)
                a = np.fromfile(f, dtype=np.int64, count=n * _COLS, offset=lo * _COLS * 8)
                yield a.reshape(n, _COLS)

    def close(self) -> None:
        for h in self.handles:
            h.close()
        shutil.rmtree(self.folder, ignore_errors=True)


@dataclass
class _Scan:
    """Pass 1's findings about partition ``p``: its local nodes and what its edges need."""

    start: int
    end: int
    nodes: np.ndarray  # global id of each local node: inner, then HALO in id order
    local: np.ndarray  # local id of each node of the graph (-1: not local), int32 where they fit
    kept: int  # owned edges kept (all with HALO; those with both ends inside without)
    fields: dict  # (edge type, field) -> the pieces' (dtype, shape)
    leaving: _Leaving | None  # the edges leaving p, by owner (with out_edges)
    indeg: np.ndarray | None  # in-edges of each local node (for CSC)

    @property
    def num_edges(self) -> int:
        return self.kept + (int(self.leaving.rows.sum()) if self.leaving is not None else 0)


def _scan(
    plan: Plan,
    p: int,
    edge_counts: list[np.ndarray],
    edge_rows: list[np.ndarray],
    edge_bounds: np.ndarray,
    csc: bool,
) -> _Scan:
    """Pass 1: HALO marks, the edges kept, the edge data's dtypes, the leaving edges by owner
    (when the plan copies them) and, for ``csc``, the in-degree of every local node."""
    maps, hops = plan.maps, plan.num_hops
    start, end = (int(x) for x in part_ranges(maps.bounds)[p])
    n_all = int(maps.bounds[-1, -1, 1])
    row0 = [np.cumsum(r) - r for r in edge_rows]
    leaving = _Leaving(plan.work / f"leaving{p}", plan.num_parts) if plan.copies_leaving else None
    halo = np.zeros(n_all, dtype=bool)
    indeg = np.zeros(end - start, dtype=np.int64) if csc else None
    halo_deg = np.zeros(n_all, dtype=np.int32) if csc and leaving is not None else None
    kept = 0
    fields: dict[tuple[int, int], list] = {}
    for ei in range(len(plan.etypes)):
        for c in range(len(edge_rows[ei])):
            path = plan.owned_piece(ei, c, p)
            src = _piece_field(path, "src")
            outside = (src < start) | (src >= end)
            if hops:
                halo[src[outside]] = True
            kept += len(src) if hops else int((~outside).sum())
            if csc:
                dst = _piece_field(path, "dst")
                dst = dst if hops else dst[~outside]
                count_into(indeg, dst, start)
            for k in range(len(plan.edge_names(ei))):
                fields.setdefault((ei, k), []).append(_npz_field(path, f"d{k}"))
        if leaving is not None:
            before = np.cumsum(edge_counts[ei], axis=0) - edge_counts[ei]
            for c in range(len(edge_rows[ei])):
                piece = load_piece(plan.cross_piece(ei, c, p))
                owner = piece["owner"]
                halo[piece["dst"]] = True
                if halo_deg is not None:
                    np.add.at(halo_deg, piece["dst"], 1)
                eid = edge_bounds[owner, ei, 0] + before[c, owner] + piece["pos"]
                cols = np.stack(
                    [piece["src"], piece["dst"], piece["row"] + row0[ei][c], eid], axis=1
                )
                cols = np.concatenate([cols, np.full((len(cols), 1), ei)], axis=1)
                leaving.add(owner, cols)
    halo[start:end] = False
    layer = np.flatnonzero(halo)
    del halo
    nodes = np.concatenate([np.arange(start, end, dtype=np.int64), layer])
    local = np.full(n_all, -1, dtype=id_dtype(len(nodes)))  # int32 where the local ids fit
    local[nodes] = np.arange(len(nodes))
    if csc:
        rest = halo_deg[layer] if halo_deg is not None else np.zeros(len(layer), np.int64)
        indeg = np.concatenate([indeg, rest])
    return _Scan(start, end, nodes, local, kept, fields, leaving, indeg)


def _local_edges(plan: Plan, p: int, scan: _Scan, edge_rows: list[np.ndarray], es: int):
    """The partition's local edges in new edge id order, a block at a time: ``(src, dst, eid,
    inner, orig, edge type, owned)`` in global ids; ``owned`` is ``(edge type, piece, original
    ids of all its edges)`` for a piece of owned edges (kept or not), ``None`` for leaving
    edges."""
    hops = plan.num_hops
    start, end = scan.start, scan.end
    next_eid = es
    for ei in range(len(plan.etypes)):
        row0 = np.cumsum(edge_rows[ei]) - edge_rows[ei]
        for c in range(len(edge_rows[ei])):
            piece = load_piece(plan.owned_piece(ei, c, p))
            s, d, orig = piece["src"], piece["dst"], piece["row"] + row0[c]
            eid = np.arange(next_eid, next_eid + len(s), dtype=np.int64)
            next_eid += len(s)
            keep = slice(None) if hops else (s >= start) & (s < end)
            n = len(s) if hops else int(keep.sum())
            yield (
                s[keep], d[keep], eid[keep], np.ones(n, dtype=bool), orig[keep],
                np.full(n, ei, dtype=np.int64), (ei, piece, orig),
            )  # fmt: skip
    if scan.leaving is not None:
        for b in scan.leaving.blocks():
            yield b[:, 0], b[:, 1], b[:, 3], np.zeros(len(b), bool), b[:, 2], b[:, 4], None


def _local_dst(scan: _Scan, dst: np.ndarray, owned) -> np.ndarray:
    """The local ids of a block's destinations: an owned edge ends in an inner node, whose local
    id is its offset in the partition's range (no gather from the graph-sized map, a random
    read an edge); a leaving edge's (``owned`` is ``None``) are looked up."""
    if owned is None:
        return scan.local[dst]
    return dst - np.asarray(scan.start, dtype=dst.dtype)


def build_part_streamed(
    plan: Plan,
    p: int,
    folder: Path,
    edge_counts: list[np.ndarray],
    edge_rows: list[np.ndarray],
    edge_bounds: np.ndarray,
    save_orig_nids: bool,
    save_orig_eids: bool,
    format: str = "graphpart",
    store: GraphBoltStore | None = None,
    file_meta: dict | None = None,
) -> dict[str, int]:
    """Write partition ``p`` into ``folder`` in graphpart's or GraphBolt's format, block by block;
    returns its node, HALO and edge counts."""
    es = int(part_ranges(edge_bounds)[p][0])
    csc = format == "graphbolt"
    scan = _scan(plan, p, edge_counts, edge_rows, edge_bounds, csc)
    try:
        names = part_file_names(format)
        owned_per_type = [int(edge_counts[ei][:, p].sum()) for ei in range(len(plan.etypes))]
        orig_e = {ei: Stream(np.int64, (owned_per_type[ei],)) for ei in range(len(plan.etypes))}
        with (
            streamed_torch_file(
                folder / ORIG_EIDS, {etype_str(plan.etypes[ei]): s for ei, s in orig_e.items()}
            )
            if save_orig_eids
            else contextlib.nullcontext() as ow
        ):
            if csc:
                _write_graphbolt(
                    plan, p, folder / names["part_graph_graphbolt"], scan, edge_rows, es,
                    store or GraphBoltStore(), file_meta or {}, ow, orig_e,
                )  # fmt: skip
                _write_edge_feats_dgl(
                    plan, p, folder / names["edge_feats"], scan, edge_rows, owned_per_type
                )
            else:
                _write_graphpart(plan, p, folder, scan, (edge_rows, es, owned_per_type), ow, orig_e)
        node_feats = _node_feat_tree(plan, p)
        if csc:
            save_tensors_streamed(
                folder / names["node_feats"],
                [
                    (key, st.dtype, st.shape, (np.load(f, allow_pickle=False) for f in pieces))
                    for key, (st, pieces) in node_feats.items()
                ],
            )
        else:
            with streamed_torch_file(
                folder / names["node_feats"], {k: st for k, (st, _) in node_feats.items()}
            ) as nw:
                for st, pieces in node_feats.values():
                    for f in pieces:
                        nw.append(st, np.load(f, allow_pickle=False))
        if save_orig_nids:
            maps = plan.maps
            ids = {t: np.array(maps.inner_orig(p, ti)) for ti, t in enumerate(maps.ntypes)}
            write_feats_file(folder / ORIG_NIDS, {t: torch.from_numpy(a) for t, a in ids.items()})
    finally:
        if scan.leaving is not None:
            scan.leaving.close()
    inner = scan.end - scan.start
    return {"nodes": inner, "halo_nodes": len(scan.nodes) - inner, "edges": scan.num_edges}


def _write_graphpart(plan, p, folder, scan, edges, ow, orig_e) -> None:
    """graphpart's ``graph.pt`` and ``edge_feats.pt``: every record filled in edge id order."""
    edge_rows, es, owned = edges
    maps, nodes, local = plan.maps, scan.nodes, scan.local
    typed = len(maps.ntypes) > 1 or len(plan.etypes) > 1
    names = part_file_names("graphpart")
    num_local = scan.num_edges
    src_s, dst_s = Stream(np.int64, (num_local,)), Stream(np.int64, (num_local,))
    hop_dtype = np.int8  # one HALO hop at most here
    probe = node_fields(nodes[:0], np.zeros(0, hop_dtype), *maps.describe(nodes[:0]), typed)
    nstreams = {k: Stream(v.dtype, (len(nodes),)) for k, v in probe.items()}
    eprobe = edge_fields(*(np.zeros(0, dt) for dt in (np.int64, bool, np.int64, np.int64)), typed)
    estreams = {k: Stream(v.dtype, (num_local,)) for k, v in eprobe.items()}
    efeat = _edge_feat_streams(plan, scan, owned)
    efeat_tree = {
        f"{etype_str(plan.etypes[ei])}/{plan.edge_names(ei)[k]}": st
        for (ei, k), st in efeat.items()
    }
    graph = graph_tree(len(nodes), src_s, dst_s, nstreams, estreams)
    with (
        streamed_torch_file(folder / names["part_graph"], graph) as gw,
        streamed_torch_file(folder / names["edge_feats"], efeat_tree) as fw,
    ):
        inner = scan.end - scan.start
        for lo in range(0, len(nodes), BLOCK):
            block = nodes[lo : lo + BLOCK]
            part_id, ntype, orig_n = maps.describe(block)
            hop = (lo + np.arange(len(block)) >= inner).astype(hop_dtype)
            for k, v in node_fields(block, hop, part_id, ntype, orig_n, typed).items():
                gw.append(nstreams[k], v)
        for s, d, eid, own, orig, et, owned in _local_edges(plan, p, scan, edge_rows, es):
            if owned is not None:
                ei, piece, all_orig = owned
                for k in range(len(plan.edge_names(ei))):
                    fw.append(efeat[(ei, k)], piece[f"d{k}"])
                if ow is not None:  # each type's owned edges' original ids, in new id order
                    ow.append(orig_e[ei], all_orig)
            gw.append(src_s, local[s])
            gw.append(dst_s, _local_dst(scan, d, owned))
            for k, v in edge_fields(eid, own, orig, et, typed).items():
                gw.append(estreams[k], v)


def _write_graphbolt(plan, p, path, scan, edge_rows, es, store, meta, ow, orig_e) -> None:
    """GraphBolt's ``fused_csc_sampling_graph.pt``: node ``_ID`` (and ``inner_node``) in local
    order, the edges through CSC buckets (and each type's owned edges' original ids to ``ow``)."""
    nodes, local = scan.nodes, scan.local
    num_local, n = scan.num_edges, len(nodes)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(scan.indeg, out=indptr[1:])
    scan.indeg = None
    typed = bool(meta)
    streams = {
        "indptr": Stream(id_dtype(num_local), (n + 1,)),
        "indices": Stream(id_dtype(n), (num_local,)),
        "type": Stream(type_dtype(len(plan.etypes)), (num_local,)) if typed else None,
    }
    node_attrs = {"_ID": Stream(np.int64, (n,))}
    if store.store_inner_node:
        node_attrs["inner_node"] = Stream(np.uint8, (n,))
    edge_attrs = {}
    if store.store_eids:
        edge_attrs["_ID"] = Stream(np.int64, (num_local,))
    if store.store_inner_edge:
        edge_attrs["inner_edge"] = Stream(np.uint8, (num_local,))
    tree = graphbolt_tree(
        streams["indptr"], streams["indices"], node_attrs, edge_attrs, streams["type"],
        meta.get("node_type_to_id"), meta.get("edge_type_to_id"),
    )  # fmt: skip
    buckets = CscBuckets(plan.work / f"csc{p}", indptr)
    try:
        for s, d, eid, own, _, et, owned in _local_edges(plan, p, scan, edge_rows, es):
            if owned is not None and ow is not None:
                ow.append(orig_e[owned[0]], owned[2])
            buckets.add(local[s], _local_dst(scan, d, owned), eid, et * 2 + own)
        with streamed_torch_file(path, tree, NAMES) as w:
            inner = scan.end - scan.start
            for lo in range(0, n + 1, BLOCK):
                w.append(streams["indptr"], indptr[lo : lo + BLOCK])
            for lo in range(0, n, BLOCK):
                w.append(node_attrs["_ID"], nodes[lo : lo + BLOCK])
                if store.store_inner_node:
                    w.append(node_attrs["inner_node"], np.arange(lo, min(lo + BLOCK, n)) < inner)
            for src, eid, flags in buckets.blocks():
                w.append(streams["indices"], src)
                if typed:
                    w.append(streams["type"], flags >> 1)
                if store.store_eids:
                    w.append(edge_attrs["_ID"], eid)
                if store.store_inner_edge:
                    w.append(edge_attrs["inner_edge"], flags & 1)
    finally:
        buckets.close()


def _edge_feat_streams(plan: Plan, scan: _Scan, owned: list[int]) -> dict[tuple[int, int], Stream]:
    """A stream per (edge type, field) of the owned edges' data (``owned[ei]`` rows each), from
    the pieces' dtypes."""
    return {
        (ei, k): _field_stream(scan.fields[(ei, k)], rows, name)
        for ei, rows in enumerate(owned)
        for k, name in enumerate(plan.edge_names(ei))
    }


def _write_edge_feats_dgl(plan: Plan, p: int, path: Path, scan: _Scan, edge_rows, owned) -> None:
    """``edge_feat.dgl``: each field's rows, piece after piece (owned edges in new id order)."""

    def rows(ei: int, k: int):
        for c in range(len(edge_rows[ei])):
            yield _piece_field(plan.owned_piece(ei, c, p), f"d{k}")

    fields = [
        (f"{etype_str(plan.etypes[ei])}/{plan.edge_names(ei)[k]}", st.dtype, st.shape, rows(ei, k))
        for (ei, k), st in _edge_feat_streams(plan, scan, owned).items()
    ]
    save_tensors_streamed(path, fields)


def _node_feat_tree(plan: Plan, p: int) -> dict[str, tuple[Stream, list[Path]]]:
    """Each node field's stream (``"<type>/<name>"``) and the pieces, in order, that fill it."""
    out = {}
    for ti, t in enumerate(plan.maps.ntypes):
        for k, name in enumerate(plan.node_names(ti)):
            runs = len(plan.node_runs[ti][k])
            pieces = [plan.node_piece(ti, k, r, p) for r in range(runs)]
            heads = [np.load(f, mmap_mode="r", allow_pickle=False) for f in pieces]
            items = [(h.dtype, h.shape) for h in heads]
            rows = sum(h.shape[0] for h in heads)
            del heads
            out[f"{t}/{name}"] = (_field_stream(items, rows, f"{t}/{name}"), pieces)
    return out

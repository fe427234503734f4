"""Dispatch, phase 2 out of core: a partition's files written one block at a time.

The files are those :func:`~graphpart.chunked._assemble.build_part` writes in memory (graphpart's
format, the same arrays in the same order), but no array the size of the partition's edges is
ever held, so a worker's memory does not depend on how large its partition is:

1. One pass over the partition's pieces marks its HALO nodes (sources of owned edges outside it,
   destinations of edges leaving it) in a bitmap over all nodes, and sorts the leaving edges
   by new edge id out of core: their order is (owner, edge type, chunk, position), so they are
   appended to one file per owner and read back owner by owner.
2. The local node ids follow (inner nodes, then the HALO nodes in id order), kept in one int64
   array over all nodes; the node data is written in blocks.
3. A second pass over the owned pieces, then the owners' files, relabels each block of edges and
   appends it to every edge record at once
   (:class:`~graphpart.interop.torch_zip.TorchZipWriter` lays the files out in advance).

Memory: ``B + 17 N + 8 L`` (``N`` nodes in the graph, ``L`` local nodes, at most ``N``) plus one
piece (at most one chunk of edges) or one block of :data:`BLOCK` rows. Disk: 40 bytes per
leaving edge while the partition is written, deleted after.
"""

from __future__ import annotations

import contextlib
import shutil
import zipfile
from pathlib import Path

import numpy as np
import torch

from ..errors import GraphpartError
from ..graph.schema import etype_str
from ..index import group_order, part_ranges
from ..interop.torch_zip import Stream
from ..partitioning.halo import edge_fields, node_fields
from ..storage.files import graph_tree, part_file_names, streamed_torch_file, write_feats_file
from ._shuffle import Plan, load_piece
from .orig_ids import ORIG_EIDS, ORIG_NIDS

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
    """One stream for rows that arrive from several pieces: their common dtype and row shape."""
    shapes = {s[1:] for _, s in items}
    if len(shapes) > 1:
        raise GraphpartError(f"{what}: the chunks' rows have different shapes {sorted(shapes)}")
    dtype = np.result_type(*(d for d, _ in items)) if items else np.dtype(np.float32)
    return Stream(dtype, (rows, *(shapes.pop() if shapes else ())))


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


def build_part_streamed(
    plan: Plan,
    p: int,
    folder: Path,
    edge_counts: list[np.ndarray],
    edge_rows: list[np.ndarray],
    edge_bounds: np.ndarray,
    save_orig_nids: bool,
    save_orig_eids: bool,
) -> dict[str, int]:
    """Write partition ``p`` into ``folder`` in graphpart's format, block by block; returns its
    node, HALO and edge counts."""
    maps, hops = plan.maps, plan.num_hops
    start, end = (int(x) for x in part_ranges(maps.bounds)[p])
    es = int(part_ranges(edge_bounds)[p][0])
    typed = len(maps.ntypes) > 1 or len(plan.etypes) > 1
    n_all = int(maps.bounds[-1, -1, 1])
    row0 = [np.cumsum(r) - r for r in edge_rows]
    leaving = _Leaving(plan.work / f"leaving{p}", plan.num_parts) if hops else None
    try:
        # pass 1: HALO marks, edges kept, edge data's dtypes, leaving edges by owner
        halo = np.zeros(n_all, dtype=bool)
        kept = 0
        fields: dict[tuple[int, int], list] = {}
        for ei in range(len(plan.etypes)):
            for c in range(len(edge_rows[ei])):
                path = plan.owned_piece(ei, c, p)
                src = _piece_field(path, "src")
                outside = (src < start) | (src >= end)
                halo[src[outside]] = hops > 0
                kept += len(src) if hops else int((~outside).sum())
                for k in range(len(plan.edge_names(ei))):
                    fields.setdefault((ei, k), []).append(_npz_field(path, f"d{k}"))
            if hops:
                before = np.cumsum(edge_counts[ei], axis=0) - edge_counts[ei]
                for c in range(len(edge_rows[ei])):
                    piece = load_piece(plan.cross_piece(ei, c, p))
                    owner = piece["owner"]
                    halo[piece["dst"]] = True
                    eid = edge_bounds[owner, ei, 0] + before[c, owner] + piece["pos"]
                    cols = np.stack(
                        [piece["src"], piece["dst"], piece["row"] + row0[ei][c], eid],
                        axis=1,
                    )
                    cols = np.concatenate([cols, np.full((len(cols), 1), ei)], axis=1)
                    leaving.add(owner, cols)
        halo[start:end] = False
        layer = np.flatnonzero(halo)
        del halo
        nodes = np.concatenate([np.arange(start, end, dtype=np.int64), layer])
        local = np.full(n_all, -1, dtype=np.int64)
        local[nodes] = np.arange(len(nodes))
        num_leaving = int(leaving.rows.sum()) if hops else 0
        num_local = kept + num_leaving

        names = part_file_names("graphpart")
        src_s, dst_s = Stream(np.int64, (num_local,)), Stream(np.int64, (num_local,))
        hop_dtype = np.int8  # one HALO hop at most here
        probe = node_fields(nodes[:0], np.zeros(0, hop_dtype), *maps.describe(nodes[:0]), typed)
        nstreams = {k: Stream(v.dtype, (len(nodes),)) for k, v in probe.items()}
        eprobe = edge_fields(
            *(np.zeros(0, dt) for dt in (np.int64, bool, np.int64, np.int64)), typed
        )
        estreams = {k: Stream(v.dtype, (num_local,)) for k, v in eprobe.items()}
        owned_per_type = [int(edge_counts[ei][:, p].sum()) for ei in range(len(plan.etypes))]
        efeat = {
            (ei, k): _field_stream(fields[(ei, k)], owned_per_type[ei], name)
            for ei in range(len(plan.etypes))
            for k, name in enumerate(plan.edge_names(ei))
        }
        efeat_tree = {
            f"{etype_str(plan.etypes[ei])}/{plan.edge_names(ei)[k]}": s
            for (ei, k), s in efeat.items()
        }
        orig_e = {ei: Stream(np.int64, (owned_per_type[ei],)) for ei in range(len(plan.etypes))}
        orig_tree = {etype_str(plan.etypes[ei]): st for ei, st in orig_e.items()}
        graph = graph_tree(len(nodes), src_s, dst_s, nstreams, estreams)
        with (
            streamed_torch_file(folder / names["part_graph"], graph) as gw,
            streamed_torch_file(folder / names["edge_feats"], efeat_tree) as fw,
            streamed_torch_file(folder / ORIG_EIDS, orig_tree)
            if save_orig_eids
            else contextlib.nullcontext() as ow,
        ):
            for lo in range(0, len(nodes), BLOCK):
                block = nodes[lo : lo + BLOCK]
                part_id, ntype, orig_n = maps.describe(block)
                hop = (lo + np.arange(len(block)) >= end - start).astype(hop_dtype)
                for k, v in node_fields(block, hop, part_id, ntype, orig_n, typed).items():
                    gw.append(nstreams[k], v)
            del nodes

            def edges(s, d, eid, inner, orig, ei):
                gw.append(src_s, local[s])
                gw.append(dst_s, local[d])
                for k, v in edge_fields(eid, inner, orig, ei, typed).items():
                    gw.append(estreams[k], v)

            next_eid = es
            for ei in range(len(plan.etypes)):
                for c in range(len(edge_rows[ei])):
                    piece = load_piece(plan.owned_piece(ei, c, p))
                    s, d, orig = piece["src"], piece["dst"], piece["row"] + row0[ei][c]
                    eid = np.arange(next_eid, next_eid + len(s), dtype=np.int64)
                    next_eid += len(s)
                    for k in range(len(plan.edge_names(ei))):
                        fw.append(efeat[(ei, k)], piece[f"d{k}"])
                    if ow is not None:  # each type's owned edges' original ids, in new id order
                        ow.append(orig_e[ei], orig)
                    keep = slice(None) if hops else (s >= start) & (s < end)
                    n = len(s) if hops else int(keep.sum())
                    edges(
                        s[keep], d[keep], eid[keep], np.ones(n, dtype=bool), orig[keep],
                        np.full(n, ei, dtype=np.int64),
                    )  # fmt: skip
            if hops:
                for b in leaving.blocks():
                    edges(b[:, 0], b[:, 1], b[:, 3], np.zeros(len(b), bool), b[:, 2], b[:, 4])
        node_feats = _node_feat_tree(plan, p)
        with streamed_torch_file(folder / names["node_feats"], node_feats[0]) as nw:
            for stream, piece in node_feats[1]:
                nw.append(stream, np.load(piece, allow_pickle=False))
        if save_orig_nids:
            ids = {t: np.array(maps.inner_orig(p, ti)) for ti, t in enumerate(maps.ntypes)}
            write_feats_file(folder / ORIG_NIDS, {t: torch.from_numpy(a) for t, a in ids.items()})
    finally:
        if leaving is not None:
            leaving.close()
    return {"nodes": end - start, "halo_nodes": len(layer), "edges": num_local}


def _node_feat_tree(plan: Plan, p: int):
    """``node_feats.pt``'s tree of streams, and the pieces (in order) that fill them."""
    tree, fills = {}, []
    for ti, t in enumerate(plan.maps.ntypes):
        for k, name in enumerate(plan.node_names(ti)):
            chunks = len(plan.meta.node_data[t][name].paths)
            pieces = [plan.node_piece(ti, k, c, p) for c in range(chunks)]
            heads = [np.load(f, mmap_mode="r", allow_pickle=False) for f in pieces]
            items = [(h.dtype, h.shape) for h in heads]
            rows = sum(h.shape[0] for h in heads)
            del heads
            s = _field_stream(items, rows, f"{t}/{name}")
            tree[f"{t}/{name}"] = s
            fills += [(s, f) for f in pieces]
    return tree, fills

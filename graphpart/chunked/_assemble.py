"""Dispatch, phase 2: each task gathers one partition's pieces and writes its files.

A partition's owned edges are its pieces in (edge type, run of chunks) order, which is
new edge id order; edges leaving it get their new ids from the per-run counts
of phase 1. The local graph, its DGL node and edge data and the partition files
are then made by the same functions the in-memory path uses
(:func:`~graphpart.partitioning.halo.assemble_view`,
:func:`~graphpart.partitioning.halo.local_data`,
:func:`~graphpart.storage.write.write_part`). Memory per task: the partition's own
edges and features plus one int64 scratch array over all nodes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from ..graph.schema import etype_str
from ..index import part_ranges, stable_order
from ..interop.graphbolt import GraphBoltStore
from ..partitioning.halo import assemble_view, hop1_layer, local_data
from ..storage.files import ORIG_EIDS, ORIG_NIDS
from ..storage.write import write_part
from ._assemble_stream import build_part_streamed
from ._shuffle import Plan, load_piece

__all__ = ["build_part", "drop_pieces"]


def _tensor(a: np.ndarray) -> torch.Tensor:
    a = np.ascontiguousarray(a)
    return torch.from_numpy(a if a.flags.writeable else a.copy())


class _Edges:
    """A partition's local edges, filled in place: owned ones first (new id order), then those
    leaving it.

    Preallocated from phase 1's counts so that no list of pieces is concatenated:
    the columns are the largest arrays a partition task holds.
    """

    def __init__(self, num_owned: int, num_leaving: int, typed: bool) -> None:
        n = num_owned + num_leaving
        self.num_owned = num_owned
        self.src, self.dst, self.orig = (np.empty(n, dtype=np.int64) for _ in range(3))
        self.etype = np.empty(n, dtype=np.int64) if typed else None
        self.pos = 0

    def add(self, src: np.ndarray, dst: np.ndarray, orig: np.ndarray, ei: int) -> None:
        a, b = self.pos, self.pos + len(src)
        self.src[a:b], self.dst[a:b], self.orig[a:b] = src, dst, orig
        if self.etype is not None:
            self.etype[a:b] = ei
        self.pos = b

    def columns(self) -> list[np.ndarray]:
        return [x for x in (self.src, self.dst, self.orig, self.etype) if x is not None]


def _owned(plan: Plan, p: int, edges: _Edges, edge_rows: list[np.ndarray]):
    """Add ``p``'s owned edges in new id order; returns their edge data and original ids per
    type."""
    feats, per_type = {}, {}
    for ei, e in enumerate(plan.etypes):
        row0 = np.cumsum(edge_rows[ei]) - edge_rows[ei]
        names = plan.edge_names(ei)
        cols: list[list[np.ndarray]] = [[] for _ in names]
        first = edges.pos
        for c in range(len(edge_rows[ei])):
            piece = load_piece(plan.owned_piece(ei, c, p))
            edges.add(piece["src"], piece["dst"], piece["row"] + row0[c], ei)
            for k in range(len(names)):
                cols[k].append(piece[f"d{k}"])
        per_type[etype_str(e)] = edges.orig[first : edges.pos]
        for k, name in enumerate(names):
            feats[f"{etype_str(e)}/{name}"] = _tensor(np.concatenate(cols[k]))
    return feats, per_type


def _leaving(
    plan: Plan,
    p: int,
    edges: _Edges,
    edge_counts: list[np.ndarray],
    edge_rows: list[np.ndarray],
    edge_bounds: np.ndarray,
) -> np.ndarray:
    """Add the edges from ``p``'s nodes that other partitions own, sorted by new edge id; returns
    those ids."""
    eid = np.empty(len(edges.src) - edges.num_owned, dtype=np.int64)
    for ei in range(len(plan.etypes)):
        before = np.cumsum(edge_counts[ei], axis=0) - edge_counts[ei]  # (chunks, parts)
        row0 = np.cumsum(edge_rows[ei]) - edge_rows[ei]
        for c in range(len(edge_rows[ei])):
            piece = load_piece(plan.cross_piece(ei, c, p))
            owner = piece["owner"]
            a = edges.pos - edges.num_owned
            eid[a : a + len(owner)] = edge_bounds[owner, ei, 0] + before[c, owner] + piece["pos"]
            edges.add(piece["src"], piece["dst"], piece["row"] + row0[c], ei)
    order = stable_order(eid)
    for col in edges.columns():  # permute in place, one column at a time
        col[edges.num_owned :] = col[edges.num_owned :][order]
    return eid[order]


def _node_feats(plan: Plan, p: int) -> dict[str, torch.Tensor]:
    out = {}
    for ti, t in enumerate(plan.maps.ntypes):
        for k, name in enumerate(plan.node_names(ti)):
            runs = len(plan.node_runs[ti][k])
            rows = [np.load(plan.node_piece(ti, k, r, p), allow_pickle=False) for r in range(runs)]
            out[f"{t}/{name}"] = _tensor(np.concatenate(rows))
    return out


def drop_pieces(plan: Plan, p: int, edge_rows: list[np.ndarray]) -> None:
    """Delete partition ``p``'s pieces (once its files are written and marked whole): the pieces
    and the output never take the disk twice over."""
    for ei in range(len(plan.etypes)):
        for c in range(len(edge_rows[ei])):
            plan.owned_piece(ei, c, p).unlink(missing_ok=True)
            plan.cross_piece(ei, c, p).unlink(missing_ok=True)
    for ti, t in enumerate(plan.maps.ntypes):
        for k, name in enumerate(plan.node_names(ti)):
            for r in range(len(plan.node_runs[ti][k])):
                plan.node_piece(ti, k, r, p).unlink(missing_ok=True)


def build_part(
    plan: Plan,
    p: int,
    folder: Path,
    edge_counts: list[np.ndarray],
    edge_rows: list[np.ndarray],
    edge_bounds: np.ndarray,
    num_leaving: int,
    save_orig_nids: bool,
    save_orig_eids: bool,
    format: str = "graphbolt",
    file_meta: dict | None = None,
    store: GraphBoltStore | None = None,
) -> dict[str, int]:
    """Write partition ``p`` into ``folder``; returns its node, HALO and edge counts.

    graphpart's and GraphBolt's formats are written out of core (:func:`build_part_streamed`);
    DGL's ``.dgl`` files are built from the partition in memory."""
    if format != "dgl":
        return build_part_streamed(
            plan, p, folder, edge_counts, edge_rows, edge_bounds, save_orig_nids, save_orig_eids,
            format, store, file_meta,
        )  # fmt: skip
    maps = plan.maps
    start, end = (int(x) for x in part_ranges(maps.bounds)[p])
    es, ee = (int(x) for x in part_ranges(edge_bounds)[p])
    typed = len(maps.ntypes) > 1 or len(plan.etypes) > 1
    edges = _Edges(ee - es, num_leaving if plan.copies_leaving else 0, typed)
    edge_feats, orig_eids = _owned(plan, p, edges, edge_rows)
    inner = np.arange(start, end, dtype=np.int64)
    scratch = np.full(int(maps.bounds[-1, -1, 1]), -1, dtype=np.int64)
    eids = np.empty(len(edges.src), dtype=np.int64)
    eids[: ee - es] = np.arange(es, ee)
    if plan.num_hops == 0:
        keep = (edges.src >= start) & (edges.src < end)
        eids = eids[keep]
        cols = [c[keep] for c in edges.columns()]
        view = assemble_view(p, inner, [], eids, len(eids), cols[0], cols[1], scratch)
    else:
        if plan.copies_leaving:
            eids[ee - es :] = _leaving(plan, p, edges, edge_counts, edge_rows, edge_bounds)
        layer = hop1_layer(edges.src[: ee - es], edges.dst[ee - es :], start, end)
        cols = edges.columns()
        view = assemble_view(p, inner, [layer], eids, ee - es, cols[0], cols[1], scratch)
    orig, etype = cols[2], (cols[3] if typed else None)
    del edges, cols, scratch
    part_id, ntype, orig_n = maps.describe(view.nodes)
    ndata, edata = local_data(view, part_id, ntype, orig_n, etype, orig, typed)
    extra = {}
    if save_orig_nids:
        extra[ORIG_NIDS] = {t: _tensor(maps.inner_orig(p, ti)) for ti, t in enumerate(maps.ntypes)}
    if save_orig_eids:
        extra[ORIG_EIDS] = {t: _tensor(a) for t, a in orig_eids.items()}
    write_part(
        folder,
        len(view.nodes),
        _tensor(view.src),
        _tensor(view.dst),
        {k: _tensor(a) for k, a in ndata.items()},
        {k: _tensor(a) for k, a in edata.items()},
        _node_feats(plan, p),
        edge_feats,
        extra,
        format=format,
        meta=file_meta,
    )
    return {
        "nodes": end - start,
        "halo_nodes": len(view.nodes) - (end - start),
        "edges": len(view.eids),
    }

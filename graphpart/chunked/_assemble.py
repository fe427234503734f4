"""Dispatch, phase 2: each task gathers one partition's pieces and writes its files.

A partition's owned edges are its pieces in (edge type, chunk) order, which is
new edge id order; edges leaving it get their new ids from the per-chunk counts
of phase 1. The local graph, its DGL node and edge data and the partition files
are then made by the same functions the in-memory path uses
(:func:`~graphpart.partitioning.halo.assemble_view`,
:func:`~graphpart.partitioning.halo.local_data`,
:func:`~graphpart.storage.write_part`). Memory per task: the partition's own
edges and features plus one int64 scratch array over all nodes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from .._schema import etype_str
from ..partitioning.halo import assemble_view, hop1_layer, local_data
from ..partitioning.reshuffle import stable_order
from ..storage import write_part
from ._shuffle import Plan, load_piece

__all__ = ["build_part", "ORIG_NIDS", "ORIG_EIDS"]

#: Per-partition files of original ids (``--save-orig-nids`` / ``--save-orig-eids``).
ORIG_NIDS, ORIG_EIDS = "orig_nids.pt", "orig_eids.pt"


def _cat(arrays: list[np.ndarray], dtype=np.int64) -> np.ndarray:
    return np.concatenate(arrays) if arrays else np.zeros(0, dtype=dtype)


def _tensor(a: np.ndarray) -> torch.Tensor:
    a = np.ascontiguousarray(a)
    return torch.from_numpy(a if a.flags.writeable else a.copy())


def _owned(plan: Plan, p: int, edge_rows: list[np.ndarray]):
    """Owned edges of ``p`` in new id order: new endpoints, type, type-wise original id, and edge data."""
    src, dst, etype, orig, feats, per_type = [], [], [], [], {}, {}
    for ei, e in enumerate(plan.etypes):
        row0 = np.cumsum(edge_rows[ei]) - edge_rows[ei]
        names = plan.edge_names(ei)
        cols: list[list[np.ndarray]] = [[] for _ in names]
        first = len(orig)
        for c in range(len(edge_rows[ei])):
            piece = load_piece(plan.owned_piece(ei, c, p))
            src.append(piece["src"])
            dst.append(piece["dst"])
            orig.append(piece["row"] + row0[c])
            etype.append(np.full(len(piece["src"]), ei, dtype=np.int64))
            for k in range(len(names)):
                cols[k].append(piece[f"d{k}"])
        per_type[etype_str(e)] = _cat(orig[first:])
        for k, name in enumerate(names):
            feats[f"{etype_str(e)}/{name}"] = _tensor(np.concatenate(cols[k]))
    return _cat(src), _cat(dst), _cat(etype), _cat(orig), feats, per_type


def _leaving(plan: Plan, p: int, edge_counts: list[np.ndarray], edge_rows: list[np.ndarray],
             edge_bounds: np.ndarray):
    """Edges from ``p``'s nodes owned by other partitions, sorted by new edge id."""
    eid, src, dst, etype, orig = [], [], [], [], []
    for ei in range(len(plan.etypes)):
        before = np.cumsum(edge_counts[ei], axis=0) - edge_counts[ei]  # (chunks, parts)
        row0 = np.cumsum(edge_rows[ei]) - edge_rows[ei]
        for c in range(len(edge_rows[ei])):
            piece = load_piece(plan.cross_piece(ei, c, p))
            owner = piece["owner"]
            eid.append(edge_bounds[owner, ei, 0] + before[c, owner] + piece["pos"])
            src.append(piece["src"])
            dst.append(piece["dst"])
            etype.append(np.full(len(owner), ei, dtype=np.int64))
            orig.append(piece["row"] + row0[c])
    eid = _cat(eid)
    order = stable_order(eid)
    return eid[order], _cat(src)[order], _cat(dst)[order], _cat(etype)[order], _cat(orig)[order]


def _node_feats(plan: Plan, p: int) -> dict[str, torch.Tensor]:
    out = {}
    for ti, t in enumerate(plan.maps.ntypes):
        for k, name in enumerate(plan.node_names(ti)):
            chunks = len(plan.meta.node_data[t][name].paths)
            rows = [np.load(plan.node_piece(ti, k, c, p), allow_pickle=False) for c in range(chunks)]
            out[f"{t}/{name}"] = _tensor(np.concatenate(rows))
    return out


def build_part(plan: Plan, p: int, folder: Path, edge_counts: list[np.ndarray], edge_rows: list[np.ndarray],
               edge_bounds: np.ndarray, save_orig_nids: bool, save_orig_eids: bool) -> dict[str, int]:
    """Write partition ``p`` into ``folder``; returns its node, HALO and edge counts."""
    maps = plan.maps
    start, end = int(maps.bounds[p, 0, 0]), int(maps.bounds[p, -1, 1])
    es = int(edge_bounds[p, 0, 0])
    inner = np.arange(start, end, dtype=np.int64)
    src, dst, etype, orig, edge_feats, orig_eids = _owned(plan, p, edge_rows)
    eids = np.arange(es, es + len(src), dtype=np.int64)
    scratch = np.full(int(maps.bounds[-1, -1, 1]), -1, dtype=np.int64)
    if plan.num_hops == 0:
        keep = (src >= start) & (src < end)
        eids, src, dst, etype, orig = eids[keep], src[keep], dst[keep], etype[keep], orig[keep]
        view = assemble_view(p, inner, [], eids, len(eids), src, dst, scratch)
    else:
        x_eid, x_src, x_dst, x_type, x_orig = _leaving(plan, p, edge_counts, edge_rows, edge_bounds)
        layer = hop1_layer(src, x_dst, start, end)
        view = assemble_view(p, inner, [layer], np.concatenate([eids, x_eid]), len(eids),
                             np.concatenate([src, x_src]), np.concatenate([dst, x_dst]), scratch)
        etype, orig = np.concatenate([etype, x_type]), np.concatenate([orig, x_orig])
    del scratch
    part_id, ntype, orig_n = maps.describe(view.nodes)
    typed = len(maps.ntypes) > 1 or len(plan.etypes) > 1
    ndata, edata = local_data(view, part_id, ntype, orig_n, etype, orig, typed)
    extra = {}
    if save_orig_nids:
        extra[ORIG_NIDS] = {t: _tensor(maps.inner_orig(p, ti)) for ti, t in enumerate(maps.ntypes)}
    if save_orig_eids:
        extra[ORIG_EIDS] = {t: _tensor(a) for t, a in orig_eids.items()}
    write_part(folder, len(view.nodes), _tensor(view.src), _tensor(view.dst),
               {k: _tensor(a) for k, a in ndata.items()}, {k: _tensor(a) for k, a in edata.items()},
               _node_feats(plan, p), edge_feats, extra)
    return {"nodes": end - start, "halo_nodes": len(view.nodes) - (end - start), "edges": len(view.eids)}

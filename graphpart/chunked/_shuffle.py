"""Dispatch, phase 1: each task reads one chunk and splits it into per-partition pieces on disk.

An edge chunk becomes, for every partition ``q``, the edges ``q`` owns (those
whose destination it owns) in chunk order, renumbered to new node ids, with
their edge data; with HALO hops and ``out_edges`` it also yields, per partition ``p``, the
edges leaving ``p`` (source in ``p``, owner elsewhere) with their owner and position,
so ``p`` can learn their new edge ids once all chunks are counted. A node-data
chunk becomes the rows each partition owns. Pieces are ``.npz`` files written
through temporary names, so a task Dask reruns after a worker died rewrites
them whole. Memory per task: one chunk plus the memory-mapped node maps.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..index import group_order, group_rank
from ..typing import CanonicalEType
from ..utils.check import short_repr
from ._nodemaps import NodeMaps
from .format import ChunkedMetadata, ChunkSpec
from .read import read_edges

__all__ = ["Plan", "shuffle_edges", "shuffle_node_data", "chunk_rows", "save_piece", "load_piece"]


@dataclass(frozen=True)
class Plan:
    """What every dispatch task needs (small; shipped to the workers with each task)."""

    meta: ChunkedMetadata
    work: Path
    maps: NodeMaps
    etypes: tuple[CanonicalEType, ...]
    num_hops: int
    out_edges: bool = True  # a partition also copies the edges leaving it (with HALO hops)
    skip: frozenset[int] = frozenset()  # partitions a resumed run keeps: phase 1 writes no pieces

    @property
    def copies_leaving(self) -> bool:
        """Whether partitions keep copies of the edges leaving them."""
        return self.num_hops >= 1 and self.out_edges

    @property
    def num_parts(self) -> int:
        return self.maps.num_parts

    def edge_names(self, ei: int) -> list[str]:
        return sorted(self.meta.edge_data.get(self.etypes[ei], {}))

    def node_names(self, ti: int) -> list[str]:
        return sorted(self.meta.node_data.get(self.maps.ntypes[ti], {}))

    def owned_piece(self, ei: int, c: int, q: int) -> Path:
        return self.work / f"e{ei}" / f"c{c}-own{q}.npz"

    def cross_piece(self, ei: int, c: int, p: int) -> Path:
        return self.work / f"e{ei}" / f"c{c}-out{p}.npz"

    def node_piece(self, ti: int, k: int, c: int, p: int) -> Path:
        return self.work / f"n{ti}-{k}" / f"c{c}-p{p}.npy"


def save_piece(path: Path, **arrays: np.ndarray) -> None:
    """Write arrays to ``path`` (``.npz``) through a temporary sibling."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **arrays)
    os.replace(tmp, path)


def _save_array(path: Path, a: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        np.save(f, a, allow_pickle=False)
    os.replace(tmp, path)


def load_piece(path: Path) -> dict[str, np.ndarray]:
    """The arrays of a piece written by :func:`save_piece` (never unpickles)."""
    with np.load(path, allow_pickle=False) as z:
        return {k: z[k] for k in z.files}


def _segments(order: np.ndarray, counts: np.ndarray) -> list[np.ndarray]:
    ends = np.cumsum(counts)
    return [order[e - n : e] for n, e in zip(counts.tolist(), ends.tolist())]


def shuffle_edges(plan: Plan, ei: int, c: int) -> tuple[np.ndarray, int, np.ndarray, list[str]]:
    """Split chunk ``c`` of edge type ``ei`` by owner.

    Returns the edges each partition owns, the rows in the chunk, the edges
    leaving each partition (source there, owner elsewhere; zeros unless partitions copy
    them), and the digests of the files read (the edges', then each edge data field's).
    """
    meta, e = plan.meta, plan.etypes[ei]
    digests: list[str] = []  # each file fingerprinted by the read that parses it
    src, dst = read_edges(meta, e, c, digests)
    n = len(src)
    ts, td = plan.maps.ntypes.index(e[0]), plan.maps.ntypes.index(e[2])
    dpart = plan.maps.part(td)[dst]
    spart = plan.maps.part(ts)[src] if plan.copies_leaving else None
    # pieces hold int32 where the ids fit (half the disk of int64): node ids, rows of the chunk,
    # owners and positions
    ids = np.int32 if int(plan.maps.bounds[-1, -1, 1]) < np.iinfo(np.int32).max else np.int64
    rows = np.int32 if n < np.iinfo(np.int32).max else np.int64
    new_src = plan.maps.new(ts)[src].astype(ids)
    new_dst = plan.maps.new(td)[dst].astype(ids)
    del src, dst
    data = {}
    for k, name in enumerate(plan.edge_names(ei)):
        spec = meta.edge_data[e][name]
        a = spec.read(c, digests)
        if len(a) != n:
            raise GraphpartError(
                f"{spec.paths[c]}: edge_data[{short_repr(':'.join(e))}][{short_repr(name)}] chunk "
                f"{c} has {len(a)} "
                f"rows but its edge chunk {meta.edges[e].paths[c]} has {n} edges"
            )
        data[f"d{k}"] = a
    order, counts = group_order(dpart, plan.num_parts)
    leaving = np.zeros(plan.num_parts, dtype=np.int64)
    for q, sel in enumerate(_segments(order, counts)):
        if q in plan.skip:
            continue
        save_piece(
            plan.owned_piece(ei, c, q),
            src=new_src[sel],
            dst=new_dst[sel],
            row=sel.astype(rows),
            **{k: a[sel] for k, a in data.items()},
        )
    if plan.copies_leaving:
        pos = group_rank(
            order, counts
        )  # position of each edge among its owner's edges of this chunk
        cross = np.flatnonzero(spart != dpart)
        corder, leaving = group_order(spart[cross], plan.num_parts)
        for p, sel in enumerate(_segments(corder, leaving)):
            if p in plan.skip:
                continue
            cut_rows = cross[sel]
            save_piece(
                plan.cross_piece(ei, c, p),
                src=new_src[cut_rows],
                dst=new_dst[cut_rows],
                owner=dpart[cut_rows].astype(np.int32),
                pos=pos[cut_rows].astype(rows),
                row=cut_rows.astype(rows),
            )
    return counts, n, leaving, digests


def chunk_rows(spec: ChunkSpec, c: int) -> int:
    """Rows of chunk ``c`` (for metadata without graphpart's ``counts``)."""
    return len(spec.read(c))


def shuffle_node_data(plan: Plan, ti: int, k: int, c: int, row0: int) -> tuple[int, str]:
    """Split chunk ``c`` of node data ``k`` of type ``ti`` (rows from ``row0``) by partition;
    returns its rows and its file's digest."""
    t = plan.maps.ntypes[ti]
    name = plan.node_names(ti)[k]
    spec = plan.meta.node_data[t][name]
    digests: list[str] = []
    a = spec.read(c, digests)
    num_nodes = plan.meta.num_nodes[t]
    if row0 + len(a) > num_nodes:
        raise GraphpartError(
            f"{spec.paths[c]}: node_data[{short_repr(t)}][{short_repr(name)}] reaches row "
            f"{row0 + len(a)}, but node "
            f"type {short_repr(t)} has {num_nodes} nodes"
        )
    part = np.asarray(plan.maps.part(ti)[row0 : row0 + len(a)])
    order, counts = group_order(part, plan.num_parts)
    for p, sel in enumerate(_segments(order, counts)):
        if p not in plan.skip:
            _save_array(plan.node_piece(ti, k, c, p), a[sel])
    return len(a), digests[0]

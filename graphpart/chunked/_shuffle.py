"""Dispatch, phase 1: each task reads a run of chunks and splits it into per-partition pieces.

A task reads consecutive chunks together up to :data:`TASK_EDGES` edges (node data: up to
:data:`TASK_BYTES`), or one chunk where a chunk alone holds more: a graph in a thousand small
chunks costs the tasks and piece files of one in a few large ones (creating a file costs about
half a millisecond here, and there is a piece per run and partition). A run of edges becomes,
for every partition ``q``, the edges ``q`` owns (those whose destination it owns) in chunk
order, renumbered to new node ids, with their edge data; with HALO hops and ``out_edges`` it
also yields, per partition ``p``, the edges leaving ``p`` (source in ``p``, owner elsewhere)
with their owner and position, so ``p`` can learn their new edge ids once all runs are
counted. A run of node-data chunks becomes the rows each partition owns. Pieces are ``.npz``
files written through temporary names, so a task Dask reruns after a worker died rewrites them
whole. Memory per task: one run plus the memory-mapped node maps.
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
from .format import ChunkedMetadata, ChunkSpec, chunk_edges, row_bytes
from .read import read_edges

__all__ = [
    "Plan",
    "TASK_EDGES",
    "TASK_BYTES",
    "chunk_runs",
    "edge_runs",
    "largest_run",
    "shuffle_edges",
    "shuffle_node_data",
    "chunk_rows",
    "save_piece",
    "load_piece",
]

#: A phase-1 task reads consecutive edge chunks together up to this many edges.
TASK_EDGES = 1 << 22
#: A phase-1 task reads consecutive node-data chunks together up to this many bytes.
TASK_BYTES = 1 << 28

Runs = tuple[tuple[int, int], ...]


def chunk_runs(sizes, limit: int) -> Runs:
    """Consecutive chunks cut into runs of at most ``max(limit, largest chunk)`` in all: each run
    ``[first, end)`` of chunk positions, filled greedily in order.

    Parameters
    ----------
    sizes : sequence of int
        Each chunk's size (edges, rows or bytes).
    limit : int
        The most a run of several chunks holds.

    Returns
    -------
    tuple of (int, int)
        The runs, covering every chunk in order (none for no chunks).

    Examples
    --------
    >>> chunk_runs([3, 3, 3, 9, 1, 1], 6)
    ((0, 2), (2, 3), (3, 4), (4, 6))
    """
    runs, first, total = [], 0, 0
    for c, size in enumerate(int(x) for x in sizes):  # a loop over chunks, not rows
        if c > first and total + size > limit:
            runs.append((first, c))
            first, total = c, 0
        total += size
    if len(sizes):
        runs.append((first, len(sizes)))
    return tuple(runs)


def edge_runs(meta: ChunkedMetadata, e: CanonicalEType) -> Runs:
    """The runs of edge type ``e``'s chunks a phase-1 task reads at a time (sized by
    :func:`~graphpart.chunked.format.chunk_edges`).

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata; no chunk is read.
    e : tuple of (str, str, str)
        The edge type.

    Returns
    -------
    tuple of (int, int)
        ``[first, end)`` chunk positions of each run (:func:`chunk_runs`, :data:`TASK_EDGES`).
    """
    return chunk_runs(chunk_edges(meta, e), TASK_EDGES)


def largest_run(meta: ChunkedMetadata) -> int:
    """Edges in the largest run of chunks a phase-1 task reads (:func:`edge_runs`; at most the
    larger of :data:`TASK_EDGES` and the largest chunk).

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata; no chunk is read.

    Returns
    -------
    int
        0 for a graph without edges.
    """
    top = 0
    for e in meta.edges:
        sizes = np.cumsum([0, *chunk_edges(meta, e)])
        for first, end in edge_runs(meta, e):  # a loop over runs
            top = max(top, int(sizes[end] - sizes[first]))
    return top


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
    #: each edge type's runs of chunks (:func:`edge_runs`), a task and a piece per run
    edge_runs: tuple[Runs, ...] = ()
    #: each node type's, each field's runs of chunks (sized by their rows' bytes)
    node_runs: tuple[tuple[Runs, ...], ...] = ()

    @classmethod
    def of(
        cls,
        meta: ChunkedMetadata,
        work: Path,
        maps: NodeMaps,
        etypes,
        num_hops: int,
        out_edges: bool,
        node_rows: dict,
        skip: frozenset[int] = frozenset(),
    ) -> Plan:
        """A plan whose tasks read the runs of chunks :func:`edge_runs` makes, and runs of
        node-data chunks (``node_rows[ti, k]``: each chunk's rows) up to :data:`TASK_BYTES`."""
        node_runs = []
        for ti, t in enumerate(maps.ntypes):
            fields = []
            for k, name in enumerate(sorted(meta.node_data.get(t, {}))):
                row = row_bytes(meta.node_data[t][name])
                fields.append(chunk_runs(np.asarray(node_rows[ti, k]) * row, TASK_BYTES))
            node_runs.append(tuple(fields))
        runs = tuple(edge_runs(meta, e) for e in etypes)
        return cls(meta, work, maps, etypes, num_hops, out_edges, skip, runs, tuple(node_runs))

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

    def owned_piece(self, ei: int, r: int, q: int) -> Path:
        """The edges of run ``r`` that partition ``q`` owns."""
        return self.work / f"e{ei}" / f"r{r}-own{q}.npz"

    def cross_piece(self, ei: int, r: int, p: int) -> Path:
        """The edges of run ``r`` leaving partition ``p`` (with their owners)."""
        return self.work / f"e{ei}" / f"r{r}-out{p}.npz"

    def node_piece(self, ti: int, k: int, r: int, p: int) -> Path:
        """The rows of node-data run ``r`` that partition ``p`` owns."""
        return self.work / f"n{ti}-{k}" / f"r{r}-p{p}.npy"


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


def _read_run(plan: Plan, ei: int, r: int, digests: list[str]):
    """Run ``r`` of edge type ``ei``: its ``(src, dst)``, each edge data field, chunk after
    chunk (each file fingerprinted by the read that parses it, appended to ``digests``), and
    each chunk's rows."""
    meta, e = plan.meta, plan.etypes[ei]
    names = plan.edge_names(ei)
    ends: list[list[np.ndarray]] = [[], []]
    data: list[list[np.ndarray]] = [[] for _ in names]
    for c in range(*plan.edge_runs[ei][r]):
        src, dst = read_edges(meta, e, c, digests)
        ends[0].append(src)
        ends[1].append(dst)
        for k, name in enumerate(names):
            spec = meta.edge_data[e][name]
            a = spec.read(c, digests)
            if len(a) != len(src):
                raise GraphpartError(
                    f"{spec.paths[c]}: edge_data[{short_repr(':'.join(e))}][{short_repr(name)}] "
                    f"chunk {c} has {len(a)} rows but its edge chunk {meta.edges[e].paths[c]} "
                    f"has {len(src)} edges"
                )
            data[k].append(a)
    one = len(ends[0]) == 1  # one chunk: no copy
    lengths = [len(x) for x in ends[0]]
    src, dst = (x[0] if one else np.concatenate(x) for x in ends)
    fields = {f"d{k}": a[0] if one else np.concatenate(a) for k, a in enumerate(data)}
    return src, dst, fields, lengths


def shuffle_edges(plan: Plan, ei: int, r: int) -> tuple:
    """Split run ``r`` of edge type ``ei``'s chunks by owner.

    Returns the edges each partition owns, the rows in the run, the edges
    leaving each partition (source there, owner elsewhere; zeros unless partitions copy
    them), the digests of the files read (each chunk's edges', then its edge data
    fields'), and each chunk's rows and the edges of it each partition owns (``(chunks,
    1 + parts)``: what :func:`~graphpart.chunked.verify.verify` needs to key edges by new id).
    """
    e = plan.etypes[ei]
    digests: list[str] = []
    src, dst, data, lengths = _read_run(plan, ei, r, digests)
    n = len(src)
    ts, td = plan.maps.ntypes.index(e[0]), plan.maps.ntypes.index(e[2])
    dpart = plan.maps.part(td)[dst]
    spart = plan.maps.part(ts)[src] if plan.copies_leaving else None
    # pieces hold int32 where the ids fit (half the disk of int64): node ids, rows of the run,
    # owners and positions
    ids = np.int32 if int(plan.maps.bounds[-1, -1, 1]) < np.iinfo(np.int32).max else np.int64
    rows = np.int32 if n < np.iinfo(np.int32).max else np.int64
    new_src = plan.maps.new(ts)[src].astype(ids)
    new_dst = plan.maps.new(td)[dst].astype(ids)
    del src, dst
    order, counts = group_order(dpart, plan.num_parts)
    per_chunk = np.zeros((len(lengths), 1 + plan.num_parts), dtype=np.int64)
    per_chunk[:, 0] = lengths
    for j, (a, b) in enumerate(zip(np.cumsum(lengths) - lengths, np.cumsum(lengths))):
        per_chunk[j, 1:] = np.bincount(dpart[a:b], minlength=plan.num_parts)  # chunks, not edges
    leaving = np.zeros(plan.num_parts, dtype=np.int64)
    for q, sel in enumerate(_segments(order, counts)):
        if q in plan.skip:
            continue
        save_piece(
            plan.owned_piece(ei, r, q),
            src=new_src[sel],
            dst=new_dst[sel],
            row=sel.astype(rows),
            **{k: a[sel] for k, a in data.items()},
        )
    if plan.copies_leaving:
        pos = group_rank(order, counts)  # position of each edge among its owner's edges of this run
        cross = np.flatnonzero(spart != dpart)
        corder, leaving = group_order(spart[cross], plan.num_parts)
        for p, sel in enumerate(_segments(corder, leaving)):
            if p in plan.skip:
                continue
            cut_rows = cross[sel]
            save_piece(
                plan.cross_piece(ei, r, p),
                src=new_src[cut_rows],
                dst=new_dst[cut_rows],
                owner=dpart[cut_rows].astype(np.int32),
                pos=pos[cut_rows].astype(rows),
                row=cut_rows.astype(rows),
            )
    return counts, n, leaving, digests, per_chunk


def chunk_rows(spec: ChunkSpec, c: int) -> int:
    """Rows of chunk ``c`` (for metadata without graphpart's ``counts``)."""
    return len(spec.read(c))


def shuffle_node_data(plan: Plan, ti: int, k: int, r: int, row0: int) -> tuple[int, list[str]]:
    """Split run ``r`` of node data ``k`` of type ``ti`` (rows from ``row0``) by partition;
    returns its rows and its files' digests."""
    t = plan.maps.ntypes[ti]
    name = plan.node_names(ti)[k]
    spec = plan.meta.node_data[t][name]
    digests: list[str] = []
    num_nodes = plan.meta.num_nodes[t]
    rows, end = [], row0
    for c in range(*plan.node_runs[ti][k][r]):
        rows.append(spec.read(c, digests))
        end += len(rows[-1])
        if end > num_nodes:
            raise GraphpartError(
                f"{spec.paths[c]}: node_data[{short_repr(t)}][{short_repr(name)}] reaches row "
                f"{end}, but node type {short_repr(t)} has {num_nodes} nodes"
            )
    a = rows[0] if len(rows) == 1 else np.concatenate(rows)
    del rows
    part = np.asarray(plan.maps.part(ti)[row0 : row0 + len(a)])
    order, counts = group_order(part, plan.num_parts)
    for p, sel in enumerate(_segments(order, counts)):
        if p not in plan.skip:
            _save_array(plan.node_piece(ti, k, r, p), a[sel])
    return len(a), digests

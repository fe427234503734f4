"""What each step of the chunked pipeline will need, from the metadata alone: peak memory per
process and disk, as formulas with measured constants, and the checks that refuse a step before
it starts when this machine cannot hold it (the memory rule: :mod:`graphpart.utils.memory`; a
step's main process and its local workers together, :func:`check_step_memory`).

For ``N`` nodes, ``E`` edges, ``C`` edges in the largest chunk, ``k`` parts, ``F`` bytes of node
data per node and ``B`` = :data:`BASE` (the interpreter with numpy, torch and pyarrow imported):

==================================  ===============================================================
step, process                       peak memory
==================================  ===============================================================
assign fennel / ldg, driver         ``B + 24 N``
assign fennel / ldg, each worker    ``B + 20 N + 150 C``
assign metis (one process)          ``B + 96 N + 300 E`` where that is within
                                    ``utils.memory.PROCESS_BUDGET``; beyond it, METIS on the graph
                                    coarsened: ``B + 150 MB + max(16 N + 24 E + 48 C, 76 N +
                                    24 A)``, ``A`` adjacency entries (``E`` stored both ways, at
                                    most ``2 E``);
                                    else ``M`` sampled edges for ``E`` (:mod:`.metis_memory`)
assign metis, each worker           ``B + 20 N + 150 C`` (the refinement's streams)
assign random (each Dask worker)    ``B + 24 * 2**20``
dispatch, driver                    ``B + 150 MB + 32 N``
dispatch, phase 1 (each worker)     ``B + 64 R + 16 N`` (node maps, memory-mapped; ``R`` edges
                                    in the largest run of chunks a task reads, at most
                                    ``max(C, 4M)``)
dispatch, phase 2 (each worker)     GraphBolt's files (the default) and graphpart's are written
                                    out of core whatever the partition's size:
                                    ``B + 5 N + 24 L + 40 P + 400 MB`` (GraphBolt; ``L`` local
                                    nodes of the largest partition, inner plus HALO; ``P``
                                    edges of a run it owns, its share of ``R``) and
                                    ``B + 21 N + 40 R + 400 MB`` (graphpart); DGL's ``.dgl``
                                    files are built in memory:
                                    ``B + (64 + F) n_p + 52 e_p + 8 N`` for the partition's ``n_p``
                                    nodes and ``e_p`` edges (owned plus leaving, HALO edges)
verify, driver                      ``B + 150 MB + (30 + F) N`` (the assignment read, the id maps,
                                    owners, every partition's inner nodes' ids as the tasks send
                                    them, the scheduler; a node field is read whole)
verify, each worker                 ``B + 8 N + 64 max(C, 4M)`` (a partition, its edges a slice
                                    at a time, or a share of the chunks), ``+ 42 L`` for
                                    GraphBolt's files (their node arrays, expanded)
==================================  ===============================================================

Disk: dispatch writes its pieces (``12 E`` bytes owned: int32 ends and rows where the ids fit,
``20`` per cut edge where partitions copy the edges leaving them, ``F N``) beside its output:
GraphBolt's ``13`` bytes per local edge (int32 sources, int64 edge ids, the inner flag; one more
with edge types) and ``13`` per local node (offsets, ids, flag), graphpart's ``36`` per local edge
plus ``64`` per node, ``F N`` of features either way. Local edges are ``E`` when each edge is stored
once (dispatch's default), plus the cut edges with ``out_edges``; local nodes are ``N`` plus the
HALO nodes, which ``assign`` estimates (:func:`~graphpart.chunked.assign.part_loads`), else at
most one per cut edge. A partition's pieces are deleted once its files are whole, so phase 2 needs
about the larger of the two plus what the partitions in flight hold (their files, 32 bytes per local
edge in CSC buckets, 40 per leaving edge sorted out of core).
The constants were measured on R-MAT (``benchmarks/pipeline_steps.py``; see RESULTS.md).
"""

from __future__ import annotations

import os
import re
import shutil
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..utils import memory
from ..utils.check import check_count
from ..utils.memory import check_memory, process_budget
from ..utils.units import fmt_bytes
from ._shuffle import largest_run
from .cluster import BASE, ClusterOptions
from .format import ChunkedMetadata, check_num_parts_for, chunk_edges, row_bytes
from .metis_memory import check_metis_max_edges, metis_route

__all__ = [
    "StepNeed",
    "plan_pipeline",
    "format_plan",
    "check_step_memory",
    "chunk_need",
    "check_disk",
    "local_workers",
    "largest_chunk",
]

#: Streaming assign (fennel, ldg): bytes its driver holds per node, a stream (each Dask worker)
#: per node and per edge of its chunk (measured on R-MAT: the driver 21.5 bytes per node at scale
#: 24 in 32 parts and 128 chunks; a stream 3.00 GiB at scale 27 in 512 chunks of 4.15M edges,
#: 4.02 GiB in 128 chunks of 16.6M; see :func:`stream_need`). The driver's 24 include 4 for the
#: renumbering table of the rounds of small chunks it runs itself (``stream.HERE_EDGES``).
STREAM_DRIVER_BYTES_PER_NODE, STREAM_WORKER_BYTES_PER_NODE, STREAM_BYTES_PER_EDGE = 24, 20, 150
#: dispatch's driver per node (the assignment, then its id maps a type at a time) and the
#: fixed part beside ``B`` (the LocalCluster's scheduler, the text reader's pool); verify's
#: driver per node besides node data (the id maps, owners, every partition's inner ids).
DISPATCH_DRIVER_BYTES_PER_NODE, DRIVER_FIXED, VERIFY_DRIVER_BYTES_PER_NODE = 32, 150 << 20, 30
#: Bytes a dispatch worker holds per node and per edge while it builds a partition (ids, maps,
#: the local graph and its copy on write), measured on R-MAT partitions; features come on top.
BYTES_PER_NODE, BYTES_PER_EDGE = 64, 52
#: A dispatch worker writing graphpart's format out of core: per node of the graph (the HALO
#: bitmap, local ids, the local nodes), and for a block of rows with its relabelled copies
#: (measured: 0.78 GiB at R-MAT scale 22 in 2 parts, whose partitions hold 62M edges each).
STREAM_BYTES_PER_NODE, STREAM_BLOCK_BYTES = 21, 400 << 20
#: Bytes of partition files per local edge, owned or HALO (graphpart's format: local ends, ids,
#: original ids, inner flag); 64 bytes per node come on top (measured: 16.96 GiB at scale 24).
OUTPUT_BYTES_PER_EDGE = 36
#: GraphBolt's files: per local edge (int32 source, int64 edge id, inner flag) and per local
#: node (int32 offset, int64 id, inner flag); an edge type adds a byte per edge.
GRAPHBOLT_BYTES_PER_EDGE, GRAPHBOLT_BYTES_PER_NODE = 13, 13
#: A GraphBolt writer's memory per node of the graph (the HALO bitmap, the int32 local id map), per
#: local node of its partition (ids, in-degrees, offsets) and per edge of its largest piece (the
#: edges of one chunk it owns, read whole with their copies); the buckets sorted and the slices
#: sent to them come on top (STREAM_BLOCK_BYTES). Measured at R-MAT 22 (2 and 16 parts) and 26.
GRAPHBOLT_BYTES_PER_NODE_OF_GRAPH, GRAPHBOLT_BYTES_PER_LOCAL_NODE = 5, 24
GRAPHBOLT_BYTES_PER_PIECE_EDGE = 40
#: The characters a line of :func:`format_plan` keeps to (a notebook's output wraps longer ones).
WIDTH = 110
#: Where a row's formula starts (step 28, process 22, memory and disk 9 each, and the spaces).
FORMULA_COLUMN = 73


@dataclass(frozen=True)
class StepNeed:
    """One step's predicted peak memory (per process) and disk.

    Attributes
    ----------
    step : str
        The step, e.g. ``"assign fennel"`` or ``"dispatch phase 2"``.
    process : str
        Which process the memory is for: ``"main"`` or ``"each of <n> workers"``.
    memory : int
        Predicted peak memory of that process, in bytes.
    disk : int
        Predicted disk the step writes, in bytes.
    formula : str
        The formula behind ``memory``, as the module's table writes it.
    """

    step: str
    process: str
    memory: int
    disk: int
    formula: str

    def row(self) -> str:
        """The step as one line of :func:`format_plan`'s table.

        Returns
        -------
        str
            Step, process, memory, disk and formula in fixed-width columns; the note closing
            a line longer than :data:`WIDTH` on a second line, under the formula.
        """
        line = (
            f"{self.step:<28} {self.process:<22} {fmt_bytes(self.memory):>9} "
            f"{fmt_bytes(self.disk):>9}  {self.formula}"
        )
        # a long line's closing note ("(out of core; ...)") goes under the formula: a
        # notebook's output would wrap the line
        note = re.search(r" (\([A-Za-z][^()]*\))$", line) if len(line) > WIDTH else None
        return line if note is None else f"{line[: note.start()]}\n{'':{FORMULA_COLUMN}}{note[1]}"


def node_row_bytes(meta: ChunkedMetadata) -> int:
    """Bytes of node data per node (all fields; 8 per value where the dtype is not recorded).

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata; only the ``dtype`` and ``shape`` of its node data are
        read.

    Returns
    -------
    int
        The sum over every node type and field of the values per row times their size.
    """
    total = 0
    for specs in meta.node_data.values():
        for spec in specs.values():
            total += row_bytes(spec)
    return total


def largest_chunk(meta: ChunkedMetadata) -> int:
    """Edges in the largest edge chunk (from the counts, else an even split).

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata; no chunk is read.

    Returns
    -------
    int
        The most edges in one chunk of any edge type; 0 for a graph without edge types.
    """
    return max((max(chunk_edges(meta, e), default=0) for e in meta.edges), default=0)


def _edge_row_bytes(meta: ChunkedMetadata) -> int:
    """Bytes of edge data per edge (all fields of the widest edge type)."""
    widths = [0]
    for specs in getattr(meta, "edge_data", {}).values():
        widths.append(sum(row_bytes(s) for s in specs.values()))
    return max(widths)


def output_bytes(meta: ChunkedMetadata, format: str, local_edges: int, local_nodes: int) -> int:
    """Bytes of the partition files dispatch writes, all partitions together.

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata (counts, types, data dtypes).
    format : str
        ``"graphbolt"``, ``"graphpart"`` or ``"dgl"`` (sized as graphpart's).
    local_edges : int
        Local edges over all partitions (each edge once, plus the copies of cut edges where
        partitions copy the edges leaving them).
    local_nodes : int
        Local nodes over all partitions (every node once, plus the HALO copies).

    Returns
    -------
    int
        Bytes: the graph files, the node data (``F N``) and the edge data.
    """
    n, e = int(sum(meta.num_nodes.values())), int(sum(meta.num_edges.values()))
    data = node_row_bytes(meta) * n + _edge_row_bytes(meta) * e
    if format == "graphbolt":
        typed = len(meta.num_nodes) > 1 or len(meta.num_edges) > 1
        per_edge = GRAPHBOLT_BYTES_PER_EDGE + typed
        return per_edge * local_edges + GRAPHBOLT_BYTES_PER_NODE * local_nodes + data
    return OUTPUT_BYTES_PER_EDGE * local_edges + 64 * n + data


def stream_need(num_nodes: int, num_edges: int, chunk: int) -> tuple[int, int]:
    """Peak memory of ``assign --algorithm fennel | ldg``: its driver's and each stream's.

    The driver holds every node's class and in-degree (int32) and part, copies of the parts
    as passes began, the streams' in-degree counts as they arrive, the nodes no chunk reached
    (their ids and parts, dealt out by :func:`~graphpart.chunked._loads.water_fill`), a
    round's placements or moves, and at the end the parts as int64 for the loads' pass; a
    stream (a Dask worker) one chunk's edges, their nodes and a table of local ids, and the
    pages it reads of the shared class, in-degree and part files.

    Parameters
    ----------
    num_nodes, num_edges : int
        The graph's nodes and edges (all types).
    chunk : int
        Edges of the largest chunk.

    Returns
    -------
    tuple of two int
        Bytes: the driver's ``BASE + 24 N`` and a stream's ``BASE + 20 N + 150 C``.
    """
    return (
        BASE + STREAM_DRIVER_BYTES_PER_NODE * num_nodes,
        BASE + STREAM_WORKER_BYTES_PER_NODE * num_nodes + STREAM_BYTES_PER_EDGE * chunk,
    )


#: ``chunk --dataset rmat|dcsbm``: bytes the main process holds per node besides its data (the
#: id shuffle and its draw, the model's weights), per edge of the largest sort bucket it reads
#: back, and a drawing task's bytes per edge of its block (R-MAT) or per draw (DC-SBM, which
#: rebuilds its model: 20 bytes per node). Measured at scales 18, 20 and 22 (RESULTS.md).
CHUNK_BYTES_PER_NODE, CHUNK_BYTES_PER_BUCKET_EDGE = 24, 48
RMAT_BYTES_PER_BLOCK_EDGE, DCSBM_BYTES_PER_DRAW, DCSBM_MODEL_BYTES_PER_NODE = 40, 150, 20


def chunk_need(
    kind: str, num_nodes: int, num_edges: int, row: int, block: int, bucket: int
) -> list[StepNeed]:
    """Peak memory of ``chunk --dataset rmat|dcsbm``: its main process and each drawing task.

    Parameters
    ----------
    kind : {"rmat", "dcsbm"}
        The generator.
    num_nodes, num_edges : int
        The graph's nodes and edges drawn.
    row : int
        Bytes of node data per node.
    block : int
        Edges (R-MAT) or draws (DC-SBM) of one drawing task.
    bucket : int
        Edges of the largest sort bucket.

    Returns
    -------
    list of StepNeed
        ``"chunk (main)"``: ``B + (24 + F) N + 48 K`` for ``K`` edges of a bucket; ``"chunk
        (draws)"``: ``B + 4 N + 40 D`` (R-MAT: the shared shuffle's pages, a block of ``D``
        edges) or ``B + 20 N + 150 D`` (DC-SBM: its model, ``D`` draws).

    Examples
    --------
    >>> [round(s.memory / 2**20) for s in chunk_need("rmat", 2**20, 2**24, 8, 2**24, 2**24)]
    [1100, 944]
    """
    n, m = int(num_nodes), int(num_edges)
    main = BASE + (CHUNK_BYTES_PER_NODE + row) * n + CHUNK_BYTES_PER_BUCKET_EDGE * bucket
    if kind == "rmat":
        draws, formula = BASE + 4 * n + RMAT_BYTES_PER_BLOCK_EDGE * block, "B + 4 N + 40 D"
    else:
        per_node = DCSBM_MODEL_BYTES_PER_NODE
        draws, formula = BASE + per_node * n + DCSBM_BYTES_PER_DRAW * block, "B + 20 N + 150 D"
    return [
        StepNeed("chunk (main)", "main", main, 0, f"B + (24 + F) N + 48 K; {m:,} edges"),
        StepNeed("chunk (draws)", "each worker", draws, 0, formula),
    ]


def partition_need(
    nodes: int,
    edges: int,
    num_nodes: int,
    row_bytes: int,
    format: str = "graphbolt",
    chunk: int = 0,
    local_nodes: int | None = None,
    piece: int | None = None,
) -> int:
    """Peak memory of the dispatch worker that writes a partition of ``nodes`` nodes and ``edges``
    edges (owned plus leaving) in a graph of ``num_nodes`` nodes, in ``format`` (GraphBolt's and
    graphpart's are written out of core: the edges do not count; ``chunk``: edges in the
    largest run of chunks a phase-1 task reads, :func:`~graphpart.chunked._shuffle.largest_run`).

    Parameters
    ----------
    nodes : int
        Nodes of the partition (not used for ``"graphpart"``).
    edges : int
        Local edges of the partition, owned plus leaving (not used for ``"graphpart"``).
    num_nodes : int
        Nodes of the whole graph.
    row_bytes : int
        Bytes of node data per node (:func:`node_row_bytes`; not used for ``"graphpart"``).
    format : str, default "graphbolt"
        The files dispatch writes: ``"graphbolt"`` and ``"graphpart"`` out of core, ``"dgl"``
        built in memory.
    chunk : int, default 0
        Edges in the largest run of chunks (out of core only).
    local_nodes : int or None, default None
        Local nodes of the partition, inner plus HALO (GraphBolt only; default ``num_nodes``,
        the most it can hold).
    piece : int or None, default None
        Edges of one run the partition owns, at most (GraphBolt only; default ``chunk``).

    Returns
    -------
    int
        Bytes of the worker's peak memory.
    """
    streamed = BASE + STREAM_BYTES_PER_NODE * num_nodes + 40 * chunk + STREAM_BLOCK_BYTES
    if format == "graphpart":
        return streamed
    if format == "graphbolt":
        local = num_nodes if local_nodes is None else min(int(local_nodes), num_nodes)
        return (
            BASE
            + GRAPHBOLT_BYTES_PER_NODE_OF_GRAPH * num_nodes
            + GRAPHBOLT_BYTES_PER_LOCAL_NODE * local
            + GRAPHBOLT_BYTES_PER_PIECE_EDGE * (chunk if piece is None else min(piece, chunk))
            + STREAM_BLOCK_BYTES
        )
    return BASE + nodes * (BYTES_PER_NODE + row_bytes) + edges * BYTES_PER_EDGE + 8 * num_nodes


def plan_pipeline(
    meta: ChunkedMetadata,
    num_parts: int,
    algorithm: str = "metis",
    *,
    cluster: ClusterOptions | None = None,
    imbalance: float = 0.05,
    part_edges: np.ndarray | None = None,
    part_nodes: np.ndarray | None = None,
    leaving: int | None = None,
    format: str = "graphbolt",
    metis_max_edges: int | None = None,
    out_edges: bool = False,
    halo: np.ndarray | None = None,
    piece: int | None = None,
    **names: object,
) -> list[StepNeed]:
    """The peak memory and disk of every step, for ``num_parts`` parts by ``algorithm``.

    Without the per-part loads of an assignment (``part_nodes``, ``part_edges``: nodes and local
    edges, owned plus leaving, per part) the largest partition is taken as a balanced one at
    ``1 + imbalance`` times the mean, holding its share of the edges (twice that with ``out_edges``:
    a cut near 1, as R-MAT's); ``leaving`` (the edges whose ends lie in two parts, default: all)
    sizes the HALO nodes, and the HALO edges with ``out_edges``. Dispatch writes ``format``'s
    files (GraphBolt's and graphpart's out of core, DGL's in memory); METIS sees a sample of
    ``metis_max_edges`` edges where that is fewer than the graph's.

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata (node and edge counts, chunk counts, node data dtypes).
    num_parts : int
        Number of parts (values below 1 count as 1).
    algorithm : str, default "metis"
        The assign algorithm: ``"fennel"``, ``"ldg"``, ``"metis"`` or ``"random"``; any other
        value leaves the assign step out.
    cluster : ClusterOptions or None, default None
        The Dask cluster of ``assign`` (random, fennel, ldg) and ``dispatch``: its ``workers``
        share the work (default: :class:`ClusterOptions`' 2).
    imbalance : float, default 0.05
        Imbalance of the balanced partition assumed without ``part_nodes`` and
        ``part_edges``.
    part_edges, part_nodes : numpy.ndarray or None, default None
        Local edges (owned, plus leaving with ``out_edges``) and nodes per part, from an
        assignment; the part with the most edges sizes phase 2. Used only when both are given.
    leaving : int or None, default None
        Edges whose ends lie in two parts; default: every edge.
    format : str, default "graphbolt"
        The files dispatch writes (see :func:`partition_need`).
    metis_max_edges : int or None, default None
        The edge sample METIS partitions, where smaller than the graph's edge count.
    out_edges : bool, default False
        Partitions copy the edges leaving them (dispatch's ``out_edges``).
    halo : numpy.ndarray or None, default None
        Each part's HALO nodes as ``assign`` estimated them (in-edges' sources outside it; a
        part copying its leaving edges holds their destinations too, counted at most once per
        edge); default: every cut edge brings a new one, up to ``(k - 1) N``.
    piece : int or None, default None
        The most edges of one chunk one partition owns, when known (dispatch knows it after
        its phase 1); default: the largest partition's share of the largest chunk.
    **names
        :class:`ClusterOptions` fields by name (``workers=4``).

    Returns
    -------
    list of StepNeed
        The assign step (fennel and ldg: its driver, then each stream; unless ``algorithm``
        is not one of the four), then dispatch's driver, phase 1 and phase 2, then verify's
        driver and workers.

    Raises
    ------
    GraphpartError
        For what the steps themselves would refuse: ``num_parts`` outside 1 to the graph's
        node count, or ``metis_max_edges`` below 1.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> meta = SimpleNamespace(num_nodes={"_N": 2**20}, num_edges={("_N", "_E", "_N"): 16 * 2**20},
    ...     edges={("_N", "_E", "_N"): SimpleNamespace(counts=[2**20] * 16, paths=[""] * 16)},
    ...     node_data={})
    >>> [s.step for s in plan_pipeline(meta, 8, "fennel")]
    ['assign fennel (driver)', 'assign fennel (streams)', 'dispatch (driver)', 'dispatch phase 1',
     'dispatch phase 2', 'verify (driver)', 'verify']
    """
    n = int(sum(meta.num_nodes.values()))
    e = int(sum(meta.num_edges.values()))
    c, run = largest_chunk(meta), largest_run(meta)
    f = node_row_bytes(meta)
    k = check_num_parts_for(num_parts, meta)  # what the steps themselves refuse, refused here too
    workers = ClusterOptions.of(cluster, **names).workers
    metis_max_edges = check_metis_max_edges(metis_max_edges, algorithm)  # as assign checks it
    top = None
    if part_edges is not None and part_nodes is not None and len(part_edges):
        top = int(np.argmax(part_edges))
        n_p, e_p = int(part_nodes[top]), int(part_edges[top])
        where = f"partition {top}: {n_p:,} nodes, {e_p:,} edges with HALO"
    else:
        n_p, e_p = int((1 + imbalance) * n / k), int((1 + out_edges) * (1 + imbalance) * e / k)
        where = f"a balanced partition: {n_p:,} nodes, {e_p:,} edges with HALO"
    steps = []
    if algorithm in ("fennel", "ldg"):
        driver, stream = stream_need(n, e, c)
        dn, wn = STREAM_DRIVER_BYTES_PER_NODE, STREAM_WORKER_BYTES_PER_NODE
        steps.append(StepNeed(f"assign {algorithm} (driver)", "main", driver, 8 * n, f"B + {dn} N"))
        steps.append(
            StepNeed(
                f"assign {algorithm} (streams)",
                f"each of {workers} workers",
                stream,
                0,
                f"B + {wn} N + {STREAM_BYTES_PER_EDGE} C",
            )
        )
    elif algorithm == "metis":
        refine = stream_need(n, e, c)[1]  # the refinement's streams, beside the main process
        others = local_workers(cluster, **names) * refine
        route = metis_route(n, e, c, metis_max_edges, process_budget(others))
        steps.append(StepNeed("assign metis", "main", route.need, 8 * n, route.formula))
        steps.append(
            StepNeed(
                "assign metis (refinement)",
                f"each of {workers} workers",
                refine,
                0,
                f"B + {STREAM_WORKER_BYTES_PER_NODE} N + {STREAM_BYTES_PER_EDGE} C",
            )
        )
    elif algorithm == "random":
        steps.append(
            StepNeed(
                "assign random", f"each of {workers} workers", BASE + (24 << 20), 8 * n, "B + 24 MB"
            )
        )
    cut = int(leaving) if leaving is not None else e
    local = e + (cut if out_edges else 0)  # owned plus HALO edges
    if halo is not None and len(halo) == k:  # assign's estimate per part
        extra = cut if out_edges else 0  # leaving edges' destinations, at most one each
        copies = int(np.sum(halo)) + extra
        local_p = n_p + int(halo[np.argmax(halo) if top is None else top]) + extra // k
    else:  # at most one per cut edge, and (k - 1) N
        copies = min(cut * (1 + out_edges), (k - 1) * n)
        local_p = min(n, n_p + int((1 + imbalance) * copies / k))  # the largest partition's
    # the largest piece: a chunk's edges spread as the graph's, the largest partition's share
    if piece is None:
        owned_p = e_p - (int((1 + imbalance) * cut / k) if out_edges else 0)
        piece = run if not e else int(run * min(1.0, max(owned_p, 0) / e * (1 + imbalance)))
    gb = format == "graphbolt"
    wide = n >= 2**31 - 1  # int64 node ids in the pieces, else int32
    pieces = (20 if wide else 12) * e + (28 if wide else 20) * (local - e) + f * n
    pieces += _edge_row_bytes(meta) * e
    output = output_bytes(meta, format, local, n + copies)
    work = (32 * local if format == "graphbolt" else 0) + 40 * (local - e)  # sorted out of core
    steps += [
        StepNeed(
            "dispatch (driver)",
            "main",
            BASE + DRIVER_FIXED + DISPATCH_DRIVER_BYTES_PER_NODE * n,
            0,
            "B + 150 MB + 32 N",
        ),
        StepNeed(
            "dispatch phase 1",
            f"each of {workers} workers",
            BASE + 64 * run + 16 * n,
            pieces,
            "B + 64 R + 16 N",
        ),
        StepNeed(
            "dispatch phase 2",
            f"each of {workers} workers",
            partition_need(n_p, e_p, n, f, format, run, local_p, piece)
            + (4 * n if gb and out_edges else 0),  # the HALO in-degrees of leaving edges
            # the pieces give way to the files as partitions finish; the partitions in flight
            # hold their work files too (measured: R-MAT 22 in 2 parts, R-MAT 26 in 16)
            max(pieces, output) + (min(workers, k) * work + output) // k,
            {
                "graphpart": "B + 21 N + 40 R + 400 MB (out of core)",
                "graphbolt": (
                    f"B + 5 N + 24 L + 40 P + 400 MB (out of core; L = {local_p:,}, P = {piece:,})"
                ),
            }.get(format, f"B + (64 + F) n_p + 52 e_p + 8 N; {where}"),
        ),
        StepNeed(  # the LocalCluster's scheduler lives in this process too
            "verify (driver)",
            "main",
            BASE + DRIVER_FIXED + (VERIFY_DRIVER_BYTES_PER_NODE + f) * n,
            0,
            "B + 150 MB + (30 + F) N",
        ),
        StepNeed(
            "verify",
            f"each of {workers} workers",
            BASE + 8 * n + 64 * max(c, 1 << 22) + (42 * local_p if gb else 0),
            0,
            "B + 8 N + 64 max(C, 4M)" + (" + 42 L (GraphBolt's node arrays)" if gb else ""),
        ),
    ]
    return steps


def local_workers(cluster: ClusterOptions | None = None, **names: object) -> int:
    """The Dask workers a step starts on this machine: a LocalCluster's, none with a running
    scheduler or a client given (their memory is theirs to check: a worker's limit).

    Parameters
    ----------
    cluster : ClusterOptions or None, default None
        The step's cluster options.
    **names
        :class:`ClusterOptions` fields by name.

    Returns
    -------
    int
        Worker processes (or threads) on this machine.

    Examples
    --------
    >>> local_workers(workers=3), local_workers(scheduler="tcp://10.0.0.1:8786")
    (3, 0)
    """
    c = ClusterOptions.of(cluster, **names)
    return 0 if c.client is not None or c.scheduler is not None else c.workers


def check_step_memory(
    needs: list[StepNeed], step: str, local_workers: int, instead: str, what: str | None = None
) -> int:
    """The memory rule of every step, before it starts: its main process, and each of its
    ``local_workers`` (Dask workers on this machine) at its largest phase, together within
    :func:`usable_memory`.

    Parameters
    ----------
    needs : list of StepNeed
        :func:`plan_pipeline`'s rows.
    step : str
        The step, as the rows' names begin (``"dispatch"``, ``"verify"``, ``"assign fennel"``).
    local_workers : int
        Its workers on this machine (0 with a cluster elsewhere).
    instead : str
        What the message advises doing instead.
    what : str, optional
        How the message names the step (default: ``step``).

    Returns
    -------
    int
        The bytes checked.

    Raises
    ------
    GraphpartError
        If the step cannot run in the memory free.
    """
    need = _step_total(needs, step, local_workers)
    check_memory(need, what or step, instead)
    return need


def _step_total(needs: list[StepNeed], step: str, workers: int) -> int:
    """A step's main process and ``workers`` workers at the largest phase, together."""
    rows = [r for r in needs if r.step.startswith(step)]
    main = sum(r.memory for r in rows if r.process == "main")
    return main + workers * max((r.memory for r in rows if r.process != "main"), default=0)


def check_disk(need: int, folder: str | os.PathLike, what: str) -> None:
    """Refuse in one line, before any work, when the disk under ``folder`` lacks ``need`` bytes.

    Parameters
    ----------
    need : int
        Bytes the step will write.
    folder : str or os.PathLike
        Where it writes; need not exist yet (its nearest existing parent is measured).
    what : str
        How the message names the step.

    Raises
    ------
    GraphpartError
        If the disk has fewer than ``need`` bytes free.
    """
    probe = _existing(folder)
    free = shutil.disk_usage(probe).free
    if need > free:
        raise GraphpartError(
            f"{what} needs about {fmt_bytes(need)} of disk under {probe} and {fmt_bytes(free)} is "
            "free: free space or write elsewhere"
        )


def format_plan(
    meta: ChunkedMetadata,
    num_parts: int,
    algorithm: str = "metis",
    *,
    cluster: ClusterOptions | None = None,
    loads: tuple | None = None,
    out_dir: str | os.PathLike = ".",
    format: str = "graphbolt",
    metis_max_edges: int | None = None,
    out_edges: bool = False,
    halo: np.ndarray | None = None,
    **names: object,
) -> str:
    """The plan as a table: each step, the process, its peak memory and disk, against what this
    machine has free (a step that does not fit is marked). ``loads``: an assignment's nodes,
    in-degree and leaving edges per part (:func:`~graphpart.chunked.assign.assignment_loads`)
    instead of balanced partitions; ``format``: the files dispatch will write.

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata.
    num_parts : int
        Number of parts, at least 1.
    algorithm : str, default "metis"
        The assign algorithm (see :func:`plan_pipeline`).
    cluster : ClusterOptions or None, default None
        The Dask cluster the steps will run on (see :func:`plan_pipeline`).
    loads : tuple of three arrays or None, default None
        ``(nodes, in-degree, leaving)``, one entry per part each; ``None``: balanced parts.
    out_dir : str or os.PathLike, default "."
        Where the output will go: the free disk is measured there (or at its nearest
        existing parent).
    format : str, default "graphbolt"
        The files dispatch will write (see :func:`partition_need`).
    metis_max_edges : int or None, default None
        The edge sample METIS partitions (see :func:`plan_pipeline`).
    out_edges : bool, default False
        Partitions will copy the edges leaving them (dispatch's ``out_edges``).
    halo : numpy.ndarray or None, default None
        Each part's HALO nodes, as ``assign`` recorded them (see :func:`plan_pipeline`).
    **names
        :class:`ClusterOptions` fields by name (``workers=4``).

    Returns
    -------
    str
        A header with the graph's size and the free memory and disk, one line per step
        (``<- does not fit`` where memory or disk falls short), and a legend.

    Raises
    ------
    GraphpartError
        If ``num_parts`` is not an integer >= 1, or ``loads`` does not hold one entry per
        part.
    """

    k = check_count(num_parts, "num_parts", low=1)
    sizes = {}
    if loads is not None:
        nodes, indeg, leaving = (np.asarray(x, dtype=np.int64) for x in loads)
        if not len(nodes) == len(indeg) == len(leaving) == k:
            raise GraphpartError(f"loads: need one entry per part ({k}), got {len(nodes)}")
        edges = indeg + leaving if out_edges else indeg
        sizes = {"part_nodes": nodes, "part_edges": edges, "leaving": int(leaving.sum())}
    if halo is not None:
        sizes["halo"] = halo
    steps = plan_pipeline(
        meta, k, algorithm, cluster=ClusterOptions.of(cluster, **names), format=format,
        metis_max_edges=metis_max_edges,
        out_edges=out_edges, **sizes,
    )  # fmt: skip
    mem, disk = memory.available_memory(), shutil.disk_usage(_existing(out_dir)).free
    usable, workers = memory.usable_memory(mem), local_workers(cluster, **names)
    n, e = sum(meta.num_nodes.values()), sum(meta.num_edges.values())
    lines = [
        f"{meta.graph_name}: {n:,} nodes, {e:,} edges, {k} parts",
        f"free now: {fmt_bytes(mem)} of memory ({fmt_bytes(usable)} past the headroom), "
        f"{fmt_bytes(disk)} of disk under {_existing(out_dir)}",
        f"{'step':<28} {'process':<22} {'memory':>9} {'disk':>9}  formula",
    ]
    # the memory rule: a step's main process and its local workers together
    total = {name: _step_total(steps, name, workers) for name in {s.step.split()[0] for s in steps}}
    for s in steps:
        fits = total[s.step.split()[0]] <= usable and s.disk <= disk
        flag = "" if fits else "  <- does not fit"
        first, *note = s.row().split("\n")
        lines.append("\n".join([first + flag, *note]))
    lines.append(_legend("\n".join(lines[3:]), known=loads is not None))
    return "\n".join(lines)


#: What each symbol of the plan's formulas stands for, in the legend's order.
_SYMBOLS = (
    ("N", "N nodes"),
    ("E", "E edges"),
    ("C", "C edges in the largest chunk"),
    ("R", "R in the largest run of chunks one dispatch task reads"),
    ("F", "F bytes of node data per node"),
    ("n_p", "n_p and e_p the largest partition's nodes and edges"),
    ("L", "L at most the nodes (own + HALO) of the largest partition"),
    ("P", "P the edges of its largest piece"),
)


def _legend(rows: str, known: bool) -> str:
    """The symbols the table's formulas use, and whether its sizes are the assignment's."""
    used = [say for sym, say in _SYMBOLS if re.search(rf"\b{sym}\b", rows)]
    sizes = "from the assignment's sizes" if known else "bounds, before the assignment is known"
    legend = f"B: a Python process with graphpart imported; {'; '.join(used)} ({sizes})"
    return textwrap.fill(legend, WIDTH, subsequent_indent="   ")


def _existing(folder: str | os.PathLike) -> Path:
    probe = Path(folder).absolute()
    while not probe.exists():
        probe = probe.parent
    return probe

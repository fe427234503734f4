"""Step 2 of the chunked pipeline: shuffle a chunked graph to its partitions on Dask.

``dispatch(in_dir, partitions_dir, out_dir)`` reads a chunked graph and an
assignment (step 1) and writes exactly what the in-memory
:func:`graphpart.partition_graph` writes for that assignment: the same config,
new ids, edge order, local graphs and features, so
:func:`graphpart.load_partition` reads it unchanged.

It runs in two phases of Dask tasks, on an embedded ``LocalCluster`` or any
running cluster (:class:`~graphpart.chunked.ClusterOptions`: a scheduler's address or a
client): one task per chunk (a run of consecutive chunks up to 4M edges where chunks are small,
so the chunk count costs no tasks or files) splits it into per-partition pieces, then one task
per partition gathers its pieces and writes its files. No task holds the whole edge list or a
whole feature matrix.

Peak memory per worker task, for ``N`` nodes:

* phase 1: one run of chunks (its edges, or its feature rows) plus up to ``16 N`` bytes of
  node maps, read through ``mmap`` (shared by the workers of one machine);
* phase 2: the edges and features of one partition, its HALO edges, and an
  ``8 N``-byte scratch array.

The driver holds the assignment and builds the node maps: about ``40 N`` bytes.
Everything is written into a temporary sibling of ``out_dir`` (intermediate
pieces included, on the same file system, so workers on several machines need
it shared) and renamed into place at the end: a failed or killed run leaves no
partial output and keeps any earlier one.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import GraphpartError
from ..fs.atomic import atomic_dir
from ..graph.schema import etype_str
from ..index import block_bounds, part_ranges
from ..interop.graphbolt import GraphBoltStore
from ..partitioning.loads import balance_record, class_loads
from ..storage.config import check_graph_name
from ..storage.files import ORIG_EIDS, ORIG_NIDS, check_data_dtypes, check_format
from ..storage.make_config import build_config, graphbolt_meta
from ..storage.owned import OutputTarget, check_partition_output
from ..utils.check import check_count, check_flag, short_repr
from ..utils.units import fmt_bytes
from ._dask import dask_client, run_tasks, worker_memory_limit
from ._files import check_npy_header
from ._fit import partition_too_big
from ._nodemaps import NodeMaps
from ._resume import DONE, assignment_digest, build_and_mark, inputs_key, kept_parts
from ._shuffle import Plan, chunk_rows, shuffle_edges, shuffle_node_data
from .assign import (
    assignment_algorithm,
    assignment_balance,
    assignment_halo,
    assignment_loads,
    balance_classes_of,
    part_loads,
    read_assignment,
)
from .cluster import ClusterOptions
from .format import read_metadata
from .orig_ids import load_orig_ids, merge_orig
from .plan import check_disk, check_step_memory, local_workers, plan_pipeline
from .verify import ASSIGNMENT_KEY, EDGE_COUNTS, assignment_record

__all__ = ["dispatch", "load_orig_ids"]

logger = logging.getLogger(__name__)


def _node_data_rows(client, meta, progress: bool) -> dict[tuple[int, int], np.ndarray]:
    """Rows per chunk of every node-data field (from the metadata's counts, else by reading)."""
    out, todo = {}, []
    for ti, t in enumerate(sorted(meta.ntypes)):
        for k, name in enumerate(sorted(meta.node_data.get(t, {}))):
            spec = meta.node_data[t][name]
            if spec.counts is not None:
                out[ti, k] = np.asarray(spec.counts, dtype=np.int64)
            else:
                todo += [((ti, k), (spec, c)) for c in range(len(spec.paths))]
    rows = run_tasks(client, chunk_rows, [a for _, a in todo], progress, "count-rows")
    for key in {key for key, _ in todo}:
        out[key] = np.array([r for (k2, _), r in zip(todo, rows) if k2 == key], dtype=np.int64)
    return out


def _shuffle(
    client, plan: Plan, node_rows: dict, progress: bool
) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray, list[str], np.ndarray]:
    """Phase 1 on every run of chunks; returns per edge type the (runs, parts) counts and the rows
    per run, the number of edges leaving each partition, the digests of the chunk files read
    (``node_rows``: :func:`_node_data_rows`), and every edge chunk's rows and edges owned per
    partition, edge types in order (``(chunks, 1 + parts)``, :data:`~.verify.EDGE_COUNTS`)."""
    meta = plan.meta
    node_args = []
    for (ti, k), rows in node_rows.items():
        t, name = plan.maps.ntypes[ti], plan.node_names(ti)[k]
        if int(rows.sum()) != meta.num_nodes[t]:
            raise GraphpartError(
                f"{meta.path}: node_data[{short_repr(t)}][{short_repr(name)}] has "
                f"{int(rows.sum())} rows in its "
                f"chunks, but node type {short_repr(t)} has {meta.num_nodes[t]} nodes"
            )
        row0 = np.cumsum(rows) - rows
        runs = plan.node_runs[ti][k]
        node_args += [(plan, ti, k, r, int(row0[first])) for r, (first, _) in enumerate(runs)]
    edge_args = [
        (plan, ei, r) for ei in range(len(plan.etypes)) for r in range(len(plan.edge_runs[ei]))
    ]
    results = run_tasks(client, shuffle_edges, edge_args, progress, "shuffle-edges")
    node_results = run_tasks(client, shuffle_node_data, node_args, progress, "shuffle-node-data")
    digests = [d for r in results for d in r[3]] + [d for _, ds in node_results for d in ds]
    counts, rows = [], []
    leaving = (
        np.sum([r[2] for r in results], axis=0)
        if results
        else np.zeros(plan.num_parts, dtype=np.int64)
    )
    per_chunk = [r[4] for r in results]  # edge types, then runs, in order
    per_chunk = (
        np.concatenate(per_chunk)
        if per_chunk
        else np.zeros((0, 1 + plan.num_parts), dtype=np.int64)
    )
    for ei, e in enumerate(plan.etypes):
        mine = [r for a, r in zip(edge_args, results) if a[1] == ei]
        counts.append(np.stack([r[0] for r in mine]).astype(np.int64))
        rows.append(np.array([r[1] for r in mine], dtype=np.int64))
        if int(rows[-1].sum()) != meta.num_edges[e]:
            raise GraphpartError(
                f"{meta.path}: edge type {short_repr(etype_str(e))} has {int(rows[-1].sum())} "
                f"edges in its "
                f"chunks, but num_edges_per_type says {meta.num_edges[e]}"
            )
    return counts, rows, leaving, digests, per_chunk


def dispatch(
    in_dir: str | os.PathLike,
    partitions_dir: str | os.PathLike,
    out_dir: str | os.PathLike | OutputTarget,
    *,
    num_hops: int = 1,
    graph_name: str | None = None,
    save_orig_nids: bool = False,
    save_orig_eids: bool = False,
    cluster: ClusterOptions | None = None,
    progress: bool = False,
    format: str = "graphbolt",
    resume: bool = False,
    out_edges: bool = False,
    store_eids: bool = True,
    store_inner_node: bool = True,
    store_inner_edge: bool = True,
    **cluster_fields: Any,
) -> Path:
    """Write the partitions of a chunked graph under an assignment; returns the config path.

    Parameters
    ----------
    in_dir : path
        The chunked graph (``metadata.json`` or its folder).
    partitions_dir : path
        The assignment (``<ntype>.txt`` and optionally ``partition_meta.json``).
    out_dir : path
        Output folder, as ``partition_graph``'s ``out_path``.
    num_hops : {0, 1}
        HALO hops.
    graph_name : str, optional
        Defaults to the metadata's ``graph_name``.
    save_orig_nids, save_orig_eids : bool
        Also write ``part<i>/orig_nids.pt`` / ``orig_eids.pt`` (``{type: original
        type-wise ids}`` of what the partition owns) and merged maps
        ``orig_nids/<ntype>.npy`` / ``orig_eids/<src:rel:dst>.npy`` over all
        partitions (``orig[new type-wise id] = old``); see :func:`load_orig_ids`.
    cluster : ClusterOptions, optional
        Where the tasks run: a client, a running scheduler, or an embedded LocalCluster
        (the default: 2 worker processes).
    progress : bool
        Progress lines with the time left (logged) in a terminal, a dashboard link in Jupyter.
    format : {"graphbolt", "dgl", "graphpart"}
        The partition files, as :func:`graphpart.partition_graph` writes them. ``"graphbolt"``
        (the default): DGL 2.x's ``fused_csc_sampling_graph.pt`` (what
        ``load_partition(..., use_graphbolt=True)`` and a GraphBolt ``DistGraph`` load), written
        out of core, int32 ``indptr`` / ``indices`` where they fit; ``"dgl"``: DGL's ``.dgl``
        files, built in memory (refused before any work where a worker cannot hold its
        partition); ``"graphpart"``: graphpart's torch files, out of core.
    resume : bool
        Keep every partition a killed run on ``out_dir`` finished, when each of its files has
        the SHA-256 recorded once it was whole and it was made from inputs of the same bytes
        with the same options; write only the rest. Phase 1 runs again (it fingerprints the
        chunk files as it reads them), and one log line says what was redone and why.
    out_edges : bool, default False
        With a HALO hop, also copy into each partition the edges leaving its nodes (their
        destinations become HALO nodes), as :func:`graphpart.partition_graph` does, for
        sampling along out-edges. By default each edge is stored once, in the partition that
        owns its destination (DGL's pipeline): what sampling in-neighbours needs, and about
        half the edges.
    store_eids, store_inner_node, store_inner_edge : bool, default True
        What a GraphBolt partition stores beside its CSC arrays and node ids, by DGL's option
        names (:class:`~graphpart.interop.graphbolt.GraphBoltStore`); graphpart's readers and
        :func:`verify` need the edge ids.
    **cluster_fields
        :class:`ClusterOptions` fields by name (``workers=4, memory_limit="6GB"``); they
        replace those of ``cluster``.

    Returns
    -------
    pathlib.Path
        The config written (``<graph_name>.json`` in ``out_dir``).
    """
    cluster = ClusterOptions.of(cluster, **cluster_fields)
    meta = read_metadata(in_dir)
    num_hops = check_count(num_hops, "num_hops")
    if num_hops > 1:
        raise GraphpartError(
            f"dispatch writes num_hops 0 or 1, got {num_hops}; for more hops partition in memory "
            "with partition_graph"
        )
    parts, num_parts = read_assignment(partitions_dir, meta)
    algorithm = assignment_algorithm(partitions_dir)
    setting = assignment_balance(partitions_dir)
    balanced, balance_loads = _class_loads(meta, parts, num_parts, setting)
    graph_name = check_graph_name(graph_name or meta.graph_name)
    check_format(format)
    _check_data_dtypes(meta)
    store = GraphBoltStore(store_eids, store_inner_node, store_inner_edge)
    out_edges = check_flag(out_edges, "out_edges")
    out = check_partition_output(
        out_dir if isinstance(out_dir, OutputTarget) else Path(out_dir).absolute()
    ).path
    ntypes, etypes = sorted(meta.ntypes), tuple(sorted(meta.etypes))
    loads = assignment_loads(partitions_dir, num_parts, meta)
    if loads is None:  # a user's assignment: count each part's in-degree, one pass over the edges
        homo = np.concatenate([np.asarray(parts[t], dtype=np.int64) for t in ntypes])
        loads = (np.bincount(homo, minlength=num_parts), *part_loads(meta, homo, num_parts)[:2])
        del homo

    def needs_of(piece: int | None = None) -> dict:
        steps = plan_pipeline(
            meta,
            num_parts,
            "none",
            cluster=cluster,
            part_nodes=loads[0],
            part_edges=loads[1] + (loads[2] if num_hops and out_edges else 0),
            leaving=int(loads[2].sum()) if num_hops else 0,
            format=format,
            out_edges=bool(num_hops and out_edges),
            halo=assignment_halo(partitions_dir, num_parts, meta) if num_hops else None,
            piece=piece,
        )
        return {s.step: s for s in steps}

    needs = needs_of()
    check_disk(needs["dispatch phase 2"].disk, out.parent, "dispatch")
    _check_machine_memory(needs, cluster)
    with atomic_dir(out, resume=resume) as tmp, dask_client(cluster) as c:
        _check_worker_memory(c, needs)
        done = kept_parts(c, tmp, num_parts, progress) if resume else {}
        work = tmp / "_work"
        maps = NodeMaps.build(parts, ntypes, num_parts, work / "maps")
        assignment = assignment_digest(parts, partitions_dir)  # no second read of its files
        del parts
        node_rows = _node_data_rows(c, meta, progress)
        plan = Plan.of(meta, work, maps, etypes, num_hops, out_edges, node_rows, frozenset(done))
        counts, rows, leaving, digests, per_chunk = _shuffle(c, plan, node_rows, progress)
        options = [num_hops, format, bool(save_orig_nids), bool(save_orig_eids), out_edges]
        key = inputs_key(meta, assignment, digests, [*options, repr(store)])
        stale = sorted(p for p, m in done.items() if m["key"] != key)
        if stale:  # made from other inputs or options: their pieces are written now
            logger.warning(
                "dispatch --resume: the inputs or options changed since the killed run; "
                "redoing the %d partitions it finished",
                len(stale),
            )
            for p in stale:
                shutil.rmtree(tmp / f"part{p}")
                del done[p]
            everyone = frozenset(range(num_parts))
            _shuffle(c, replace(plan, skip=everyone - frozenset(stale)), node_rows, progress)
        # phase 1 counted every partition's edges of every chunk: phase 2 is checked again with
        # its largest piece, before any partition is written
        needs = needs_of(max((int(x.max()) for x in counts if x.size), default=0))
        _check_machine_memory(needs, cluster)
        _check_worker_memory(c, needs)
        edge_bounds = block_bounds(
            np.stack([cnt.sum(axis=0) for cnt in counts], axis=1)
            if counts
            else np.zeros((num_parts, 0), dtype=np.int64)
        )
        file_meta = graphbolt_meta(ntypes, [etype_str(e) for e in etypes])
        done = {p: m["stats"] for p, m in done.items()}
        todo = [p for p in range(num_parts) if p not in done]
        args = [
            (
                key,
                plan,
                p,
                tmp / f"part{p}",
                counts,
                rows,
                edge_bounds,
                int(leaving[p]),
                save_orig_nids,
                save_orig_eids,
                format,
                file_meta,
                store,
            )
            for p in todo
        ]
        too_big = partition_too_big(maps.counts.sum(axis=1), counts, plan.meta, format)
        fresh = run_tasks(
            c,
            build_and_mark,
            args,
            progress,
            "write-partitions",
            killed=lambda i, limit: too_big(todo[i], limit),
        )
        stats = [done.get(p) for p in range(num_parts)]
        for p, st in zip(todo, fresh):
            stats[p] = st
        for p in range(num_parts):
            (tmp / f"part{p}" / DONE).unlink(missing_ok=True)
        for p, s in enumerate(stats):
            logger.info(
                "partition %d: %d nodes + %d HALO, %d edges",
                p,
                s["nodes"],
                s["halo_nodes"],
                s["edges"],
            )
        shutil.rmtree(work)
        if save_orig_nids:
            merge_orig(tmp, num_parts, ORIG_NIDS, {t: meta.num_nodes[t] for t in ntypes})
        if save_orig_eids:
            merge_orig(tmp, num_parts, ORIG_EIDS, {etype_str(e): meta.num_edges[e] for e in etypes})
        for stale in tmp.rglob(".*.tmp"):  # left by a task that died and was rerun elsewhere
            stale.unlink()
        if setting["edges"]:  # edges go with their destination: a partition's in-degree
            balance_loads["in-degree"] = np.diff(part_ranges(edge_bounds)).ravel()
        cfg = build_config(
            graph_name,
            algorithm,
            num_hops,
            1,
            maps.bounds,
            edge_bounds,
            ntypes,
            [etype_str(e) for e in etypes],
            format,
            balance_record(balanced, setting["edges"], balance_loads),
            out_edges=False if num_hops and not out_edges else None,  # unlike partition_graph
        )
        if format == "graphbolt" and not save_orig_nids:  # no original ids: verify reads them
            cfg[ASSIGNMENT_KEY] = assignment_record(partitions_dir, out, assignment)
            (tmp / EDGE_COUNTS).parent.mkdir()
            np.save(tmp / EDGE_COUNTS, per_chunk)  # saves verify a pass (checked there)
            cfg[ASSIGNMENT_KEY]["edge_counts"] = EDGE_COUNTS
        (tmp / f"{graph_name}.json").write_text(json.dumps(cfg, indent=2))
    return out / f"{graph_name}.json"


def _check_data_dtypes(meta) -> None:
    """Refuse, before any task, node or edge data no partition file holds, as its recorded dtype
    or its first chunk says (``float128`` from a ``.npy`` header crashed every partition task;
    uint64 DGL cannot load); uint16 and uint32 are stored wider, said in one line
    (:func:`~graphpart.storage.files.check_data_dtypes`, the rule of every format)."""
    dtypes = {}
    for kind, specs in (("node", meta.node_data), ("edge", meta.edge_data)):
        for t, fields in specs.items():
            for name, spec in fields.items():
                if spec.dtype is not None:
                    dtype = np.dtype(spec.dtype)
                elif spec.format["name"] == "numpy":
                    dtype = check_npy_header(spec.paths[0])[1]
                else:  # text or parquet: their first chunk says
                    dtype = spec.read(0).dtype
                dtypes[f"{kind} data {short_repr(name)} of {short_repr(str(t))}"] = dtype
    check_data_dtypes(dtypes)


def _check_machine_memory(needs: dict, cluster) -> None:
    """Refuse before any task when this machine cannot hold the driver and its local workers
    at their largest phase (the memory rule of every step: ``plan.check_step_memory``)."""
    check_step_memory(
        list(needs.values()),
        "dispatch",
        local_workers(cluster),
        "use fewer --workers, more partitions or an edge-balanced assignment (assign "
        "--algorithm fennel --balance-edges), or a machine with more memory",
    )


def _check_worker_memory(client, needs: dict) -> None:
    """Refuse before any task when a worker cannot hold what a task of either phase needs."""
    limit = worker_memory_limit(client)
    for step in ("dispatch phase 1", "dispatch phase 2"):
        need = needs[step]
        if limit and need.memory > limit:
            raise GraphpartError(
                f"{step} needs about {fmt_bytes(need.memory)} per Dask worker "
                f"({need.formula}) and the workers' memory limit is {fmt_bytes(limit)}: give "
                "them more (--memory-limit, fewer --workers), or use more partitions or an "
                "edge-balanced assignment (assign --algorithm fennel --balance-edges)"
            )
    logger.info(
        "dispatch: a worker needs about %s (limit %s)",
        fmt_bytes(needs["dispatch phase 2"].memory),
        fmt_bytes(limit) if limit else "none",
    )


def _class_loads(
    meta, parts: dict[str, np.ndarray], num_parts: int, setting: dict
) -> tuple[list[str] | None, dict[str, np.ndarray]]:
    """The classes ``assign`` balanced (its recorded setting) and each partition's count of
    every one; the in-degree is added once the edges are counted."""
    if setting["ntypes"] is None:
        return None, {}
    ntypes = sorted(meta.ntypes)
    classes, labels = balance_classes_of(meta, setting["ntypes"])
    part = np.concatenate([np.asarray(parts[t], dtype=np.int64) for t in ntypes])
    return list(labels), class_loads(part, classes, labels, ntypes, num_parts)

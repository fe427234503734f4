"""Step 1 of the chunked pipeline: a partition assignment, written as ``<ntype>.txt`` files.

Line ``i`` of ``<ntype>.txt`` is the partition of node ``i`` of that type;
``partition_meta.json`` records ``num_parts``, the algorithm and the format
version. Any folder in this format (e.g. from a user's own partitioner) is
accepted by :func:`read_assignment`, which validates it against the graph.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import GraphpartError
from ..fs.atomic import atomic_dir
from ..fs.untrusted import check_regular_file, read_json
from ..homogeneous import type_offsets
from ..partitioning.balance import classes_by_type
from ..partitioning.fields import as_fields, code_labels, combine_fields, named_labels
from ..partitioning.options import PartitionOptions
from ..utils.check import check_file_name, options_by_name, short_repr
from ..utils.memory import check_memory
from ..utils.units import fmt_bytes
from ._dask import Runner, open_shared, runner, worker_memory_limit
from ._files import text_columns, write_array
from ._metis import metis_chunked
from ._owned import WRITTEN_BY, check_assignment_out
from ._random_assign import random_on_dask
from .cluster import ClusterOptions
from .format import ChunkedMetadata, check_num_parts_for, read_metadata
from .metis_memory import check_metis_max_edges
from .plan import (
    check_disk,
    check_step_memory,
    largest_chunk,
    local_workers,
    plan_pipeline,
    stream_need,
)
from .read import read_data
from .stream import StreamOptions

__all__ = [
    "ALGORITHMS",
    "assign",
    "read_assignment",
    "part_loads",
    "assignment_halo",
    "assignment_loads",
]

PARTITION_META = "partition_meta.json"
ALGORITHMS = ("random", "metis", "fennel", "ldg")
VERSION = "1.0.0"


def check_assignment_dir(out_dir: str | os.PathLike) -> Path:
    """``out_dir`` if an assignment may be written there: new, empty, or an earlier assignment
    of graphpart's (``partition_meta.json`` marked as such, and ``<ntype>.txt`` files of
    integers) and nothing else, at any depth."""
    return check_assignment_out(out_dir, PARTITION_META)


def write_assignment(
    out_dir: str | os.PathLike,
    parts: dict[str, np.ndarray],
    num_parts: int,
    algorithm: str,
    balance: dict | None = None,
    loads: dict | None = None,
) -> Path:
    """Write ``{ntype: partition per node}`` as assignment files, atomically.

    ``balance`` (``{"ntypes": field or None, "edges": bool}``) records what the assignment
    balanced; ``dispatch`` turns it into the config's balance record. ``loads`` (``{"nodes":
    [...], "in-degree": [...]}`` per part) lets ``dispatch`` check its memory before it starts.

    Parameters
    ----------
    out_dir : str or path
        The folder written: new, empty, or an earlier assignment of graphpart's, which is
        replaced whole.
    parts : dict of str to array of int
        Per node type, the partition of every node of that type; written as ``<ntype>.txt``,
        one id per line. Not checked against ``num_parts`` here (:func:`read_assignment` does).
    num_parts : int
        The number of partitions, recorded in ``partition_meta.json``.
    algorithm : str
        The algorithm's name, recorded as ``algo_name`` (:func:`assignment_algorithm`).
    balance : dict or None, default None
        What the assignment balanced, recorded as is.
    loads : dict or None, default None
        Per-part loads, recorded as is; :func:`assignment_loads` reads ``"nodes"``,
        ``"in-degree"`` and ``"leaving"`` (the edges out of each part) back.

    Returns
    -------
    Path
        ``out_dir``, once every file is in place.

    Raises
    ------
    GraphpartError
        When ``out_dir`` holds anything else, or a node type is not a safe file name.
    """
    out_dir = check_assignment_dir(out_dir)
    for t in parts:
        check_file_name(t, "node type")
    with atomic_dir(out_dir) as tmp:
        for t, p in parts.items():
            write_array(
                tmp / f"{t}.txt", np.asarray(p, dtype=np.int64), {"name": "csv", "delimiter": " "}
            )
        _write_meta(tmp, num_parts, algorithm, balance, loads, sorted(parts))
    return out_dir


def _write_meta(
    folder: Path,
    num_parts: int,
    algorithm: str,
    balance: dict | None = None,
    loads: dict | None = None,
    ntypes: list[str] | None = None,
) -> None:
    record = {
        "num_parts": int(num_parts),
        "algo_name": algorithm,
        "version": VERSION,
        "written_by": WRITTEN_BY,  # what a later assignment may replace: these <ntype>.txt
        "ntypes": list(ntypes or []),
    }
    if balance is not None:
        record["balance"] = balance
    if loads is not None:  # nodes and in-degree per part: what dispatch checks memory against
        record["loads"] = loads
    (folder / PARTITION_META).write_text(json.dumps(record, indent=2))


def assignment_balance(folder: str | os.PathLike) -> dict:
    """What the assignment in ``folder`` balanced: ``{"ntypes": field or None, "edges": bool}``
    from ``partition_meta.json`` (nothing recorded: nothing beyond node counts)."""
    pm = Path(folder) / PARTITION_META
    try:
        record = read_json(pm, "assignment metadata").get("balance") if pm.is_file() else None
    except (GraphpartError, AttributeError):
        record = None
    if not isinstance(record, dict):
        return {"ntypes": None, "edges": False}
    field = record.get("ntypes")
    return {
        "ntypes": field if isinstance(field, str) else None,
        "edges": record.get("edges") is True,
    }


def _read_txt(path: Path, lines: int) -> np.ndarray:
    """One partition id per line for ``lines`` nodes; the file is checked (a regular file, not a
    link; no larger than ``lines`` ids can take) before it is parsed."""
    path = check_regular_file(path, "assignment file", links=False)
    size = path.stat().st_size
    if size > 21 * lines + 1:  # at most 20 digits and a line break per node
        raise GraphpartError(
            f"{path}: {size:,} bytes, more than {lines:,} partition ids (one per line) can take"
        )
    if size == 0:
        return np.zeros(0, dtype=np.int64)
    # a block at a time into one array: pyarrow's whole-file read kept buffers that grow with
    # the file in its pool (~32 bytes a line); a block's are bounded
    out = np.empty(lines, dtype=np.int64)
    at = 0
    try:
        for (col,) in text_columns(path, ",", max_columns=1, what="partition ids"):
            if col.dtype.kind not in "iu":
                raise GraphpartError(f"{path}: expected one integer partition id per line")
            if at + len(col) <= lines:  # more lines are counted, not kept
                out[at : at + len(col)] = col
            at += len(col)
    except GraphpartError as e:
        if str(e).startswith(f"{path}: "):
            raise
        raise GraphpartError(f"{path}: expected one integer partition id per line") from None
    if at > lines:
        raise GraphpartError(f"{path}: {at} lines, but its node type has {lines} nodes")
    return out[:at]


def read_assignment(
    folder: str | os.PathLike,
    meta: ChunkedMetadata | str | os.PathLike,
    num_parts: int | None = None,
) -> tuple[dict[str, np.ndarray], int]:
    """Read and validate an assignment folder against a chunked graph; returns ``(parts,
    num_parts)``.

    ``num_parts`` comes from ``partition_meta.json`` when present, else from the
    argument, else from the largest id plus one.

    Parameters
    ----------
    folder : str or path
        The assignment folder: ``<ntype>.txt`` for every node type of the graph (regular files,
        not links), and optionally ``partition_meta.json``.
    meta : ChunkedMetadata, str or path
        The chunked graph, or the path of its metadata.
    num_parts : int or None, default None
        The number of partitions when the folder does not record it (the recorded value wins).

    Returns
    -------
    parts : dict of str to ndarray
        Per node type, the int64 partition of every node.
    num_parts : int
        The number of partitions, from 1 to the graph's node count.

    Raises
    ------
    GraphpartError
        When ``partition_meta.json`` has no integer ``num_parts``, a file is missing, is not
        one integer per line or has another line count than its type's nodes, or an id lies
        outside ``0 .. num_parts - 1``.
    """
    folder = Path(folder)
    meta = meta if isinstance(meta, ChunkedMetadata) else read_metadata(meta)
    pm = folder / PARTITION_META
    if pm.is_file():
        try:
            info = read_json(pm, "assignment metadata")
            value = info["num_parts"]
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"num_parts is {short_repr(value)}")
            num_parts = value
        except (GraphpartError, KeyError, TypeError, ValueError) as e:
            raise GraphpartError(f"{pm}: expected JSON with an integer 'num_parts' ({e})") from None
    parts = {}
    for t in meta.ntypes:
        path = folder / f"{t}.txt"
        if not os.path.lexists(path):
            raise GraphpartError(f"assignment file {path} for node type {short_repr(t)} is missing")
        p = _read_txt(path, meta.num_nodes[t])
        if len(p) != meta.num_nodes[t]:
            raise GraphpartError(
                f"{path}: {len(p)} lines, but node type {short_repr(t)} has {meta.num_nodes[t]} "
                f"nodes"
            )
        parts[t] = p
    top = max((int(p.max()) for p in parts.values() if len(p)), default=-1)
    num_parts = top + 1 if num_parts is None else num_parts
    check_num_parts_for(num_parts, meta, f"{folder}: ")
    for t, p in parts.items():
        if len(p) and (p.min() < 0 or p.max() >= num_parts):
            raise GraphpartError(
                f"{folder / (t + '.txt')}: partition ids must lie in 0..{num_parts - 1}, "
                f"got {int(p.min())}..{int(p.max())}"
            )
    return parts, num_parts


def assignment_algorithm(folder: str | os.PathLike) -> str:
    """The algorithm ``partition_meta.json`` names, or ``"custom"`` for a folder without one.

    Parameters
    ----------
    folder : str or path
        An assignment folder.

    Returns
    -------
    str
        The recorded ``algo_name`` when it is a non-empty string; ``"custom"`` when the file is
        missing, unreadable or names none.
    """
    pm = Path(folder) / PARTITION_META
    try:
        name = read_json(pm, "assignment metadata").get("algo_name") if pm.is_file() else None
    except (GraphpartError, AttributeError):
        name = None
    return name if isinstance(name, str) and name else "custom"


def balance_classes_of(
    meta: ChunkedMetadata, field: str | None
) -> tuple[np.ndarray, tuple[str, ...]]:
    """Node type crossed with the values of node data ``field`` where a type has it: the class
    of every node (types in sorted order) and a label per class (a single-type graph's labels
    are named after the field, as ``partition`` names them)."""
    ntypes = sorted(meta.ntypes)
    fields = as_fields(field) or ([field] if field else [])
    per_type: dict[str, list] = {t: [] for t in ntypes}
    for f in fields:
        found = False
        for t in ntypes:
            spec = meta.node_data.get(t, {}).get(f)
            found |= spec is not None
            per_type[t].append(
                None
                if spec is None
                else read_data(spec, None, f"node_data[{short_repr(t)}][{short_repr(f)}]")
            )
        if not found:
            have = sorted({name for specs in meta.node_data.values() for name in specs})
            raise GraphpartError(
                f"balance_ntypes: no node type has node data named {short_repr(f)}; the graph "
                f"has {have}"
            )
    counts = {t: meta.num_nodes[t] for t in ntypes}
    names: dict[int, str] = {}
    if len(fields) > 1:  # several fields: a class per combination of their values
        values, names = combine_fields(per_type, counts, fields)
    else:
        values = {t: a[0] for t, a in per_type.items() if a and a[0] is not None}
    classes, labels = classes_by_type(
        ntypes, [counts[t] for t in ntypes], values, f"balance field {short_repr(field)} of"
    )
    if names:
        labels = code_labels(labels, names, ntypes)
    if len(ntypes) == 1 and values:
        labels = tuple(label.partition(":")[2] or label for label in labels)
    if len(fields) == 1:  # named after the field, as partition names them ("train", "label=3")
        labels = named_labels(fields[0], labels, ntypes)
    return classes, labels


#: What :func:`assign` partitions with when given no options: the in-memory defaults, but the
#: in-degrees balanced where they are spread unevenly, and METIS shown as many edges as fit.
PIPELINE_DEFAULTS = PartitionOptions(balance_edges=None, metis_max_edges=None)

#: The partition options :func:`assign` honours; the others are the in-memory path's or dispatch's.
HONOURED = ("balance_ntypes", "balance_edges", "seed", "metis_max_edges")


def _check_honoured(options: PartitionOptions, algorithm: str, stream: StreamOptions) -> None:
    """Refuse an algorithm assign does not know, and options it would silently ignore."""
    if algorithm not in ALGORITHMS:
        raise GraphpartError(f"algorithm must be one of {ALGORITHMS}, got {short_repr(algorithm)}")
    ignored = sorted(set(options.summary()) - set(HONOURED))
    if ignored:
        where = {
            "part_method": f"choose with algorithm, one of {ALGORITHMS}",
            "num_hops": "dispatch takes it, when it writes the partitions",
        }.get(ignored[0], "it applies to the in-memory partition() only")
        raise GraphpartError(
            f"assign does not use the partition option {ignored[0]} ({where}); it takes "
            f"{', '.join(HONOURED)}"
        )
    if stream != StreamOptions() and algorithm not in ("fennel", "ldg"):
        raise GraphpartError(f"stream options apply to fennel and ldg, not {algorithm}")
    check_metis_max_edges(options.metis_max_edges, algorithm)  # the rule plan checks too
    if options.balance_ntypes is not None and not isinstance(options.balance_ntypes, str):
        raise GraphpartError(
            "assign balances a node data field named by balance_ntypes (a str), got "
            f"{short_repr(options.balance_ntypes)}"
        )


def assign(
    in_dir: str | os.PathLike,
    out_dir: str | os.PathLike,
    num_parts: int,
    algorithm: str = "metis",
    options: PartitionOptions | None = None,
    *,
    cluster: ClusterOptions | None = None,
    stream: StreamOptions | None = None,
    **names: Any,
) -> Path:
    """Compute a partition assignment of a chunked graph and write it to ``out_dir``.

    * ``"random"``: balanced per node type (and in total) and reads no edges; its
      chunks of nodes are drawn in parallel on Dask (``cluster``: a
      :class:`~graphpart.chunked.ClusterOptions`, or its fields as keywords).
    * ``"metis"`` (the default): each node type balanced, and each value of node data
      ``balance_ntypes`` too, in one process of at most 8 GB however much is free
      (:func:`~graphpart.chunked._metis.metis_chunked`). Where METIS holds every edge within
      that, it loads them into one graph and runs the METIS path of
      :func:`graphpart.partition`. Beyond it, or with ``metis_max_edges`` below the edge
      count, the graph is coarsened out of core to at most ``metis_max_edges`` edges (default
      1,000,000; its adjacency built from the chunks, its communities kept), METIS partitions
      that, and refinement passes over every edge follow on the cluster. A graph without
      communities (R-MAT), or one whose adjacency the budget cannot hold, gives METIS a sample
      instead, drawn as the chunks stream past (memory ``B + 96 N + 300 M``).
    * ``"fennel"`` / ``"ldg"``: streaming passes over the edge chunks, memory
      linear in the nodes (:func:`~graphpart.chunked.stream.stream_partition`, with its
      :class:`~graphpart.chunked.StreamOptions`), with a hard cap on every
      ``balance_ntypes`` class of each part and, with ``balance_edges``, on its in-degree.
      ``balance_edges=None`` (the default) balances the in-degree too where in-degrees are
      spread unevenly (power-law graphs) and says so in the log; METIS takes ``None`` as
      ``False``. They run as one stream per Dask
      worker, every pass over the edges shared out (the in-degrees, the streaming and
      refinement passes, and the loads recorded at the end); the answer depends on the number
      of workers, not on where they run. Below ``2**22`` edges a LocalCluster is not started
      and the same streams run in this process.

    Parameters
    ----------
    in_dir : str or path
        The chunked graph (its metadata file or folder).
    out_dir : str or path
        The assignment folder written: new, empty, or an earlier assignment of graphpart's.
    num_parts : int
        Number of partitions, from 1 to the graph's node count.
    algorithm : {"metis", "random", "fennel", "ldg"}, default "metis"
        How nodes are assigned (see above): by default METIS, on a sample where the edges do
        not fit in memory.
    options : PartitionOptions or None, default None
        The partition options assign honours: ``balance_ntypes`` (a node data field whose
        values are balanced in each part, crossed with the node type; metis, fennel and ldg),
        ``balance_edges`` (also balance each part's in-degree, see above; refused by
        ``"random"``), ``seed`` (fixes the random and METIS assignments; fennel and ldg are
        deterministic) and ``metis_max_edges`` (the most edges METIS sees, coarsened). The
        others belong to the in-memory path or to :func:`~graphpart.chunked.dispatch` and are
        refused. ``None`` is the pipeline's defaults: ``balance_edges=None`` (decide from the
        spread) and ``metis_max_edges=None`` (every edge within the budget, else coarsened).
    cluster : ClusterOptions or None, default None
        The Dask cluster ``"random"``, ``"fennel"`` and ``"ldg"`` run on, and the refinement
        after METIS on a coarse graph or a sample (METIS itself runs in this process); default:
        a LocalCluster of 2
        workers.
    stream : StreamOptions or None, default None
        Fennel's and LDG's passes and slack (:class:`~graphpart.chunked.StreamOptions`).
    **names
        Fields of any of the three by name (``balance_ntypes="train_mask"``, ``seed=0``,
        ``workers=4``, ``passes=3``); a misspelt name is refused with the nearest.

    Returns
    -------
    Path
        The assignment folder: ``<ntype>.txt`` per node type and ``partition_meta.json``
        (the algorithm, what was balanced and, except for random, the per-part loads).

    Raises
    ------
    GraphpartError
        On an unknown algorithm or option, options given to an algorithm that does not take
        them, ``num_parts`` out of range, a ``balance_ntypes`` field no node type has, too
        little disk or memory, or an ``out_dir`` that holds anything else.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.chunked import write_chunked
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_chunked(load_karate_club(), d / "chunks", 2)
    >>> out = assign(d / "chunks", d / "fennel", 2, "fennel")
    >>> sorted(p.name for p in out.iterdir())
    ['_N.txt', 'partition_meta.json']
    """
    options, cluster, stream = options_by_name(
        names,
        [
            (PartitionOptions, PIPELINE_DEFAULTS if options is None else options, "options"),
            (ClusterOptions, cluster, "cluster"),
            (StreamOptions, stream, "stream"),
        ],
        "assign option",
    )
    _check_honoured(options, algorithm, stream)
    balance_ntypes, balance_edges = options.balance_ntypes, options.balance_edges
    seed = options.seed
    meta = read_metadata(in_dir)
    k = check_num_parts_for(num_parts, meta)
    # one line of text per node: at most 20 digits and a newline
    check_disk(min(21, len(str(k)) + 1) * sum(meta.num_nodes.values()), out_dir, "assign")
    ntypes = sorted(meta.ntypes)
    counts = np.array([meta.num_nodes[t] for t in ntypes], dtype=np.int64)
    if algorithm == "random":
        if balance_ntypes or balance_edges:
            raise GraphpartError(
                "random assignment balances node counts per type only; balance_ntypes and "
                "balance_edges apply to metis, fennel and ldg"
            )
        out_dir = check_assignment_dir(Path(out_dir).absolute())
        check_step_memory(
            plan_pipeline(meta, k, "random", cluster=cluster),
            "assign random",
            local_workers(cluster),
            "use fewer --workers, or a machine with more memory",
        )
        with atomic_dir(out_dir) as tmp:
            random_on_dask(meta, tmp, k, seed, cluster)
            _write_meta(tmp, k, algorithm, ntypes=ntypes)
        return out_dir
    classes = balance_classes_of(meta, balance_ntypes)[0]
    if algorithm == "metis":
        work = Path(out_dir).absolute().parent  # the refinement's shared files
        homo = metis_chunked(
            meta, k, classes, bool(balance_edges), options.metis_max_edges, seed, cluster, work
        )
        edges = bool(balance_edges)
        in_degree, leaving, halo = part_loads(meta, homo, k)
    else:
        from .stream import edge_balance, stream_partition

        work = Path(out_dir).absolute().parent  # the streams' shared files: beside the output
        _check_stream_memory(meta, algorithm, cluster)
        classes = classes.astype(np.int32)  # as the streams keep them: 4 bytes a node, not 8
        with runner(cluster, sum(meta.num_edges.values()), work) as run:
            _check_stream_memory(meta, algorithm, cluster, run)
            deg = edge_balance(meta, k, balance_edges, algorithm, run)
            homo = stream_partition(
                meta,
                k,
                algorithm,
                classes=classes,
                balance_edges=False if deg is None else deg,
                streams=run.tasks,
                cluster=None if run.client is None else ClusterOptions(client=run.client),
                work_dir=work,
                options=stream,
            )
            edges = deg is not None
            del deg
            in_degree, leaving, halo = part_loads(meta, homo, k, run)
    offsets = type_offsets(counts)
    parts = {t: homo[offsets[i] : offsets[i + 1]] for i, t in enumerate(ntypes)}
    balance = {"ntypes": balance_ntypes, "edges": edges}
    loads = {
        "nodes": np.bincount(homo, minlength=k).tolist(),
        "in-degree": in_degree.tolist(),
        "leaving": leaving.tolist(),
        "halo": halo,  # estimated, for the plan of dispatch
    }
    return write_assignment(out_dir, parts, k, algorithm, balance, loads)


def _check_stream_memory(meta, algorithm: str, cluster: ClusterOptions, run=None) -> None:
    """Refuse a streaming assignment before it starts where this machine (a LocalCluster's
    workers included) or, once started, a Dask worker's memory limit cannot hold it."""
    n, m = sum(meta.num_nodes.values()), sum(meta.num_edges.values())
    driver, stream = stream_need(n, m, largest_chunk(meta))
    instead = (
        "use fewer --workers or more chunks (a stream holds one chunk, 150 bytes per edge), "
        "or a machine with more memory"
    )
    if run is None:
        local = cluster.client is None and cluster.scheduler is None
        what = f"assign --algorithm {algorithm} on {n:,} nodes" + (
            f" with {cluster.workers} streams" if local else " (its driver)"
        )
        check_memory(driver + (cluster.workers * stream if local else 0), what, instead)
        return
    limit = worker_memory_limit(run.client) if run.client is not None else 0
    if limit and stream > limit:
        raise GraphpartError(
            f"assign --algorithm {algorithm}: a stream needs about {fmt_bytes(stream)} per "
            f"Dask worker and the workers' memory limit is {fmt_bytes(limit)}: {instead}"
        )


def _loads_task(meta: ChunkedMetadata, keys: list, handle, k: int) -> tuple:
    from ._distinct import DistinctSketch
    from .stream import homogeneous_chunk

    homo = open_shared(handle)
    indeg, leaving, sketch = np.zeros(k, np.int64), np.zeros(k, np.int64), DistinctSketch(k)
    for key in keys:
        s, d = homogeneous_chunk(meta, *key)
        ps, pd = np.asarray(homo[s], dtype=np.int64), np.asarray(homo[d], dtype=np.int64)
        cross = ps != pd
        indeg += np.bincount(pd, minlength=k)
        leaving += np.bincount(ps[cross], minlength=k)
        sketch.add(pd[cross], s[cross])
    return indeg, leaving, sketch


def part_loads(
    meta: ChunkedMetadata, homo: np.ndarray, k: int, run: Runner | None = None
) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Each part's in-degree (the edges it owns under DGL's rule), the edges leaving it (its
    HALO edges with one hop), and its HALO nodes with one hop, in-edges only (the distinct
    sources outside it of the edges into it: what a partition that stores each edge once at
    its destination holds beside its own nodes), the last estimated within a few percent
    (:class:`~graphpart.chunked._distinct.DistinctSketch`); one pass over the edges.

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph; its edge chunks are read once.
    homo : ndarray of int
        The part of every homogeneous node (node types in sorted order), each in ``[0, k)``.
    k : int
        The number of parts.
    run : Runner, optional
        Where the pass runs, each task over a share of the chunks (default: here).

    Returns
    -------
    in_degree : ndarray
        Per part, the int64 count of edges whose destination it holds.
    leaving : ndarray
        Per part, the count of edges whose source it holds and whose destination lies in
        another part.
    halo : list of int
        Per part, the estimated HALO node count.

    Examples
    --------
    >>> import tempfile
    >>> from graphpart.chunked import write_chunked, read_metadata
    >>> from graphpart.datasets import load_karate_club
    >>> meta = read_metadata(write_chunked(load_karate_club(), tempfile.mkdtemp() + "/k", 2))
    >>> in_degree, leaving, halo = part_loads(meta, np.arange(34) % 2, 2)
    >>> int(in_degree.sum()) == sum(meta.num_edges.values()), len(halo)
    (True, 2)
    """
    from ._loads import part_dtype
    from .stream import chunk_keys

    run = run or Runner(None, None, 1)
    handle = run.share("parts", np.asarray(homo).astype(part_dtype(k)))
    keys = chunk_keys(meta)
    groups = [(meta, share, handle, k) for share in run.shares(keys)]
    indeg, leaving = np.zeros(k, np.int64), np.zeros(k, np.int64)
    sketch = None
    for a, b, c in run.map(_loads_task, groups, "part-loads"):
        indeg += a
        leaving += b
        sketch = c if sketch is None else (sketch.merge(c) or sketch)
    return indeg, leaving, sketch.counts() if sketch is not None else [0] * k


def assignment_halo(folder: str | os.PathLike, num_parts: int, meta: ChunkedMetadata):
    """Each part's HALO node count (in-edges' sources outside it) as ``assign`` recorded it, or
    ``None`` where missing or out of range (at most the graph's nodes and edges each).

    Parameters
    ----------
    folder : str or path
        An assignment folder.
    num_parts : int
        The number of parts the list must have.
    meta : ChunkedMetadata
        The chunked graph the counts are checked against.

    Returns
    -------
    numpy.ndarray or None
        int64 per part.
    """
    pm = Path(folder) / PARTITION_META
    try:
        loads = read_json(pm, "assignment metadata").get("loads") if pm.is_file() else None
        halo = np.asarray(loads["halo"], dtype=np.int64)
    except (GraphpartError, AttributeError, KeyError, TypeError, ValueError, OverflowError):
        return None
    most = min(sum(meta.num_nodes.values()), sum(meta.num_edges.values()))
    if halo.shape != (num_parts,) or halo.min(initial=0) < 0 or halo.max(initial=0) > most:
        return None
    return halo


def assignment_loads(folder: str | os.PathLike, num_parts: int, meta: ChunkedMetadata):
    """``(nodes, in-degree, leaving)`` per part as ``assign`` recorded them in
    ``partition_meta.json``, or ``None`` where they are missing or do not add up to the graph's
    nodes and edges (``leaving``, the edges out of a part, is at most the edge count).

    Parameters
    ----------
    folder : str or path
        An assignment folder.
    num_parts : int
        The number of parts every load list must have.
    meta : ChunkedMetadata
        The chunked graph the loads are checked against.

    Returns
    -------
    tuple of three ndarray, or None
        ``(nodes, in_degree, leaving)``, int64 per part; ``None`` when the file, the record
        or one of its lists is missing, malformed, negative or does not add up.
    """
    pm = Path(folder) / PARTITION_META
    try:
        loads = read_json(pm, "assignment metadata").get("loads") if pm.is_file() else None
        nodes = np.asarray(loads["nodes"], dtype=np.int64)
        indeg = np.asarray(loads["in-degree"], dtype=np.int64)
        leaving = np.asarray(loads["leaving"], dtype=np.int64)
    except (GraphpartError, AttributeError, KeyError, TypeError, ValueError, OverflowError):
        return None
    n, m = sum(meta.num_nodes.values()), sum(meta.num_edges.values())
    ok = nodes.shape == indeg.shape == leaving.shape == (num_parts,)
    ok = ok and min(nodes.min(initial=0), indeg.min(initial=0), leaving.min(initial=0)) >= 0
    if not ok or nodes.sum() != n or indeg.sum() != m or leaving.sum() > m:
        return None
    return nodes, indeg, leaving

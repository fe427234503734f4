"""``verify``: check a written partitioning against the chunked graph it came from.

Counts (nodes and edges per type), ownership (every node owned by exactly one
partition, every edge by the partition of its destination), edges (each local
edge's original id leads to a chunked edge with the same original endpoints)
and features (each owned row equals the chunked row of its original id).

Memory is bounded by one partition, not the graph: partitions are opened one at a time, and
the edges are compared through 64-bit fingerprints (:func:`edge_hash` of the original edge id and
endpoints, with the edge data's bytes for owned edges), summed per partition on both sides: the
chunks are streamed once, each edge counted for the partition owning its destination and, as a
HALO copy, for the partition of its source when that differs (GraphBolt's edges, keyed by new
ids, need each chunk's owned edges first: from dispatch's record, :data:`EDGE_COUNTS`, checked
by the same pass, else from a pass of their own). Peak: ``B + 21 N`` bytes of node
maps plus one partition (about ``96`` bytes per local edge) plus one chunk; a node feature is
read whole, one field at a time.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..graph.schema import etype_str
from ..index import group_order, group_rank
from ..storage.sources import FORMAT_NAMES, open_partitions
from ..utils.check import short_repr
from ._dask import Runner, open_shared, runner
from ._files import check_npy_header
from ._part_arrays import open_part, whole
from .cluster import ClusterOptions
from .format import read_metadata
from .orig_ids import node_orig_maps, orig_of
from .plan import check_step_memory, local_workers, plan_pipeline
from .read import read_data, read_edges

#: Local edges fingerprinted at a time.
SLICE = 1 << 22

__all__ = ["verify", "Verification", "edge_hash", "recorded_edge_counts"]

logger = logging.getLogger(__name__)


#: The key of the partition config where ``dispatch`` records the assignment it read.
ASSIGNMENT_KEY = "assignment"
#: The file (from the config's folder) where ``dispatch`` records every edge chunk's rows and
#: the edges of it each partition owns (int64, ``(chunks of every edge type in order, 1 +
#: parts)``): the offsets :func:`verify` keys GraphBolt's edges by, without a pass of its own to
#: count them. It is a claim, checked: the pass that fingerprints the chunks counts them too, and
#: where they differ the fingerprints are taken again from the counts (a wrong record costs a
#: pass, never a verdict).
EDGE_COUNTS = "edge_counts/chunks.npy"


def assignment_record(partitions_dir: str | os.PathLike, out: Path, digest: str) -> dict:
    """What ``dispatch`` records in the partition config about the assignment it read: where it
    is (from the output folder ``out``, and absolute) and its SHA-256 (``_resume``'s
    ``assignment_digest``), so that :func:`verify` finds the original node ids GraphBolt files
    lack without ``--partitions-dir``.

    Parameters
    ----------
    partitions_dir : str or os.PathLike
        The assignment.
    out : pathlib.Path
        The output folder, where the config goes.
    digest : str
        The assignment's digest as dispatch read it.

    Returns
    -------
    dict
        ``{"path": absolute, "relative": from out, "sha256": digest}``.
    """
    where = Path(partitions_dir).absolute()
    return {"path": str(where), "relative": os.path.relpath(where, out), "sha256": digest}


def recorded_assignment(config: Path, raw: dict, meta) -> Path | None:
    """The assignment ``dispatch`` recorded in the config (:func:`assignment_record`), beside
    the output (moved with it) or where it was, if it is still there with the same digest;
    else ``None``, with a warning saying why.

    Parameters
    ----------
    config : pathlib.Path
        The partition config.
    raw : dict
        Its JSON.
    meta : ChunkedMetadata
        The chunked graph's metadata.

    Returns
    -------
    pathlib.Path or None
        The assignment's folder, or ``None`` when none is recorded or none is found unchanged.
    """
    from ._resume import assignment_digest
    from .assign import read_assignment

    record = raw.get(ASSIGNMENT_KEY)
    if not isinstance(record, dict) or not isinstance(record.get("sha256"), str):
        return None
    seen = []
    for where in (record.get("relative"), record.get("path")):
        if not isinstance(where, str) or "\0" in where:
            continue
        folder = config.parent / where  # an absolute path stays itself
        if not folder.is_dir():
            continue
        seen.append(str(folder))
        try:
            parts = read_assignment(folder, meta)[0]
        except GraphpartError:
            continue
        if assignment_digest(parts, folder) == record["sha256"]:
            return folder
    logger.warning(
        "%s: the assignment dispatch read (%s) is %s",
        config,
        short_repr(record.get("path")),
        "changed since" if seen else "no longer there",
    )
    return None


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` checked (``checked``: item counts by check) and what it found wrong.

    Attributes
    ----------
    config : pathlib.Path
        The partition config that was checked.
    checked : dict of str to int
        Items checked, by check (e.g. ``"nodes (ownership)"``).
    problems : list of str
        One line per problem found; empty when the partitions match the chunks.
    ok : bool
        True when ``problems`` is empty.
    """

    config: Path
    checked: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no problem was found."""
        return not self.problems

    def __str__(self) -> str:
        lines = [f"{self.config}: " + ("OK" if self.ok else f"{len(self.problems)} problem(s)")]
        lines += [f"  checked {n:,} {what}" for what, n in self.checked.items()]
        lines += [f"  PROBLEM: {p}" for p in self.problems]
        return "\n".join(lines)


def verify(
    config_path: str | os.PathLike,
    chunked_dir: str | os.PathLike,
    partitions_dir: str | os.PathLike | None = None,
    *,
    cluster: ClusterOptions | None = None,
    **options,
) -> Verification:
    """Check the partitions of ``config_path`` against the chunked graph in ``chunked_dir``.

    Edges are compared by their original ids where the files hold them (graphpart's and DGL's
    formats), else by their new ids (GraphBolt's, whose edge ids the chunks' order and the
    assignment determine), with their original endpoints either way.

    Parameters
    ----------
    config_path : str or os.PathLike
        The partition config of the partitions to check. Their nodes' original ids come from
        the files (``orig_id``: graphpart's and DGL's formats), else from the merged maps
        ``orig_nids/`` beside the config (``dispatch --save-orig-nids``), else from the
        assignment (``partitions_dir``).
    chunked_dir : str or os.PathLike
        The chunked graph they were written from: ``metadata.json`` or its folder.
    partitions_dir : str or os.PathLike, optional
        The assignment they were written from (``assign``'s output): where a GraphBolt
        partitioning's original node ids come from when it has no ``orig_nids/``. Default:
        the one ``dispatch`` recorded in the config, if it is still there unchanged.
    cluster : ClusterOptions, optional
        The Dask cluster the partitions are checked on (a task each) and the chunks streamed
        (a share each); default: a LocalCluster of 2 workers, started from ``2**22`` edges
        (below that the same tasks run here). They share arrays through files in the system's
        temporary folder.
    **options
        :class:`~graphpart.chunked.ClusterOptions` fields by name (``workers=1``).

    Returns
    -------
    Verification
        The counts checked and the problems found. When the node or edge counts per type
        differ, nothing else is checked.

    Raises
    ------
    GraphpartError
        If the files cannot be read, or a partition has no ``orig_id``, edge arrays of
        different lengths, or edge ends outside its nodes.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.chunked import write_chunked, assign, dispatch
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_chunked(load_karate_club(), d / "chunks", 2, graph_name="karate")
    >>> _ = assign(d / "chunks", d / "assignment", 2, "random", seed=0)
    >>> cfg = dispatch(d / "chunks", d / "assignment", d / "out", processes=False, workers=1)
    >>> verify(cfg, d / "chunks").ok  # GraphBolt files: ids from the assignment dispatch read
    True
    """
    config = Path(config_path)
    source = open_partitions(config)
    cfg, meta = source.config, read_metadata(chunked_dir)
    result = Verification(config)
    problems, checked = result.problems, result.checked
    ntypes, etypes = cfg.ntypes, cfg.etypes
    nb, eb = cfg.node_bounds, cfg.edge_bounds
    for i, t in enumerate(ntypes):
        n = int((nb[:, i, 1] - nb[:, i, 0]).sum())
        if meta.num_nodes.get(t) != n:
            problems.append(
                f"node type {t!r}: {n} nodes in the partitions, {meta.num_nodes.get(t)} in the "
                "chunks"
            )
    by_name = {etype_str(e): e for e in meta.etypes}
    for i, e in enumerate(etypes):
        m = int((eb[:, i, 1] - eb[:, i, 0]).sum())
        if e not in by_name or meta.num_edges[by_name[e]] != m:
            problems.append(
                f"edge type {e!r}: {m} edges in the partitions, "
                f"{meta.num_edges.get(by_name.get(e))} in the chunks"
            )
    if problems:
        return result
    clu = ClusterOptions.of(cluster, **options)
    graphbolt = source.format == "dgl"  # DGL's or GraphBolt's files: the larger need
    check_step_memory(  # the memory rule of every step, before the work
        plan_pipeline(
            meta, cfg.num_parts, "none", cluster=clu, format=("graphpart", "graphbolt")[graphbolt]
        ),
        "verify",
        local_workers(clu),
        "use fewer --workers, or a machine with more memory",
    )
    if partitions_dir is None and not (config.parent / "orig_nids").is_dir():
        partitions_dir = recorded_assignment(config, cfg.raw, meta)  # dispatch's record
    node_orig = node_orig_maps(config, cfg, meta, partitions_dir)
    num_parts = cfg.num_parts
    owners = {t: np.full(meta.num_nodes[t], -1, dtype=np.int32) for t in ntypes}
    counts = {t: np.zeros(meta.num_nodes[t], dtype=np.int8) for t in ntypes}
    inner_orig = []  # per partition: {type index: original ids of the inner nodes}
    sums = _Sums(meta, etypes, by_name, num_parts)
    edges = sum(meta.num_edges.values())
    with runner(clu, edges) as run:
        orig = None
        if node_orig is not None:
            orig = {i: _handle(run, f"orig-{i}", a) for i, a in node_orig.items()}
        tasks = [(config, meta, p, orig) for p in range(num_parts)]
        for p, (inner, part_sums, by_new, found, local_edges) in enumerate(
            run.map(_partition_task, tasks, "verify-partitions")
        ):
            if sums.by_new not in (None, by_new):
                raise GraphpartError(f"partition {p}: original edge ids in some partitions only")
            sums.by_new = by_new
            sums.add(part_sums)
            problems += found
            inner_orig.append(inner)
            for i, t in enumerate(ntypes):
                ids = inner[i]
                owners[t][ids] = p
                counts[t][ids] = np.minimum(counts[t][ids].astype(np.int64) + 1, 2)
            checked["local edges, owned and HALO (endpoints)"] = (
                checked.get("local edges, owned and HALO (endpoints)", 0) + local_edges
            )
        expected = _expected_all(
            run, meta, etypes, by_name, owners, num_parts, cfg, sums.by_new, config
        )
    got_owned, got_halo, got_feats = sums.owned, sums.halo, sums.feats
    for i, t in enumerate(ntypes):
        if np.any(counts[t] != 1):
            problems.append(
                f"node type {t!r}: {int((counts[t] != 1).sum())} nodes not owned by exactly one "
                "partition"
            )
    checked["nodes (ownership)"] = sum(len(c) for c in counts.values())
    del counts
    _check_node_feats(source, meta, ntypes, inner_orig, problems, checked)
    for i, name in enumerate(etypes):
        e = by_name[name]
        want_owned, want_halo, want_feats = expected[i]
        for p in np.flatnonzero(want_owned != got_owned[i]):
            problems.append(
                f"partition {p}: owned {name!r} edges whose endpoints differ from the chunks' "
                "edges into its nodes (or edges not owned exactly once)"
            )
        for p in np.flatnonzero(want_halo != got_halo[i]):
            problems.append(
                f"partition {p}: HALO {name!r} edges whose endpoints differ from the chunks' "
                "edges leaving it"
            )
        for k, field_name in enumerate(sorted(meta.edge_data.get(e, {}))):
            for p in np.flatnonzero(want_feats[k] != got_feats[(i, k)]):
                msg = f"partition {p}: edge feature {name}/{field_name} differs from the chunks"
                if not any(q.startswith(msg.split(" differs")[0]) for q in problems):
                    problems.append(msg)
        checked[f"chunked {name!r} edges"] = meta.num_edges[e]
    return result


class _Sums:
    """Per edge type and partition, the fingerprint sums of the edges read from the partitions."""

    def __init__(self, meta, etypes, by_name, num_parts: int) -> None:
        self.by_new: bool | None = None  # edges keyed by new ids (no original ids in the files)
        self.owned = np.zeros((len(etypes), num_parts), dtype=np.uint64)
        self.halo = np.zeros((len(etypes), num_parts), dtype=np.uint64)
        self.feats = {
            (i, k): np.zeros(num_parts, dtype=np.uint64)
            for i, name in enumerate(etypes)
            for k in range(len(meta.edge_data.get(by_name[name], {})))
        }

    def add(self, other: _Sums) -> None:
        """Take in what ``other`` summed (modulo 2**64)."""
        with np.errstate(over="ignore"):
            self.owned += other.owned
            self.halo += other.halo
            for key, value in other.feats.items():
                self.feats[key] += value


def _handle(run: Runner, name: str, a: np.ndarray):
    """What tasks read ``a`` by: the file it is mapped from, where it is one, else a copy."""
    if run.client is not None and isinstance(a, np.memmap) and a.filename:
        return str(a.filename)
    return run.share(name, np.asarray(a))


def _id_dtype(n: int) -> type:
    """int32 for ids below ``n`` where they fit, else int64."""
    return np.int32 if n <= np.iinfo(np.int32).max else np.int64


def _partition_task(config: Path, meta, p: int, orig: dict | None) -> tuple:
    """Partition ``p``'s checks: its inner nodes' original ids per node type, the fingerprint
    sums of its edges, whether they are keyed by new ids, the problems found, its edge count."""
    source = open_partitions(config)
    cfg = source.config
    ntypes, etypes = cfg.ntypes, cfg.etypes
    by_name = {etype_str(e): e for e in meta.etypes}
    node_orig = None if orig is None else {i: open_shared(a) for i, a in orig.items()}
    problems: list[str] = []
    sums = _Sums(meta, etypes, by_name, cfg.num_parts)
    part = open_part(source, p)
    nd = part.ndata
    if "orig_id" not in nd and node_orig is None:
        raise GraphpartError(
            f"verify compares original node ids, but partition {p} of {config} "
            f"({FORMAT_NAMES[source.format]}) holds none and there is no orig_nids/ beside "
            "it: give the assignment it was written from (--partitions-dir), or dispatch "
            "with --save-orig-nids"
        )
    inner = nd["inner_node"].astype(bool)
    ntp = nd["_TYPE"] if "_TYPE" in nd else np.zeros(part.num_nodes, dtype=np.int64)
    on = nd["orig_id"] if "orig_id" in nd else orig_of(node_orig, source.book(p), nd["_ID"])
    nt, orig_ids = ntp[inner], on[inner]
    if np.any(nd["part_id"][inner] != p):
        problems.append(f"partition {p}: inner nodes with another part_id")
    # sent back as the narrowest ids that hold the type's nodes: the driver holds every node's
    inner_orig = {
        i: orig_ids[nt == i].astype(_id_dtype(meta.num_nodes[t]), copy=False)
        for i, t in enumerate(ntypes)
    }
    for t in ntypes:
        for name in meta.node_data.get(t, {}):
            if part.node_feats.get(f"{t}/{name}") is None:
                problems.append(f"partition {p}: node feature {f'{t}/{name}'!r} missing")
    del nd, nt, orig_ids
    by_new = "orig_id" not in part.edata
    if by_new and (source.format in ("pyg", "glt") or cfg.raw.get("format") != "graphpart"):
        raise GraphpartError(
            f"verify compares original edge ids (or the new ids graphpart gives), but "
            f"partition {p} of {config} ({FORMAT_NAMES[source.format]}) holds none and "
            "graphpart did not write it; verify partitions graphpart wrote"
        )
    sums.by_new = by_new
    types = (ntypes, etypes, cfg.edge_bounds[p, :, 0])
    _check_edges(part, p, types, by_name, meta, (inner, ntp, on), sums, problems)
    return inner_orig, sums, by_new, problems, part.num_edges


def _check_edges(part, p: int, types, by_name, meta, nodes, sums: _Sums, problems) -> None:
    """Fingerprint partition ``p``'s local edges into ``sums``, a slice at a time, checking that
    their ends are local nodes of the right types and that owned edges end in owned nodes."""
    inner, ntp, on = nodes
    ntypes, etypes, bases = types
    n, m = part.num_nodes, part.num_edges
    lengths = {"dst": len(part.dst), **{f"edata[{k!r}]": len(v) for k, v in part.edata.items()}}
    if any(x != m for x in lengths.values()):
        raise GraphpartError(f"partition {p}: its edge arrays differ in length ({lengths})")
    typed = "_TYPE" in part.edata
    feats = {}  # (type, field index) -> the owned edges' rows
    for i, name in enumerate(etypes):
        for k, field_name in enumerate(sorted(meta.edge_data.get(by_name[name], {}))):
            feats[(i, k)] = part.edge_feats.get(f"{name}/{field_name}")
    owned_of = np.zeros(len(etypes), dtype=np.int64)
    for lo in range(0, m, SLICE):
        t_ = part.edata["_TYPE"][lo : lo + SLICE] if typed else None
        own = part.edata["inner_edge"][lo : lo + SLICE].astype(bool)
        for i in range(len(etypes)):
            owned_of[i] += int(own[t_ == i].sum()) if typed else int(own.sum())
    for (i, k), feat in feats.items():
        name = etypes[i]
        field_name = sorted(meta.edge_data[by_name[name]])[k]
        if feat is None or len(feat) != owned_of[i]:
            problems.append(f"partition {p}: edge feature {name}/{field_name} missing")
            feats[(i, k)] = None
    before = np.zeros(len(etypes), dtype=np.int64)  # owned edges of each type in earlier slices
    wrong_owner = wrong_types = False
    for lo in range(0, m, SLICE):
        s_, d_ = part.src[lo : lo + SLICE], part.dst[lo : lo + SLICE]
        if len(s_) and (min(s_.min(), d_.min()) < 0 or max(s_.max(), d_.max()) >= n):
            raise GraphpartError(f"partition {p}: edges whose ends are not among its {n} nodes")
        own = part.edata["inner_edge"][lo : lo + SLICE].astype(bool)
        wrong_owner |= not inner[d_[own]].all()
        new = part.edata["_ID"][lo : lo + SLICE]
        oe = new if sums.by_new else part.edata["orig_id"][lo : lo + SLICE]
        t_ = part.edata["_TYPE"][lo : lo + SLICE] if typed else np.zeros(len(s_), np.int64)
        h = edge_hash(oe, on[s_], on[d_])
        for i, name in enumerate(etypes):
            e = by_name[name]
            sel = t_ == i
            ti, tj = ntypes.index(e[0]), ntypes.index(e[2])
            wrong_types |= bool(((ntp[s_[sel]] != ti) | (ntp[d_[sel]] != tj)).any())
            mine = own[sel]
            with np.errstate(over="ignore"):  # sums modulo 2^64
                sums.owned[i, p] += h[sel][mine].sum(dtype=np.uint64)
                sums.halo[i, p] += h[sel][~mine].sum(dtype=np.uint64)
            k_own = int(mine.sum())
            for k in range(len(meta.edge_data.get(e, {}))):
                feat = feats[(i, k)]
                if feat is not None and isinstance(feat, np.ndarray):  # mapped: rows by edge id
                    rows = feat[np.clip(new[sel][mine] - bases[i], 0, len(feat) - 1)]
                elif feat is not None:  # on disk, in edge id order: the next rows
                    rows = feat[int(before[i]) : int(before[i]) + k_own]
                if feat is not None:
                    fh = feature_hash(oe[sel][mine], rows, k + 1)
                    with np.errstate(over="ignore"):
                        sums.feats[(i, k)][p] += fh.sum(dtype=np.uint64)
            before[i] += k_own
    if wrong_owner:
        problems.append(f"partition {p}: owned edges whose destination it does not own")
    if wrong_types:
        problems.append(f"partition {p}: edges between the wrong node types")


def _check_node_feats(source, meta, ntypes, inner_orig, problems, checked) -> None:
    """Each owned row equals the chunked row of its original id: one field in memory at a time,
    partitions reopened one at a time."""
    fields = [(i, t, name) for i, t in enumerate(ntypes) for name in meta.node_data.get(t, {})]
    if not fields:
        return
    for i, t, name in fields:
        key, full = f"{t}/{name}", read_data(meta.node_data[t][name], None, f"{t}/{name}")
        for p in range(len(inner_orig)):
            got = open_part(source, p).node_feats.get(key)
            if got is None or not np.array_equal(whole(got), full[inner_orig[p][i]]):
                problems.append(f"partition {p}: node feature {key!r} differs from the chunks")
        checked["node feature rows"] = checked.get("node feature rows", 0) + len(full)


_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, elementwise (uint64, wrapping)."""
    x = x ^ (x >> np.uint64(30))
    x = x * _M1
    x = x ^ (x >> np.uint64(27))
    x = x * _M2
    return x ^ (x >> np.uint64(31))


def edge_hash(eid: np.ndarray, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """A 64-bit fingerprint of each edge (its original id and endpoints). Sums of fingerprints
    compare two edge sets chunk by chunk without holding either (a mismatch by chance: ~2^-64).

    Parameters
    ----------
    eid : numpy.ndarray
        The edges' original ids.
    src, dst : numpy.ndarray
        Their original end ids, of the same length.

    Returns
    -------
    numpy.ndarray
        uint64, one fingerprint per edge.
    """
    with np.errstate(over="ignore"):
        h = _mix(eid.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15))
        h = _mix(h ^ src.astype(np.uint64))
        return _mix(h ^ (dst.astype(np.uint64) * np.uint64(3)))


def row_hash(rows: np.ndarray, salt: int) -> np.ndarray:
    """A 64-bit fingerprint of each row's bytes (one field of edge data).

    Parameters
    ----------
    rows : numpy.ndarray
        The rows, of any fixed-size dtype and trailing shape; each row's bytes are hashed
        8 at a time (zero-padded).
    salt : int
        A non-negative seed of the hash (e.g. the field's number), so equal rows of different
        fields differ.

    Returns
    -------
    numpy.ndarray
        uint64, one fingerprint per row; empty for no rows.
    """
    rows = np.ascontiguousarray(rows)
    if not len(rows):
        return np.zeros(0, dtype=np.uint64)
    raw = rows.reshape(len(rows), -1).view(np.uint8)
    pad = (-raw.shape[1]) % 8
    if pad:
        raw = np.concatenate([raw, np.zeros((len(raw), pad), dtype=np.uint8)], axis=1)
    words = raw.view(np.uint64)
    with np.errstate(over="ignore"):
        h = np.full(len(rows), np.uint64(salt), dtype=np.uint64)
        for j in range(words.shape[1]):  # a loop over 8-byte words of a row
            h = _mix(h ^ words[:, j])
    return h


def feature_hash(eid: np.ndarray, rows: np.ndarray, salt: int) -> np.ndarray:
    """A 64-bit fingerprint of each edge's data row, keyed by its original edge id.

    Parameters
    ----------
    eid : numpy.ndarray
        The edges' original ids.
    rows : numpy.ndarray
        Their rows of one edge field, in the same order.
    salt : int
        A non-negative seed, as :func:`row_hash` takes it (the field's number plus one).

    Returns
    -------
    numpy.ndarray
        uint64, one fingerprint per edge.
    """
    with np.errstate(over="ignore"):
        return _mix(_mix(eid.astype(np.uint64) + np.uint64(salt)) ^ row_hash(rows, salt))


def recorded_edge_counts(config: Path, raw: dict, meta, etypes: list[str], num_parts: int):
    """The per-chunk counts ``dispatch`` recorded with the config (:data:`EDGE_COUNTS`), split
    by edge type (``etypes``: the config's, in order), or ``None`` where there is no record or
    its header is not the shape and dtype this graph's chunks and partitions give.

    Parameters
    ----------
    config : pathlib.Path
        The partition config.
    raw : dict
        Its JSON.
    meta : ChunkedMetadata
        The chunked graph's metadata.
    etypes : list of str
        The config's edge types, in order.
    num_parts : int
        The partitions.

    Returns
    -------
    list of numpy.ndarray or None
        Per edge type, ``(chunks, 1 + parts)`` int64: each chunk's rows, then the edges of it
        each partition owns.
    """
    record = raw.get(ASSIGNMENT_KEY)
    if not isinstance(record, dict) or record.get("edge_counts") != EDGE_COUNTS:
        return None
    by_name = {etype_str(e): e for e in meta.etypes}
    chunks = [len(meta.edges[by_name[name]].paths) for name in etypes]
    path = config.parent / EDGE_COUNTS
    try:
        shape, dtype = check_npy_header(path)
    except (GraphpartError, OSError):
        return None
    if shape != (sum(chunks), 1 + num_parts) or dtype != np.int64:
        return None
    counts = np.load(path, allow_pickle=False)
    return np.split(counts, np.cumsum(chunks)[:-1])


def _expected_all(
    run, meta, etypes, by_name, owners, num_parts: int, cfg, by_new, config: Path
) -> list:
    """:func:`_expected_sums` of every edge type, its chunks shared out among ``run``'s tasks,
    with, where edges are keyed by new ids (or the chunks record no row counts), each chunk's
    rows and owned edges per partition for the offsets every chunk's keys start from: from
    dispatch's record where there is one (checked against the counts the same pass takes), else
    counted by a pass of their own."""
    handles = {t: run.share(f"owners-{t}", a) for t, a in owners.items()}
    halo = (int(cfg.halo_hops), cfg.out_edges)
    record = recorded_edge_counts(config, cfg.raw, meta, etypes, num_parts) if by_new else None
    out = []
    for i, name in enumerate(etypes):
        e = by_name[name]
        chunks = list(range(len(meta.edges[e].paths)))
        groups = run.shares(chunks)
        ends = (handles[e[0]], handles[e[2]])
        recorded = meta.edges[e].counts
        bases = cfg.edge_bounds[:, i, 0] if by_new else None
        if record is not None:
            counts = record[i]
        elif by_new or recorded is None:
            counts = _counted(run, meta, e, groups, ends[1], num_parts)
        else:
            counts = np.zeros((len(chunks), 1 + num_parts), dtype=np.int64)
            counts[:, 0] = recorded
        total, found = _sums_pass(run, meta, e, groups, ends, num_parts, halo, bases, counts)
        if record is not None and not np.array_equal(found, counts):
            logger.warning(
                "%s: dispatch's record of the edge chunks' counts (%s) differs from the chunks; "
                "fingerprinting them again with the counts found",
                config,
                EDGE_COUNTS,
            )
            total, _ = _sums_pass(run, meta, e, groups, ends, num_parts, halo, bases, found)
        if total is None:
            names = meta.edge_data.get(e, {})
            zero = np.zeros(num_parts, dtype=np.uint64)
            total = (zero, zero.copy(), [zero.copy() for _ in names])
        out.append(total)
    return out


def _counted(run, meta, e, groups: list, dst_owners, num_parts: int) -> np.ndarray:
    """Each chunk's rows and edges owned per partition, by a pass over the chunks."""
    tasks = [(meta, e, g, dst_owners, num_parts) for g in groups]
    counts = np.zeros((sum(len(g) for g in groups), 1 + num_parts), dtype=np.int64)
    for g, found in zip(groups, run.map(_owned_counts, tasks, "verify-counts")):
        counts[g] = found
    return counts


def _sums_pass(run, meta, e, groups, ends, num_parts, halo, bases, counts) -> tuple:
    """One pass of :func:`_expected_sums` over the chunks of ``e`` with the offsets ``counts``
    give; returns the sums and the counts the pass found (``counts`` where it keeps none)."""
    rows, owned = counts[:, 0], counts[:, 1:]
    row0 = np.concatenate([[0], np.cumsum(rows)[:-1]]).astype(np.int64)
    seen = np.cumsum(owned, axis=0) - owned  # owned edges of earlier chunks, per partition
    by_new = bases is not None
    tasks = [
        (meta, e, g, ends, num_parts, halo, bases, row0[g], seen[g] if by_new else None)
        for g in groups
    ]
    total, found = None, counts.copy()
    for g, result in zip(groups, run.map(_expected_sums, tasks, "verify-chunks")):
        if by_new:
            found[g] = result[3]
        if total is None:
            total = result[:3]
            continue
        with np.errstate(over="ignore"):
            total = (
                total[0] + result[0],
                total[1] + result[1],
                [a + b for a, b in zip(total[2], result[2])],
            )
    return total, found


def _owned_counts(meta, e, chunks: list, dst_owners, num_parts: int) -> np.ndarray:
    """Each chunk's rows and edges owned per partition (those into its nodes): ``(chunks, 1 +
    parts)``."""
    owners = open_shared(dst_owners)
    out = np.zeros((len(chunks), 1 + num_parts), dtype=np.int64)
    for j, c in enumerate(chunks):
        d = read_edges(meta, e, c)[1]
        out[j] = _chunk_counts(np.asarray(owners[d]), num_parts)
    return out


def _chunk_counts(pd: np.ndarray, num_parts: int) -> np.ndarray:
    """A chunk's rows and its edges owned per partition, from its destinations' owners."""
    return np.concatenate([[len(pd)], np.bincount(pd[pd >= 0], minlength=num_parts)])


def _expected_sums(meta, e, chunks, ends, num_parts: int, halo, bases, row0, seen):
    """Per partition, the fingerprint sums of the chunked edges it owns (into its nodes), of
    those it keeps as HALO copies (from its nodes into another's, where partitions copy the
    edges leaving them), and of each edge field's rows it owns, over ``chunks`` of ``e`` (their
    first rows ``row0``). Without HALO a partition keeps only the edges between its own nodes.
    ``halo``: ``(hops, out_edges)``. Edges are keyed by their original ids (their rows), or
    with ``bases`` (each partition's first new id of this edge type) by their new ids:
    partition-major, then chunk order, ``seen`` giving each chunk's owned edges before it.
    Also returns, keying by new ids, each chunk's rows and owned edges per partition."""
    hops, out_edges = halo
    src_owner, dst_owner = (open_shared(h) for h in ends)
    found = np.zeros((len(chunks), 1 + num_parts), dtype=np.int64)
    owned = np.zeros(num_parts, dtype=np.uint64)
    copies = np.zeros(num_parts, dtype=np.uint64)
    names = sorted(meta.edge_data.get(e, {}))
    feats = [np.zeros(num_parts, dtype=np.uint64) for _ in names]
    for j, c in enumerate(chunks):
        s, d = read_edges(meta, e, c)
        ps, pd = np.asarray(src_owner[s]), np.asarray(dst_owner[d])
        key = np.arange(row0[j], row0[j] + len(s), dtype=np.int64)
        if bases is not None:  # new ids: the owner's base, its edges of earlier chunks, the rank
            found[j] = _chunk_counts(pd, num_parts)
            owner = np.where(pd >= 0, pd, 0)
            order, counts = group_order(owner, num_parts)
            first = np.asarray(bases, dtype=np.int64) + np.asarray(seen[j], dtype=np.int64)
            key = first[owner] + group_rank(order, counts)
        h = edge_hash(key, s, d)
        mine = pd >= 0
        if hops == 0:  # a partition without HALO keeps only the edges between its own nodes
            mine &= ps == pd
        np.add.at(owned, pd[mine], h[mine])
        if hops and out_edges:
            cross = (ps != pd) & (ps >= 0)
            np.add.at(copies, ps[cross], h[cross])
        for k, name in enumerate(names):
            rows = meta.edge_data[e][name].read(c)
            if len(rows) != len(s):
                raise GraphpartError(
                    f"{meta.edge_data[e][name].paths[c]}: {len(rows)} rows, but its edge chunk "
                    f"has {len(s)} edges"
                )
            np.add.at(feats[k], pd[mine], feature_hash(key, rows, k + 1)[mine])
    return owned, copies, feats, found

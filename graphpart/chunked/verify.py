"""``verify``: check a written partitioning against the chunked graph it came from.

Counts (nodes and edges per type), ownership (every node owned by exactly one
partition, every edge by the partition of its destination), edges (each local
edge's original id leads to a chunked edge with the same original endpoints)
and features (each owned row equals the chunked row of its original id).

Memory is bounded by one partition, not the graph: partitions are opened one at a time, and
the edges are compared through 64-bit fingerprints (:func:`edge_hash` of the original edge id and
endpoints, with the edge data's bytes for owned edges), summed per partition on both sides: the
chunks are streamed once, each edge counted for the partition owning its destination and, as a
HALO copy, for the partition of its source when that differs. Peak: ``B + 21 N`` bytes of node
maps plus one partition (about ``96`` bytes per local edge) plus one chunk; a node feature is
read whole, one field at a time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._schema import etype_str
from ..errors import GraphpartError
from ..storage.read import load_partition
from ..storage.sources import FORMAT_NAMES, open_partitions
from .format import read_metadata
from .read import read_data, read_edges

#: Local edges fingerprinted at a time.
SLICE = 1 << 22

__all__ = ["verify", "Verification", "edge_hash", "row_hash", "feature_hash"]


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` checked (``checked``: item counts by check) and what it found wrong."""

    config: Path
    checked: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        lines = [f"{self.config}: " + ("OK" if self.ok else f"{len(self.problems)} problem(s)")]
        lines += [f"  checked {n:,} {what}" for what, n in self.checked.items()]
        lines += [f"  PROBLEM: {p}" for p in self.problems]
        return "\n".join(lines)


def _types(lg, key: str, n: int) -> np.ndarray:
    data = lg.ndata if key == "n" else lg.edata
    return data["_TYPE"].numpy() if "_TYPE" in data else np.zeros(n, dtype=np.int64)


def verify(config_path: str | os.PathLike, chunked_dir: str | os.PathLike) -> Verification:
    """Check the partitions of ``config_path`` against the chunked graph in ``chunked_dir``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.chunked import write_chunked, assign, dispatch
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_chunked(load_karate_club(), d / "chunks", 2, graph_name="karate")
    >>> _ = assign(d / "chunks", d / "assignment", 2, "random", seed=0)
    >>> cfg = dispatch(d / "chunks", d / "assignment", d / "out", processes=False, workers=1)
    >>> verify(cfg, d / "chunks").ok
    True
    """
    config = Path(config_path)
    source = open_partitions(config)
    cfg, meta = source.config, read_metadata(chunked_dir)
    result = Verification(config)
    problems, checked = result.problems, result.checked
    ntypes, etypes = cfg["_ntypes"], cfg["_etypes"]
    nb, eb = cfg["_node_bounds"], cfg["_edge_bounds"]
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
    num_parts = cfg["num_parts"]
    owners = {t: np.full(meta.num_nodes[t], -1, dtype=np.int32) for t in ntypes}
    counts = {t: np.zeros(meta.num_nodes[t], dtype=np.int8) for t in ntypes}
    inner_orig = []  # per partition: {type index: original ids of the inner nodes}
    got_owned = np.zeros((len(etypes), num_parts), dtype=np.uint64)
    got_halo = np.zeros((len(etypes), num_parts), dtype=np.uint64)
    got_feats = {
        (i, k): np.zeros(num_parts, dtype=np.uint64)
        for i, name in enumerate(etypes)
        for k in range(len(meta.edge_data.get(by_name[name], {})))
    }
    for p in range(num_parts):  # one partition in memory at a time
        data = load_partition(config, p)
        lg = data.graph
        if "orig_id" not in lg.ndata or "orig_id" not in lg.edata:
            raise GraphpartError(
                f"verify compares original node and edge ids (orig_id, which graphpart writes), "
                f"but partition {p} of {config} ({FORMAT_NAMES[source.format]}) has none; "
                "verify partitions graphpart wrote"
            )
        inner = lg.ndata["inner_node"].numpy().astype(bool)
        ntp = _types(lg, "n", lg.num_nodes())
        on = lg.ndata["orig_id"].numpy()
        nt, orig = ntp[inner], on[inner]
        if np.any(lg.ndata["part_id"].numpy()[inner] != p):
            problems.append(f"partition {p}: inner nodes with another part_id")
        inner_orig.append({i: orig[nt == i] for i in range(len(ntypes))})
        for i, t in enumerate(ntypes):
            ids = inner_orig[p][i]
            owners[t][ids] = p
            counts[t][ids] = np.minimum(counts[t][ids].astype(np.int64) + 1, 2)
        for i, t in enumerate(ntypes):
            for name in meta.node_data.get(t, {}):
                key = f"{t}/{name}"
                if (data.node_feats or {}).get(key) is None:
                    problems.append(f"partition {p}: node feature {key!r} missing")
        ls, ld = (x.numpy() for x in lg.edges())
        oe = lg.edata["orig_id"].numpy()
        inner_e = lg.edata["inner_edge"].numpy()
        inner_e = inner_e if inner_e.dtype == np.bool_ else inner_e.astype(bool)
        for lo in range(0, len(ld), SLICE):
            own = inner_e[lo : lo + SLICE]
            if not inner[ld[lo : lo + SLICE][own]].all():
                problems.append(f"partition {p}: owned edges whose destination it does not own")
                break
        typed = "_TYPE" in lg.edata
        for i, name in enumerate(etypes):
            e = by_name[name]
            # a graph of one edge type keeps no _TYPE: every edge, in slices, no index array
            sel = np.flatnonzero(lg.edata["_TYPE"].numpy() == i) if typed else None
            count = len(sel) if typed else len(ld)
            num_owned = int(inner_e[sel].sum()) if typed else int(inner_e.sum())
            feats = [
                (k, (data.edge_feats or {}).get(f"{name}/{field_name}"), field_name)
                for k, field_name in enumerate(sorted(meta.edge_data.get(e, {})))
            ]
            for k, feat, field_name in feats:
                if feat is None or len(feat) != num_owned:
                    problems.append(f"partition {p}: edge feature {name}/{field_name} missing")
            owned_before = 0  # owned edges of this type in earlier slices
            for lo in range(0, count, SLICE):  # slices: temporaries stay small
                rows = sel[lo : lo + SLICE] if typed else slice(lo, lo + SLICE)
                s_, d_ = ls[rows], ld[rows]
                if ((ntp[s_] != ntypes.index(e[0])) | (ntp[d_] != ntypes.index(e[2]))).any():
                    problems.append(f"partition {p}: {name!r} edges between the wrong node types")
                h = edge_hash(oe[rows], on[s_], on[d_])
                own = inner_e[rows]
                with np.errstate(over="ignore"):  # sums modulo 2^64
                    got_owned[i, p] += h[own].sum(dtype=np.uint64)
                    got_halo[i, p] += h[~own].sum(dtype=np.uint64)
                for k, feat, _ in feats:
                    if feat is not None and len(feat) == num_owned:
                        at = owned_before + np.cumsum(own)[own] - 1  # rows of the owned edges' data
                        fh = feature_hash(oe[rows][own], feat.numpy()[at], k + 1)
                        with np.errstate(over="ignore"):
                            got_feats[(i, k)][p] += fh.sum(dtype=np.uint64)
                owned_before += int(own.sum())
            checked["local edges, owned and HALO (endpoints)"] = (
                checked.get("local edges, owned and HALO (endpoints)", 0) + count
            )
        del data, lg, ls, ld, oe, inner_e, on, ntp
    for i, t in enumerate(ntypes):
        if np.any(counts[t] != 1):
            problems.append(
                f"node type {t!r}: {int((counts[t] != 1).sum())} nodes not owned by exactly one "
                "partition"
            )
    checked["nodes (ownership)"] = sum(len(c) for c in counts.values())
    del counts
    _check_node_feats(config, meta, ntypes, inner_orig, problems, checked)
    for i, name in enumerate(etypes):
        e = by_name[name]
        want_owned, want_halo, want_feats = _expected_sums(
            meta, e, owners, num_parts, int(cfg["halo_hops"])
        )
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


def _check_node_feats(config, meta, ntypes, inner_orig, problems, checked) -> None:
    """Each owned row equals the chunked row of its original id: one field in memory at a time,
    partitions reopened one at a time."""
    fields = [(i, t, name) for i, t in enumerate(ntypes) for name in meta.node_data.get(t, {})]
    if not fields:
        return
    for i, t, name in fields:
        key, full = f"{t}/{name}", read_data(meta.node_data[t][name], None, f"{t}/{name}")
        for p in range(len(inner_orig)):
            got = (load_partition(config, p).node_feats or {}).get(key)
            if got is None or not np.array_equal(got.numpy(), full[inner_orig[p][i]]):
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
    compare two edge sets chunk by chunk without holding either (a mismatch by chance: ~2^-64)."""
    with np.errstate(over="ignore"):
        h = _mix(eid.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15))
        h = _mix(h ^ src.astype(np.uint64))
        return _mix(h ^ (dst.astype(np.uint64) * np.uint64(3)))


def row_hash(rows: np.ndarray, salt: int) -> np.ndarray:
    """A 64-bit fingerprint of each row's bytes (one field of edge data)."""
    rows = np.ascontiguousarray(rows).reshape(len(rows), -1)
    raw = rows.view(np.uint8).reshape(len(rows), -1)
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
    """A 64-bit fingerprint of each edge's data row, keyed by its original edge id."""
    with np.errstate(over="ignore"):
        return _mix(_mix(eid.astype(np.uint64) + np.uint64(salt)) ^ row_hash(rows, salt))


def _expected_sums(meta, e, owners, num_parts: int, hops: int):
    """Per partition, the fingerprint sums of the chunked edges it owns (into its nodes), of
    those it keeps as HALO copies (from its nodes into another's), and of each edge field's rows
    it owns; one chunk at a time. Without HALO (``hops == 0``) a partition keeps only the edges
    between its own nodes."""
    owned = np.zeros(num_parts, dtype=np.uint64)
    copies = np.zeros(num_parts, dtype=np.uint64)
    names = sorted(meta.edge_data.get(e, {}))
    feats = [np.zeros(num_parts, dtype=np.uint64) for _ in names]
    row0 = 0
    for c in range(len(meta.edges[e].paths)):
        s, d = read_edges(meta, e, c)
        eid = np.arange(row0, row0 + len(s), dtype=np.int64)
        h = edge_hash(eid, s, d)
        ps, pd = owners[e[0]][s], owners[e[2]][d]
        mine = pd >= 0
        if hops == 0:  # a partition without HALO keeps only the edges between its own nodes
            mine &= ps == pd
        np.add.at(owned, pd[mine], h[mine])
        if hops:
            cross = (ps != pd) & (ps >= 0)
            np.add.at(copies, ps[cross], h[cross])
        for k, name in enumerate(names):
            rows = meta.edge_data[e][name].read(c)
            if len(rows) != len(s):
                raise GraphpartError(
                    f"{meta.edge_data[e][name].paths[c]}: {len(rows)} rows, but its edge chunk "
                    f"has {len(s)} edges"
                )
            np.add.at(feats[k], pd[mine], feature_hash(eid, rows, k + 1)[mine])
        row0 += len(s)
    return owned, copies, feats

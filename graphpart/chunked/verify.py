"""``verify``: check a written partitioning against the chunked graph it came from.

Counts (nodes and edges per type), ownership (every node owned by exactly one
partition, every edge by the partition of its destination), edges (each local
edge's original id leads to a chunked edge with the same original endpoints)
and features (each owned row equals the chunked row of its original id). The
checker reads one edge type / one feature at a time, whole, and each partition
once per type: it is meant for graphs whose largest edge type fits in memory.
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

__all__ = ["verify", "Verification"]


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
    parts = [load_partition(config, p) for p in range(cfg["num_parts"])]
    lacking = [
        p
        for p, data in enumerate(parts)
        if "orig_id" not in data.graph.ndata or "orig_id" not in data.graph.edata
    ]
    if lacking:
        raise GraphpartError(
            f"verify compares original node and edge ids (orig_id, which graphpart writes), but "
            f"partition {lacking[0]} of {config} ({FORMAT_NAMES[source.format]}) has none; "
            "verify partitions graphpart wrote"
        )
    owners = {t: np.zeros(meta.num_nodes[t], dtype=np.int64) for t in ntypes}
    inner_orig = []  # per partition: {type index: original ids of the inner nodes}
    for p, data in enumerate(parts):
        lg = data.graph
        inner = lg.ndata["inner_node"].numpy().astype(bool)
        nt, orig = _types(lg, "n", lg.num_nodes())[inner], lg.ndata["orig_id"].numpy()[inner]
        if np.any(lg.ndata["part_id"].numpy()[inner] != p):
            problems.append(f"partition {p}: inner nodes with another part_id")
        inner_orig.append({i: orig[nt == i] for i in range(len(ntypes))})
        for i, t in enumerate(ntypes):
            np.add.at(owners[t], inner_orig[p][i], 1)
    for i, t in enumerate(ntypes):
        for name, spec in meta.node_data.get(t, {}).items():
            key, full = f"{t}/{name}", read_data(spec, None, f"{t}/{name}")
            for p, data in enumerate(parts):
                got = (data.node_feats or {}).get(key)
                if got is None or not np.array_equal(got.numpy(), full[inner_orig[p][i]]):
                    problems.append(f"partition {p}: node feature {key!r} differs from the chunks")
            checked["node feature rows"] = checked.get("node feature rows", 0) + len(full)
    for t, count in owners.items():
        if np.any(count != 1):
            problems.append(
                f"node type {t!r}: {int((count != 1).sum())} nodes not owned by exactly one "
                "partition"
            )
    checked["nodes (ownership)"] = sum(len(c) for c in owners.values())
    for i, name in enumerate(etypes):
        e = by_name[name]
        chunks = [read_edges(meta, e, c) for c in range(len(meta.edges[e].paths))]
        src = np.concatenate([s for s, _ in chunks])
        dst = np.concatenate([d for _, d in chunks])
        feats = {k: read_data(s, None, k) for k, s in meta.edge_data.get(e, {}).items()}
        covered = np.zeros(len(src), dtype=np.int64)
        for p, data in enumerate(parts):
            lg = data.graph
            sel = _types(lg, "e", lg.num_edges()) == i
            ls, ld = (x.numpy()[sel] for x in lg.edges())
            oe = lg.edata["orig_id"].numpy()[sel]
            inner_e = lg.edata["inner_edge"].numpy().astype(bool)[sel]
            on, ntp = lg.ndata["orig_id"].numpy(), _types(lg, "n", lg.num_nodes())
            si, di = ntypes.index(e[0]), ntypes.index(e[2])
            good = (on[ls] == src[oe]) & (on[ld] == dst[oe]) & (ntp[ls] == si) & (ntp[ld] == di)
            if not good.all():
                problems.append(
                    f"partition {p}: {int((~good).sum())} {name!r} edges whose endpoints differ "
                    "from the chunks"
                )
            if not lg.ndata["inner_node"].numpy().astype(bool)[ld[inner_e]].all():
                problems.append(
                    f"partition {p}: owned {name!r} edges whose destination it does not own"
                )
            np.add.at(covered, oe[inner_e], 1)
            for k, full in feats.items():
                got = (data.edge_feats or {}).get(f"{name}/{k}")
                if got is None or not np.array_equal(got.numpy(), full[oe[inner_e]]):
                    problems.append(
                        f"partition {p}: edge feature {name}/{k} differs from the chunks"
                    )
            checked["local edges, owned and HALO (endpoints)"] = checked.get(
                "local edges, owned and HALO (endpoints)", 0
            ) + int(sel.sum())
        if np.any(covered != 1):
            problems.append(
                f"edge type {name!r}: {int((covered != 1).sum())} edges not owned exactly once"
            )
    return result

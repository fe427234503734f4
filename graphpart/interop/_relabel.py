"""Partitions that keep original ids (PyG, GLT) seen through graphpart's partition-major ids.

PyG and GLT store, per partition, the edges it holds and the rows of the nodes and edges it owns,
all in original (type-wise) ids, plus a node -> partition map. graphpart's views (metrics, the
partition book, the figures) expect DGL's model: ids renumbered so that each partition owns one
contiguous range per type, and a local graph of inner nodes then HALO nodes. :class:`Relabeled`
builds that model from the foreign arrays, vectorised, without changing what any partition holds:
each foreign edge becomes an inner edge of the partition that stored it, and each node a
partition referenced without owning it becomes a HALO node (``orig_id`` keeps the original id).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from ..errors import FormatError
from ..fs.untrusted import check_folder_tree
from ..graph.core import Graph
from ..homogeneous import type_offsets
from ..index import block_bounds, group_order, group_rank, part_ranges
from ..utils.check import is_file_name, short_repr

__all__ = ["ForeignPart", "Relabeled", "check_types"]


def check_part_folders(root: Path, num_parts: int, prefix: str, source: str) -> None:
    """The ``num_parts`` a foreign META claims, checked against the folder before it sizes
    anything: one real folder ``<prefix><i>`` per partition (no symlink out of the folder)."""
    check_folder_tree(root, source)
    names = {p.name: p for p in root.iterdir()}
    if num_parts > len(names):
        raise FormatError(
            f"{source}: META says {num_parts:,} partitions, but the folder holds {len(names)} "
            f"entries (expected {prefix}0 ... {prefix}{num_parts - 1})"
        )
    for i in range(num_parts):
        p = names.get(f"{prefix}{i}")
        if p is None or p.is_symlink() or not p.is_dir():
            raise FormatError(
                f"{source}: partition {i} has no folder {prefix}{i} (a real folder, not a link)"
            )


def check_types(ntypes: list, etypes: list, source: str) -> None:
    """Type names from a foreign META: plain names (they become file names), edge ends among the
    nodes."""
    bad = [t for t in ntypes if not is_file_name(t)]
    if not ntypes or bad:
        raise FormatError(
            f"{source}: node types must be plain non-empty names, got {short_repr(ntypes)}"
        )
    for e in etypes:
        if not (
            isinstance(e, tuple)
            and len(e) == 3
            and all(isinstance(x, str) and x for x in e)
            and e[0] in ntypes
            and e[2] in ntypes
            and all(is_file_name(x) for x in e)
        ):
            raise FormatError(
                f"{source}: edge type {short_repr(e)} is not (src, rel, dst) over the node types "
                f"{ntypes[:10]}"
            )


@dataclass
class ForeignPart:
    """One partition as a foreign format stores it (type-wise original ids throughout)."""

    edges: dict[
        tuple[str, str, str], tuple[torch.Tensor, torch.Tensor, torch.Tensor]
    ]  # src, dst, eid
    node_feats: dict[
        str, tuple[torch.Tensor, dict[str, torch.Tensor]]
    ]  # ntype -> (ids, {name: rows})
    edge_feats: dict[tuple[str, str, str], tuple[torch.Tensor, dict[str, torch.Tensor]]]


def _renumber(
    parts: list[torch.Tensor], num_parts: int
) -> tuple[np.ndarray, list[torch.Tensor], list[torch.Tensor]]:
    """Bounds (parts, types, 2), new id of every original id, original id of every new id, per type.

    The same id-order rule as graphpart's reshuffle: partition-major, then type, stable inside.
    """
    grouped = [group_order(p.numpy(), num_parts) for p in parts]
    counts = (
        np.stack([c for _, c in grouped], axis=1) if parts else np.zeros((num_parts, 0), np.int64)
    )
    bounds = block_bounds(counts)
    new_of = [
        torch.from_numpy(bounds[:, t, 0][p.numpy()] + group_rank(order, counts[:, t]))
        for t, (p, (order, _)) in enumerate(zip(parts, grouped))
    ]
    return bounds, new_of, [torch.from_numpy(order) for order, _ in grouped]


class Relabeled:
    """graphpart's ids and local graphs for a partitioning stored in original ids."""

    def __init__(
        self,
        ntypes: list[str],
        etypes: list[tuple[str, str, str]],
        node_part: dict[str, torch.Tensor],
        edge_part: dict[tuple[str, str, str], torch.Tensor],
        num_parts: int,
        source: str,
    ) -> None:
        self.ntypes, self.etypes, self.num_parts, self.source = ntypes, etypes, num_parts, source
        for name, table, keys in (("node", node_part, ntypes), ("edge", edge_part, etypes)):
            for k in keys:
                p = table[k]
                if p.dim() != 1 or (len(p) and (int(p.min()) < 0 or int(p.max()) >= num_parts)):
                    raise FormatError(
                        f"{source}: the {name} map of {short_repr(k)} must hold partition ids in "
                        f"[0, {num_parts}), got {tuple(p.shape)} in "
                        f"[{int(p.min()) if len(p) else '-'}, "
                        f"{int(p.max()) if len(p) else '-'}]"
                    )
        self.node_part = [node_part[t].to(torch.int64) for t in ntypes]
        self.edge_part = [edge_part[e].to(torch.int64) for e in etypes]
        self.node_bounds, self.new_nid, self.old_nid = _renumber(self.node_part, num_parts)
        self.edge_bounds, self.new_eid, self.old_eid = _renumber(self.edge_part, num_parts)
        self.node_offsets = type_offsets([len(p) for p in self.node_part])
        self._typeof: tuple[torch.Tensor, torch.Tensor] | None = None

    def _homo_new(self, t: int, ids: torch.Tensor, what: str) -> torch.Tensor:
        if len(ids) and (int(ids.min()) < 0 or int(ids.max()) >= len(self.new_nid[t])):
            raise FormatError(
                f"{self.source}: {what} has ids outside [0, {len(self.new_nid[t])}) of type "
                f"{short_repr(self.ntypes[t])}"
            )
        return self.new_nid[t][ids.to(torch.int64)]

    def _type_of_new(self, new: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Type and type-wise original id of new homogeneous node ids."""
        if self._typeof is None:
            total = int(self.node_offsets[-1])
            self._typeof = (
                torch.empty(total, dtype=torch.int64),
                torch.empty(total, dtype=torch.int64),
            )
            for t, new_of in enumerate(self.new_nid):
                self._typeof[0][new_of] = t
                self._typeof[1][new_of] = torch.arange(len(new_of))
        return self._typeof[0][new], self._typeof[1][new]

    def local_graph(self, part_id: int, fp: ForeignPart) -> Graph:
        """Inner nodes (the partition's id range), then HALO nodes (referenced, owned elsewhere)."""
        tid = {t: i for i, t in enumerate(self.ntypes)}
        srcs, dsts, eids, etys = [], [], [], []
        for k, e in enumerate(self.etypes):
            if e not in fp.edges:
                continue
            s, d, eid = fp.edges[e]
            if not (len(s) == len(d) == len(eid)):
                raise FormatError(
                    f"{self.source}: partition {part_id} edge type {e} has {len(s)} sources, "
                    f"{len(d)} destinations and {len(eid)} edge ids"
                )
            srcs.append(self._homo_new(tid[e[0]], s, f"partition {part_id} edges {e}"))
            dsts.append(self._homo_new(tid[e[2]], d, f"partition {part_id} edges {e}"))
            if len(eid) and (int(eid.min()) < 0 or int(eid.max()) >= len(self.new_eid[k])):
                raise FormatError(
                    f"{self.source}: partition {part_id} edge ids of {e} leave [0, "
                    f"{len(self.new_eid[k])})"
                )
            eids.append(self.new_eid[k][eid.to(torch.int64)])
            etys.append(torch.full((len(s),), k, dtype=torch.int32))

        def cat(xs, dt):
            return torch.cat(xs) if xs else torch.zeros(0, dtype=dt)

        src, dst, eid, ety = (
            cat(srcs, torch.int64),
            cat(dsts, torch.int64),
            cat(eids, torch.int64),
            cat(etys, torch.int32),
        )
        order = torch.argsort(eid)
        src, dst, eid, ety = src[order], dst[order], eid[order], ety[order]
        start, end = (int(x) for x in part_ranges(self.node_bounds)[part_id])
        ends = torch.cat([src, dst])
        halo = torch.unique(ends[(ends < start) | (ends >= end)])
        nodes = torch.cat([torch.arange(start, end), halo])

        def local(ids):
            inside = (ids >= start) & (ids < end)
            return torch.where(inside, ids - start, (end - start) + torch.searchsorted(halo, ids))

        flat_starts = torch.from_numpy(self.node_bounds.reshape(self.num_parts, -1)[:, 0].copy())
        part = torch.searchsorted(flat_starts, nodes, right=True) - 1
        ntype, orig = self._type_of_new(nodes)
        ndata = {
            "_ID": nodes,
            "inner_node": (part == part_id).to(torch.uint8),
            "part_id": part,
            "orig_id": orig,
        }
        es, ee = (int(x) for x in part_ranges(self.edge_bounds)[part_id])
        edata = {"_ID": eid, "inner_edge": ((eid >= es) & (eid < ee)).to(torch.uint8)}
        if len(self.ntypes) > 1 or len(self.etypes) > 1:
            ndata["_TYPE"], edata["_TYPE"] = ntype.to(torch.int32), ety
        return Graph.from_edges(
            local(src), local(dst), num_nodes=len(nodes), ndata=ndata, edata=edata
        )

    def _rows(
        self,
        part_id: int,
        t: int,
        ids: torch.Tensor,
        data: dict,
        new_of,
        bounds,
        what: str,
        key: str,
    ):
        ids = ids.to(torch.int64)
        if len(ids) and (int(ids.min()) < 0 or int(ids.max()) >= len(new_of[t])):
            raise FormatError(
                f"{self.source}: partition {part_id} stores {what} rows of {short_repr(key)} for "
                f"ids in "
                f"[{int(ids.min())}, {int(ids.max())}], outside the partition map's "
                f"[0, {len(new_of[t])})"
            )
        new = new_of[t][ids]
        a, b = int(bounds[part_id, t, 0]), int(bounds[part_id, t, 1])
        if (
            len(new) != b - a
            or (len(new) and (int(new.min()) != a or int(new.max()) != b - 1))
            or len(torch.unique(new)) != len(new)
        ):
            raise FormatError(
                f"{self.source}: partition {part_id} stores {what} rows for {len(new)} ids of "
                f"{short_repr(key)}, but owns {b - a} of them by the partition map"
            )
        for name, v in data.items():
            if v is not None and (
                not isinstance(v, torch.Tensor) or v.dim() == 0 or len(v) != len(ids)
            ):
                raise FormatError(
                    f"{self.source}: partition {part_id} {what} data {key}/{name} has "
                    f"{tuple(getattr(v, 'shape', ()))} rows for {len(ids)} ids"
                )
        order = torch.argsort(new)
        return {f"{key}/{name}": v[order] for name, v in data.items() if v is not None}

    def node_feats(self, part_id: int, fp: ForeignPart) -> dict[str, torch.Tensor]:
        out = {}
        for t, (ids, data) in fp.node_feats.items():
            out.update(
                self._rows(
                    part_id,
                    self.ntypes.index(t),
                    ids,
                    data,
                    self.new_nid,
                    self.node_bounds,
                    "node",
                    t,
                )
            )
        return out

    def edge_feats(self, part_id: int, fp: ForeignPart) -> dict[str, torch.Tensor]:
        out = {}
        for e, (ids, data) in fp.edge_feats.items():
            out.update(
                self._rows(
                    part_id,
                    self.etypes.index(e),
                    ids,
                    data,
                    self.new_eid,
                    self.edge_bounds,
                    "edge",
                    ":".join(e),
                )
            )
        return out

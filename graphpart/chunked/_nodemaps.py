"""Node id maps of the chunked pipeline: from an assignment to new ids, kept as memory-mapped files.

Every worker task opens these ``.npy`` files with ``mmap_mode="r"``: three
int64 arrays per node type (partition, new id, and original ids grouped by
partition), shared through the page cache instead of copied into each task.
New ids follow :func:`graphpart.index.group_order`, the rule
the in-memory reshuffle uses: partition-major, then node type, then original id.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from ..index import block_bounds, group_order
from ..partitioning.book import RangePartitionBook

__all__ = ["NodeMaps"]


@dataclass(frozen=True)
class NodeMaps:
    """New node ids of a chunked graph under one assignment.

    Attributes
    ----------
    folder : Path
        Where the ``.npy`` maps live (inside the output's temporary folder).
    ntypes : tuple of str
        Node types in id order (sorted, as :class:`~graphpart.Graph` orders them).
    counts : ndarray, shape (num_parts, num_ntypes)
        Nodes of each type in each partition.
    bounds : ndarray, shape (num_parts, num_ntypes, 2)
        ``[start, end)`` of each (partition, type) block of new homogeneous ids.
    """

    folder: Path
    ntypes: tuple[str, ...]
    counts: np.ndarray
    bounds: np.ndarray

    @classmethod
    def build(
        cls, parts: dict[str, np.ndarray], ntypes: list[str], num_parts: int, folder: Path
    ) -> "NodeMaps":
        """Compute the maps of ``parts`` (``{ntype: partition per node}``) and save them under
        ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        counts = np.zeros((num_parts, len(ntypes)), dtype=np.int64)
        for ti, t in enumerate(ntypes):
            counts[:, ti] = np.bincount(parts[t], minlength=num_parts)
        bounds = block_bounds(counts)
        # a type at a time, each partition's block of new ids written in place: beside the
        # parts, its grouping order and new ids (8 + 8 bytes a node, no copies of every node)
        for ti, t in enumerate(ntypes):
            part = np.asarray(parts[t], dtype=np.int64)
            order = group_order(part, num_parts)[0]
            new = np.empty(len(order), dtype=np.int64)
            at = np.cumsum(counts[:, ti]) - counts[:, ti]
            for p in np.flatnonzero(counts[:, ti]).tolist():  # a loop over partitions
                lo, hi = int(bounds[p, ti, 0]), int(bounds[p, ti, 1])
                new[order[at[p] : at[p] + hi - lo]] = np.arange(lo, hi, dtype=np.int64)
            np.save(folder / f"{ti}.part.npy", part)
            np.save(folder / f"{ti}.new.npy", new)
            np.save(folder / f"{ti}.order.npy", order)
            del part, order, new
        return cls(folder, tuple(ntypes), counts, bounds)

    def _load(self, ti: int, kind: str) -> np.ndarray:
        return np.load(self.folder / f"{ti}.{kind}.npy", mmap_mode="r")

    def part(self, ti: int) -> np.ndarray:
        """Partition of every node of type ``ti`` (by type-wise original id)."""
        return self._load(ti, "part")

    def new(self, ti: int) -> np.ndarray:
        """New homogeneous id of every node of type ``ti`` (by type-wise original id)."""
        return self._load(ti, "new")

    @property
    def num_parts(self) -> int:
        return self.counts.shape[0]

    def inner_orig(self, p: int, ti: int) -> np.ndarray:
        """Type-wise original ids of the type-``ti`` nodes partition ``p`` owns, in new id order."""
        start = int(self.counts[:p, ti].sum())
        return np.asarray(self._load(ti, "order")[start : start + int(self.counts[p, ti])])

    def describe(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(partition, node type, type-wise original id)`` of new homogeneous ids ``nodes``."""
        book = self.book
        ids = torch.from_numpy(np.ascontiguousarray(nodes, dtype=np.int64))
        part = book.nid2partid(ids).numpy()
        ntype, typed_new = (x.numpy() for x in book.map_to_per_ntype(ids))
        orig = np.empty(len(nodes), dtype=np.int64)
        for ti in range(len(self.ntypes)):  # a loop over node types, not nodes
            sel = np.flatnonzero(ntype == ti)
            if len(sel):  # type-wise new ids follow the order the type's nodes were grouped in
                orig[sel] = self._load(ti, "order")[typed_new[sel]]
        return part, ntype, orig

    @functools.cached_property
    def book(self) -> RangePartitionBook:
        """The partition book of the new node ids (no edges)."""
        no_edges = np.zeros((self.num_parts, 0, 2), dtype=np.int64)
        return RangePartitionBook.from_bounds(0, self.bounds, no_edges, list(self.ntypes), [])

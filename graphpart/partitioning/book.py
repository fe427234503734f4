"""The range partition book: which partition owns which node / edge, and id conversions.

After reshuffling, the nodes of each (partition, type) pair hold one
contiguous range of homogeneous ids, partitions in order and types in order
inside each partition. Every lookup here is a binary search over range ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch

from ..errors import IDRangeError, UnknownTypeError
from ..graph.schema import etype_str
from ..index import part_ranges, stack_ranges
from ..typing import CanonicalEType, IdArray
from ..utils.check import check_part_id, short_repr
from ..utils.tensors import as_id_tensor

__all__ = ["RangePartitionBook"]


class _Ranges:
    """Contiguous ``[start, end)`` blocks per (partition, type), partition-major."""

    def __init__(self, bounds: np.ndarray, types: list[str], what: str) -> None:
        self.bounds = np.asarray(bounds, dtype=np.int64)  # (parts, types, 2)
        self.types = types
        self.what = what
        k, t, _ = self.bounds.shape
        sizes = self.bounds[:, :, 1] - self.bounds[:, :, 0]
        self.block_ends = torch.from_numpy(self.bounds[:, :, 1].reshape(-1).copy())
        self.block_starts = torch.from_numpy(self.bounds[:, :, 0].reshape(-1).copy())
        # Type-wise id of the first item of each block: items of that type in earlier partitions.
        typed_start = np.cumsum(sizes, axis=0) - sizes
        self.typed_start = torch.from_numpy(typed_start.reshape(-1).copy())
        self.type_counts = sizes.sum(axis=0)
        self.part_ends = (
            torch.from_numpy(self.bounds[:, -1, 1].copy())
            if t
            else torch.zeros(k, dtype=torch.int64)
        )
        self.total = int(self.part_ends[-1]) if k else 0

    def type_id(self, name: str | None) -> int | None:
        if name is None:
            return None
        try:
            return self.types.index(name)
        except ValueError:
            raise UnknownTypeError(
                f"unknown {self.what} type {short_repr(name)}; known: {self.types}"
            ) from None

    def homo(self, ids: IdArray, type_name: str | None) -> torch.Tensor:
        ids = as_id_tensor(ids, f"{self.what} ids")
        t = self.type_id(type_name)
        if t is None:
            self._check(ids, self.total, "homogeneous")
            return ids
        self._check(ids, int(self.type_counts[t]), f"{self.types[t]!r}")
        k, nt = self.bounds.shape[:2]
        # Partition of a type-wise id: binary search over that type's per-partition ends.
        typed_ends = self.typed_start.view(k, nt)[:, t] + torch.from_numpy(
            (self.bounds[:, t, 1] - self.bounds[:, t, 0]).copy()
        )
        p = torch.searchsorted(typed_ends, ids, right=True)
        b = p * nt + t
        return self.block_starts[b] + ids - self.typed_start[b]

    def typed(self, ids: IdArray) -> tuple[torch.Tensor, torch.Tensor]:
        ids = as_id_tensor(ids, f"{self.what} ids")
        self._check(ids, self.total, "homogeneous")
        b = torch.searchsorted(self.block_ends, ids, right=True)
        nt = self.bounds.shape[1]
        return b % nt, self.typed_start[b] + ids - self.block_starts[b]

    def part_of(self, ids: IdArray, type_name: str | None) -> torch.Tensor:
        return torch.searchsorted(self.part_ends, self.homo(ids, type_name), right=True)

    def part_ids(self, p: int, type_name: str | None) -> torch.Tensor:
        check_part_id(p, self.bounds.shape[0])
        t = self.type_id(type_name)
        if t is None:
            start, end = part_ranges(self.bounds)[p]
            return torch.arange(int(start), int(end))
        start = int(self.typed_start[p * self.bounds.shape[1] + t])
        return torch.arange(start, start + int(self.bounds[p, t, 1] - self.bounds[p, t, 0]))

    def local(self, ids: IdArray, p: int, type_name: str | None) -> torch.Tensor:
        check_part_id(p, self.bounds.shape[0])
        homo = self.homo(ids, type_name)
        start, end = (int(x) for x in part_ranges(self.bounds)[p])
        outside = (homo < start) | (homo >= end)
        if bool(outside.any()):
            bad = int(homo[outside][0])
            raise IDRangeError(
                f"{self.what} {bad} (homogeneous id) is not owned by partition {p}, "
                f"which owns [{start}, {end})"
            )
        return homo - start

    def _check(self, ids: torch.Tensor, upper: int, kind: str) -> None:
        if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= upper):
            raise IDRangeError(
                f"{self.what} ids must lie in [0, {upper}) ({kind} ids), "
                f"got values from {int(ids.min())} to {int(ids.max())}"
            )


class RangePartitionBook:
    """Which partition owns each node and edge, with DGL's partition-book methods.

    Ids are homogeneous (shuffled) ids unless a node / edge type is given, in
    which case they are type-wise (shuffled) ids of that type.

    Parameters
    ----------
    part_id : int
        The partition this book was loaded for (:attr:`partid`); not checked against the number
        of partitions.
    node_map : mapping of str to array-like
        ``{ntype: [[start, end) per partition]}`` in homogeneous node ids, as in DGL's partition
        config: one ``[start, end)`` pair per partition for each node type. The ranges must lie
        end to end, partition after partition and types in type order inside each (as a
        reshuffle leaves them). The number of partitions is read from the first entry.
    edge_map : mapping of str to array-like
        ``{"src:rel:dst": [[start, end) per partition]}`` in homogeneous edge ids.
    ntypes : mapping of str to int, optional
        ``{ntype: type id}``, which orders the node types; default: the order of ``node_map``.
    etypes : mapping of str to int, optional
        ``{"src:rel:dst": type id}``, which orders the edge types; default: the order of
        ``edge_map``.

    See Also
    --------
    RangePartitionBook.from_bounds : the same book from ``(parts, types, 2)`` bound arrays.

    Examples
    --------
    >>> book = RangePartitionBook(0, {"_N": [[0, 3], [3, 5]]}, {"_N:_E:_N": [[0, 4], [4, 6]]})
    >>> book.num_partitions(), book.nid2partid([0, 2, 3, 4]).tolist()
    (2, [0, 0, 1, 1])
    >>> book.partid2nids(1).tolist(), book.nid2localnid([3, 4], 1).tolist()
    ([3, 4], [0, 1])
    """

    def __init__(
        self,
        part_id: int,
        node_map: Mapping[str, object],
        edge_map: Mapping[str, object],
        ntypes: Mapping[str, int] | None = None,
        etypes: Mapping[str, int] | None = None,
    ) -> None:
        ntypes = dict(ntypes or {t: i for i, t in enumerate(node_map)})
        etypes = dict(etypes or {t: i for i, t in enumerate(edge_map)})
        self._ntypes = sorted(ntypes, key=ntypes.get)
        self._etypes = sorted(etypes, key=etypes.get)
        num_parts = len(np.asarray(next(iter(node_map.values()))).reshape(-1, 2)) if node_map else 0
        nb = stack_ranges(node_map, self._ntypes, num_parts)
        eb = stack_ranges(edge_map, self._etypes, num_parts)
        self._nodes = _Ranges(nb, self._ntypes, "node")
        self._edges = _Ranges(eb, self._etypes, "edge")
        self.part_id = int(part_id)

    @classmethod
    def from_bounds(
        cls,
        part_id: int,
        node_bounds: np.ndarray,
        edge_bounds: np.ndarray,
        ntypes: Sequence[str],
        etypes: Sequence[str],
    ) -> RangePartitionBook:
        """The book of ``[start, end)`` blocks shaped (parts, types, 2), types in id order.

        Examples
        --------
        >>> nb = np.array([[[0, 3]], [[3, 5]]]); eb = np.array([[[0, 4]], [[4, 6]]])
        >>> RangePartitionBook.from_bounds(1, nb, eb, ["_N"], ["_N:_E:_N"]).partid2nids(1).tolist()
        [3, 4]
        """
        return cls(
            part_id,
            {t: node_bounds[:, i] for i, t in enumerate(ntypes)},
            {t: edge_bounds[:, i] for i, t in enumerate(etypes)},
            {t: i for i, t in enumerate(ntypes)},
            {t: i for i, t in enumerate(etypes)},
        )

    # ---------------------------------------------------------------- structure
    @property
    def partid(self) -> int:
        """The partition this book was loaded for (DGL's name)."""
        return self.part_id

    @property
    def ntypes(self) -> list[str]:
        return list(self._ntypes)

    @property
    def canonical_etypes(self) -> list[CanonicalEType]:
        return [tuple(e.split(":")) for e in self._etypes]  # type: ignore[misc]

    @property
    def node_map(self) -> dict[str, list[list[int]]]:
        """``{ntype: [[start, end) per partition]}`` in homogeneous ids."""
        return {t: self._nodes.bounds[:, i].tolist() for i, t in enumerate(self._ntypes)}

    @property
    def edge_map(self) -> dict[str, list[list[int]]]:
        """``{"src:rel:dst": [[start, end) per partition]}`` in homogeneous edge ids."""
        return {t: self._edges.bounds[:, i].tolist() for i, t in enumerate(self._etypes)}

    def num_partitions(self) -> int:
        return self._nodes.bounds.shape[0]

    def metadata(self) -> list[dict[str, int]]:
        """One dict per partition: ``machine_id``, ``num_nodes``, ``num_edges`` (owned)."""
        n = np.diff(part_ranges(self._nodes.bounds), axis=1).ravel()
        e = np.diff(part_ranges(self._edges.bounds), axis=1).ravel()
        return [
            {"machine_id": p, "num_nodes": int(n[p]), "num_edges": int(e[p])} for p in range(len(n))
        ]

    def _etype(self, etype: object) -> str | None:
        if etype is None:
            return None
        if isinstance(etype, tuple):
            return etype_str(etype)
        if etype in self._etypes:
            return str(etype)
        matches = [e for e in self._etypes if e.split(":")[1] == etype]
        if len(matches) == 1:
            return matches[0]
        raise UnknownTypeError(
            f"unknown or ambiguous edge type {short_repr(etype)}; known: {self._etypes}"
        )

    # ---------------------------------------------------------------- lookups
    def nid2partid(self, nids: IdArray, ntype: str | None = None) -> torch.Tensor:
        return self._nodes.part_of(nids, ntype)

    def eid2partid(self, eids: IdArray, etype: object = None) -> torch.Tensor:
        return self._edges.part_of(eids, self._etype(etype))

    def partid2nids(self, partid: int, ntype: str | None = None) -> torch.Tensor:
        """Ids owned by ``partid``: homogeneous, or type-wise of ``ntype``."""
        return self._nodes.part_ids(partid, ntype)

    def partid2eids(self, partid: int, etype: object = None) -> torch.Tensor:
        return self._edges.part_ids(partid, self._etype(etype))

    def nid2localnid(self, nids: IdArray, partid: int, ntype: str | None = None) -> torch.Tensor:
        """Local ids in ``partid``'s graph (inner nodes come first, so local = global - start)."""
        return self._nodes.local(nids, partid, ntype)

    def eid2localeid(self, eids: IdArray, partid: int, etype: object = None) -> torch.Tensor:
        return self._edges.local(eids, partid, self._etype(etype))

    def map_to_per_ntype(self, ids: IdArray) -> tuple[torch.Tensor, torch.Tensor]:
        """Homogeneous node ids to ``(node type ids, type-wise ids)``."""
        return self._nodes.typed(ids)

    def map_to_per_etype(self, ids: IdArray) -> tuple[torch.Tensor, torch.Tensor]:
        return self._edges.typed(ids)

    def map_to_homo_nid(self, ids: IdArray, ntype: str) -> torch.Tensor:
        """Type-wise ids of ``ntype`` to homogeneous node ids."""
        return self._nodes.homo(ids, ntype)

    def map_to_homo_eid(self, ids: IdArray, etype: object) -> torch.Tensor:
        return self._edges.homo(ids, self._etype(etype))

    def __repr__(self) -> str:
        return (
            f"RangePartitionBook(part_id={self.part_id}, num_partitions={self.num_partitions()}, "
            f"ntypes={self._ntypes}, etypes={self._etypes})"
        )

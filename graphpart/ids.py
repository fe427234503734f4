"""Heterogeneous <-> homogeneous node and edge IDs, vectorised over tensors.

Nodes of type ``i`` (in type order) own the homogeneous ids
``[offset[i], offset[i + 1])``; edges likewise per canonical edge type. A node
is identified either by its homogeneous id or by ``(type, type-wise id)``.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch

from .errors import FormatError, GraphpartError, IDRangeError
from .fs.untrusted import read_json
from .graph.schema import Schema, etype_str
from .homogeneous import homogeneous_ids, type_offsets, typed_ids
from .typing import CanonicalEType, ETypeLike, IdArray
from .utils.check import check_count, short_repr
from .utils.tensors import as_id_tensor

__all__ = ["IDConverter"]

TypeArg = str | int | CanonicalEType | IdArray


class _Space:
    """One id space (nodes or edges): type names, counts and offsets."""

    def __init__(self, names: Sequence[str], counts: Sequence[int], kind: str, to_id, to_name):
        self.names = list(names)
        self.counts = torch.tensor(counts, dtype=torch.int64)
        self.offsets = torch.from_numpy(type_offsets(counts))
        self.kind = kind
        self.to_id = to_id
        self.to_name = to_name

    @property
    def total(self) -> int:
        return int(self.offsets[-1])

    def het2hom(self, typ: TypeArg, ids: IdArray | int) -> torch.Tensor | int:
        scalar = _is_scalar(ids)
        t_ids = as_id_tensor(_one_d(ids) if scalar else ids, f"{self.kind} ids")
        if _is_type_array(typ):
            tt = as_id_tensor(typ, f"{self.kind} type ids")
            if tt.shape != t_ids.shape:
                raise GraphpartError(
                    f"{self.kind} type ids and ids must have the same length, "
                    f"got {len(tt)} and {len(t_ids)}"
                )
            if tt.numel() and (int(tt.min()) < 0 or int(tt.max()) >= len(self.names)):
                raise IDRangeError(
                    f"{self.kind} type ids must be within [0, {len(self.names)}), got "
                    f"{int(tt.min()) if int(tt.min()) < 0 else int(tt.max())}"
                )
            bad = (t_ids < 0) | (t_ids >= self.counts[tt])
            if bad.any():
                i = int(bad.nonzero()[0, 0])
                self._range_error(int(tt[i]), int(t_ids[i]))
            out = homogeneous_ids(tt, t_ids, self.offsets)
        else:
            tid = self.to_id(typ)
            if t_ids.numel():
                lo, hi = int(t_ids.min()), int(t_ids.max())
                if lo < 0 or hi >= int(self.counts[tid]):
                    self._range_error(tid, lo if lo < 0 else hi)
            out = homogeneous_ids(tid, t_ids, self.offsets)
        return int(out[0]) if scalar else out

    def _range_error(self, tid: int, value: int) -> None:
        raise IDRangeError(
            f"{self.kind} ids of type {short_repr(self.names[tid])} must be within "
            f"[0, {int(self.counts[tid])}), got {value}"
        )

    def hom2het(self, ids: IdArray | int) -> tuple[Any, Any]:
        scalar = _is_scalar(ids)
        h = as_id_tensor(_one_d(ids) if scalar else ids, f"homogeneous {self.kind} ids")
        if h.numel():
            lo, hi = int(h.min()), int(h.max())
            if lo < 0 or hi >= self.total:
                raise IDRangeError(
                    f"homogeneous {self.kind} ids must be within [0, {self.total}), "
                    f"got {lo if lo < 0 else hi}"
                )
        tid, local = typed_ids(h, self.offsets)
        if scalar:
            return self.to_name(int(tid[0])), int(local[0])
        return tid, local


def _is_scalar(x: object) -> bool:
    if isinstance(x, torch.Tensor):
        return x.dim() == 0
    if isinstance(x, np.ndarray):
        return x.ndim == 0
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _one_d(x: object) -> object:
    """A scalar as a one-element array, keeping its dtype so floats are still refused."""
    if isinstance(x, torch.Tensor):
        return x.reshape(1)
    return np.asarray(x).reshape(1)


def _is_type_array(x: object) -> bool:
    if isinstance(x, (torch.Tensor, np.ndarray)):
        return x.ndim > 0
    return isinstance(x, list)


class IDConverter:
    """Convert node and edge ids between heterogeneous and homogeneous form.

    Parameters
    ----------
    ntypes : list of str
        Node types, in homogeneous-id order.
    num_nodes_per_type : list of int
    canonical_etypes : list of (src, rel, dst) or "src:rel:dst"
        Edge types, in homogeneous-id order.
    num_edges_per_type : list of int

    Examples
    --------
    >>> conv = IDConverter(["T0", "T1"], [200, 200], ["T0:R0:T1"], [10])
    >>> conv.nid_het2hom("T1", torch.tensor([0, 5]))
    tensor([200, 205])
    >>> conv.nid_hom2het(torch.tensor([199, 200]))
    (tensor([0, 1]), tensor([199,   0]))
    >>> conv.nid_hom2het(200)
    ('T1', 0)
    >>> conv.nid_het2hom("T0", 200)
    Traceback (most recent call last):
    ...
    graphpart.errors.IDRangeError: node ids of type 'T0' must be within [0, 200), got 200
    """

    def __init__(
        self,
        ntypes: Sequence[str],
        num_nodes_per_type: Sequence[int],
        canonical_etypes: Sequence[ETypeLike],
        num_edges_per_type: Sequence[int],
    ) -> None:
        self.schema = Schema.build(ntypes, canonical_etypes)
        for what, names, counts in (
            ("num_nodes_per_type", self.schema.ntypes, num_nodes_per_type),
            ("num_edges_per_type", self.schema.canonical_etypes, num_edges_per_type),
        ):
            if len(counts) != len(names):
                raise GraphpartError(
                    f"{what} must have one count per type ({len(names)}), got {len(counts)}"
                )
            for c in counts:
                check_count(c, what)
        self._nodes = _Space(
            self.schema.ntypes,
            num_nodes_per_type,
            "node",
            self.schema.ntype_id,
            lambda i: self.schema.ntypes[i],
        )
        self._edges = _Space(
            [etype_str(e) for e in self.schema.canonical_etypes],
            num_edges_per_type,
            "edge",
            self.schema.etype_id,
            lambda i: self.schema.canonical_etypes[i],
        )

    # ------------------------------------------------------------------ builders
    @classmethod
    def from_graph(cls, g) -> "IDConverter":
        """The converter matching ``g.to_homogeneous()``.

        Examples
        --------
        >>> from graphpart import Graph
        >>> g = Graph.from_typed_edges({("a", "r", "b"): ([0, 1], [0, 0])})
        >>> IDConverter.from_graph(g).nid_het2hom("b", 0)
        2
        """
        return cls(
            g.ntypes,
            [g.num_nodes(t) for t in g.ntypes],
            g.canonical_etypes,
            [g.num_edges(e) for e in g.canonical_etypes],
        )

    @classmethod
    def from_metadata(cls, meta: Mapping | str | os.PathLike) -> "IDConverter":
        """The converter of a chunked graph's ``metadata.json`` (a dict or a path).

        Counts come from ``num_nodes_per_type`` / ``num_edges_per_type``, or, when
        those are absent, from the sums of ``num_nodes_per_chunk`` / ``num_edges_per_chunk``.

        Examples
        --------
        >>> meta = {"node_type": ["author", "paper"], "num_nodes_per_type": [3, 4],
        ...         "edge_type": ["author:writes:paper"], "num_edges_per_type": [5]}
        >>> IDConverter.from_metadata(meta).nid_hom2het(3)
        ('paper', 0)
        """
        source = "metadata"
        if not isinstance(meta, Mapping):
            if not isinstance(meta, (str, os.PathLike)):
                raise GraphpartError(
                    f"metadata must be a dict or a path to metadata.json, got {type(meta).__name__}"
                )
            source = os.fspath(meta)
            meta = read_json(source, "metadata file")
            if not isinstance(meta, Mapping):
                raise FormatError(f"{source} must hold a JSON object, got {type(meta).__name__}")
        ntypes = _meta_list(meta, "node_type", source)
        etypes = _meta_list(meta, "edge_type", source)
        nn = _meta_counts(meta, "num_nodes_per_type", "num_nodes_per_chunk", len(ntypes), source)
        ne = _meta_counts(meta, "num_edges_per_type", "num_edges_per_chunk", len(etypes), source)
        return cls(ntypes, nn, etypes, ne)

    # ------------------------------------------------------------------ types
    @property
    def ntypes(self) -> list[str]:
        """Node types in homogeneous-id order."""
        return list(self.schema.ntypes)

    @property
    def canonical_etypes(self) -> list[CanonicalEType]:
        """Canonical edge types in homogeneous-id order."""
        return list(self.schema.canonical_etypes)

    def ntype2id(self, ntype: str) -> int:
        """Node type name -> node type id."""
        return self.schema.ntype_id(ntype)

    def etype2id(self, etype: ETypeLike) -> int:
        """Edge type (tuple, ``"s:r:d"`` or unique relation) -> edge type id."""
        return self.schema.etype_id(etype)

    def id2ntype(self, type_id: int) -> str:
        """Node type id -> node type name."""
        return self.schema.ntypes[self.schema.ntype_id(int(type_id))]

    def id2etype(self, type_id: int) -> CanonicalEType:
        """Edge type id -> canonical edge type."""
        return self.schema.canonical_etypes[self.schema.etype_id(int(type_id))]

    # ------------------------------------------------------------------ counts
    def num_nodes(self, ntype: str | None = None) -> int:
        """Nodes of one type, or of all types."""
        if ntype is None:
            return self._nodes.total
        return int(self._nodes.counts[self.ntype2id(ntype)])

    def num_edges(self, etype: ETypeLike | None = None) -> int:
        """Edges of one type, or of all types."""
        if etype is None:
            return self._edges.total
        return int(self._edges.counts[self.etype2id(etype)])

    @property
    def nid_offsets(self) -> torch.Tensor:
        """``offsets[i]`` is the first homogeneous id of node type ``i``; the last is the total."""
        return self._nodes.offsets.clone()

    @property
    def eid_offsets(self) -> torch.Tensor:
        """``offsets[i]`` is the first homogeneous id of edge type ``i``; the last is the total."""
        return self._edges.offsets.clone()

    def nid_range(self, ntype: str) -> tuple[int, int]:
        """Half-open homogeneous id range ``[start, stop)`` of a node type.

        Examples
        --------
        >>> IDConverter(["a", "b"], [2, 3], [], []).nid_range("b")
        (2, 5)
        """
        i = self.ntype2id(ntype)
        return int(self._nodes.offsets[i]), int(self._nodes.offsets[i + 1])

    def eid_range(self, etype: ETypeLike) -> tuple[int, int]:
        """Half-open homogeneous id range ``[start, stop)`` of an edge type."""
        i = self.etype2id(etype)
        return int(self._edges.offsets[i]), int(self._edges.offsets[i + 1])

    # ------------------------------------------------------------------ conversions
    def nid_het2hom(self, ntype: TypeArg, ids: IdArray | int) -> torch.Tensor | int:
        """Type-wise node ids -> homogeneous ids.

        ``ntype`` is one node type (name or id) for all ``ids``, or an array of
        node type ids, one per id. An int in gives an int out.

        Examples
        --------
        >>> conv = IDConverter(["a", "b"], [2, 3], [], [])
        >>> conv.nid_het2hom("b", torch.tensor([0, 2])), conv.nid_het2hom("b", 1)
        (tensor([2, 4]), 3)
        >>> conv.nid_het2hom(torch.tensor([1, 0]), torch.tensor([0, 1]))
        tensor([2, 1])
        """
        return self._nodes.het2hom(ntype, ids)

    def nid_hom2het(self, ids: IdArray | int) -> tuple[Any, Any]:
        """Homogeneous node ids -> ``(type_ids, type-wise ids)`` tensors.

        An int in gives ``(ntype_name, type-wise id)`` out.

        Examples
        --------
        >>> conv = IDConverter(["a", "b"], [2, 3], [], [])
        >>> conv.nid_hom2het(torch.tensor([1, 2, 4]))
        (tensor([0, 1, 1]), tensor([1, 0, 2]))
        >>> conv.nid_hom2het(2)
        ('b', 0)
        """
        return self._nodes.hom2het(ids)

    def eid_het2hom(self, etype: TypeArg, ids: IdArray | int) -> torch.Tensor | int:
        """Type-wise edge ids -> homogeneous ids (see :meth:`nid_het2hom`).

        Examples
        --------
        >>> conv = IDConverter(["a"], [2], ["a:r:a", "a:s:a"], [4, 1])
        >>> conv.eid_het2hom("s", 0), conv.eid_het2hom(("a", "r", "a"), torch.tensor([3]))
        (4, tensor([3]))
        """
        if isinstance(etype, (tuple, str)):
            etype = self.etype2id(etype)
        return self._edges.het2hom(etype, ids)

    def eid_hom2het(self, ids: IdArray | int) -> tuple[Any, Any]:
        """Homogeneous edge ids -> ``(type_ids, type-wise ids)``; an int in gives
        ``(canonical etype, type-wise id)`` out.

        Examples
        --------
        >>> conv = IDConverter(["a"], [2], ["a:r:a", "a:s:a"], [4, 1])
        >>> conv.eid_hom2het(4)
        (('a', 's', 'a'), 0)
        """
        return self._edges.hom2het(ids)

    def __repr__(self) -> str:
        nn = dict(zip(self.schema.ntypes, self._nodes.counts.tolist()))
        ne = dict(zip(self._edges.names, self._edges.counts.tolist()))
        return f"IDConverter(num_nodes={nn}, num_edges={ne})"


def _meta_list(meta: Mapping, key: str, source: str) -> list[str]:
    value = meta.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise FormatError(
            f"{source}: {short_repr(key)} must be a list of strings, got {short_repr(value)}"
        )
    return value


def _meta_counts(meta: Mapping, key: str, chunk_key: str, n: int, source: str) -> list[int]:
    if key in meta:
        value = meta[key]
        ok = isinstance(value, list) and all(isinstance(v, int) and v >= 0 for v in value)
        if not ok or len(value) != n:
            raise FormatError(
                f"{source}: {short_repr(key)} must be a list of {n} non-negative integers, got "
                f"{short_repr(value)}"
            )
        return value
    if chunk_key in meta:
        value = meta[chunk_key]
        ok = (
            isinstance(value, list)
            and len(value) == n
            and all(
                isinstance(c, list) and all(isinstance(v, int) and v >= 0 for v in c) for c in value
            )
        )
        if not ok:
            raise FormatError(
                f"{source}: {short_repr(chunk_key)} must be a list of {n} lists of non-negative "
                f"integers, "
                f"got {short_repr(value)}"
            )
        return [sum(c) for c in value]
    raise FormatError(f"{source}: missing {short_repr(key)} (or {short_repr(chunk_key)})")

"""Parsing and validating the input of :meth:`Graph.from_typed_edges`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch

from ..errors import GraphpartError
from ..typing import CanonicalEType
from ..utils.check import check_count, short_repr
from ..utils.tensors import as_id_tensor, check_ids_in_range
from .schema import Schema, etype_str, parse_etype

__all__ = ["keyed"]


def parse_typed_edges(edges, num_nodes, copy: bool = True) -> tuple[Schema, dict, dict]:
    """Validate ``{etype: (src, dst)}`` and node counts; returns (schema, counts, edges).

    ``copy=False`` keeps int64 id tensors as given (no private copy): for readers of
    memory-mapped files, whose tensors nobody else holds.

    Parameters
    ----------
    edges : dict
        ``{etype: (src, dst)}``: each key a canonical edge type as a tuple or ``"s:r:d"``,
        each value a pair of equally long 1-D integer arrays (numpy, torch or lists).
    num_nodes : dict of str to int, or None
        Node count per type. A type left out gets the largest id it has in ``edges`` plus one
        (0 if it has none); a type given only here has no edges.
    copy : bool, default True
        Clone an id tensor that shares memory with the caller's array, so later changes to
        that array cannot bypass the range checks.

    Returns
    -------
    schema : Schema
        The node types (from ``edges`` and ``num_nodes``) and edge types, each sorted.
    counts : dict of str to int
        Node count per node type.
    edges : dict of (str, str, str) to (torch.Tensor, torch.Tensor)
        int64 source and destination ids per canonical edge type.

    Raises
    ------
    GraphpartError
        If ``edges`` or ``num_nodes`` is not a dict, an edge type is malformed or given twice
        (in two spellings), a pair is not two equally long integer arrays, or a count is
        not a non-negative integer.
    IDRangeError
        If an id is negative or not below its node type's count.
    """
    if not isinstance(edges, Mapping):
        raise GraphpartError(
            f"edges must be a dict {{(src_type, relation, dst_type): (src, dst)}}, "
            f"got {type(edges).__name__}"
        )
    parsed: dict[CanonicalEType, tuple[torch.Tensor, torch.Tensor]] = {}
    for key, pair in edges.items():
        et = parse_etype(key)
        if et in parsed:
            raise GraphpartError(f"edge type {short_repr(etype_str(et))} is given twice")
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise GraphpartError(
                f"edges[{short_repr(etype_str(et))}] must be a pair (src, dst), got "
                f"{type(pair).__name__}"
            )
        s = as_id_tensor(pair[0], f"source ids of {etype_str(et)!r}")
        d = as_id_tensor(pair[1], f"destination ids of {etype_str(et)!r}")
        if len(s) != len(d):
            raise GraphpartError(
                f"source and destination ids of {short_repr(etype_str(et))} must have the same "
                f"length, "
                f"got {len(s)} and {len(d)}"
            )
        # Own copies: a caller changing its arrays later must not bypass the range checks.
        if copy:
            s, d = (
                (s.clone() if _shares(s, pair[0]) else s),
                (d.clone() if _shares(d, pair[1]) else d),
            )
        parsed[et] = (s, d)
    if num_nodes is not None and not isinstance(num_nodes, Mapping):
        raise GraphpartError(
            f"num_nodes must be a dict {{ntype: count}}, got {type(num_nodes).__name__}"
        )
    given = {} if num_nodes is None else dict(num_nodes)
    bad = [k for k in given if not isinstance(k, str)]
    if bad:
        raise GraphpartError(
            f"num_nodes keys must be node type names (str), got {short_repr(bad[0])}"
        )
    ntypes = sorted({t for s, _, d in parsed for t in (s, d)} | set(given))
    schema = Schema(tuple(ntypes), tuple(sorted(parsed)))
    counts = {t: check_count(given[t], f"num_nodes[{t!r}]") for t in given}
    for t in ntypes:
        seen = [
            int(ids.max()) + 1
            for (s, _, d), (si, di) in parsed.items()
            for ids, typ in ((si, s), (di, d))
            if typ == t and ids.numel()
        ]
        inferred = max(seen, default=0)
        counts.setdefault(t, inferred)
    for (s, r, d), (si, di) in parsed.items():
        name = etype_str((s, r, d))
        check_ids_in_range(si, counts[s], f"source ids of {name!r} (node type {s!r})")
        check_ids_in_range(di, counts[d], f"destination ids of {name!r} (node type {d!r})")
    return schema, counts, parsed


def _shares(t: torch.Tensor, source: object) -> bool:
    """Whether ``t`` may share memory with the caller's ``source`` array."""
    if isinstance(source, torch.Tensor):
        return t is source  # as_id_tensor converts other dtypes into a new tensor
    return isinstance(source, np.ndarray) and np.shares_memory(t.numpy(), source)


def keyed(data: Mapping | None, to_id, keys: Sequence, what: str) -> dict:
    """Re-key a user's per-type data dict by canonical type names.

    Parameters
    ----------
    data : dict or None
        Per-type data, keyed by any spelling ``to_id`` accepts.
    to_id : callable
        Maps a key to its type id (:meth:`Schema.ntype_id` or :meth:`Schema.etype_id`); it
        raises :class:`UnknownTypeError` on an unknown type.
    keys : sequence
        The canonical names, indexed by type id (``schema.ntypes`` or
        ``schema.canonical_etypes``).
    what : str
        How the error message names ``data`` (``"ndata"``).

    Returns
    -------
    dict
        ``data``'s values keyed by canonical name; empty if ``data`` is None. Of two keys
        naming the same type, the later one wins.

    Raises
    ------
    GraphpartError
        If ``data`` is not a mapping.
    """
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise GraphpartError(f"{what} must be a dict keyed by type, got {type(data).__name__}")
    out: dict = {}
    for k, v in data.items():
        out[keys[to_id(k)]] = v
    return out

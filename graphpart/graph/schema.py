"""Node and edge type names: parsing, validation and lookup, shared by Graph and IDConverter."""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import torch

from ..errors import GraphpartError, UnknownTypeError
from ..typing import CanonicalEType, ETypeLike
from ..utils.check import short_repr

__all__ = ["Schema", "parse_etype", "etype_str", "check_data_name"]

#: Node type name of a homogeneous graph.
DEFAULT_NTYPE = "_N"
#: Canonical edge type of a homogeneous graph.
DEFAULT_ETYPE: CanonicalEType = ("_N", "_E", "_N")


def parse_etype(etype: object) -> CanonicalEType:
    """Turn ``(src, rel, dst)`` or ``"src:rel:dst"`` into a canonical tuple.

    Parameters
    ----------
    etype : tuple, list or str
        Three non-empty strings without ``:``, as a tuple or list, or joined by ``:``.

    Returns
    -------
    tuple of (str, str, str)
        ``(src_type, relation, dst_type)``.

    Raises
    ------
    GraphpartError
        If ``etype`` is anything else (a bare relation name included).

    Examples
    --------
    >>> parse_etype("user:follows:user")
    ('user', 'follows', 'user')
    >>> parse_etype(("user", "buys", "item"))
    ('user', 'buys', 'item')
    >>> parse_etype("follows")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: a canonical edge type must be (src_type, relation, dst_type) or
    'src:rel:dst', got 'follows'
    """
    parts: tuple
    if isinstance(etype, str):
        parts = tuple(etype.split(":"))
    elif isinstance(etype, (tuple, list)):
        parts = tuple(etype)
    else:
        parts = ()
    if len(parts) != 3 or not all(isinstance(p, str) and p and ":" not in p for p in parts):
        raise GraphpartError(
            "a canonical edge type must be (src_type, relation, dst_type) or "
            f"'src:rel:dst', got {short_repr(etype)}"
        )
    return parts  # type: ignore[return-value]


def _as_type_id(x: object) -> int | None:
    """An integer type id given as int, NumPy integer or 0-d integer tensor, else None."""
    if isinstance(x, torch.Tensor) and x.dim() == 0 and not x.dtype.is_floating_point:
        x = int(x)
    if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iu":
        x = int(x)
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return int(x)
    return None


def etype_str(etype: CanonicalEType) -> str:
    """``("a", "r", "b")`` -> ``"a:r:b"`` (the chunked format's spelling).

    Parameters
    ----------
    etype : tuple of (str, str, str)
        A canonical edge type (not checked).

    Returns
    -------
    str
        Its parts joined by ``:``.
    """
    return ":".join(etype)


@dataclass(frozen=True)
class Schema:
    """Ordered node types and canonical edge types with their integer type ids.

    A type's id is its position in ``ntypes`` or ``canonical_etypes``; the order is kept as
    given (:class:`Graph` passes them sorted). :meth:`build` parses edge types written as
    ``"s:r:d"``.

    Parameters
    ----------
    ntypes : tuple of str
        Distinct node type names, non-empty and without ``:``.
    canonical_etypes : tuple of (str, str, str)
        Distinct canonical edge types, whose source and destination types are in ``ntypes``.

    Raises
    ------
    GraphpartError
        If a node type name is invalid, or types repeat.
    UnknownTypeError
        If an edge type names a node type not in ``ntypes``.
    """

    ntypes: tuple[str, ...]
    canonical_etypes: tuple[CanonicalEType, ...]
    _nid: dict = field(init=False, repr=False, compare=False)
    _eid: dict = field(init=False, repr=False, compare=False)
    _rel: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for t in self.ntypes:
            if not isinstance(t, str) or not t or ":" in t:
                raise GraphpartError(
                    f"node type names must be non-empty strings without ':', got {short_repr(t)}"
                )
        if len(set(self.ntypes)) != len(self.ntypes):
            raise GraphpartError(f"node types must be distinct, got {list(self.ntypes)}")
        if len(set(self.canonical_etypes)) != len(self.canonical_etypes):
            raise GraphpartError(
                f"edge types must be distinct, got {[etype_str(e) for e in self.canonical_etypes]}"
            )
        known = set(self.ntypes)
        for s, _, d in self.canonical_etypes:
            for t in (s, d):
                if t not in known:
                    raise UnknownTypeError(
                        f"edge type {s}:{_}:{d} names node type {short_repr(t)}, which is not "
                        f"among "
                        f"the node types {list(self.ntypes)}"
                    )
        rel: dict[str, list[int]] = {}
        for i, (_, r, _d) in enumerate(self.canonical_etypes):
            rel.setdefault(r, []).append(i)
        object.__setattr__(self, "_nid", {t: i for i, t in enumerate(self.ntypes)})
        object.__setattr__(self, "_eid", {e: i for i, e in enumerate(self.canonical_etypes)})
        object.__setattr__(self, "_rel", rel)

    @classmethod
    def build(cls, ntypes: Iterable[str], etypes: Iterable[ETypeLike]) -> "Schema":
        """A schema from type names as users write them (edge types parsed)."""
        return cls(tuple(ntypes), tuple(parse_etype(e) for e in etypes))

    @property
    def etypes(self) -> tuple[str, ...]:
        """Relation names, in canonical edge type order."""
        return tuple(r for _, r, _ in self.canonical_etypes)

    def ntype_id(self, ntype: str | int) -> int:
        """Integer id of a node type (a valid int id is returned as is)."""
        tid = _as_type_id(ntype)
        if tid is not None:
            if 0 <= tid < len(self.ntypes):
                return tid
            raise UnknownTypeError(
                f"node type id must be within [0, {len(self.ntypes)}), got {ntype}"
            )
        try:
            return self._nid[ntype]
        except (KeyError, TypeError):
            raise UnknownTypeError(
                f"unknown node type {short_repr(ntype)}; expected one of {list(self.ntypes)}"
            ) from None

    def etype_id(self, etype: ETypeLike | int) -> int:
        """Integer id of an edge type given as id, canonical tuple, ``"s:r:d"`` or relation."""
        tid = _as_type_id(etype)
        if tid is not None:
            if 0 <= tid < len(self.canonical_etypes):
                return tid
            raise UnknownTypeError(
                f"edge type id must be within [0, {len(self.canonical_etypes)}), got {etype}"
            )
        if isinstance(etype, str) and ":" not in etype:
            ids = self._rel.get(etype, [])
            if len(ids) == 1:
                return ids[0]
            if len(ids) > 1:
                raise UnknownTypeError(
                    f"relation {short_repr(etype)} is ambiguous; name one of the canonical edge "
                    f"types "
                    f"{[etype_str(self.canonical_etypes[i]) for i in ids]}"
                )
        else:
            try:
                return self._eid[parse_etype(etype)]
            except (KeyError, GraphpartError):
                pass
        raise UnknownTypeError(
            f"unknown edge type {short_repr(etype)}; expected one of "
            f"{[etype_str(e) for e in self.canonical_etypes]}"
        )

    def canonical(self, etype: ETypeLike | int) -> CanonicalEType:
        """The canonical tuple of an edge type given in any accepted spelling."""
        return self.canonical_etypes[self.etype_id(etype)]


def check_data_name(name: object, what: str) -> str:
    """A node or edge data name as partition files key it, ``"<type>/<name>"`` (DGL's rule):
    a non-empty string without ``/``, at most 200 characters.

    Parameters
    ----------
    name : object
        The data name.
    what : str
        How the message names it (e.g. ``"node data of type 'paper'"``).

    Returns
    -------
    str
        ``name``.

    Raises
    ------
    GraphpartError
        Where partition files could not key it back (``"t/x/y"`` reads as type ``t/x``).

    Examples
    --------
    >>> check_data_name("feat", "node data")
    'feat'
    >>> check_data_name("x/y", "node data")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: node data 'x/y': partition files key data ...
    """
    if not isinstance(name, str) or not name or "/" in name or len(name) > 200:
        raise GraphpartError(
            f"{what} {short_repr(name)}: partition files key data '<type>/<name>', so a name "
            "must be a non-empty string without '/', at most 200 characters"
        )
    return name

"""Where does a node live? Every id of one node, its owner and where it is copied as HALO."""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .errors import GraphpartError
from .graph.schema import DEFAULT_NTYPE
from .homogeneous import typed_ids
from .utils.check import short_repr

if TYPE_CHECKING:
    from .partitioning.core import Partitioning

__all__ = [
    "NodeLocation",
    "locate_node",
    "NodeTable",
    "node_table",
    "node_key",
    "node_keys",
    "ID_KINDS",
]

#: How :func:`locate_node` reads ``node``.
ID_KINDS = ("original", "shuffled", "typed")


@dataclass(frozen=True)
class NodeLocation:
    """All the ids of one node in a :class:`~graphpart.partitioning.core.Partitioning`.

    Attributes
    ----------
    ntype : str
    orig_id : int
        Type-wise original id (what ``orig_nids`` maps back to).
    orig_homo_id : int
        Original homogeneous id (node types in order, then type-wise id).
    shuffled_id : int
        Global id after reshuffling (what the partition book and ``_ID`` use).
    shuffled_typed_id : int
        Type-wise shuffled id (``book.map_to_per_ntype``).
    owner : int
        The partition that owns the node.
    local_id : int
        Its local id in the owner's graph (inner nodes come first).
    halo : tuple of (part, local_id, hop)
        Every partition that holds a HALO copy, with the copy's local id and hop.
    """

    ntype: str
    orig_id: int
    orig_homo_id: int
    shuffled_id: int
    shuffled_typed_id: int
    owner: int
    local_id: int
    halo: tuple[tuple[int, int, int], ...]

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def rows(self) -> list[tuple[str, object]]:
        """Each id with its name, HALO copies spelled out (what a card shows).

        Examples
        --------
        >>> loc = NodeLocation("_N", 3, 3, 5, 5, 1, 2, ((0, 9, 1),))
        >>> dict(loc.rows())["HALO copies"]
        'part 0 (local 9, hop 1)'
        """
        copies = "; ".join(f"part {q} (local {lid}, hop {h})" for q, lid, h in self.halo)
        one = self.ntype == DEFAULT_NTYPE  # DGL's name for a one-type graph's type, not shown
        return [
            ("node type", "(one type)" if one else self.ntype),
            ("original id (type-wise)", self.orig_id),
            ("original homogeneous id", self.orig_homo_id),
            ("new (shuffled) id", self.shuffled_id),
            ("new type-wise id", self.shuffled_typed_id),
            ("owner", f"part {self.owner} (local id {self.local_id})"),
            ("HALO copies", copies or "none"),
        ]

    def _repr_html_(self) -> str:
        """The node's card in a notebook: every id named, every HALO copy labelled."""
        import html

        body = "".join(
            f"<tr><th style='text-align:left;padding-right:14px'>{html.escape(a)}</th>"
            f"<td style='text-align:left'>{html.escape(str(b))}</td></tr>"
            for a, b in self.rows()
        )
        return f"<table>{body}</table>"


def _int(x: object, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        raise GraphpartError(f"{name} must be an integer, got {short_repr(x)}")
    return int(x)


def locate_node(
    p: Partitioning, node: int, kind: str = "original", ntype: str | None = None
) -> NodeLocation:
    """Look a node up by original id, shuffled id, or ``(ntype, type-wise original id)``.

    Parameters
    ----------
    p : Partitioning
        :func:`graphpart.partition`'s result.
    node : int
        The node's id, read as ``kind`` says (a Python or numpy integer).
    kind : {"original", "shuffled", "typed"}, default "original"
        ``"original"``: homogeneous original id (for a one-type graph, the node id);
        ``"shuffled"``: global id after reshuffling; ``"typed"``: type-wise
        original id of node type ``ntype``.
    ntype : str, optional
        Required with ``kind="typed"`` on a heterograph; ignored otherwise.

    Returns
    -------
    NodeLocation
        The node's type, its original and shuffled ids (homogeneous and type-wise), its owner
        and local id there, and every HALO copy.

    Raises
    ------
    GraphpartError
        If ``kind`` or ``ntype`` is unknown, ``node`` is not an integer or is out of range.

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> p = partition(load_karate_club(), 2, seed=0)
    >>> loc = locate_node(p, 0)
    >>> loc.owner == int(p.node_part[0]), locate_node(p, loc.shuffled_id, "shuffled") == loc
    (True, True)
    """
    if kind not in ID_KINDS:
        raise GraphpartError(f"kind must be one of {ID_KINDS}, got {short_repr(kind)}")
    node = _int(node, "node")
    sh, offsets, ntypes = p.shuffle, p.homogeneous.node_offsets, p.graph.ntypes
    n = len(sh.new2old_nid)
    if kind == "typed":
        if ntype is None:
            if len(ntypes) != 1:
                raise GraphpartError(
                    f"kind='typed' needs ntype= on a heterograph; node types: {ntypes}"
                )
            ntype = ntypes[0]
        if ntype not in ntypes:
            raise GraphpartError(f"unknown node type {short_repr(ntype)}; known: {ntypes}")
        t = ntypes.index(ntype)
        size = int(offsets[t + 1] - offsets[t])
        if not 0 <= node < size:
            raise GraphpartError(
                f"{short_repr(ntype)} has {size} nodes (ids 0..{size - 1}), got id {node}"
            )
        node, kind = node + int(offsets[t]), "original"
    if not 0 <= node < n:
        raise GraphpartError(f"the graph has {n} nodes (ids 0..{n - 1}), got {kind} id {node}")
    if kind == "original":
        old = node
        new = int(sh.old2new_nid[old])
    else:
        new = node
        old = int(sh.new2old_nid[new])
    t = int(typed_ids(np.array([old]), offsets)[0][0])
    typ, typed_new = p.book.map_to_per_ntype(np.array([new]))
    owner = int(p.node_part[old])
    start = sh.part_nodes(owner)[0]
    halo = []
    for q in range(p.num_parts):
        if q == owner:
            continue
        v = p.view(q)
        hit = np.flatnonzero(v.nodes[v.num_inner_nodes :] == new)
        if len(hit):
            local = int(hit[0]) + v.num_inner_nodes
            halo.append((q, local, int(v.hop[local])))
    return NodeLocation(
        ntypes[t],
        old - int(offsets[t]),
        old,
        new,
        int(typed_new[0]),
        owner,
        new - start,
        tuple(halo),
    )


@dataclass(frozen=True)
class NodeTable:
    """:class:`NodeLocation` for every node at once, as arrays indexed by original homogeneous id
    (what the interactive views show on hover).

    Attributes
    ----------
    ntypes : list of str
    ntype : ndarray
        Node type index of each node.
    orig_id, shuffled_id, shuffled_typed_id, owner, local_id : ndarray
        As in :class:`NodeLocation`.
    halo_ptr : ndarray, shape (n + 1,)
        Node ``i``'s HALO copies are rows ``halo_ptr[i]:halo_ptr[i + 1]`` of ``halo``.
    halo : ndarray, shape (copies, 3)
        ``(partition, local id, hop)`` of every HALO copy, grouped by node, partitions in order.
    """

    ntypes: list[str]
    ntype: np.ndarray
    orig_id: np.ndarray
    shuffled_id: np.ndarray
    shuffled_typed_id: np.ndarray
    owner: np.ndarray
    local_id: np.ndarray
    halo_ptr: np.ndarray
    halo: np.ndarray

    def copies(self, node: int) -> list[tuple[int, int, int]]:
        """The HALO copies of node ``node`` (original homogeneous id)."""
        rows = self.halo[self.halo_ptr[node] : self.halo_ptr[node + 1]]
        return [tuple(int(x) for x in r) for r in rows]

    def location(self, node: int) -> NodeLocation:
        """Node ``node``'s :class:`NodeLocation` (what :func:`locate_node` returns)."""
        t = int(self.ntype[node])
        return NodeLocation(
            self.ntypes[t],
            int(self.orig_id[node]),
            int(node),
            int(self.shuffled_id[node]),
            int(self.shuffled_typed_id[node]),
            int(self.owner[node]),
            int(self.local_id[node]),
            tuple(self.copies(node)),
        )


def node_table(p: Partitioning) -> NodeTable:
    """Every node's ids, owner and HALO copies at once (vectorised; one pass per partition).

    Parameters
    ----------
    p : Partitioning
        :func:`graphpart.partition`'s result.

    Returns
    -------
    NodeTable
        Arrays indexed by original homogeneous id; ``table.location(i)`` equals
        ``locate_node(p, i)``.

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> p = partition(load_karate_club(), 2, num_hops=2, seed=0)
    >>> table = node_table(p)
    >>> all(table.location(i) == locate_node(p, i) for i in range(34))
    True
    """
    sh, offsets = p.shuffle, p.homogeneous.node_offsets
    n = len(sh.new2old_nid)
    old = np.arange(n, dtype=np.int64)
    new = np.asarray(sh.old2new_nid, dtype=np.int64)
    ntype, orig = typed_ids(old, offsets)
    owner = np.asarray(p.node_part, dtype=np.int64)
    starts = np.array([sh.part_nodes(q)[0] for q in range(p.num_parts)], dtype=np.int64)
    typed_new = np.asarray(p.book.map_to_per_ntype(new)[1], dtype=np.int64)
    nodes, rows = [], []
    for q in range(p.num_parts):  # a loop over partitions, not nodes
        v = p.view(q)
        k = v.num_inner_nodes
        halo_new = np.asarray(v.nodes[k:], dtype=np.int64)
        nodes.append(np.asarray(sh.new2old_nid, dtype=np.int64)[halo_new])
        local = np.arange(k, k + len(halo_new), dtype=np.int64)
        rows.append(np.stack([np.full(len(local), q), local, np.asarray(v.hop[k:])], axis=1))
    halo_nodes = np.concatenate(nodes) if nodes else np.zeros(0, dtype=np.int64)
    halo = np.concatenate(rows).astype(np.int64) if rows else np.zeros((0, 3), dtype=np.int64)
    order = np.argsort(halo_nodes, kind="stable")
    ptr = np.concatenate([[0], np.cumsum(np.bincount(halo_nodes, minlength=n))])
    return NodeTable(
        list(p.graph.ntypes),
        np.asarray(ntype, dtype=np.int64),
        np.asarray(orig, dtype=np.int64),
        new,
        typed_new,
        owner,
        new - starts[owner],
        ptr.astype(np.int64),
        halo[order],
    )


def node_key(ntypes: list[str], ntype: str, orig_id: int) -> str:
    """The key of one node (as :func:`node_keys` writes them): ``"17"`` on a one-type graph,
    else ``"paper:17"`` (its type-wise original id after its type).

    Parameters
    ----------
    ntypes : list of str
        The graph's node types.
    ntype : str
        The node's type.
    orig_id : int
        Its type-wise original id.

    Returns
    -------
    str
        The key the views name the node by.

    Examples
    --------
    >>> node_key(["_N"], "_N", 17), node_key(["author", "paper"], "paper", 17)
    ('17', 'paper:17')
    """
    return str(orig_id) if len(ntypes) == 1 else f"{ntype}:{orig_id}"


def node_keys(p: Partitioning, table: NodeTable | None = None) -> list[str]:
    """The key of every node (original homogeneous id order): ``"17"``, or ``"paper:17"``.

    Parameters
    ----------
    p : Partitioning
    table : NodeTable, optional
        ``node_table(p)``, when already computed.

    Returns
    -------
    list of str
        One key per node: its original id, after its type and a colon on a heterograph (the id
        is then type-wise).
    """
    table = table or node_table(p)
    ids = table.orig_id.astype(str)
    if len(table.ntypes) == 1:
        return ids.tolist()
    types = np.asarray(table.ntypes, dtype=object)[table.ntype]
    return (types + ":" + ids.astype(object)).tolist()

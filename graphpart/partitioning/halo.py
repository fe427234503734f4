"""HALO: the nodes and edges each partition copies from its neighbours.

For ``num_hops = 0`` a partition keeps only edges with both ends inside it.
For ``num_hops >= 1`` it keeps every in-edge of its inner nodes (their sources
become HALO nodes of hop 1) and every out-edge of its inner nodes (their
destinations become HALO nodes of hop 1 too); each further hop adds the
in-edges of the nodes first reached, through in-edges, at the previous hop (an
out-neighbour, placed at hop 1, included when the in-edge search reaches it).
So message passing over ``num_hops`` layers gives, at every inner node, what
it gives on the full graph; the nodes and edges equal DGL's
``partition_graph_with_halo`` (``tests/interop/test_peers_halo.py``).

Local order: inner nodes first in global-id order (local = global - start),
then HALO nodes by hop and global id; inner (owned) edges first in global-id
order, then HALO edges in global-id order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..index import expand_ranges, stable_order, unique_int
from .reshuffle import Reshuffle

__all__ = ["PartView", "HaloBuilder", "local_data"]


@dataclass(frozen=True)
class PartView:
    """One partition's node and edge sets, in local order (global, shuffled ids).

    Attributes
    ----------
    part_id : int
    nodes : ndarray
        Global ids of the local nodes: inner first, then HALO.
    hop : ndarray of int8 (int32 past 127 hops)
        0 for inner nodes, else the hop at which the HALO node was reached.
    eids : ndarray
        Global ids of the local edges: owned first, then HALO.
    num_inner_nodes, num_inner_edges : int
    src, dst : ndarray
        Local endpoints of every local edge.
    """

    part_id: int
    nodes: np.ndarray
    hop: np.ndarray
    eids: np.ndarray
    num_inner_nodes: int
    num_inner_edges: int
    src: np.ndarray
    dst: np.ndarray


class HaloBuilder:
    """Builds :class:`PartView` for each partition of a :class:`Reshuffle`.

    The edge indexes the HALO search needs are built once here; :meth:`view` then builds one
    partition's view at a time.

    Parameters
    ----------
    r : Reshuffle
        The renumbered graph; views are in its (new) node and edge ids.
    num_hops : int
        HALO hops, >= 0 (see the module docstring): 0 keeps the edges with both ends inside
        the partition, 1 adds every in- and out-edge of the inner nodes, each further hop the
        in-edges of the nodes reached through in-edges at the hop before.

    Examples
    --------
    >>> from graphpart.partitioning.reshuffle import reshuffle
    >>> src, dst = np.array([0, 1, 2, 3]), np.array([1, 2, 3, 0])
    >>> r = reshuffle(np.array([0, 0, 1, 1]), None, src, dst, None, 2)
    >>> v = HaloBuilder(r, num_hops=1).view(0)
    >>> v.nodes.tolist(), v.hop.tolist(), v.eids.tolist()
    ([0, 1, 2, 3], [0, 0, 1, 1], [0, 1, 2])
    >>> HaloBuilder(r, num_hops=0).view(0).eids.tolist()
    [0]
    """

    def __init__(self, r: Reshuffle, num_hops: int) -> None:
        self.r = r
        self.num_hops = num_hops
        n = len(r.new2old_nid)
        self.node_part = r.node_part()
        self._local = np.full(n, -1, dtype=np.int64)  # scratch: global -> local id
        self._seen = np.zeros(n, dtype=bool)  # scratch: reached by the in-edge search
        self._placed = np.zeros(n, dtype=bool)  # scratch: out-neighbours, placed at hop 1
        if num_hops >= 1:
            # Out-edges of each partition's inner nodes that leave it, grouped by source partition.
            src_part = self.node_part[r.src]
            cross = np.flatnonzero(src_part != self.node_part[r.dst])
            order = stable_order(src_part[cross])
            self._cross = cross[order]
            counts = np.bincount(src_part[cross], minlength=r.num_parts)
            self._cross_ptr = np.concatenate([[0], np.cumsum(counts)])
        if num_hops >= 2:
            # In-edges of every node (CSC), for the hops beyond the first.
            self._in_eids = stable_order(r.dst)
            self._in_ptr = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(np.bincount(r.dst, minlength=n), out=self._in_ptr[1:])

    def view(self, p: int) -> PartView:
        r = self.r
        start, end = r.part_nodes(p)
        es, ee = r.part_edges(p)
        owned = np.arange(es, ee, dtype=np.int64)
        inner = np.arange(start, end, dtype=np.int64)
        if self.num_hops == 0:
            s = r.src[es:ee]
            eids = owned[(s >= start) & (s < end)]
            return self._finish(p, inner, [], eids, len(eids))
        owned_src = r.src[es:ee]
        frontier = unique_int(owned_src[(owned_src < start) | (owned_src >= end)])
        out_eids = self._cross[self._cross_ptr[p] : self._cross_ptr[p + 1]]
        out_dst = unique_int(r.dst[out_eids])
        seen, placed = self._seen, self._placed
        seen[inner] = True
        seen[frontier] = True
        # out-neighbours are one hop away too: placed at hop 1, whatever later hops find; the
        # in-edge search still goes on through one it reaches later (DGL's HALO does)
        out_only = out_dst[~seen[out_dst]]
        placed[out_only] = True
        layers = [frontier]
        reached = [frontier]
        extra = [out_eids]
        for _ in range(2, self.num_hops + 1):
            if not len(frontier):  # nothing further away: more hops add nothing
                break
            in_eids = self._in_eids[expand_ranges(self._in_ptr, frontier)]
            extra.append(in_eids)
            srcs = r.src[in_eids]
            frontier = unique_int(srcs[~seen[srcs]])
            seen[frontier] = True
            reached.append(frontier)
            layers.append(frontier[~placed[frontier]])
        for layer in reached:
            seen[layer] = False
        seen[inner] = False
        placed[out_only] = False
        if len(out_only):
            layers[0] = hop1_layer(layers[0], out_only, start, end)
        halo_eids = unique_int(np.concatenate(extra)) if extra else np.zeros(0, dtype=np.int64)
        return self._finish(p, inner, layers, np.concatenate([owned, halo_eids]), len(owned))

    def _finish(
        self,
        p: int,
        inner: np.ndarray,
        layers: list[np.ndarray],
        eids: np.ndarray,
        num_inner_edges: int,
    ) -> PartView:
        return assemble_view(
            p, inner, layers, eids, num_inner_edges, self.r.src[eids], self.r.dst[eids], self._local
        )


def hop1_layer(owned_src: np.ndarray, out_dst: np.ndarray, start: int, end: int) -> np.ndarray:
    """HALO nodes of hop 1: sources of owned edges outside ``[start, end)``, and out-neighbours.

    Parameters
    ----------
    owned_src : numpy.ndarray of int
        The sources (global ids) of the edges the partition owns; those inside ``[start, end)``
        are dropped.
    out_dst : numpy.ndarray of int
        The destinations (global ids) of the edges leaving the partition.
    start, end : int
        The partition's node ids, ``[start, end)``.

    Returns
    -------
    numpy.ndarray of int
        The HALO nodes of hop 1, sorted and without repeats.

    Examples
    --------
    >>> hop1_layer(np.array([0, 5, 1, 5]), np.array([7, 4]), 0, 2).tolist()
    [4, 5, 7]
    """
    outside = owned_src[(owned_src < start) | (owned_src >= end)]
    return unique_int(np.concatenate([outside, out_dst]))


def assemble_view(
    p: int,
    inner: np.ndarray,
    layers: list[np.ndarray],
    eids: np.ndarray,
    num_inner_edges: int,
    src: np.ndarray,
    dst: np.ndarray,
    scratch: np.ndarray,
) -> PartView:
    """A :class:`PartView` from its node layers and edges (``src``/``dst``: global ids of ``eids``'
    ends).

    ``scratch`` is an all ``-1`` int64 array over global node ids; it is left as found.

    Parameters
    ----------
    p : int
        The partition id.
    inner : numpy.ndarray of int
        The partition's own nodes (global ids), in local order.
    layers : list of numpy.ndarray of int
        The HALO nodes (global ids) of hop 1, 2, ...: one array per hop, in local order.
    eids : numpy.ndarray of int
        The local edges (global ids): owned first, then HALO.
    num_inner_edges : int
        How many of ``eids`` come first as owned edges.
    src, dst : numpy.ndarray of int
        The global ids of the ends of each edge of ``eids``; every end must be in ``inner`` or
        ``layers``.
    scratch : numpy.ndarray of int64
        All ``-1``, one entry per global node id; used to map global to local ids and reset.

    Returns
    -------
    PartView
        The view, its ``hop`` int8 (int32 from 128 layers on) and its ``src`` / ``dst`` local
        ids.
    """
    nodes = np.concatenate([inner, *layers]) if layers else inner
    # int8 as DGL-style files keep it; wider only where a path is longer than 127 hops
    dtype = np.int8 if len(layers) < 128 else np.int32
    hop = np.repeat(
        np.arange(len(layers) + 1, dtype=dtype), [len(inner)] + [len(x) for x in layers]
    )
    scratch[nodes] = np.arange(len(nodes))
    lsrc, ldst = scratch[src], scratch[dst]
    scratch[nodes] = -1
    return PartView(p, nodes, hop, eids, len(inner), num_inner_edges, lsrc, ldst)


def node_fields(
    nodes: np.ndarray,
    hop: np.ndarray,
    part_id: np.ndarray,
    ntype: np.ndarray,
    orig_n: np.ndarray,
    typed: bool,
) -> dict[str, np.ndarray]:
    """The node data of local nodes ``nodes`` (global ids, at HALO ``hop``) under DGL's names, in
    the order the partition files keep them (all nodes or a block of them).

    Parameters
    ----------
    nodes : numpy.ndarray of int
        Global (shuffled) ids of the nodes.
    hop : numpy.ndarray of int
        HALO hop of each node, 0 for inner nodes.
    part_id : numpy.ndarray of int
        The partition that owns each node.
    ntype : numpy.ndarray of int or None
        The node type id of each node; read only when ``typed``.
    orig_n : numpy.ndarray of int
        The type-wise id of each node before the reshuffle.
    typed : bool
        Store ``_TYPE`` too.

    Returns
    -------
    dict of str to numpy.ndarray
        ``_ID`` (``nodes``), ``inner_node`` (``hop == 0``), ``part_id``, ``orig_id``
        (``orig_n``), ``halo_hop`` (``hop``) and, when ``typed``, ``_TYPE`` (``ntype``); the
        arrays given are stored as they are, not copied.
    """
    ndata = {
        "_ID": nodes,
        "inner_node": hop == 0,
        "part_id": part_id,
        "orig_id": orig_n,
        "halo_hop": hop,
    }
    if typed:
        ndata["_TYPE"] = ntype
    return ndata


def edge_fields(
    eids: np.ndarray, inner_edge: np.ndarray, orig_e: np.ndarray, etype: np.ndarray, typed: bool
) -> dict[str, np.ndarray]:
    """The edge data of local edges ``eids`` under DGL's names, in the files' order (all edges or a
    block of them).

    Parameters
    ----------
    eids : numpy.ndarray of int
        Global (shuffled) ids of the edges.
    inner_edge : numpy.ndarray of bool
        Whether the partition owns each edge.
    orig_e : numpy.ndarray of int
        The type-wise id of each edge before the reshuffle.
    etype : numpy.ndarray of int or None
        The edge type id of each edge; read only when ``typed``.
    typed : bool
        Store ``_TYPE`` too.

    Returns
    -------
    dict of str to numpy.ndarray
        ``_ID`` (``eids``), ``inner_edge``, ``orig_id`` (``orig_e``) and, when ``typed``,
        ``_TYPE`` (``etype``); the arrays given are stored as they are, not copied.
    """
    edata = {"_ID": eids, "inner_edge": inner_edge, "orig_id": orig_e}
    if typed:
        edata["_TYPE"] = etype
    return edata


def local_data(
    v: PartView,
    part_id: np.ndarray,
    ntype: np.ndarray,
    orig_n: np.ndarray,
    etype: np.ndarray,
    orig_e: np.ndarray,
    typed: bool,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The node and edge data of a partition's local graph (DGL's names), as arrays.

    ``part_id``, ``ntype`` and ``orig_n`` describe ``v.nodes``; ``etype`` and
    ``orig_e`` describe ``v.eids``. ``_TYPE`` is stored only when ``typed``.

    Parameters
    ----------
    v : PartView
        The partition's view.
    part_id : numpy.ndarray of int
        The partition that owns each node of ``v.nodes``.
    ntype : numpy.ndarray of int or None
        The node type id of each node of ``v.nodes``; read only when ``typed``.
    orig_n : numpy.ndarray of int
        The type-wise id before the reshuffle of each node of ``v.nodes``.
    etype : numpy.ndarray of int or None
        The edge type id of each edge of ``v.eids``; read only when ``typed``.
    orig_e : numpy.ndarray of int
        The type-wise id before the reshuffle of each edge of ``v.eids``.
    typed : bool
        Store ``_TYPE`` in both.

    Returns
    -------
    ndata : dict of str to numpy.ndarray
        The node data, as :func:`node_fields` gives it.
    edata : dict of str to numpy.ndarray
        The edge data, as :func:`edge_fields` gives it (``inner_edge`` true for the first
        ``v.num_inner_edges`` edges).
    """
    inner_edge = np.zeros(len(v.eids), dtype=bool)
    inner_edge[: v.num_inner_edges] = True
    ndata = node_fields(v.nodes, v.hop, part_id, ntype, orig_n, typed)
    edata = edge_fields(v.eids, inner_edge, orig_e, etype, typed)
    return ndata, edata

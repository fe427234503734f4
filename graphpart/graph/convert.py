"""Conversions between :class:`~graphpart.Graph` and networkx, scipy, and homogeneous form."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import numpy as np
import scipy.sparse as sp
import torch

from ..errors import GraphpartError
from ..homogeneous import HomogeneousGraph, type_offsets, typed_ids
from ..typing import ETypeLike
from ..utils.check import short_repr
from ..utils.tensors import as_id_tensor
from .core import EID, ETYPE, NID, NTYPE, Graph
from .schema import Schema, etype_str

__all__ = ["from_networkx", "to_networkx", "from_scipy", "to_homogeneous", "from_homogeneous"]


def _attr_tensor(rows: list, attr: str, what: str) -> torch.Tensor:
    try:
        arr = np.asarray(rows)
    except ValueError as exc:
        raise GraphpartError(
            f"{what} attribute {short_repr(attr)} has ragged values ({exc})"
        ) from None
    if arr.dtype.kind not in "biuf":
        raise GraphpartError(
            f"{what} attribute {short_repr(attr)} must be numeric, got values of dtype {arr.dtype} "
            f"(e.g. {short_repr(rows[0])}); convert it to numbers first"
        )
    return torch.as_tensor(arr)


def _collect(items: list[dict], attrs: Sequence[str] | None, what: str, ident) -> dict:
    out = {}
    for a in attrs or ():
        missing = [ident(i) for i, d in enumerate(items) if a not in d]
        if missing:
            raise GraphpartError(
                f"{what} attribute {short_repr(a)} is missing on {what}s {missing[:5]}"
            )
        out[a] = _attr_tensor([d[a] for d in items], a, what)
    return out


def from_networkx(
    nx_graph: nx.Graph,
    node_attrs: Sequence[str] | None = None,
    edge_attrs: Sequence[str] | None = None,
) -> Graph:
    """A homogeneous :class:`Graph` from a networkx graph.

    Nodes are numbered in sorted order of their labels (insertion order if the
    labels do not sort); labels other than ``0..n-1`` are kept as node names.
    Each undirected edge becomes two directed edges ``u -> v`` and ``v -> u``
    (one for a self-loop); parallel edges of multigraphs are kept.

    Parameters
    ----------
    nx_graph : networkx.Graph, DiGraph, MultiGraph or MultiDiGraph
    node_attrs, edge_attrs : list of str, optional
        Numeric attributes to copy into ``ndata`` / ``edata``.

    Returns
    -------
    Graph
        A homogeneous graph with ``nx_graph``'s nodes, its edges (doubled if undirected), the
        attributes asked for, and node names where the labels are not ``0..n-1``.

    Raises
    ------
    GraphpartError
        If ``nx_graph`` is not a networkx graph, or an attribute asked for is missing on some
        node or edge, ragged, or not numeric.

    Examples
    --------
    >>> g = from_networkx(nx.path_graph(3))
    >>> g.edges()
    (tensor([0, 1, 1, 2]), tensor([1, 0, 2, 1]))
    """
    if not isinstance(nx_graph, nx.Graph):
        raise GraphpartError(f"expected a networkx graph, got {type(nx_graph).__name__}")
    nodes = list(nx_graph.nodes)
    try:
        nodes = sorted(nodes)
    except TypeError:
        pass
    index = {v: i for i, v in enumerate(nodes)}
    edge_rows = list(nx_graph.edges(data=True))
    src = np.fromiter((index[u] for u, _, _ in edge_rows), np.int64, len(edge_rows))
    dst = np.fromiter((index[v] for _, v, _ in edge_rows), np.int64, len(edge_rows))
    edata = _collect([d for _, _, d in edge_rows], edge_attrs, "edge", lambda i: edge_rows[i][:2])
    ndata = _collect([nx_graph.nodes[v] for v in nodes], node_attrs, "node", lambda i: nodes[i])
    if not nx_graph.is_directed():
        # u->v then v->u for each undirected edge; a self-loop stays one edge.
        twice = np.where(src == dst, 1, 2)
        order = np.repeat(np.arange(len(src)), twice)
        flip = np.zeros(len(order), dtype=bool)
        flip[np.cumsum(twice)[twice == 2] - 1] = True
        src, dst = np.where(flip, dst[order], src[order]), np.where(flip, src[order], dst[order])
        edata = {k: v[torch.from_numpy(order)] for k, v in edata.items()}
    g = Graph.from_edges(src, dst, num_nodes=len(nodes), ndata=ndata, edata=edata)
    if nodes != list(range(len(nodes))):
        g.set_node_names([str(v) for v in nodes])
    return g


def to_networkx(
    g: Graph, node_attrs: Sequence[str] | None = None, edge_attrs: Sequence[str] | None = None
) -> nx.MultiDiGraph:
    """A :class:`networkx.MultiDiGraph` with one node per node and one edge per edge.

    Nodes are the homogeneous ids. Every node gets ``ntype`` and its type-wise id
    ``"_ID"``; every edge gets ``etype`` (canonical tuple), its type-wise ``id``
    and the networkx key ``id``. ``node_attrs`` / ``edge_attrs`` name data to copy
    (all data of a homogeneous graph when None).

    Parameters
    ----------
    g : Graph
        The graph to convert.
    node_attrs, edge_attrs : list of str, optional
        Names of node / edge data to copy as attributes; each must exist on every node / edge
        type. None: all data of a homogeneous graph, none of a heterogeneous one.

    Returns
    -------
    networkx.MultiDiGraph
        Nodes ``0..g.num_nodes()-1`` (types in ``g.ntypes`` order); edges keyed
        ``0..g.num_edges()-1`` in canonical edge type order, so a key is the edge's
        homogeneous id, while the ``id`` attribute is its type-wise id.

    Examples
    --------
    >>> G = to_networkx(Graph.from_edges([0, 1], [1, 1]))
    >>> sorted(G.edges(keys=True))
    [(0, 1, 0), (1, 1, 1)]
    """
    out = nx.MultiDiGraph()
    if node_attrs is None and g.is_homogeneous:
        node_attrs = list(g.ndata)
    if edge_attrs is None and g.is_homogeneous:
        edge_attrs = list(g.edata)
    offsets = dict(zip(g.ntypes, type_offsets([g.num_nodes(t) for t in g.ntypes]).tolist()))
    for t in g.ntypes:
        data = {a: g.node_data(t).require(a).tolist() for a in node_attrs or ()}
        out.add_nodes_from(
            (offsets[t] + i, {"ntype": t, NID: i, **{a: v[i] for a, v in data.items()}})
            for i in range(g.num_nodes(t))
        )
    key = 0
    for et in g.canonical_etypes:
        s, d = g.edges(et)
        data = {a: g.edge_data(et).require(a).tolist() for a in edge_attrs or ()}
        s = (s + offsets[et[0]]).tolist()
        d = (d + offsets[et[2]]).tolist()
        out.add_edges_from(
            (u, v, key + i, {"etype": et, "id": i, **{a: x[i] for a, x in data.items()}})
            for i, (u, v) in enumerate(zip(s, d))
        )
        key += len(s)
    return out


def from_scipy(matrix: sp.spmatrix | sp.sparray, eweight_name: str | None = None) -> Graph:
    """A homogeneous :class:`Graph` with an edge ``i -> j`` for each stored entry ``(i, j)``.

    Parameters
    ----------
    matrix : scipy sparse matrix or array, square
    eweight_name : str, optional
        Store the entries' values as this edge data.

    Returns
    -------
    Graph
        A homogeneous graph with ``matrix.shape[0]`` nodes and one edge per stored entry
        (explicit zeros and duplicate entries included), in the order of its COO form.

    Raises
    ------
    GraphpartError
        If ``matrix`` is not a scipy sparse matrix or array, or is not square.

    Examples
    --------
    >>> g = from_scipy(sp.csr_array(np.array([[0, 2], [3, 0]])), eweight_name="w")
    >>> g.edges(), g.edata["w"]
    ((tensor([0, 1]), tensor([1, 0])), tensor([2, 3]))
    """
    if not sp.issparse(matrix):
        raise GraphpartError(f"expected a scipy sparse matrix, got {type(matrix).__name__}")
    if len(matrix.shape) != 2 or matrix.shape[0] != matrix.shape[1]:
        raise GraphpartError(f"the adjacency matrix must be square, got shape {matrix.shape}")
    coo = sp.coo_array(matrix)
    edata = {} if eweight_name is None else {eweight_name: np.asarray(coo.data)}
    return Graph.from_edges(
        coo.row.astype(np.int64), coo.col.astype(np.int64), num_nodes=coo.shape[0], edata=edata
    )


def _cat_data(stores: list, names: Sequence[str], what: str) -> dict:
    out: dict = {}
    if not stores:  # no types at all: nothing to concatenate
        return out
    for name in names:
        parts = []
        for type_name, store in stores:
            if name not in store:
                raise GraphpartError(
                    f"{what} {short_repr(name)} is missing on type {short_repr(type_name)}"
                )
            parts.append(store[name])
        try:
            out[name] = torch.cat(parts)
        except RuntimeError as exc:
            raise GraphpartError(
                f"{what} {short_repr(name)} differs in shape or dtype across types ({exc})"
            ) from None
    return out


def to_homogeneous(g: Graph, ndata: Sequence[str] = (), edata: Sequence[str] = ()) -> Graph:
    """The homogeneous view of ``g`` under DGL's homogeneous-id convention.

    Nodes of each type take one contiguous id range, types in ``g.ntypes`` order;
    edges likewise by canonical edge type. ``ndata[NTYPE]`` / ``edata[ETYPE]``
    hold type ids and ``ndata[NID]`` / ``edata[EID]`` type-wise ids. Data named in
    ``ndata`` / ``edata`` is concatenated across types (it must exist on each).

    Parameters
    ----------
    g : Graph
        The graph, homogeneous or heterogeneous.
    ndata, edata : sequence of str, default ()
        Names of node / edge data to carry over; each must exist on every node / edge type
        with the same trailing shape and dtype.

    Returns
    -------
    Graph
        A homogeneous graph with ``g.num_nodes()`` nodes and ``g.num_edges()`` edges, type
        ids and type-wise ids in the data named above, and node names if every node type of
        ``g`` has them.

    Raises
    ------
    GraphpartError
        If data named in ``ndata`` / ``edata`` is missing on a type or cannot be concatenated.

    Examples
    --------
    >>> g = Graph.from_typed_edges({("a", "r", "b"): ([0, 1], [0, 0])}, num_nodes={"a": 2, "b": 1})
    >>> h = to_homogeneous(g)
    >>> h.edges()
    (tensor([0, 1]), tensor([2, 2]))
    >>> h.ndata["_TYPE"], h.ndata["_ID"]
    (tensor([0, 0, 1]), tensor([0, 1, 0]))
    """
    homo = HomogeneousGraph.of(g)
    nd = _cat_data([(t, g.node_data(t)) for t in g.ntypes], ndata, "node data")
    ed_ = _cat_data(
        [(etype_str(e), g.edge_data(e)) for e in g.canonical_etypes], edata, "edge data"
    )
    nd[NTYPE] = torch.from_numpy(homo.node_types())
    nd[NID] = torch.from_numpy(typed_ids(np.arange(homo.num_nodes), homo.node_offsets)[1])
    ed_[ETYPE] = torch.from_numpy(homo.edge_types())
    ed_[EID] = torch.from_numpy(typed_ids(np.arange(homo.num_edges), homo.edge_offsets)[1])
    h = Graph.from_edges(
        torch.from_numpy(homo.src),
        torch.from_numpy(homo.dst),
        num_nodes=homo.num_nodes,
        ndata=nd,
        edata=ed_,
    )
    names = [g.node_names(t) for t in g.ntypes]
    if names and all(n is not None for n in names):
        h.set_node_names(np.concatenate(names))
    return h


def from_homogeneous(
    h: Graph, ntypes: Sequence[str], canonical_etypes: Sequence[ETypeLike]
) -> Graph:
    """Inverse of :func:`to_homogeneous`: split ``h`` by ``ndata[NTYPE]`` / ``edata[ETYPE]``.

    Type-wise ids come from ``ndata[NID]`` / ``edata[EID]`` when present, else from
    the order of the items. Other data is split per type.

    Parameters
    ----------
    h : Graph
        A homogeneous graph with ``ndata[NTYPE]`` and ``edata[ETYPE]`` (and optionally
        ``ndata[NID]`` / ``edata[EID]``), as :func:`to_homogeneous` makes.
    ntypes : sequence of str
        Node type names, indexed by the type ids in ``ndata[NTYPE]``.
    canonical_etypes : sequence of (str, str, str) or "src:rel:dst"
        Edge types, indexed by the type ids in ``edata[ETYPE]``.

    Returns
    -------
    Graph
        A heterogeneous graph with the types given and ``h``'s other node and edge data, per
        type. Node names of ``h`` are not carried over.

    Raises
    ------
    GraphpartError
        If ``h`` is not homogeneous, lacks the type data, holds type ids out of range, has
        type-wise ids that are not ``0..n-1`` within each type, or an edge joins nodes of
        types other than its edge type's.

    Examples
    --------
    >>> g = Graph.from_typed_edges({("a", "r", "b"): ([0, 1], [0, 0])}, num_nodes={"a": 2, "b": 1})
    >>> back = from_homogeneous(to_homogeneous(g), g.ntypes, g.canonical_etypes)
    >>> back.edges("r")
    (tensor([0, 1]), tensor([0, 0]))
    """
    if not h.is_homogeneous:
        raise GraphpartError(f"expected a homogeneous graph, got node types {h.ntypes}")
    schema = Schema.build(ntypes, canonical_etypes)
    if NTYPE not in h.ndata or ETYPE not in h.edata:
        raise GraphpartError(
            f"the homogeneous graph needs ndata[{short_repr(NTYPE)}] and edata[{short_repr(ETYPE)}]"
        )
    ntype_ids = as_id_tensor(h.ndata[NTYPE], f"ndata[{NTYPE!r}]")
    etype_ids = as_id_tensor(h.edata[ETYPE], f"edata[{ETYPE!r}]")
    _check_type_ids(ntype_ids, len(schema.ntypes), "node")
    _check_type_ids(etype_ids, len(schema.canonical_etypes), "edge")
    nid = as_id_tensor(h.ndata[NID], f"ndata[{NID!r}]") if NID in h.ndata else None
    eid = as_id_tensor(h.edata[EID], f"edata[{EID!r}]") if EID in h.edata else None
    nperm, ncounts, local = _split_order(ntype_ids, nid, len(schema.ntypes), "node")
    eperm, ecounts, _ = _split_order(etype_ids, eid, len(schema.canonical_etypes), "edge")
    src, dst = h.edges()
    edges, ndata, edata = {}, {}, {}
    nsplit = torch.split(nperm, ncounts.tolist())
    esplit = torch.split(eperm, ecounts.tolist())
    for i, et in enumerate(schema.canonical_etypes):
        s_t, d_t = schema.ntype_id(et[0]), schema.ntype_id(et[2])
        idx = esplit[i]
        if ((ntype_ids[src[idx]] != s_t) | (ntype_ids[dst[idx]] != d_t)).any():
            raise GraphpartError(
                f"edges of type {short_repr(etype_str(et))} join nodes of other types"
            )
        edges[et] = (local[src[idx]], local[dst[idx]])
        edata[et] = {k: v[idx] for k, v in h.edata.items() if k not in (ETYPE, EID)}
    for i, t in enumerate(schema.ntypes):
        ndata[t] = {k: v[nsplit[i]] for k, v in h.ndata.items() if k not in (NTYPE, NID)}
    return Graph.from_typed_edges(
        edges, num_nodes=dict(zip(schema.ntypes, ncounts.tolist())), ndata=ndata, edata=edata
    )


def _check_type_ids(ids: torch.Tensor, n: int, what: str) -> None:
    if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= n):
        raise GraphpartError(
            f"{what} type ids must be within [0, {n}), got values in "
            f"[{int(ids.min())}, {int(ids.max())}]"
        )


def _typewise_ids(counts: torch.Tensor) -> torch.Tensor:
    """``[0..c0), [0..c1), ...`` concatenated: the type-wise id of every homogeneous id."""
    return typed_ids(
        torch.arange(int(counts.sum())), torch.from_numpy(type_offsets(counts.numpy()))
    )[1]


def _split_order(type_ids: torch.Tensor, typewise: torch.Tensor | None, k: int, what: str):
    """Permutation grouping items by type (then by type-wise id), counts, and local ids."""
    counts = torch.bincount(type_ids, minlength=k)
    if typewise is None:
        perm = torch.sort(type_ids, stable=True).indices
    else:
        key = type_ids * (int(typewise.max()) + 1 if typewise.numel() else 1) + typewise.long()
        perm = torch.sort(key, stable=True).indices
        expected = _typewise_ids(counts)
        if not torch.equal(typewise.long()[perm], expected):
            raise GraphpartError(f"type-wise {what} ids must be 0..n-1 within each type")
    local = torch.empty_like(type_ids)
    local[perm] = _typewise_ids(counts)
    return perm, counts, local

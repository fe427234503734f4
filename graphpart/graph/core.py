"""``Graph``: one directed-graph class for homogeneous and heterogeneous graphs.

IDs are int64 tensors; node and edge data are tensors whose first dimension is
checked against the number of nodes or edges of their type. Node types and
canonical edge types are kept sorted, as DGL does, so the homogeneous ids of a
graph do not depend on the order of a dict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from ..errors import GraphpartError
from ..typing import CanonicalEType, DataDict, ETypeLike, IdArray
from ..utils.check import check_count, short_repr
from ..utils.tensors import as_id_tensor, check_ids_in_range
from .build import keyed, parse_typed_edges
from .data import DataStore
from .schema import DEFAULT_ETYPE, DEFAULT_NTYPE, Schema, etype_str

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx
    import scipy.sparse as sp

__all__ = ["Graph", "check_graph", "NID", "EID", "NTYPE", "ETYPE"]

#: Node data holding original (or type-wise) node ids.
NID = "_ID"
#: Edge data holding original (or type-wise) edge ids.
EID = "_ID"
#: Node data holding node type ids.
NTYPE = "_TYPE"
#: Edge data holding edge type ids.
ETYPE = "_TYPE"


class Graph:
    """A directed graph with typed nodes and edges and tensor data.

    Build one with :meth:`from_edges` (homogeneous), :meth:`from_typed_edges`
    (heterogeneous), :meth:`from_networkx` or :meth:`from_scipy`.

    The constructor itself is low-level: it checks the data lengths but not the ids, which
    the ``from_*`` builders validate.

    Parameters
    ----------
    schema : Schema
        Node types and canonical edge types, in type-id order.
    num_nodes : sequence of int
        Node count of each node type, in ``schema.ntypes`` order.
    edges : sequence of (torch.Tensor, torch.Tensor)
        ``(src, dst)`` int64 tensors of type-wise node ids, one pair per edge type, in
        ``schema.canonical_etypes`` order.
    ndata : dict of str to dict, optional
        ``{ntype: {name: tensor}}``; each tensor has one row per node of its type.
    edata : dict of (str, str, str) to dict, optional
        ``{canonical etype: {name: tensor}}``; each tensor has one row per edge of its type.

    Examples
    --------
    >>> g = Graph.from_edges([0, 1, 2], [1, 2, 0], ndata={"x": torch.ones(3, 2)})
    >>> g
    Graph(num_nodes=3, num_edges=3, ndata={'x': (3, 2) float32}, edata={})
    >>> g.in_degrees()
    tensor([1, 1, 1])
    """

    def __init__(
        self,
        schema: Schema,
        num_nodes: Sequence[int],
        edges: Sequence[tuple[torch.Tensor, torch.Tensor]],
        ndata: Mapping[str, DataDict] | None = None,
        edata: Mapping[CanonicalEType, DataDict] | None = None,
    ) -> None:
        # Low-level: prefer the from_* constructors, which parse and validate input.
        self._schema = schema
        self._num_nodes = tuple(int(n) for n in num_nodes)
        self._edges = tuple(edges)
        ndata = ndata or {}
        edata = edata or {}
        self._ndata = tuple(
            DataStore(n, f"node type {t!r}", ndata.get(t))
            for t, n in zip(schema.ntypes, self._num_nodes)
        )
        self._edata = tuple(
            DataStore(len(s), f"edge type {etype_str(e)!r}", edata.get(e))
            for e, (s, _) in zip(schema.canonical_etypes, self._edges)
        )
        self._names: dict[int, np.ndarray] = {}

    # ------------------------------------------------------------------ builders
    @classmethod
    def from_edges(
        cls,
        src: IdArray,
        dst: IdArray,
        num_nodes: int | None = None,
        ndata: DataDict | None = None,
        edata: DataDict | None = None,
    ) -> "Graph":
        """A homogeneous graph from edge lists ``src[i] -> dst[i]``.

        Parameters
        ----------
        src, dst : array of int
            Endpoints of each edge (numpy, torch or lists).
        num_nodes : int, optional
            Number of nodes; defaults to ``max(src, dst) + 1``.
        ndata, edata : dict of str to tensor, optional
            Node and edge data; each tensor has one row per node / edge.

        Examples
        --------
        >>> g = Graph.from_edges(np.array([0, 0]), np.array([1, 2]), num_nodes=4)
        >>> g.num_nodes(), g.num_edges(), g.is_homogeneous
        (4, 2, True)
        """
        if num_nodes is not None:
            num_nodes = check_count(num_nodes, "num_nodes")
        return cls.from_typed_edges(
            {DEFAULT_ETYPE: (src, dst)},
            num_nodes=None if num_nodes is None else {DEFAULT_NTYPE: num_nodes},
            ndata=None if ndata is None else {DEFAULT_NTYPE: ndata},
            edata=None if edata is None else {DEFAULT_ETYPE: edata},
        )

    @classmethod
    def from_typed_edges(
        cls,
        edges: Mapping[ETypeLike, tuple[IdArray, IdArray]],
        num_nodes: Mapping[str, int] | None = None,
        ndata: Mapping[str, DataDict] | None = None,
        edata: Mapping[ETypeLike, DataDict] | None = None,
        *,
        copy: bool = True,
    ) -> "Graph":
        """A heterogeneous graph from ``{(src_type, relation, dst_type): (src, dst)}``.

        Edge types may also be written ``"src:rel:dst"``. Node counts default to
        the largest id seen plus one; a type listed only in ``num_nodes`` has no edges.
        Id tensors are copied unless ``copy=False`` (for file readers: the tensors are
        then the graph's own, and must not be changed behind its back).

        Examples
        --------
        >>> g = Graph.from_typed_edges(
        ...     {("user", "buys", "item"): ([0, 1], [2, 0]), "user:follows:user": ([0], [1])},
        ...     num_nodes={"user": 2, "item": 3},
        ... )
        >>> g.ntypes, g.canonical_etypes
        (['item', 'user'], [('user', 'buys', 'item'), ('user', 'follows', 'user')])
        >>> g.num_nodes("item"), g.num_edges("buys"), g.num_edges()
        (3, 2, 3)
        """
        schema, counts, parsed = parse_typed_edges(edges, num_nodes, copy=copy)
        nd = keyed(ndata, schema.ntype_id, schema.ntypes, "ndata")
        ed = keyed(edata, schema.etype_id, schema.canonical_etypes, "edata")
        return cls(
            schema,
            [counts[t] for t in schema.ntypes],
            [parsed[e] for e in schema.canonical_etypes],
            nd,
            ed,
        )

    @classmethod
    def from_networkx(cls, nx_graph: "nx.Graph", node_attrs=None, edge_attrs=None) -> "Graph":
        """See :func:`graphpart.graph.convert.from_networkx`."""
        from .convert import from_networkx

        return from_networkx(nx_graph, node_attrs=node_attrs, edge_attrs=edge_attrs)

    @classmethod
    def from_scipy(cls, matrix: "sp.spmatrix", eweight_name: str | None = None) -> "Graph":
        """See :func:`graphpart.graph.convert.from_scipy`."""
        from .convert import from_scipy

        return from_scipy(matrix, eweight_name=eweight_name)

    def to_networkx(self, node_attrs=None, edge_attrs=None) -> "nx.MultiDiGraph":
        """See :func:`graphpart.graph.convert.to_networkx`."""
        from .convert import to_networkx

        return to_networkx(self, node_attrs=node_attrs, edge_attrs=edge_attrs)

    def to_homogeneous(self, ndata: Sequence[str] = (), edata: Sequence[str] = ()) -> "Graph":
        """See :func:`graphpart.graph.convert.to_homogeneous`."""
        from .convert import to_homogeneous

        return to_homogeneous(self, ndata=ndata, edata=edata)

    # ------------------------------------------------------------------ schema
    @property
    def schema(self) -> Schema:
        """Node types and canonical edge types with their type ids."""
        return self._schema

    @property
    def ntypes(self) -> list[str]:
        """Node type names, sorted."""
        return list(self._schema.ntypes)

    @property
    def canonical_etypes(self) -> list[CanonicalEType]:
        """Canonical edge types ``(src_type, relation, dst_type)``, sorted."""
        return list(self._schema.canonical_etypes)

    @property
    def etypes(self) -> list[str]:
        """Relation names, in canonical edge type order."""
        return list(self._schema.etypes)

    @property
    def is_homogeneous(self) -> bool:
        """True when the graph has one node type and one edge type."""
        return len(self._schema.ntypes) == 1 and len(self._schema.canonical_etypes) == 1

    def get_ntype_id(self, ntype: str) -> int:
        """Integer id of a node type."""
        return self._schema.ntype_id(ntype)

    def get_etype_id(self, etype: ETypeLike) -> int:
        """Integer id of an edge type."""
        return self._schema.etype_id(etype)

    def to_canonical_etype(self, etype: ETypeLike) -> CanonicalEType:
        """The canonical tuple of an edge type given as tuple, ``"s:r:d"`` or relation."""
        return self._schema.canonical(etype)

    # ------------------------------------------------------------------ structure
    def _one_ntype(self, ntype: str | None, what: str) -> int:
        if ntype is not None:
            return self._schema.ntype_id(ntype)
        if len(self._schema.ntypes) != 1:
            raise GraphpartError(f"{what} needs ntype= on a graph with node types {self.ntypes}")
        return 0

    def _one_etype(self, etype: ETypeLike | None, what: str) -> int:
        if etype is not None:
            return self._schema.etype_id(etype)
        if len(self._schema.canonical_etypes) != 1:
            raise GraphpartError(
                f"{what} needs etype= on a graph with edge types "
                f"{[etype_str(e) for e in self.canonical_etypes]}"
            )
        return 0

    def num_nodes(self, ntype: str | None = None) -> int:
        """Nodes of one type, or of all types when ``ntype`` is None.

        Examples
        --------
        >>> g = Graph.from_typed_edges({("a", "r", "b"): ([0], [1])})
        >>> g.num_nodes("b"), g.num_nodes()
        (2, 3)
        """
        if ntype is None:
            return sum(self._num_nodes)
        return self._num_nodes[self._schema.ntype_id(ntype)]

    def num_edges(self, etype: ETypeLike | None = None) -> int:
        """Edges of one type, or of all types when ``etype`` is None.

        Examples
        --------
        >>> edges = {("a", "r", "b"): ([0, 0], [1, 0]), ("b", "s", "a"): ([1], [0])}
        >>> g = Graph.from_typed_edges(edges)
        >>> g.num_edges("r"), g.num_edges("b:s:a"), g.num_edges()
        (2, 1, 3)
        """
        if etype is None:
            return sum(len(s) for s, _ in self._edges)
        return len(self._edges[self._schema.etype_id(etype)][0])

    def edges(self, etype: ETypeLike | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``(src, dst)`` int64 tensors of one edge type, in edge id order.

        Examples
        --------
        >>> Graph.from_edges([2, 0], [1, 1]).edges()
        (tensor([2, 0]), tensor([1, 1]))
        """
        return self._edges[self._one_etype(etype, "edges()")]

    def in_degrees(self, v: IdArray | None = None, etype: ETypeLike | None = None) -> torch.Tensor:
        """In-degree of every destination node of ``etype`` (or of the nodes ``v``).

        Examples
        --------
        >>> g = Graph.from_edges([0, 1, 2], [2, 2, 0])
        >>> g.in_degrees(), g.in_degrees([2])
        (tensor([1, 0, 2]), tensor([2]))
        """
        return self._degrees(v, etype, 1)

    def out_degrees(self, v: IdArray | None = None, etype: ETypeLike | None = None) -> torch.Tensor:
        """Out-degree of every source node of ``etype`` (or of the nodes ``v``).

        Examples
        --------
        >>> Graph.from_edges([0, 0, 2], [1, 2, 0]).out_degrees()
        tensor([2, 0, 1])
        """
        return self._degrees(v, etype, 0)

    def _degrees(self, v: IdArray | None, etype: ETypeLike | None, side: int) -> torch.Tensor:
        eid = self._one_etype(etype, "in_degrees()/out_degrees()")
        ntype = self._schema.canonical_etypes[eid][2 * side]
        n = self._num_nodes[self._schema.ntype_id(ntype)]
        deg = torch.bincount(self._edges[eid][side], minlength=n)
        if v is None:
            return deg
        ids = as_id_tensor(v, "v")
        check_ids_in_range(ids, n, f"node ids of type {ntype!r}")
        return deg[ids]

    # ------------------------------------------------------------------ data
    @property
    def ndata(self) -> Any:
        """Node data: ``{name: tensor}`` if homogeneous, else ``{ntype: {name: tensor}}``."""
        if self.is_homogeneous:
            return self._ndata[0]
        return MappingProxyType(dict(zip(self._schema.ntypes, self._ndata)))

    @property
    def edata(self) -> Any:
        """Edge data: ``{name: tensor}`` if homogeneous, else ``{(s, r, d): {name: tensor}}``."""
        if self.is_homogeneous:
            return self._edata[0]
        return MappingProxyType(dict(zip(self._schema.canonical_etypes, self._edata)))

    def node_data(self, ntype: str | None = None) -> DataStore:
        """The data of one node type, on homogeneous and heterogeneous graphs alike.

        Examples
        --------
        >>> g = Graph.from_typed_edges({("a", "r", "b"): ([0], [0])})
        >>> g.node_data("a")["x"] = torch.zeros(1)
        >>> g.ndata["a"]
        {'x': (1,) float32}
        """
        return self._ndata[self._one_ntype(ntype, "node_data()")]

    def edge_data(self, etype: ETypeLike | None = None) -> DataStore:
        """The data of one edge type, on homogeneous and heterogeneous graphs alike."""
        return self._edata[self._one_etype(etype, "edge_data()")]

    def node_names(self, ntype: str | None = None) -> np.ndarray | None:
        """Human-readable node names of a type (for plots), or None if it has none."""
        return self._names.get(self._one_ntype(ntype, "node_names()"))

    def set_node_names(self, names: Sequence[str] | np.ndarray, ntype: str | None = None) -> None:
        """Attach one display name per node of ``ntype``.

        Examples
        --------
        >>> g = Graph.from_edges([0], [1])
        >>> g.set_node_names(["Alice", "Bob"])
        >>> g.node_names().tolist()
        ['Alice', 'Bob']
        """
        tid = self._one_ntype(ntype, "set_node_names()")
        arr = np.asarray(names, dtype=str)
        if arr.shape != (self._num_nodes[tid],):
            raise GraphpartError(
                f"node names of type {short_repr(self._schema.ntypes[tid])} must be "
                f"{self._num_nodes[tid]} "
                f"strings, got shape {arr.shape}"
            )
        self._names[tid] = arr

    def __repr__(self) -> str:
        if self.is_homogeneous:
            return (
                f"Graph(num_nodes={self.num_nodes()}, num_edges={self.num_edges()}, "
                f"ndata={self._ndata[0]!r}, edata={self._edata[0]!r})"
            )
        nn = {t: n for t, n in zip(self._schema.ntypes, self._num_nodes)}
        if len(self._edges) > 6:  # a long schema: summarise rather than flood the notebook
            return (
                f"Graph(num_nodes={nn}, num_edges={self.num_edges()} "
                f"in {len(self._edges)} edge types)"
            )
        ne = {etype_str(e): len(s) for e, (s, _) in zip(self._schema.canonical_etypes, self._edges)}
        return f"Graph(num_nodes={nn}, num_edges={ne})"


def check_graph(g: object, name: str = "g") -> Graph:
    """``g`` if it is a :class:`Graph`, else a :class:`~graphpart.GraphpartError` naming what it
    is and how to make one.

    Parameters
    ----------
    g : object
        The value to check.
    name : str, default "g"
        How the error message names ``g`` (the caller's parameter name).

    Returns
    -------
    Graph
        ``g`` itself.

    Raises
    ------
    GraphpartError
        If ``g`` is not a :class:`Graph`.

    Examples
    --------
    >>> check_graph("karate.npz", "graph")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: graph must be a graphpart.Graph, got str (build one with \
graphpart.Graph, graphpart.datasets or the from_* converters)
    """
    if not isinstance(g, Graph):
        raise GraphpartError(
            f"{name} must be a graphpart.Graph, got {type(g).__name__} (build one with "
            "graphpart.Graph, graphpart.datasets or the from_* converters)"
        )
    return g

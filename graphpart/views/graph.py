"""What the interactive graph views draw, as plain data: nodes keyed by original id with
the facts their hover card shows, positions, owner colours, cut edges, HALO rings.

Computed here, from a :class:`~graphpart.Partitioning` and :func:`graphpart.lookup.node_table`;
``graphpart.widgets.graph_view`` only hands it to the WebGL widget. Nodes are keyed by original
id (``"17"``, or ``"paper:17"`` on a heterograph), so a node has the same key in every view: a
node selected in one partition's view is selected in every view that holds a copy of it.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError, TooBigToDrawError
from ..homogeneous import HomogeneousGraph
from ..index import expand_ranges
from ..lookup import NodeTable, node_keys, node_table
from ..metrics.structure import quotient_graph
from ..palette import CUT_COLOR, lighter_hex, part_hex
from ..partitioning.loads import SPLITS
from ..training.trainset import node_mask
from ..utils.check import check_count, short_repr
from ..viz.layout import node_positions

if TYPE_CHECKING:  # pragma: no cover
    from ..partitioning.core import Partitioning

__all__ = ["GraphData", "graph_data", "neighbourhood_data", "node_label"]

#: Above these, a view draws the quotient graph (one node per partition) instead.
MAX_NODES, MAX_EDGES = 100_000, 1_000_000


@dataclass(frozen=True)
class GraphData:
    """One view's nodes and edges.

    Attributes
    ----------
    nodes : dict of str to dict
        Each node's key to its attributes: ``x``, ``y``, ``owner`` (a label of ``palette``),
        ``kind`` and the hover facts, ``label`` the hover card where the view has one.
    edges : list of (str, str, dict)
        ``(key, key, attributes)``; ``color`` is the edge's colour, and a partitioning's edges
        say whether they are ``cut``.
    palette : dict of str to str
        Each owner label to its colour (the legend).
    title : str
        What the view shows.
    rings : dict of str to str, default {}
        Each ring colour's meaning, where nodes are ringed in a ``partition colour`` (the
        balance view).
    edge_note : str or None, default None
        What the edges are, where they are not a partitioning's (inner and cut edges).
    """

    nodes: dict[str, dict]
    edges: list[tuple[str, str, dict]]
    palette: dict[str, str]
    title: str
    rings: dict[str, str] = field(default_factory=dict)
    edge_note: str | None = None


def _copies_text(table: NodeTable, nodes: np.ndarray) -> list[str]:
    counts = np.diff(table.halo_ptr)[nodes]
    out = []
    for node, c in zip(nodes.tolist(), counts.tolist()):  # only nodes with copies are formatted
        if c == 0:
            out.append("none")
        else:
            out.append(
                "; ".join(f"part {q}: local {lid}, hop {h}" for q, lid, h in table.copies(node))
            )
    return out


def graph_data(
    p: Partitioning,
    part: int | None = None,
    table: NodeTable | None = None,
    *,
    hops: int | None = None,
) -> GraphData:
    """The whole graph (``part=None``) or partition ``part``'s local graph (its inner nodes and
    HALO copies up to ``hops``, default all it stores, with the edges it stores), for a view.

    Parameters
    ----------
    p : Partitioning
    part : int, optional
        A partition whose local graph is drawn. ``None``: the whole graph, or its quotient
        graph (:func:`quotient_data`) above :data:`MAX_NODES` nodes or :data:`MAX_EDGES` edges.
    table : NodeTable, optional
        ``node_table(p)``, when already computed.
    hops : int, optional
        With ``part``: keep the HALO copies up to this hop, at most ``p.num_hops`` (default:
        all). Checked but unused for the whole graph.

    Returns
    -------
    GraphData
        Nodes keyed as by :func:`node_keys`, with their ids, owner, HALO copies, degree and
        split flags (and ``local id here`` in a partition's view); each node pair's edges once,
        in their partition's colour, lighter, or :data:`CUT_COLOR` when cut.

    Raises
    ------
    GraphpartError
        When ``hops`` is above ``p.num_hops``.
    TooBigToDrawError
        When the partition's view has more than :data:`MAX_NODES` nodes or :data:`MAX_EDGES`
        stored edges.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> p = gp.partition(load_karate_club(), 2, num_hops=2, seed=0)
    >>> d = graph_data(p)
    >>> len(d.nodes), len(d.edges), sorted(d.palette)
    (34, 78, ['part 0', 'part 1'])
    >>> card = d.nodes["0"]
    >>> card["owner"] == f"part {int(p.node_part[0])}", card["original id"], card["kind"]
    (True, 0, 'inner')
    >>> card["label"].startswith("node 0 | part ")
    True
    >>> local = graph_data(p, part=0)
    >>> sorted({n["kind"] for n in local.nodes.values()})
    ['HALO (hop 1)', 'HALO (hop 2)', 'inner']
    >>> sorted({n["kind"] for n in graph_data(p, part=0, hops=1).nodes.values()})
    ['HALO (hop 1)', 'inner']
    """
    if hops is not None:
        hops = check_count(hops, "hops")
        if hops > p.num_hops:
            raise GraphpartError(
                f"hops must be at most {p.num_hops}: the partitions hold HALO copies up to "
                f"num_hops={p.num_hops}; got {hops}"
            )
    if part is None and too_big(p.graph.num_nodes(), p.graph.num_edges()):
        return quotient_data(p)
    table = table or node_table(p)
    h = HomogeneousGraph.of(p.graph)  # with edges (a Partitioning keeps only the offsets)
    src, dst = np.asarray(h.src, dtype=np.int64), np.asarray(h.dst, dtype=np.int64)
    n = h.num_nodes
    if part is None:
        nodes, hop = np.arange(n), np.zeros(n, dtype=np.int64)
        title = f"{n:,} nodes in {p.num_parts} partitions"
    else:
        v = p.view(part)
        new2old = np.asarray(p.shuffle.new2old_nid, dtype=np.int64)
        hop = np.asarray(v.hop, dtype=np.int64)
        keep = hop <= (p.num_hops if hops is None else hops)
        if too_big(int(keep.sum()), len(v.src)):
            raise TooBigToDrawError(
                f"partition {part} holds {int(keep.sum()):,} nodes and {len(v.src):,} edges; a "
                f"view draws at most {MAX_NODES:,} nodes and {MAX_EDGES:,} edges (use more "
                "partitions, the whole graph's quotient view, or a node's neighbourhood)"
            )
        nodes = new2old[np.asarray(v.nodes, dtype=np.int64)]
        ls, ld = np.asarray(v.src, dtype=np.int64), np.asarray(v.dst, dtype=np.int64)
        stored = keep[ls] & keep[ld]
        src, dst = nodes[ls[stored]], nodes[ld[stored]]
        nodes, hop = nodes[keep], hop[keep]
        shown = "" if hops is None else f" within {hops} hop{'s' if hops != 1 else ''}"
        title = (
            f"partition {part}: {v.num_inner_nodes:,} inner + "
            f"{len(nodes) - v.num_inner_nodes:,} HALO{shown}"
        )
    data = _assemble(p, table, nodes, hop, src, dst, title)
    if part is not None:
        for i, a in enumerate(data.nodes.values()):
            a["local id here"] = i
    return data


def neighbourhood_data(
    p: Partitioning, node: int, hops: int = 2, table: NodeTable | None = None, max_nodes: int = 2000
) -> GraphData:
    """The nodes within ``hops`` of ``node`` (original homogeneous id) in the whole graph,
    breadth first and at most ``max_nodes`` of them, coloured by owner, for graphs too big to
    draw whole. ``node`` is marked ``kind="chosen"``.

    Parameters
    ----------
    p : Partitioning
    node : int
        The start node, an original homogeneous id.
    hops : int, default 2
        How many hops to go out, following edges in both directions.
    table : NodeTable, optional
        ``node_table(p)``, when already computed.
    max_nodes : int, default 2000
        The most nodes taken, ``node`` included (at least 1); a hop that would pass it keeps
        its lowest ids.

    Returns
    -------
    GraphData
        The nodes reached and the edges among them, drawn as :func:`graph_data` draws them;
        every node's ``kind`` is ``"inner"``, but ``node``'s.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> p = gp.partition(load_karate_club(), 2, seed=0)
    >>> d = neighbourhood_data(p, 0, hops=1)
    >>> len(d.nodes), d.nodes["0"]["kind"], d.title
    (17, 'chosen', 'node 0 and 16 nodes within 1 hop')
    """
    n = p.graph.num_nodes()
    if isinstance(node, bool) or not isinstance(node, numbers.Integral) or not 0 <= node < n:
        raise GraphpartError(
            f"node must be an original homogeneous id, an int in [0, {n}), got "
            f"{short_repr(node, 60)}"
        )
    node = int(node)
    hops = check_count(hops, "hops")
    max_nodes = check_count(max_nodes, "max_nodes", 1)
    table = table or node_table(p)
    h = HomogeneousGraph.of(p.graph)
    src, dst = np.asarray(h.src, dtype=np.int64), np.asarray(h.dst, dtype=np.int64)
    both_s = np.concatenate([src, dst])
    both_d = np.concatenate([dst, src])
    order = np.argsort(both_s, kind="stable")
    ptr = np.searchsorted(both_s[order], np.arange(n + 1))
    nbr = both_d[order]
    dist = np.full(n, -1, dtype=np.int64)
    dist[node] = 0
    frontier, taken = np.array([node]), 1
    for d in range(1, hops + 1):
        if not len(frontier) or taken >= max_nodes:
            break
        reach = np.unique(nbr[expand_ranges(ptr, frontier)])
        reach = reach[dist[reach] < 0][: max_nodes - taken]
        dist[reach] = d
        frontier, taken = reach, taken + len(reach)
    nodes = np.flatnonzero(dist >= 0)
    inside = dist >= 0
    keep = inside[src] & inside[dst]
    plural = "s" if hops != 1 else ""
    title = f"node {node} and {len(nodes) - 1:,} nodes within {hops} hop{plural}"
    hop = np.zeros(len(nodes), dtype=np.int64)
    data = _assemble(p, table, nodes, hop, src[keep], dst[keep], title)
    keys = node_keys(p, table)
    data.nodes[keys[node]]["kind"] = "chosen"
    return data


def _assemble(p, table: NodeTable, nodes, hop, src, dst, title: str) -> GraphData:
    """The view data of ``nodes`` (original homogeneous ids) and the edges ``src -> dst`` among
    them: every node's hover facts and card label, owner colours, cut edges."""
    keys = np.asarray(node_keys(p, table), dtype=object)
    n = len(keys)
    pos = node_positions(p.graph)
    colors = part_hex(p.num_parts)
    palette = {f"part {q}": colors[q] for q in range(p.num_parts)}
    h = HomogeneousGraph.of(p.graph)
    degree = neighbour_counts(h.src, h.dst, n)
    owner = table.owner[nodes]
    copies = _copies_text(table, nodes)
    kinds = np.where(hop > 0, "HALO (hop " + hop.astype(str).astype(object) + ")", "inner")
    hetero = len(table.ntypes) > 1
    attrs = {
        "x": pos[nodes, 0].tolist(),
        "y": pos[nodes, 1].tolist(),
        "owner": [f"part {q}" for q in owner.tolist()],
        "kind": kinds.tolist(),
        "hop": hop.tolist(),
        "original id": (table.orig_id[nodes] if hetero else nodes).tolist(),
        "new id": table.shuffled_id[nodes].tolist(),
        "local id in owner": table.local_id[nodes].tolist(),
        "HALO copies": copies,
        "degree": degree[nodes].tolist(),
    }
    if hetero:
        attrs["type"] = np.asarray(table.ntypes, dtype=object)[table.ntype[nodes]].tolist()
        attrs["homogeneous id"] = nodes.tolist()
        attrs["new type-wise id"] = table.shuffled_typed_id[nodes].tolist()
    splits = []
    for split in SPLITS:
        if any(split in p.graph.node_data(t) for t in p.graph.ntypes):
            mask = node_mask(p, split)
            name = split.removesuffix("_mask")
            attrs[name] = mask[nodes].tolist()
            splits.append(np.where(mask[nodes], f" | {_SPLIT_WORDS[name]} node", ""))
    attrs["label"] = _labels(keys[nodes], attrs, copies, splits, hetero)
    names = list(attrs)
    node_out = {
        k: dict(zip(names, values)) for k, values in zip(keys[nodes].tolist(), zip(*attrs.values()))
    }
    return GraphData(node_out, _edges(src, dst, keys, table, colors), palette, title)


def node_label(p: Partitioning, node: int, table: NodeTable | None = None) -> str:
    """The hover card of one node (an original homogeneous id), as every view writes it.

    Parameters
    ----------
    p : Partitioning
    node : int
        An original homogeneous id.
    table : NodeTable, optional
        ``node_table(p)``, when already computed.

    Returns
    -------
    str
        One line: ids, owner, local id, HALO copies, degree, split.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> node_label(gp.partition(load_karate_club(), 2, seed=0), 0).startswith("node 0 | part ")
    True
    """
    table = table or node_table(p)
    nodes = np.asarray([node], dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    data = _assemble(p, table, nodes, np.zeros(1, dtype=np.int64), empty, empty, "")
    return next(iter(data.nodes.values()))["label"]


#: How a card names each split: "validation node", not a bare "val".
_SPLIT_WORDS = {"train": "training", "val": "validation", "test": "test"}


def _labels(keys, attrs: dict, copies: list[str], splits: list, hetero: bool) -> list[str]:
    """The one-line card sigma shows on hover: ids, owner, local id, copies, degree, split."""
    s = lambda values: np.asarray(values).astype(str).astype(object)  # noqa: E731
    out = "node " + keys.astype(object)
    if hetero:
        out = out + " (homogeneous " + s(attrs["homogeneous id"]) + ")"
    out = out + " | " + np.asarray(attrs["owner"], dtype=object)
    out = out + " (local " + s(attrs["local id in owner"]) + ") | new id " + s(attrs["new id"])
    if hetero:
        out = out + " (type-wise " + s(attrs["new type-wise id"]) + ")"
    out = out + " | HALO copies: " + np.asarray(copies, dtype=object)
    out = out + " | degree " + s(attrs["degree"])
    for flag in splits:
        out = out + flag.astype(object)
    return out.tolist()


def neighbour_counts(src, dst, n: int) -> np.ndarray:
    """How many distinct other nodes each node is joined to, in either direction: the degree a
    view shows (karate's node 0 has 16 friends, stored as 32 directed edges).

    Parameters
    ----------
    src, dst : array_like of int
        The ends of each edge, ids in ``[0, n)``. Self-loops do not count; a pair joined by
        several edges, either way, counts once.
    n : int
        The number of nodes.

    Returns
    -------
    ndarray of int64
        The number of distinct neighbours of each of the ``n`` nodes.

    Examples
    --------
    >>> neighbour_counts(np.array([0, 1, 0, 2]), np.array([1, 0, 2, 2]), 3).tolist()
    [2, 1, 1]
    """
    src, dst = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    keep = src != dst
    lo, hi = np.minimum(src[keep], dst[keep]), np.maximum(src[keep], dst[keep])
    pair = np.unique(lo * max(n, 1) + hi)
    ends = np.concatenate([pair // max(n, 1), pair % max(n, 1)])
    return np.bincount(ends, minlength=n)


def too_big(num_nodes: int, num_edges: int) -> bool:
    """Whether a view of this many nodes and edges draws the quotient graph instead (above
    :data:`MAX_NODES` nodes or :data:`MAX_EDGES` edges)."""
    return num_nodes > MAX_NODES or num_edges > MAX_EDGES


def quotient_data(p: Partitioning) -> GraphData:
    """The quotient graph as a view's data: one node per partition (its size by node count),
    one edge per pair of partitions with edges between them (their count on hover).

    Parameters
    ----------
    p : Partitioning

    Returns
    -------
    GraphData
        Nodes ``"part 0"``, ``"part 1"``, ... on the unit circle, of kind ``"partition"``, with
        ``nodes``, ``edges inside`` and ``degree`` (its node count, which sizes it); cut edges
        with their ``cut edges`` count.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> d = quotient_data(gp.partition(load_karate_club(), 3, seed=0))
    >>> list(d.nodes), d.nodes["part 0"]["kind"], len(d.edges)
    (['part 0', 'part 1', 'part 2'], 'partition', 3)
    """
    q = quotient_graph(p)
    k = p.num_parts
    angle = 2 * np.pi * np.arange(k) / max(k, 1)
    colors = part_hex(k)
    palette = {f"part {i}": colors[i] for i in range(k)}
    nodes = {
        f"part {i}": {
            "x": float(np.cos(angle[i])),
            "y": float(np.sin(angle[i])),
            "owner": f"part {i}",
            "kind": "partition",
            "nodes": int(q.sizes[i]),
            "edges inside": int(q.internal[i]),
            "degree": int(q.sizes[i]),
        }
        for i in range(k)
    }
    edges = [
        (f"part {a}", f"part {b}", {"cut": True, "cut edges": int(w), "color": CUT_COLOR})
        for a, b, w in zip(q.src.tolist(), q.dst.tolist(), q.weight.tolist())
    ]
    n, m = p.graph.num_nodes(), p.graph.num_edges()
    return GraphData(nodes, edges, palette, f"quotient graph: {n:,} nodes, {m:,} edges")


def _edges(src, dst, keys, table, colors: list[str]) -> list[tuple[str, str, dict]]:
    """Each undirected pair once: :data:`CUT_COLOR` when its ends have different owners (no
    partition has that colour), else its partition's colour, lighter."""
    m = max(len(keys), 1)
    lo, hi = np.minimum(src, dst), np.maximum(src, dst)
    pair = np.unique(lo * m + hi)
    lo, hi = pair // m, pair % m
    cut = table.owner[lo] != table.owner[hi]
    inner = np.asarray(lighter_hex(colors), dtype=object)
    color = np.where(cut, CUT_COLOR, inner[table.owner[lo]] if len(inner) else CUT_COLOR)
    return [
        (a, b, {"cut": c, "color": k})
        for a, b, c, k in zip(keys[lo].tolist(), keys[hi].tolist(), cut.tolist(), color.tolist())
    ]

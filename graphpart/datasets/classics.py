"""Small teaching graphs from networkx: karate club, Les Misérables, Davis Southern Women."""

from __future__ import annotations

import networkx as nx
import numpy as np
import torch

from ..graph.convert import from_networkx
from ..graph.core import Graph

__all__ = ["load_karate_club", "load_les_miserables", "load_davis_southern_women"]


def load_karate_club() -> Graph:
    """Zachary's karate club: 34 members, 78 friendships (156 directed edges).

    ``ndata["label"]`` is the club each member joined after the split
    (0 = Mr. Hi, 1 = Officer); the names ``"Mr. Hi"`` / ``"Officer"`` are in
    ``ndata`` order in :data:`KARATE_CLUBS`.

    Returns
    -------
    Graph
        34 nodes and 156 edges (both directions of each friendship); ``ndata["label"]`` (int64)
        and networkx's ``edata["weight"]``.

    Examples
    --------
    >>> g = load_karate_club()
    >>> g.num_nodes(), g.num_edges(), g.ndata["label"].bincount().tolist()
    (34, 156, [17, 17])
    """
    G = nx.karate_club_graph()
    g = from_networkx(G, edge_attrs=["weight"])
    clubs = [G.nodes[v]["club"] for v in sorted(G.nodes)]
    g.ndata["label"] = torch.tensor([KARATE_CLUBS.index(c) for c in clubs])
    return g


#: Club names, indexed by ``ndata["label"]`` of :func:`load_karate_club`.
KARATE_CLUBS = ("Mr. Hi", "Officer")


def load_les_miserables() -> Graph:
    """Co-appearance of 77 characters of Les Misérables (254 pairs, 508 directed edges).

    ``edata["weight"]`` counts the chapters two characters share; node names
    are the characters.

    Returns
    -------
    Graph
        77 nodes in networkx's order, named after the characters, and 508 edges (both
        directions of each pair) with ``edata["weight"]``.

    Examples
    --------
    >>> g = load_les_miserables()
    >>> g.num_nodes(), g.num_edges(), "Valjean" in g.node_names()
    (77, 508, True)
    """
    G = nx.les_miserables_graph()
    # Keep networkx's node order (sorting the names would scatter the story's order).
    order = {v: i for i, v in enumerate(G.nodes)}
    H = nx.relabel_nodes(G, order)
    g = from_networkx(H, edge_attrs=["weight"])
    g.set_node_names(list(G.nodes))
    return g


def load_davis_southern_women() -> Graph:
    """Davis Southern Women: 18 women and the 14 social events they attended, heterogeneous.

    Node types ``woman`` and ``event``; edge types ``("woman", "attends", "event")``
    and its reverse ``("event", "attended_by", "woman")``, 89 edges each.

    Returns
    -------
    Graph
        A heterogeneous graph of 18 ``woman`` and 14 ``event`` nodes, named as in networkx, with
        no node or edge data.

    Examples
    --------
    >>> g = load_davis_southern_women()
    >>> g.num_nodes("woman"), g.num_nodes("event"), g.num_edges("attends")
    (18, 14, 89)
    """
    G = nx.davis_southern_women_graph()
    women = [v for v, d in G.nodes(data=True) if d["bipartite"] == 0]
    events = [v for v, d in G.nodes(data=True) if d["bipartite"] == 1]
    wi = {v: i for i, v in enumerate(women)}
    ei = {v: i for i, v in enumerate(events)}
    pairs = [(wi[u], ei[v]) if u in wi else (wi[v], ei[u]) for u, v in G.edges]
    w = np.array([p[0] for p in pairs], dtype=np.int64)
    e = np.array([p[1] for p in pairs], dtype=np.int64)
    g = Graph.from_typed_edges(
        {("woman", "attends", "event"): (w, e), ("event", "attended_by", "woman"): (e, w)},
        num_nodes={"woman": len(women), "event": len(events)},
    )
    g.set_node_names(women, "woman")
    g.set_node_names(events, "event")
    return g

"""A :class:`~graphpart.Partitioning` from partitions on disk, for the figures and widgets.

The figures and widgets work on an in-memory :class:`~graphpart.Partitioning`. Partitions on disk
(graphpart, DGL, GraphBolt, PyG or GLT) hold everything needed to rebuild one: each edge is an
inner edge of exactly one partition, and the node ranges of the partition book give the
assignment. :func:`open_partitioning` rebuilds the whole graph in the partitions' own ids (with
their features) and hands it to :func:`graphpart.partition` with that assignment, so the node
assignment, the partition book and every feature are the files'; HALO nodes are recomputed by
graphpart's rule (edges go with their destination, as DGL and PyG do; GLT keeps them with the
source, so its HALO sets differ from GLT's own).
"""

from __future__ import annotations

import os
from dataclasses import replace

import numpy as np
import torch

from .._schema import parse_etype
from ..errors import GraphpartError
from ..graph import Graph
from ..partitioning.core import Partitioning, partition
from .sources import FORMAT_NAMES, open_partitions

__all__ = ["open_partitioning", "as_partitioning"]


def _typed_edges(src, cfg: dict) -> tuple[dict, dict, dict, dict]:
    """Edges, edge data, node data and node counts of the whole graph, in the files' ids."""
    ntypes, etypes = cfg["_ntypes"], cfg["_etypes"]
    nb = cfg["_node_bounds"]
    k = cfg["num_parts"]
    book = src.book(0)  # the book maps partition-major ids to (type, type-wise id)
    pieces: list[list[tuple]] = [[] for _ in etypes]
    ndata: dict[str, dict[str, list]] = {t: {} for t in ntypes}
    edata: dict[str, dict[str, list]] = {e: {} for e in etypes}

    for i in range(k):
        g, nf, ef = src.load(i)
        inner = g.edata["inner_edge"].bool()
        s, d = g.edges()
        gid = g.ndata["_ID"]
        s, d, eid = gid[s[inner]], gid[d[inner]], g.edata["_ID"][inner]
        et, e_local = book.map_to_per_etype(eid)
        s_t, d_t = book.map_to_per_ntype(s)[1], book.map_to_per_ntype(d)[1]
        for j in range(len(etypes)):
            m = et == j
            pieces[j].append((e_local[m], s_t[m], d_t[m]))
        for key, v in (nf or {}).items():
            t, _, name = key.rpartition("/")
            ndata[t].setdefault(name, []).append(v)
        for key, v in (ef or {}).items():
            e, _, name = key.rpartition("/")
            edata[e].setdefault(name, []).append(v)
    edges = {}
    for j, e in enumerate(etypes):
        eids = torch.cat([p[0] for p in pieces[j]])
        order = torch.argsort(eids)
        edges[parse_etype(e)] = (torch.cat([p[1] for p in pieces[j]])[order], torch.cat([p[2] for p in pieces[j]])[order])
    counts = {t: int((nb[:, i, 1] - nb[:, i, 0]).sum()) for i, t in enumerate(ntypes)}
    nd = {t: {n: torch.cat(vs) for n, vs in d.items() if sum(len(v) for v in vs) == counts[t]} for t, d in ndata.items()}
    ed = {parse_etype(e): {n: torch.cat(vs) for n, vs in d.items()} for e, d in edata.items()}
    return edges, ed, nd, counts


def open_partitioning(path: str | os.PathLike):
    """The partitions at ``path`` (any format :func:`~graphpart.interop.open_partitions` reads) as a
    :class:`~graphpart.Partitioning` over the files' own ids.

    Examples
    --------
    >>> import tempfile, graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> out = tempfile.mkdtemp()
    >>> gp.partition_graph(load_karate_club(), "karate", 2, out, seed=0, format="dgl")
    >>> p = open_partitioning(out)
    >>> p.num_parts, p.part_method, p.metrics.edge_cut == gp.metrics.metrics_from_disk(out).edge_cut
    (2, 'metis from DGL (.dgl files)', True)
    """
    src = open_partitions(path)
    cfg = src.config
    edges, ed, nd, counts = _typed_edges(src, cfg)
    g = Graph.from_typed_edges(edges, num_nodes=counts, ndata=nd, edata=ed)
    nb = cfg["_node_bounds"]
    assignment = {t: torch.from_numpy(np.repeat(np.arange(cfg["num_parts"]), nb[:, i, 1] - nb[:, i, 0]))
                  for i, t in enumerate(cfg["_ntypes"])}
    if g.is_homogeneous:
        assignment = assignment[g.ntypes[0]]
    p = partition(g, cfg["num_parts"], part_method=assignment, num_hops=max(int(cfg["halo_hops"]), 1))
    method = cfg.get("part_method") if src.format in ("graphpart", "dgl") else None
    label = f"{method} " if isinstance(method, str) and method.isidentifier() else ""
    return replace(p, part_method=f"{label}from {FORMAT_NAMES[src.format]}")


def as_partitioning(obj):
    """``obj`` if it is a :class:`~graphpart.Partitioning`, else the partitions at that path."""
    if isinstance(obj, Partitioning):
        return obj
    if isinstance(obj, (str, os.PathLike)):
        return open_partitioning(obj)
    raise GraphpartError(f"expected a Partitioning (graphpart.partition) or the path of partitions on disk "
                         f"(a config .json, or a PyG / GLT folder), got {type(obj).__name__}")

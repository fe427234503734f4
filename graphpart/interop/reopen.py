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
from .sources import FORMAT_NAMES, open_partitions

__all__ = ["open_partitioning", "as_partitioning"]


def _typed_edges(src, cfg: dict) -> tuple[dict, dict, dict, dict]:
    """Edges, edge data, node data and node counts of the whole graph, in the files' ids."""
    ntypes, etypes = cfg["_ntypes"], cfg["_etypes"]
    nb, eb = cfg["_node_bounds"], cfg["_edge_bounds"]
    k = cfg["num_parts"]
    n_start = torch.from_numpy(nb[:, :, 0].reshape(-1).copy())
    n_typed_off = np.concatenate([np.zeros((1, len(ntypes)), np.int64), np.cumsum(nb[:, :, 1] - nb[:, :, 0], 0)])
    e_typed_off = np.concatenate([np.zeros((1, len(etypes)), np.int64), np.cumsum(eb[:, :, 1] - eb[:, :, 0], 0)])
    pieces: list[list[tuple]] = [[] for _ in etypes]
    ndata: dict[str, dict[str, list]] = {t: {} for t in ntypes}
    edata: dict[str, dict[str, list]] = {e: {} for e in etypes}

    n_off, e_off = torch.from_numpy(n_typed_off), torch.from_numpy(e_typed_off)
    e_start = torch.from_numpy(eb[:, :, 0].reshape(-1).copy())

    def typed(ids: torch.Tensor) -> torch.Tensor:
        """Type-wise ids of homogeneous ids (the book's ranges are partition-major, then type)."""
        cell = torch.searchsorted(n_start, ids, right=True) - 1
        return ids - n_start[cell] + n_off[cell // len(ntypes), cell % len(ntypes)]

    for i in range(k):
        g, nf, ef = src.load(i)
        inner = g.edata["inner_edge"].bool()
        s, d = g.edges()
        gid = g.ndata["_ID"]
        s, d, eid = gid[s[inner]], gid[d[inner]], g.edata["_ID"][inner]
        ecell = torch.searchsorted(e_start, eid, right=True) - 1
        et = ecell % len(etypes)
        e_local = eid - e_start[ecell] + e_off[ecell // len(etypes), et]
        s_t, d_t = typed(s), typed(d)
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
    counts = {t: int(n_typed_off[-1, i]) for i, t in enumerate(ntypes)}
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
    from ..partitioning.core import partition

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
    from ..partitioning.core import Partitioning

    if isinstance(obj, Partitioning):
        return obj
    if isinstance(obj, (str, os.PathLike)):
        return open_partitioning(obj)
    raise GraphpartError(f"expected a Partitioning (graphpart.partition) or the path of partitions on disk "
                         f"(a config .json, or a PyG / GLT folder), got {type(obj).__name__}")

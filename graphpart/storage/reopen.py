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

import logging
import os
from dataclasses import replace

import numpy as np
import torch

from ..errors import GraphpartError
from ..graph.core import Graph
from ..graph.schema import parse_etype
from ..partitioning.core import Partitioning, partition
from .sources import FORMAT_NAMES, open_partitions

__all__ = ["open_partitioning", "as_partitioning"]

logger = logging.getLogger(__name__)


def _typed_edges(src, cfg: dict) -> tuple[dict, dict, dict, dict]:
    """Edges, edge data, node data and node counts of the whole graph, in the files' ids.

    Every edge a partition owns is an inner edge of its local graph, unless the files were written
    with ``halo_hops=0`` (edges between partitions are then in no local graph): only the edges
    found, with their rows of the edge data, are kept.
    """
    ntypes, etypes = cfg.ntypes, cfg.etypes
    nb, eb = cfg.node_bounds, torch.from_numpy(cfg.edge_bounds)
    book = src.book(0)  # the book maps partition-major ids to (type, type-wise id)
    pieces: list[list[tuple]] = [[] for _ in etypes]
    epieces: list[dict[str, list]] = [{} for _ in etypes]
    ndata: dict[str, dict[str, list]] = {t: {} for t in ntypes}
    for i in range(cfg.num_parts):
        g, nf, ef = src.load(i)
        inner = g.edata["inner_edge"].bool()
        s, d = g.edges()
        gid = g.ndata["_ID"]
        s, d, eid = gid[s[inner]], gid[d[inner]], g.edata["_ID"][inner]
        et, e_local = book.map_to_per_etype(eid)
        s_t, d_t = book.map_to_per_ntype(s)[1], book.map_to_per_ntype(d)[1]
        for j, e in enumerate(etypes):
            m = et == j
            pieces[j].append((e_local[m], s_t[m], d_t[m]))
            rows = eid[m] - eb[i, j, 0]  # the row of each edge in the partition's edge data
            for key, v in (ef or {}).items():
                if key.rpartition("/")[0] == e:
                    epieces[j].setdefault(key.rpartition("/")[2], []).append(v[rows])
        for key, v in (nf or {}).items():
            t, _, name = key.rpartition("/")
            ndata[t].setdefault(name, []).append(v)
    edges, ed = {}, {}
    for j, e in enumerate(etypes):
        order = torch.argsort(torch.cat([p[0] for p in pieces[j]]))
        src_t, dst_t = (torch.cat([p[c] for p in pieces[j]])[order] for c in (1, 2))
        edges[parse_etype(e)] = (src_t, dst_t)
        ed[parse_etype(e)] = {
            name: torch.cat(vs)[order]
            for name, vs in epieces[j].items()
            if _complete(vs, len(order), f"edge data {e}/{name}", src.path)
        }
    counts = {t: int((nb[:, i, 1] - nb[:, i, 0]).sum()) for i, t in enumerate(ntypes)}
    nd = {
        t: {
            n: torch.cat(vs)
            for n, vs in d.items()
            if _complete(vs, counts[t], f"node data {t}/{n}", src.path)
        }
        for t, d in ndata.items()
    }
    return edges, ed, nd, counts


def _complete(pieces: list, rows: int, what: str, path: object) -> bool:
    """Whether the partitions' ``pieces`` of one data name stack into ``rows`` rows of one
    shape; if not (some partitions lack it, or disagree), it is left out with a warning."""
    ok = sum(len(v) for v in pieces) == rows and len({(v.dtype, v.shape[1:]) for v in pieces}) == 1
    if not ok:
        logger.warning("%s: %s is not stored whole by the partitions; left out", path, what)
    return ok


def open_partitioning(path: str | os.PathLike):
    """The partitions at ``path`` (any format :func:`~graphpart.storage.open_partitions` reads) as a
    :class:`~graphpart.Partitioning` over the files' own ids.

    Every partition is read. Node and edge data are kept where the partitions store them whole
    (others are left out with a warning). Files written with ``halo_hops=0`` hold no edge between
    partitions: the graph comes back without them, with a warning.

    Parameters
    ----------
    path : str or os.PathLike
        A partition config, a folder holding one config, or a PyG or GLT partition folder.

    Returns
    -------
    Partitioning
        The rebuilt graph partitioned by the files' node ranges, with their ``halo_hops``.
        ``part_method`` is ``"from <format>"``, after the recorded method (``"metis from DGL
        (.dgl files)"``) when a graphpart or DGL config records one that is an identifier;
        ``recorded_balance`` is the config's balance loads.

    Examples
    --------
    >>> import tempfile, graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> out = tempfile.mkdtemp()
    >>> gp.partition_graph(load_karate_club(), "karate", 2, out, seed=0, format="dgl")
    >>> p = open_partitioning(out)
    >>> p.num_parts, p.part_method, p.metrics.edge_cut == gp.metrics.metrics_from_disk(out).edge_cut
    (2, 'metis from DGL (.dgl or GraphBolt files)', True)
    """
    src = open_partitions(path)
    cfg = src.config
    edges, ed, nd, counts = _typed_edges(src, cfg)
    g = Graph.from_typed_edges(edges, num_nodes=counts, ndata=nd, edata=ed)
    nb = cfg.node_bounds
    assignment = {
        t: torch.from_numpy(np.repeat(np.arange(cfg.num_parts), nb[:, i, 1] - nb[:, i, 0]))
        for i, t in enumerate(cfg.ntypes)
    }
    if g.is_homogeneous:
        assignment = assignment[g.ntypes[0]]
    hops = int(cfg.halo_hops)
    if hops == 0:
        logger.warning(
            "%s was written with halo_hops=0, which keeps no edge between partitions: the "
            "reopened graph has %d of its %d edges, and shows no cut",
            path,
            g.num_edges(),
            cfg.num_edges,
        )
    p = partition(g, cfg.num_parts, part_method=assignment, num_hops=hops)
    method = cfg.part_method if src.format in ("graphpart", "dgl") else None
    label = f"{method} " if isinstance(method, str) and method.isidentifier() else ""
    return replace(
        p, part_method=f"{label}from {FORMAT_NAMES[src.format]}", recorded_balance=cfg.balance_loads
    )


def as_partitioning(obj):
    """``obj`` if it is a :class:`~graphpart.Partitioning`, else the partitions at that path.

    Parameters
    ----------
    obj : Partitioning, str or os.PathLike
        A partitioning, or a path :func:`open_partitioning` reads.

    Returns
    -------
    Partitioning
        ``obj`` itself, or :func:`open_partitioning` of the path.

    Raises
    ------
    GraphpartError
        If ``obj`` is neither.
    """
    if isinstance(obj, Partitioning):
        return obj
    if isinstance(obj, (str, os.PathLike)):
        return open_partitioning(obj)
    raise GraphpartError(
        f"expected a Partitioning (graphpart.partition) or the path of partitions on disk "
        f"(a config .json, or a PyG / GLT folder), got {type(obj).__name__}"
    )

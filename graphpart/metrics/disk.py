"""Partition quality from partitions on disk, and several partitionings side by side.

The numbers are computed by :mod:`graphpart.partitioning.summary` from per-partition summaries,
which come either from an in-memory :class:`~graphpart.Partitioning` (``p.metrics``,
:func:`~graphpart.metrics.partition_metrics`) or from partitions on disk in any format
(:func:`metrics_from_disk`), so both report the same numbers. :func:`compare_metrics` lays
several partitionings of one graph side by side.
"""

from __future__ import annotations

import os

import numpy as np

from ..errors import GraphpartError
from ..index import part_ranges
from ..partitioning.loads import SPLITS
from ..partitioning.summary import PartitionMetrics, PartSummary, split_counts, summarize
from ..storage.sources import open_partitions
from ..utils.report import Report

__all__ = ["metrics_from_disk", "compare_metrics"]


def metrics_from_disk(config_path: str | os.PathLike) -> PartitionMetrics:
    """Metrics of partitions on disk: written by :func:`graphpart.partition_graph`, by DGL (``.dgl``
    or GraphBolt), or PyG or GLT partition folders (see :func:`graphpart.storage.open_partitions`).

    A cut edge is an edge a partition holds whose endpoints lie in different partitions; the
    endpoint in the other partition is the remote one (DGL, graphpart and PyG keep an edge with
    its destination, GLT with its source).

    Parameters
    ----------
    config_path : str or os.PathLike
        A partition config ``.json`` (graphpart, DGL), or a PyG or GLT partition folder.

    Returns
    -------
    PartitionMetrics
        The same numbers :func:`~graphpart.metrics.partition_metrics` gives in memory; edge cut
        and communication volume are ``None`` when the partitions were written with
        ``num_hops=0`` (``halo_hops`` 0 in the config).
    """
    src = open_partitions(config_path)
    cfg = src.config
    ntypes = cfg.ntypes
    parts = []
    for i in range(cfg.num_parts):
        g, nfeat, _ = src.load(i, load_edges=False)
        inner = g.ndata["inner_node"].bool()
        ni = int(inner.sum())
        nt = (
            g.ndata["_TYPE"].numpy()
            if "_TYPE" in g.ndata
            else np.zeros(g.num_nodes(), dtype=np.int64)
        )
        hop = (
            g.ndata["halo_hop"].numpy().astype(np.int64)
            if "halo_hop" in g.ndata
            else (~inner).numpy().astype(np.int64)
        )
        gid, pid = g.ndata["_ID"].numpy(), g.ndata["part_id"].numpy()
        s, d = (x.numpy() for x in g.edges())
        ie = g.edata["inner_edge"].bool().numpy()
        s, d = s[ie], d[ie]
        remote_src = pid[s] != i
        cut = remote_src | (pid[d] != i)
        remote = np.where(remote_src, s, d)[cut]
        here = np.where(remote_src, d, s)[cut]
        known = cfg.halo_hops > 0
        masks = {s_: [nfeat[f"{t}/{s_}"] for t in ntypes if f"{t}/{s_}" in nfeat] for s_ in SPLITS}
        nb = cfg.node_bounds[i]
        es, ee = part_ranges(cfg.edge_bounds)[i]
        parts.append(
            PartSummary(
                i,
                nb[:, 1] - nb[:, 0],
                np.bincount(hop[ni:], minlength=min(cfg.halo_hops, g.num_nodes()) + 1)[1:],
                np.bincount(nt[ni:], minlength=len(ntypes)),
                int(ee - es),
                gid[remote] if known else None,
                pid[remote] if known else None,
                gid[here] if known else None,
                split_counts({k: m for k, m in masks.items() if m}),
            )
        )
    return summarize(
        parts, cfg.num_nodes, cfg.num_edges, ntypes, cfg.balance_loads, cfg.trainer_loads
    )


def headline(m: PartitionMetrics) -> dict[str, object]:
    """The figures a reader compares first, formatted: cut, cut %, volume, replication, HALO
    nodes and the worst node, edge and (on a graph with a train mask) training-node balance
    (``"-"`` where not measured).

    Parameters
    ----------
    m : PartitionMetrics
        The metrics of one partitioning.

    Returns
    -------
    dict of str to object
        ``"edge cut"``, ``"cut %"``, ``"volume"``, ``"replication"``, ``"HALO nodes"``,
        ``"max/mean nodes"``, ``"max/mean edges"`` and, where measured, ``"max/mean train
        nodes"``, in that order: counts as ``int`` (``"-"`` when not measured), ratios as
        strings with one or three decimals.
    """
    train = m.balance.get("train nodes")
    return {
        "edge cut": m.edge_cut if m.edge_cut is not None else "-",
        "cut %": f"{100 * m.edge_cut_fraction:.1f}" if m.edge_cut_fraction is not None else "-",
        "volume": m.communication_volume if m.communication_volume is not None else "-",
        "replication": f"{m.replication_factor:.3f}",
        "HALO nodes": int(m.halo_nodes.sum()),
        "max/mean nodes": f"{m.balance['nodes']:.3f}",
        "max/mean edges": f"{m.balance['edges']:.3f}",
        **({"max/mean train nodes": f"{train:.3f}"} if train is not None else {}),
    }


def metric_deltas(before: PartitionMetrics | None, after: PartitionMetrics) -> list[str]:
    """What changed between two partitionings' headline figures, as ``"edge cut 10 -> 22"``
    (nothing for the first one, or when nothing changed).

    Parameters
    ----------
    before : PartitionMetrics or None
        The earlier partitioning's metrics; ``None``: there is none.
    after : PartitionMetrics
        The later one's.

    Returns
    -------
    list of str
        One ``"<figure> <old> -> <new>"`` per :func:`headline` figure that differs, in
        :func:`headline`'s order (integers with thousands separators); empty when ``before``
        is ``None``.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> g = load_karate_club()
    >>> a, b = (gp.partition(g, 2, part_method=m, seed=0).metrics for m in ("metis", "random"))
    >>> metric_deltas(a, b)[0].startswith("edge cut 20 -> ")
    True
    >>> metric_deltas(a, a), metric_deltas(None, a)
    ([], [])
    """
    if before is None:
        return []
    old, new = headline(before), headline(after)

    def fmt(x: object) -> str:
        return f"{x:,}" if isinstance(x, int) else str(x)

    return [
        f"{k} {fmt(old.get(k, '-'))} -> {fmt(new[k])}" for k in new if old.get(k, "-") != new[k]
    ]


def compare_metrics(metrics: dict[str, PartitionMetrics]) -> Report:
    """One row per partitioning: its cut, volume, replication and worst balance, for side-by-side
    reading.

    Parameters
    ----------
    metrics : dict of str to PartitionMetrics
        Label to the metrics of one partitioning; all of the same graph (same node and edge
        counts).

    Returns
    -------
    Report
        One row per label, in the dict's order: ``parts`` and the :func:`headline` figures.

    Raises
    ------
    GraphpartError
        When the metrics come from graphs of different node or edge counts.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> g = load_karate_club()
    >>> r = compare_metrics({m: gp.partition(g, 2, part_method=m, seed=0).metrics
    ...                      for m in ("metis", "random")})
    >>> r.labels, r.columns["edge cut"][0] < r.columns["edge cut"][1]
    (['metis', 'random'], True)
    """
    sizes = {(m.num_nodes, m.num_edges) for m in metrics.values()}
    if len(sizes) > 1:
        raise GraphpartError(
            f"compare_metrics compares partitionings of one graph; got (nodes, edges) "
            f"{sorted(sizes)}"
        )
    rows = [{"parts": m.num_parts, **headline(m)} for m in metrics.values()]
    names = list(dict.fromkeys(k for r in rows for k in r))  # a figure some lack: "-" there
    cols = {k: [r.get(k, "-") for r in rows] for k in names}
    n, e = next(iter(sizes)) if sizes else (0, 0)
    return Report(
        f"{len(metrics)} partitionings of one graph ({n:,} nodes, {e:,} edges)",
        cols,
        {},
        index="partitioning",
        labels=list(metrics),
    )

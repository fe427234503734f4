"""Partition quality: the numbers and the arithmetic, below the partitioner.

:class:`PartSummary` holds what the metrics need from one partition; :func:`summarize`
combines them into :class:`PartitionMetrics`. In-memory partitionings are summarised by
:func:`partition_metrics` (what ``Partitioning.metrics`` returns), partitions on disk by
:func:`graphpart.metrics.metrics_from_disk`, so both report the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import torch

from ..homogeneous import typed_ids
from ..index import unique_int
from ..utils.report import Report
from .loads import SPLITS, balance_loads, trainer_loads

__all__ = [
    "PartSummary",
    "PartitionMetrics",
    "partition_metrics",
    "summarize",
    "edge_cut",
    "communication_volume",
    "node_volumes",
]


def edge_cut(src: np.ndarray, dst: np.ndarray, node_part: np.ndarray) -> int:
    """Number of edges whose endpoints lie in different partitions.

    Parameters
    ----------
    src, dst : ndarray
        Endpoints of every edge, as integer node ids.
    node_part : ndarray
        The partition of every node, indexed by node id.

    Returns
    -------
    int
        Edges ``(src[i], dst[i])`` with ``node_part[src[i]] != node_part[dst[i]]``; every
        edge listed counts, so an undirected edge stored in both directions counts twice.

    Examples
    --------
    >>> edge_cut(np.array([0, 1, 2]), np.array([1, 2, 0]), np.array([0, 0, 1]))
    2
    """
    return int(np.count_nonzero(node_part[src] != node_part[dst]))


def node_volumes(src: np.ndarray, dst: np.ndarray, node_part: np.ndarray) -> np.ndarray:
    """Per node, the number of *other* partitions holding one of its neighbours: how many
    machines must be sent its features (once each).

    Parameters
    ----------
    src, dst : ndarray
        Endpoints of every edge, as integer node ids; an edge makes each endpoint a neighbour
        of the other, whatever its direction.
    node_part : ndarray
        The partition of every node (ids from 0), indexed by node id.

    Returns
    -------
    ndarray of int64
        One count per node.

    Examples
    --------
    >>> node_volumes(np.array([0, 0, 1]), np.array([1, 2, 2]), np.array([0, 1, 2])).tolist()
    [2, 2, 2]
    """
    k = int(node_part.max()) + 1 if len(node_part) else 1
    cut = node_part[src] != node_part[dst]
    s, d = src[cut], dst[cut]
    keys = unique_int(np.concatenate([s * k + node_part[d], d * k + node_part[s]]))
    return np.bincount(np.asarray(keys) // k, minlength=len(node_part)).astype(np.int64)


def communication_volume(src: np.ndarray, dst: np.ndarray, node_part: np.ndarray) -> int:
    """METIS's total volume: :func:`node_volumes` summed over the nodes.

    Parameters
    ----------
    src, dst : ndarray
        Endpoints of every edge, as integer node ids (either direction).
    node_part : ndarray
        The partition of every node (ids from 0), indexed by node id.

    Returns
    -------
    int

    Examples
    --------
    >>> communication_volume(np.array([0, 0, 1]), np.array([1, 2, 2]), np.array([0, 1, 2]))
    6
    """
    return int(node_volumes(src, dst, node_part).sum())


@dataclass(frozen=True)
class PartSummary:
    """What the metrics need from one partition.

    ``cut_src`` / ``cut_dst`` are the global ids of the owned edges whose source
    lies in another partition (``cut_src_part``); ``None`` when unknown (a
    partition written with ``num_hops=0``, ``halo_hops`` 0 in its config, does not keep them).

    Attributes
    ----------
    part_id : int
        The partition, from 0.
    inner_by_type : ndarray
        Nodes it owns, per node type.
    halo_by_hop : ndarray
        HALO nodes ``h`` hops away, at index ``h - 1``.
    halo_by_type : ndarray
        HALO nodes per node type.
    owned_edges : int
        Edges the partition holds as its own.
    cut_src : ndarray or None
        Global id of the remote endpoint of each owned cut edge (for partitions on disk that
        keep an edge with its source, the remote endpoint is the destination).
    cut_src_part : ndarray or None
        The partition of each ``cut_src`` node.
    cut_dst : ndarray or None
        Global id of the local endpoint of each owned cut edge.
    splits : dict of str to int, default {}
        Nodes in each of ``train_mask``, ``val_mask``, ``test_mask`` (those the partition
        has), as counted by :func:`split_counts`.
    """

    part_id: int
    inner_by_type: np.ndarray
    halo_by_hop: np.ndarray
    halo_by_type: np.ndarray
    owned_edges: int
    cut_src: np.ndarray | None
    cut_src_part: np.ndarray | None
    cut_dst: np.ndarray | None
    splits: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PartitionMetrics:
    """Metrics of a partitioning; ``report()`` renders them as a table.

    Attributes
    ----------
    edge_cut : int or None
        Edges whose endpoints lie in different partitions.
    edge_cut_fraction : float or None
    communication_volume : int or None
        Sum over nodes of the number of other partitions holding a neighbour.
    replication_factor : float
        Local nodes (inner + HALO) over all partitions, divided by the node count.
    balance : dict of str to float
        max / mean over partitions of each balanced quantity.
    splits : dict of str to ndarray
        Train / val / test nodes owned by each partition.
    constraints : dict of str to ndarray
        Per-partition load of each METIS balance constraint (``class c`` nodes, ``in-degree``).
    trainer_balance : dict of str to float
        max / mean over every trainer (with several per machine) of nodes, each balance class,
        each split and in-degree.
    trainer_loads : dict of str to ndarray
        Those loads per trainer (machine-major), for the balance figures.
    shortfalls : tuple of (level, constraint, ratio, tolerance)
        The constraints the partitioner held as well as it could but not to their tolerance
        (``Partitioning.balance_shortfalls``).
    """

    num_parts: int
    num_nodes: int
    num_edges: int
    ntypes: list[str]
    inner_nodes: np.ndarray
    inner_by_type: np.ndarray
    owned_edges: np.ndarray
    halo_by_hop: np.ndarray
    halo_by_type: np.ndarray
    cut_in_edges: np.ndarray | None
    edge_cut: int | None
    edge_cut_fraction: float | None
    communication_volume: int | None
    replication_factor: float
    balance: dict[str, float]
    splits: dict[str, np.ndarray]
    constraints: dict[str, np.ndarray] = field(default_factory=dict)
    shortfalls: tuple = ()
    trainer_balance: dict[str, float] = field(default_factory=dict)
    trainer_loads: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def halo_nodes(self) -> np.ndarray:
        return self.halo_by_hop.sum(axis=1)

    def report(self) -> Report:
        """A table per partition plus the totals."""
        cols = {"inner nodes": self.inner_nodes, "owned edges": self.owned_edges}
        if len(self.ntypes) > 1:
            cols.update({f"inner {t}": self.inner_by_type[:, i] for i, t in enumerate(self.ntypes)})
        cols.update(
            {
                f"HALO hop {h}": self.halo_by_hop[:, h - 1]
                for h in range(1, self.halo_by_hop.shape[1] + 1)
            }
        )
        if self.cut_in_edges is not None:
            cols["cut in-edges"] = self.cut_in_edges
        cols.update({name.replace("_mask", ""): v for name, v in self.splits.items()})
        summary = {
            "nodes / edges": f"{self.num_nodes:,} / {self.num_edges:,}",
            "edge cut": "n/a (num_hops=0 keeps no cut edges)"
            if self.edge_cut is None
            else f"{self.edge_cut:,} ({100 * self.edge_cut_fraction:.2f}% of edges)",
            "communication volume": "n/a"
            if self.communication_volume is None
            else f"{self.communication_volume:,}",
            "replication factor": f"{self.replication_factor:.3f}",
        }
        summary.update({f"balance {k} (max/mean)": f"{v:.3f}" for k, v in self.balance.items()})
        summary.update(
            {f"trainer balance {k} (max/mean)": f"{v:.3f}" for k, v in self.trainer_balance.items()}
        )
        summary.update(
            {
                f"not held: {level} {name} (max/mean)": f"{ratio:.3f} (tolerance {tol:.3f})"
                for level, name, ratio, tol in self.shortfalls
            }
        )
        return Report(f"{self.num_parts} partitions", cols, summary)

    def to_dict(self) -> dict:
        """Plain Python values, for JSON."""
        out = {}
        for k, v in self.__dict__.items():
            if isinstance(v, np.ndarray):
                out[k] = v.tolist()
            elif isinstance(v, dict):
                out[k] = {a: (b.tolist() if isinstance(b, np.ndarray) else b) for a, b in v.items()}
            else:
                out[k] = v
        return out


def _max_over_mean(x: np.ndarray) -> float:
    mean = float(np.mean(x)) if len(x) else 0.0
    return float(np.max(x)) / mean if mean > 0 else 1.0


def summarize(
    parts: list[PartSummary],
    num_nodes: int,
    num_edges: int,
    ntypes: list[str],
    extra_balance: dict[str, np.ndarray] | None = None,
    trainer_loads: dict[str, np.ndarray] | None = None,
) -> PartitionMetrics:
    """Combine per-partition summaries (and per-trainer loads, when several trainers share a
    machine) into :class:`PartitionMetrics`.

    Parameters
    ----------
    parts : list of PartSummary
        One per partition, with ``part_id`` 0 to ``len(parts) - 1``; at least one.
    num_nodes, num_edges : int
        Of the whole graph: the denominators of the replication factor and the cut fraction.
    ntypes : list of str
        Node type names, in the order of ``inner_by_type`` and ``halo_by_type``.
    extra_balance : dict of str to ndarray, optional
        Further per-partition loads (the balance constraints of :func:`balance_loads`): each
        adds a ``balance`` entry and is kept in ``constraints``.
    trainer_loads : dict of str to ndarray, optional
        Per-trainer loads; each adds a ``trainer_balance`` entry.

    Returns
    -------
    PartitionMetrics
        Edge cut and communication volume are ``None`` unless every summary knows its cut
        edges; ``shortfalls`` is left empty.
    """
    k = len(parts)
    hops = max((len(p.halo_by_hop) for p in parts), default=0)
    halo_by_hop = np.zeros((k, hops), dtype=np.int64)
    for p in parts:
        halo_by_hop[p.part_id, : len(p.halo_by_hop)] = p.halo_by_hop
    inner_by_type = np.stack([p.inner_by_type for p in parts])
    inner = inner_by_type.sum(axis=1)
    owned = np.array([p.owned_edges for p in parts], dtype=np.int64)
    known = all(p.cut_src is not None for p in parts)
    cut_in = np.array([len(p.cut_src) for p in parts], dtype=np.int64) if known else None
    cut = volume = frac = None
    if known:
        cut = int(cut_in.sum())
        frac = cut / num_edges if num_edges else 0.0
        keys = [
            np.concatenate([p.cut_src * k + p.part_id, p.cut_dst * k + p.cut_src_part])
            for p in parts
        ]
        volume = len(unique_int(np.concatenate(keys))) if keys else 0
    balance = {"nodes": _max_over_mean(inner), "edges": _max_over_mean(owned)}
    if len(ntypes) > 1:
        balance.update(
            {f"nodes of {t}": _max_over_mean(inner_by_type[:, i]) for i, t in enumerate(ntypes)}
        )
    for name, v in (extra_balance or {}).items():
        balance[name] = _max_over_mean(v)
    splits = {
        s: np.array([p.splits.get(s, 0) for p in parts])
        for s in SPLITS
        if any(s in p.splits for p in parts)
    }
    for s, v in splits.items():
        if v.sum() > 0:
            balance.setdefault(s.replace("_mask", " nodes"), _max_over_mean(v))
    local = inner.sum() + halo_by_hop.sum()
    return PartitionMetrics(
        k,
        num_nodes,
        num_edges,
        list(ntypes),
        inner,
        inner_by_type,
        owned,
        halo_by_hop,
        np.stack([p.halo_by_type for p in parts]),
        cut_in,
        cut,
        frac,
        volume,
        float(local / num_nodes) if num_nodes else 0.0,
        balance,
        splits,
        {name: np.asarray(v) for name, v in (extra_balance or {}).items()},
        trainer_balance={k: _max_over_mean(v) for k, v in (trainer_loads or {}).items()},
        trainer_loads={k: np.asarray(v) for k, v in (trainer_loads or {}).items()},
    )


def split_counts(masks: dict[str, list[torch.Tensor]]) -> dict[str, int]:
    """Nodes in each split, over all the masks given for it.

    Parameters
    ----------
    masks : dict of str to list of Tensor
        Split name (``train_mask``, ...) to its masks, one per node type; nonzero entries count.

    Returns
    -------
    dict of str to int
        Split name to the number of nodes in it, summed over its masks.

    Examples
    --------
    >>> split_counts({"train_mask": [torch.tensor([1, 0, 1]), torch.tensor([True])]})
    {'train_mask': 3}
    """
    return {s: int(sum(int(m.to(torch.bool).sum()) for m in ms)) for s, ms in masks.items()}


def partition_metrics(p) -> PartitionMetrics:
    """Metrics of an in-memory :class:`~graphpart.partitioning.core.Partitioning`.

    Parameters
    ----------
    p : Partitioning
        The partitioning (not imported here: this module sits below the partitioner).

    Returns
    -------
    PartitionMetrics
        What ``p.metrics`` returns, with the balance constraints, per-trainer loads (several
        trainers per machine) and ``p.balance_shortfalls``.
    """
    sh, g = p.shuffle, p.graph
    new_part = sh.node_part()
    ntypes = g.ntypes
    parts = []
    for i in range(p.num_parts):
        v = p.view(i)
        halo = v.nodes[v.num_inner_nodes :]
        t_halo, _ = typed_ids(sh.new2old_nid[halo], p.homogeneous.node_offsets)
        es, ee = sh.part_edges(i)
        s = sh.src[es:ee]
        cut = new_part[s] != i
        feats = p.node_feats(i)
        masks = {s_: [feats[f"{t}/{s_}"] for t in ntypes if f"{t}/{s_}" in feats] for s_ in SPLITS}
        parts.append(
            PartSummary(
                i,
                sh.node_bounds[i, :, 1] - sh.node_bounds[i, :, 0],
                # no node is more than n hops away: the count never outgrows the graph
                np.bincount(
                    v.hop[v.num_inner_nodes :], minlength=min(p.num_hops, len(v.nodes)) + 1
                )[1:],
                np.bincount(t_halo, minlength=len(ntypes)),
                ee - es,
                s[cut],
                new_part[s[cut]],
                sh.dst[es:ee][cut],
                split_counts({k: m for k, m in masks.items() if m}),
            )
        )
    m = summarize(
        parts, len(p.node_part), len(sh.new2old_eid), ntypes, balance_loads(p), trainer_loads(p)
    )
    return replace(m, shortfalls=tuple(getattr(p, "balance_shortfalls", ())))

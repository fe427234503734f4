"""Where a trainer's lookups land once the graph is partitioned: its own rows, a cache of remote
rows, or a fetch from the owner.

Which rows a trainer's machine holds is the rule of a named system
(:mod:`graphpart.features.locality`): under DGL's (the default, as in
:mod:`graphpart.training`) the rows of the nodes ``p`` owns, HALO copies serving sampling only;
under GLT's also a cache of the hot remote rows its own sampling visits most (its frequency
partitioner's); under ``"halo-copies"`` also the rows of its HALO copies. Lookups are counted by
the node's class (inner, HALO, remote) and by where the rule serves them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

from ..errors import GraphpartError
from ..typing import IdArray, Seed
from ..utils.check import check_part_id, short_repr
from .locality import check_rule, held_locally, keeps_halo_rows, keeps_remote_cache
from .simulate import capacity_for
from .trace import Trace, record_trace

if TYPE_CHECKING:
    from ..sampling import Topology

__all__ = [
    "PartitionAccess",
    "node_locality",
    "partition_access",
    "access_by_partition",
    "locality_table",
    "SERVED_BY",
    "INNER",
    "HALO",
    "REMOTE",
]

INNER, HALO, REMOTE = 0, 1, 2


def node_locality(partitioning, part_id: int) -> torch.Tensor:
    """For every node (original homogeneous id): ``INNER``, ``HALO`` or ``REMOTE`` as seen from
    ``part_id``.

    Parameters
    ----------
    partitioning : Partitioning
        The partitioned graph (:func:`graphpart.partition`); with ``num_hops=0`` no node is HALO.
    part_id : int
        The trainer's partition, in ``[0, partitioning.num_parts)``.

    Returns
    -------
    Tensor
        int64, one code per node of the graph: ``INNER`` (0) for the nodes ``part_id`` owns,
        ``HALO`` (1) for its HALO copies, ``REMOTE`` (2) for the rest.

    Raises
    ------
    GraphpartError
        When ``part_id`` does not name a partition.
    """
    part_id = check_part_id(part_id, partitioning.num_parts)
    node_part = torch.from_numpy(np.asarray(partitioning.node_part))
    loc = torch.full((len(node_part),), REMOTE, dtype=torch.int64)
    loc[node_part == part_id] = INNER
    view = partitioning.view(part_id)
    halo_new = view.nodes[view.num_inner_nodes :]
    loc[torch.from_numpy(partitioning.shuffle.new2old_nid[halo_new])] = HALO
    return loc


@dataclass(frozen=True)
class PartitionAccess:
    """Per-batch lookups of one trainer: by the class of the node looked up (inner, HALO,
    remote), and by where the rule of a named system serves them.

    Attributes
    ----------
    part_id : int
        The trainer's partition.
    inner, halo, remote : ndarray
        Per batch: lookups of nodes the partition owns, of its HALO copies, of the other nodes.
    remote_cached : ndarray
        Per batch: lookups of rows the machine does not hold that its cache of remote rows
        served (zeros without one).
    remote_cache_rows : int
        Rows the remote cache could hold (0: no remote cache).
    rule : str, default "dgl"
        The system whose rule says which rows the machine holds
        (:data:`graphpart.features.locality.RULES`).
    """

    part_id: int
    inner: np.ndarray
    halo: np.ndarray
    remote: np.ndarray
    remote_cached: np.ndarray
    remote_cache_rows: int
    rule: str = "dgl"

    def served(self) -> dict[str, np.ndarray]:
        """Per batch, where the rule serves the lookups: ``local_inner``, ``local_halo`` (the
        HALO copies' rows, where the rule keeps them), ``remote_cached``, ``remote_fetched``
        (from the owner); they add up to all lookups."""
        local_halo = self.halo if keeps_halo_rows(self.rule) else np.zeros_like(self.halo)
        total = self.inner + self.halo + self.remote
        return {
            "local_inner": self.inner,
            "local_halo": local_halo,
            "remote_cached": self.remote_cached,
            "remote_fetched": total - self.inner - local_halo - self.remote_cached,
        }

    @property
    def totals(self) -> dict[str, int]:
        out = {
            "inner": int(self.inner.sum()),
            "halo": int(self.halo.sum()),
            "remote": int(self.remote.sum()),
        }
        out.update({k: int(v.sum()) for k, v in self.served().items()})
        return out

    @property
    def remote_fraction(self) -> float:
        """Share of lookups the rule sends to another machine, before any remote cache."""
        t = self.totals
        total = t["inner"] + t["halo"] + t["remote"]
        return (t["remote_cached"] + t["remote_fetched"]) / total if total else 0.0

    @property
    def remote_saved(self) -> float:
        """Share of the lookups of rows the machine does not hold that its remote cache
        served."""
        t = self.totals
        away = t["remote_cached"] + t["remote_fetched"]
        return t["remote_cached"] / away if away else 0.0


def partition_access(
    partitioning,
    part_id: int,
    trace: Trace,
    *,
    remote_cache: float = 0.0,
    hotness: torch.Tensor | None = None,
    rule: str = "dgl",
) -> PartitionAccess:
    """Classify every lookup of ``trace`` (trainer ``part_id``'s) and replay a static remote cache.

    ``remote_cache`` is the cache's size as a share of all nodes; it holds the
    nodes whose rows the machine does not hold with the highest ``hotness`` (access counts, e.g.
    of a pre-sampling trace; default: ``trace``'s own counts, the oracle).

    Parameters
    ----------
    partitioning : Partitioning
        The partitioned graph; it must cover ``trace.num_nodes`` nodes.
    part_id : int
        The trainer's partition, in ``[0, partitioning.num_parts)``.
    trace : Trace
        The trainer's lookups, in original homogeneous node ids.
    remote_cache : float, default 0.0
        Cache size as a share of all nodes, in [0, 1] (rounded to whole rows); 0: no cache.
    hotness : Tensor, optional
        One count per node; the cache takes the remote nodes with the highest counts, skipping
        those with a count of 0 (so it may hold fewer rows than its size). ``None``: the counts
        of ``trace``.
    rule : {"dgl", "glt", "halo-copies"}, default "dgl"
        Which rows the machine holds (:mod:`graphpart.features.locality`); DGL keeps no cache
        of remote rows, so ``remote_cache`` needs another rule.

    Returns
    -------
    PartitionAccess
        Per-batch lookup counts by locality, and what the remote cache served.

    Raises
    ------
    GraphpartError
        When the partitioning, ``hotness`` and ``trace`` disagree on the number of nodes, when
        ``part_id`` does not name a partition, or when ``remote_cache`` is not in [0, 1].
    """
    rule = check_rule(rule)
    loc = node_locality(partitioning, part_id)
    if len(loc) != trace.num_nodes:
        raise GraphpartError(
            f"the partitioning covers {len(loc)} nodes, the trace {trace.num_nodes}"
        )
    cap = capacity_for(remote_cache, trace.num_nodes)
    if cap and not keeps_remote_cache(rule):
        raise GraphpartError(
            f"{short_repr(rule)} keeps no cache of remote rows (only GLT's rule has one): use "
            "rule='glt' for a remote cache"
        )
    held = held_locally(rule, loc == INNER, loc == HALO)
    cached = torch.zeros(len(loc), dtype=torch.bool)
    if cap:
        hot = (trace.counts() if hotness is None else torch.as_tensor(hotness)).double()
        if len(hot) != len(loc):
            raise GraphpartError(
                f"hotness must give one count per node ({len(loc)}), got {len(hot)}"
            )
        hot = torch.where(~held & (hot > 0), hot, -1.0)
        top = torch.topk(hot, min(cap, len(hot))).indices
        cached[top[hot[top] >= 0]] = True
    b, batch = trace.num_batches, trace.batch_index()
    counts = torch.bincount(batch * 3 + loc[trace.ids], minlength=3 * b).reshape(b, 3).numpy()
    served = torch.bincount(batch, weights=cached[trace.ids].double(), minlength=b)
    return PartitionAccess(
        part_id,
        counts[:, INNER],
        counts[:, HALO],
        counts[:, REMOTE],
        served.numpy().astype(np.int64),
        cap,
        rule,
    )


def access_by_partition(
    partitioning,
    topo: Topology,
    fanouts: Sequence[int],
    *,
    seeds: IdArray | None = None,
    batch_size: int = 1024,
    remote_cache: float = 0.0,
    presample_epochs: int = 1,
    epochs: int = 1,
    seed: Seed = 0,
    rule: str = "dgl",
) -> list[PartitionAccess]:
    """One trainer per partition, sampling its own seeds: lookups by locality, remote cache from
    pre-sampling.

    Each trainer gets a :class:`~graphpart.sampling.NeighborLoader` over the seeds its partition
    owns. With a remote cache, it first runs ``presample_epochs`` epochs whose lookup counts
    choose the cached nodes, then ``epochs`` measured epochs (the loader's generator moves on,
    so they draw other batches).

    Parameters
    ----------
    partitioning : Partitioning
        The partitioned graph.
    topo : Topology
        The structure of the same graph, sampled by every trainer.
    fanouts : sequence of int
        Neighbours per node at each hop (``-1``: all).
    seeds : ids, boolean mask or None, default None
        Training nodes (``None``: every node); each trainer keeps those its partition owns.
    batch_size : int, default 1024
        Seed nodes per mini-batch.
    remote_cache : float, default 0.0
        Each trainer's remote cache, as a share of all nodes in [0, 1]; 0: none.
    presample_epochs : int, default 1
        Epochs of pre-sampling that rank the remote nodes; 0 ranks them by the measured run
        itself (the oracle). Not run without a remote cache.
    epochs : int, default 1
        Epochs measured.
    seed : int, numpy.random.Generator or None, default 0
        Passed to every trainer's loader (an int: each loader starts from that same seed).
    rule : {"dgl", "glt", "halo-copies"}, default "dgl"
        Which rows each machine holds (:mod:`graphpart.features.locality`).

    Returns
    -------
    list of PartitionAccess
        One per partition, in partition order.
    """
    from ..sampling import NeighborLoader

    rule = check_rule(rule)
    out = []
    for p in range(partitioning.num_parts):
        loader = NeighborLoader(
            topo,
            fanouts,
            seeds=seeds,
            batch_size=batch_size,
            seed=seed,
            partitioning=partitioning,
            part_id=p,
        )
        hotness = (
            record_trace(loader, presample_epochs).counts()
            if remote_cache and presample_epochs
            else None
        )
        out.append(
            partition_access(
                partitioning,
                p,
                record_trace(loader, epochs),
                remote_cache=remote_cache,
                hotness=hotness,
                rule=rule,
            )
        )
    return out


#: Where a lookup is served, in the order of :func:`locality_table`'s columns and of
#: :meth:`PartitionAccess.served`'s keys.
SERVED_BY = ("local inner", "local HALO copy", "served by remote cache", "fetched from the owner")


def locality_table(runs: dict, *, title: str = "where lookups are served"):
    """One row per labelled run (``label -> (partitioning, access_by_partition(...))``): the HALO
    rows the partitions hold, and the share of all trainers' lookups served by each of
    :data:`SERVED_BY`, in tenths of a percent that add up to exactly 100.0% on every row
    (:func:`percent_tenths`).

    Parameters
    ----------
    runs : dict of str to (Partitioning, list of PartitionAccess)
        Row label to a partitioning and its trainers' lookups; the keys' order is the rows'.
    title : str, default "where lookups are served"
        The table's title.

    Returns
    -------
    Report
        Index ``setting``; columns ``HALO nodes (all parts)`` (HALO nodes summed over partitions,
        whether or not the rule keeps their rows) and one
        per entry of :data:`SERVED_BY`, formatted like ``"12.5%"``.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.sampling import Topology
    >>> g = load_karate_club()
    >>> p = gp.partition(g, 2, num_hops=1, seed=0)
    >>> acc = access_by_partition(p, Topology.from_graph(g), [5], batch_size=8, remote_cache=0.1,
    ...                           rule="glt")
    >>> table = locality_table({"metis, 1 hop": (p, acc)})
    >>> table.columns["HALO nodes (all parts)"], sorted(table.columns)[0]
    ([13], 'HALO nodes (all parts)')
    """
    from ..utils.report import Report

    keys = ("local_inner", "local_halo", "remote_cached", "remote_fetched")
    counts = np.array(
        [[sum(a.totals[k] for a in acc) for k in keys] for _, acc in runs.values()], dtype=np.int64
    ).reshape(-1, len(SERVED_BY))
    tenths = percent_tenths(counts)
    halo = [int(np.asarray(p.metrics.halo_nodes).sum()) for p, _ in runs.values()]
    columns: dict[str, list] = {"HALO nodes (all parts)": halo}
    for j, name in enumerate(SERVED_BY):
        columns[name] = [f"{t / 10:.1f}%" for t in tenths[:, j].tolist()]
    return Report(title, columns, {}, index="setting", labels=list(runs))


def percent_tenths(counts) -> np.ndarray:
    """Each row of ``counts`` as shares in tenths of a percent that sum to exactly 1000.

    Every share is rounded down, and the tenths left over go to the largest remainders (Hamilton's
    method), so a table of these shares adds up to 100.0% on every row where rounding each share
    on its own could print 99.9% or 100.1%. A row of zeros stays zeros.

    Parameters
    ----------
    counts : array_like, 2-D
        Non-negative, finite counts, one row per table row.

    Returns
    -------
    ndarray
        int64, the shape of ``counts``: each row sums to 1000, or is all zeros when its counts
        are.

    Raises
    ------
    GraphpartError
        When ``counts`` is not 2-D or holds a negative or non-finite value.

    Examples
    --------
    >>> percent_tenths([[1, 1, 1], [1, 0, 3], [0, 0, 0]]).tolist()
    [[334, 333, 333], [250, 0, 750], [0, 0, 0]]
    """
    c = np.asarray(counts, dtype=np.float64)
    if c.ndim != 2 or (c < 0).any() or not np.isfinite(c).all():
        raise GraphpartError(f"counts must be a 2-D array of counts >= 0, got shape {c.shape}")
    total = c.sum(axis=1, keepdims=True)
    exact = np.divide(c * 1000, total, out=np.zeros_like(c), where=total > 0)
    base = np.floor(exact).astype(np.int64)
    left = np.where(total[:, 0] > 0, 1000 - base.sum(axis=1), 0)
    # rank of each remainder within its row, largest first (ties: leftmost column first)
    rank = np.argsort(np.argsort(-(exact - base), axis=1, kind="stable"), axis=1, kind="stable")
    return base + (rank < left[:, None])

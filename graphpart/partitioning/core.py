"""``partition``: assignment -> reshuffle -> HALO, in memory, as a :class:`Partitioning`."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import torch

from ..errors import GraphpartError
from ..graph.core import Graph, check_graph
from ..graph.schema import etype_str
from ..homogeneous import HomogeneousGraph, typed_ids
from ..utils.check import check_part_id
from ..utils.heap import release, reused_heap
from ..utils.report import Report
from ..utils.seeds import check_random_state
from .assignment import check_assignment, check_num_parts, random_assignment
from .balance import balance_classes
from .book import RangePartitionBook
from .halo import HaloBuilder, PartView, local_data
from .options import PartitionOptions
from .reshuffle import Reshuffle, reshuffle
from .summary import PartitionMetrics, partition_metrics
from .trainers import metis_two_levels

__all__ = ["partition", "Partitioning", "PartitionOptions"]


@dataclass(frozen=True, eq=False)
class Partitioning:
    """The result of :func:`partition`: assignment, id maps, book, local graphs, metrics.

    Attributes
    ----------
    graph : Graph
        The partitioned graph (not copied).
    num_parts, num_hops, num_trainers_per_machine : int
    part_method : str
        ``"metis"``, ``"random"`` or ``"custom"`` (a user-supplied assignment).
    node_part : ndarray
        Partition of every node, by original homogeneous id.
    trainer_id : ndarray
        Trainer of every node (``node_part == trainer_id // num_trainers_per_machine``).
    shuffle : Reshuffle
        The renumbering (new ids are what the partition book and local graphs use).
    balance_classes : ndarray or None
        The balance class of every node (original homogeneous ids), when balanced.
    balance_edges : bool
    balance_labels : tuple of str
        A name for each balance class (its value, or ``ntype:value``), in class order.
    recorded_balance : dict of str to ndarray
        Per-partition balance loads read from files (a partitioning reopened from disk, whose
        nodes' classes are not in the files): reported when no classes are known.
    balance_shortfalls : tuple of (level, constraint, ratio, tolerance)
        The balance constraints METIS and the repair could not hold to their tolerance, at the
        ``"machine"`` or ``"trainer"`` level (the best assignment found is kept, and a
        :class:`~graphpart.errors.BalanceWarning` says so); empty when every one holds.
    options : PartitionOptions or None
        The options :func:`partition` ran with (``None``: reopened from files).
    """

    graph: Graph
    num_parts: int
    num_hops: int
    num_trainers_per_machine: int
    part_method: str
    node_part: np.ndarray
    trainer_id: np.ndarray
    shuffle: Reshuffle
    balance_classes: np.ndarray | None
    balance_edges: bool
    homogeneous: HomogeneousGraph = field(repr=False)
    balance_labels: tuple[str, ...] = ()
    recorded_balance: Mapping[str, np.ndarray] = field(default_factory=dict, repr=False)
    balance_shortfalls: tuple[tuple[str, str, float, float], ...] = ()
    options: PartitionOptions | None = field(default=None, repr=False)

    # ------------------------------------------------------------ id maps
    @property
    def assignment(self) -> torch.Tensor | dict[str, torch.Tensor]:
        """Partition of every original node: a tensor, or ``{ntype: tensor}`` (type-wise)."""
        return self._per_ntype(self.node_part)

    def _per_ntype(self, values: np.ndarray) -> torch.Tensor | dict[str, torch.Tensor]:
        t = torch.from_numpy(values)
        if self.graph.is_homogeneous:
            return t
        off = self.homogeneous.node_offsets
        return {nt: t[off[i] : off[i + 1]] for i, nt in enumerate(self.graph.ntypes)}

    @functools.cached_property
    def orig_nids(self) -> torch.Tensor | dict[str, torch.Tensor]:
        """``orig[new] = old`` node ids, as DGL's ``return_mapping`` (type-wise for
        heterographs)."""
        return self._orig(
            self.shuffle.new2old_nid,
            self.shuffle.node_bounds,
            self.homogeneous.node_offsets,
            self.graph.ntypes,
        )

    @functools.cached_property
    def orig_eids(self) -> torch.Tensor | dict[str, torch.Tensor]:
        """``orig[new] = old`` edge ids (dict keyed by canonical edge type for heterographs)."""
        return self._orig(
            self.shuffle.new2old_eid,
            self.shuffle.edge_bounds,
            self.homogeneous.edge_offsets,
            self.graph.canonical_etypes,
        )

    def _orig(self, new2old, bounds, offsets, types) -> torch.Tensor | dict:
        if self.graph.is_homogeneous:
            return torch.from_numpy(new2old)
        out = {}
        for i, t in enumerate(types):
            parts = [new2old[a:b] - offsets[i] for a, b in bounds[:, i]]
            out[t] = torch.from_numpy(np.concatenate(parts))
        return out

    @functools.cached_property
    def book(self) -> RangePartitionBook:
        """The partition book (``part_id`` 0; use :meth:`book_for` for another partition)."""
        return self.book_for(0)

    def book_for(self, part_id: int) -> RangePartitionBook:
        """The partition book as partition ``part_id`` loads it."""
        return RangePartitionBook.from_bounds(
            check_part_id(part_id, self.num_parts),
            self.shuffle.node_bounds,
            self.shuffle.edge_bounds,
            self.graph.ntypes,
            [etype_str(e) for e in self.graph.canonical_etypes],
        )

    # ------------------------------------------------------------ partitions
    @functools.cached_property
    def _halo(self) -> HaloBuilder:
        return HaloBuilder(self.shuffle, self.num_hops)

    def view(self, part_id: int) -> PartView:
        """Node and edge sets of one partition (global shuffled ids, local order)."""
        check_part_id(part_id, self.num_parts)
        return self._halo.view(part_id)

    def local_arrays(self, part_id: int) -> tuple[int, torch.Tensor, torch.Tensor, dict, dict]:
        """``(num_nodes, src, dst, ndata, edata)`` of one partition's local graph, as tensors
        (what :meth:`local_graph` builds its graph from, and what the writers write)."""
        v = self.view(part_id)
        ntype, orig_n = typed_ids(self.shuffle.new2old_nid[v.nodes], self.homogeneous.node_offsets)
        etype, orig_e = typed_ids(self.shuffle.new2old_eid[v.eids], self.homogeneous.edge_offsets)
        ndata, edata = local_data(
            v,
            self.shuffle.node_part()[v.nodes],
            ntype,
            orig_n,
            etype,
            orig_e,
            not self.graph.is_homogeneous,
        )
        tensors = [
            {k: torch.from_numpy(np.ascontiguousarray(a)) for k, a in d.items()}
            for d in (ndata, edata)
        ]
        return (
            len(v.nodes),
            torch.from_numpy(v.src),
            torch.from_numpy(v.dst),
            tensors[0],
            tensors[1],
        )

    def local_graph(self, part_id: int) -> Graph:
        """The graph of one partition, built on demand, with DGL's node and edge data.

        Nodes carry ``_ID`` (shuffled global id), ``inner_node``, ``part_id``,
        ``orig_id`` (type-wise original id), ``halo_hop`` and, for heterographs,
        ``_TYPE``; edges carry ``_ID``, ``inner_edge``, ``orig_id`` and ``_TYPE``.
        """
        num_nodes, src, dst, ndata, edata = self.local_arrays(part_id)
        return Graph.from_edges(src, dst, num_nodes=num_nodes, ndata=ndata, edata=edata)

    def node_feats(self, part_id: int) -> dict[str, torch.Tensor]:
        """Node data of the nodes ``part_id`` owns, keyed ``"ntype/name"``, in new id order."""
        check_part_id(part_id, self.num_parts)
        out = {}
        trainer = torch.from_numpy(self.trainer_id)
        for i, t in enumerate(self.graph.ntypes):
            a, b = self.shuffle.node_bounds[part_id, i]
            old = torch.from_numpy(self.shuffle.new2old_nid[a:b])
            typed = old - int(self.homogeneous.node_offsets[i])
            for name, value in self.graph.node_data(t).items():
                out[f"{t}/{name}"] = value[typed]
            if self.num_trainers_per_machine > 1:
                out[f"{t}/trainer_id"] = trainer[old]
        return out

    def edge_feats(self, part_id: int) -> dict[str, torch.Tensor]:
        """Edge data of the edges ``part_id`` owns, keyed ``"src:rel:dst/name"``.

        With several trainers per machine, ``trainer_id`` (the trainer of each edge's
        destination) is added, as DGL does.
        """
        check_part_id(part_id, self.num_parts)
        out = {}
        for i, e in enumerate(self.graph.canonical_etypes):
            a, b = self.shuffle.edge_bounds[part_id, i]
            old = self.shuffle.new2old_eid[a:b]
            typed = torch.from_numpy(old - int(self.homogeneous.edge_offsets[i]))
            for name, value in self.graph.edge_data(e).items():
                out[f"{etype_str(e)}/{name}"] = value[typed]
            if self.num_trainers_per_machine > 1:  # an edge goes with its destination, as in DGL
                dst_old = self.shuffle.new2old_nid[self.shuffle.dst[a:b]]
                out[f"{etype_str(e)}/trainer_id"] = torch.from_numpy(self.trainer_id[dst_old])
        return out

    # ------------------------------------------------------------ metrics
    @functools.cached_property
    def metrics(self) -> PartitionMetrics:
        """Edge cut, volume, balance, HALO and more: a
        :class:`graphpart.metrics.PartitionMetrics`."""
        return partition_metrics(self)

    def report(self) -> Report:
        """A table of the metrics: readable in a terminal, rendered as HTML in Jupyter."""
        return self.metrics.report()

    def __repr__(self) -> str:
        return (
            f"Partitioning(num_parts={self.num_parts}, part_method={self.part_method!r}, "
            f"num_hops={self.num_hops}, num_nodes={len(self.node_part)}, "
            f"num_edges={len(self.shuffle.new2old_eid)})"
        )


@reused_heap()
def partition(
    g: Graph, num_parts: int, options: PartitionOptions | None = None, **overrides: Any
) -> Partitioning:
    """Partition ``g`` into ``num_parts`` parts in memory (what ``partition_graph`` writes).

    Parameters
    ----------
    g : Graph
        Homogeneous or heterogeneous.
    num_parts : int
        Number of partitions (machines).
    options : PartitionOptions, optional
        How to partition (METIS or random, balance, HALO hops, trainers, seed, ...); every
        option is described there.
    **overrides
        :class:`PartitionOptions` fields by name, DGL's keyword arguments
        (``partition(g, 4, part_method="random", seed=0)``); they replace those of
        ``options``.

    Returns
    -------
    Partitioning
        The assignment, the renumbering, the partition book, the local graphs and the metrics.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> p = partition(load_karate_club(), 2, seed=0)
    >>> np.bincount(p.node_part).tolist()
    [17, 17]
    >>> lg = p.local_graph(0)
    >>> inner = lg.ndata["inner_node"].bool()
    >>> int(inner.sum()), bool((p.book.partid2nids(0) == lg.ndata["_ID"][:17]).all())
    (17, True)
    """
    check_graph(g)
    num_parts = check_num_parts(num_parts)
    opts = PartitionOptions.of(options, **overrides)
    part_method, balance_ntypes, balance_edges = (
        opts.part_method,
        opts.balance_ntypes,
        bool(opts.balance_edges),  # None: METIS and random take it as False
    )
    num_hops, trainers = opts.num_hops, opts.num_trainers_per_machine
    rng = check_random_state(opts.seed)
    homo = HomogeneousGraph.of(g)
    counts = np.diff(homo.node_offsets)
    n, total_parts = int(counts.sum()), num_parts * trainers
    classes, labels = balance_classes(g, balance_ntypes, homo)
    if isinstance(part_method, str):
        if part_method == "random":
            trainer = random_assignment(counts, total_parts, rng)
        elif part_method == "metis":
            if balance_ntypes is None and not g.is_homogeneous and np.any(counts < total_parts):
                small = [t for t, c in zip(g.ntypes, counts) if c < total_parts]
                raise GraphpartError(
                    f"METIS balances every node type of a heterograph, but node type(s) {small} "
                    "have fewer "
                    f"nodes than the {total_parts} parts; use part_method='random', or pass "
                    "balance_ntypes"
                )
            kwargs = dict(
                balance_ntypes=classes,
                balance_labels=labels,
                balance_edges=balance_edges,
                objtype=opts.objtype,
                recursive=opts.recursive,
                options=opts.metis_options,
                max_edges=opts.metis_max_edges,
                refine_rounds=opts.metis_refine_rounds,
            )
            trainer, shortfalls = metis_two_levels(
                homo.src, homo.dst, n, num_parts, trainers, seed=rng, **kwargs
            )
        else:
            raise AssertionError(part_method)  # PartitionOptions admits these two only
        method = part_method
    else:
        trainer = check_assignment(part_method, counts, g.ntypes, total_parts)
        method = "custom"
    if method != "metis":
        shortfalls = ()
    node_part = trainer // trainers
    release()  # the assignment's freed arrays, before the shuffle's
    shuffle = reshuffle(
        node_part,
        homo.ntype,
        homo.src,
        homo.dst,
        homo.etype,
        num_parts,
        len(g.ntypes),
        len(g.canonical_etypes),
    )
    homo = replace(homo, src=None, dst=None)  # the shuffle holds the edges from here on
    return Partitioning(
        g,
        num_parts,
        num_hops,
        trainers,
        method,
        node_part,
        trainer,
        shuffle,
        classes,
        bool(balance_edges),
        homo,
        labels,
        balance_shortfalls=shortfalls,
        options=opts,
    )

"""Mini-batches of seed nodes (a train mask, optionally one partition's inner nodes), sampled."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import torch

from ..errors import GraphpartError
from ..typing import IdArray, Seed
from ..utils.check import check_count, check_flag, check_part_id, short_repr
from ..utils.tensors import as_id_tensor, check_ids_in_range
from .neighbors import MiniBatch, NeighborSampler
from .topology import Topology

__all__ = ["NeighborLoader"]


def seed_nodes(
    seeds: IdArray | None, num_nodes: int, partitioning=None, part_id: int | None = None
) -> torch.Tensor:
    """Seed ids from ids or a boolean mask (``None``: every node), kept to ``part_id``'s inner nodes
    if given.

    Parameters
    ----------
    seeds : ids, boolean mask or None
        Node ids (each in ``[0, num_nodes)``; duplicates are kept once), a boolean mask of shape
        ``(num_nodes,)``, or ``None`` for every node.
    num_nodes : int
        The number of nodes of the topology the seeds index.
    partitioning : Partitioning, optional
        With ``part_id``: keep only the seeds it assigns to partition ``part_id``
        (``partitioning.node_part`` must cover ``num_nodes`` nodes).
    part_id : int, optional
        The partition whose seeds are kept; it needs ``partitioning``, and ``partitioning``
        needs it.

    Returns
    -------
    Tensor
        The seed ids, int64, in ascending order.

    Raises
    ------
    GraphpartError
        When a mask has the wrong shape, an id is out of range, only one of ``partitioning``
        and ``part_id`` is given, or the partitioning covers another number of nodes.
    """
    if seeds is None:
        ids = torch.arange(num_nodes)
    else:
        t = seeds
        if isinstance(seeds, np.ndarray) and seeds.dtype == np.bool_:
            t = torch.from_numpy(seeds)
        elif isinstance(seeds, (list, tuple)) and seeds and isinstance(seeds[0], (bool, np.bool_)):
            try:  # a mask written as a list
                t = torch.from_numpy(np.asarray(seeds, dtype=np.bool_))
            except (TypeError, ValueError):
                raise GraphpartError(
                    f"seeds must be node ids or a boolean mask, got {short_repr(seeds, 60)}"
                ) from None
        if isinstance(t, torch.Tensor) and t.dtype == torch.bool:
            if t.shape != (num_nodes,):
                raise GraphpartError(
                    f"a seed mask must have one entry per node ({num_nodes}), got shape "
                    f"{tuple(t.shape)}"
                )
            ids = torch.nonzero(t).reshape(-1)
        else:
            ids = torch.unique(as_id_tensor(t, "seeds"))
            check_ids_in_range(ids, num_nodes, "seeds")
    if partitioning is None:
        if part_id is not None:
            raise GraphpartError("part_id needs a partitioning")
        return ids
    if part_id is None:
        raise GraphpartError(
            "restricting seeds to a partition needs part_id as well as the partitioning"
        )
    node_part = getattr(partitioning, "node_part", None)
    if node_part is None or not hasattr(partitioning, "num_parts"):
        raise GraphpartError(
            f"partitioning must be a Partitioning (with node_part), got "
            f"{type(partitioning).__name__}"
        )
    node_part = as_id_tensor(node_part, "partitioning.node_part")
    if len(node_part) != num_nodes:
        raise GraphpartError(
            f"the partitioning covers {len(node_part)} nodes, the topology has {num_nodes}"
        )
    part_id = check_part_id(part_id, partitioning.num_parts)
    return ids[node_part[ids] == part_id]


class NeighborLoader:
    """Iterate mini-batches: seed nodes in (shuffled) batches, each sampled by a
    :class:`NeighborSampler`.

    Parameters
    ----------
    topo : Topology
    fanouts : sequence of int
        Neighbours per node at each hop (``-1``: all).
    seeds : ids, boolean mask or None
        The training nodes (``None``: every node).
    batch_size : int
    shuffle : bool
        Draw a new seed order every epoch.
    drop_last : bool
        Skip a last, smaller batch.
    replace : bool
    seed : int, numpy.random.Generator or None
        One seed fixes every epoch's batches and samples.
    partitioning, part_id :
        Keep only the seeds that partition ``part_id`` owns (one trainer's view;
        sampling still follows every edge, as distributed samplers do).

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> topo = Topology.from_graph(load_karate_club())
    >>> loader = NeighborLoader(topo, [5, 5], batch_size=8, seed=0)
    >>> len(loader), [len(mb.seeds) for mb in loader]
    (5, [8, 8, 8, 8, 2])
    """

    def __init__(
        self,
        topo: Topology,
        fanouts: Sequence[int],
        *,
        seeds: IdArray | None = None,
        batch_size: int = 1024,
        shuffle: bool = True,
        drop_last: bool = False,
        replace: bool = False,
        seed: Seed = None,
        partitioning=None,
        part_id: int | None = None,
    ) -> None:
        self.sampler = NeighborSampler(topo, fanouts, replace=replace, seed=seed)
        self.seeds = seed_nodes(seeds, topo.num_nodes, partitioning, part_id)
        self.batch_size = check_count(batch_size, "batch_size")
        if self.batch_size == 0:
            raise GraphpartError("batch_size must be positive, got 0")
        self.shuffle = check_flag(shuffle, "shuffle")
        self.drop_last = check_flag(drop_last, "drop_last")

    @property
    def topo(self) -> Topology:
        return self.sampler.topo

    @property
    def fanouts(self) -> tuple[int, ...]:
        return self.sampler.fanouts

    def __len__(self) -> int:
        n, b = len(self.seeds), self.batch_size
        return n // b if self.drop_last else -(-n // b)

    def batches(self) -> list[torch.Tensor]:
        """This epoch's seed batches (draws the shuffle)."""
        order = (
            self.seeds[torch.randperm(len(self.seeds), generator=self.sampler.generator)]
            if self.shuffle
            else self.seeds
        )
        out = list(torch.split(order, self.batch_size))
        return out[: len(self)]

    def __iter__(self) -> Iterator[MiniBatch]:
        for batch in self.batches():
            yield self.sampler.sample(batch)

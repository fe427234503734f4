"""One trainer's mini-batches walked over a partitioning, as the replay counts them: DGL's
layer-by-layer neighbour sampling (:class:`Walker`), the trainer's GPU cache, and where each input
row is fetched from (:func:`fetch_inputs`).

Everything is counted with array operations per batch; the caller loops over batches, never over
nodes or edges.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch

from ..features.caches import DYNAMIC_POLICIES, Cache, StaticCache, make_cache
from ..features.locality import held_locally
from ..features.orderings import hotness_order, random_order
from ..sampling.neighbors import sample_neighbors
from ..sampling.topology import Topology

__all__: list[str] = []

#: The system whose rule says which feature rows a machine holds: the replay is DGL's epoch
#: (:mod:`graphpart.features.locality`).
RULE = "dgl"


class Walker:
    """Samples batches the DGL way and counts per layer; keeps its scratch mask between batches.

    Sampling rows are *segments*: the in-edges of one node of one edge type. On a graph with one
    edge type a segment is a node's in-edges; on a heterograph each node has one per relation
    type it receives, and ``fanout`` applies to each (DGL's ``sample_etype_neighbors``).
    """

    def __init__(self, p, owner: torch.Tensor, num_machines: int, fanouts) -> None:
        sh = p.shuffle
        n = len(sh.new2old_nid)
        src, dst = torch.from_numpy(sh.src), torch.from_numpy(sh.dst)
        etype = p.homogeneous.etype
        r = 1 if etype is None else int(p.homogeneous.edge_offsets.size - 1)
        key = dst if r == 1 else dst * r + torch.from_numpy(etype[sh.new2old_eid]).long()
        key, order = torch.sort(key, stable=True)
        seg_key, seg_size = torch.unique_consecutive(key, return_counts=True)
        seg_ptr = torch.zeros(len(seg_size) + 1, dtype=torch.int64)
        torch.cumsum(seg_size, 0, out=seg_ptr[1:])
        self.topo = Topology(seg_ptr, src[order], order)  # rows: segments
        self.node_seg = torch.zeros(n + 1, dtype=torch.int64)
        torch.cumsum(torch.bincount(seg_key // r, minlength=n), 0, out=self.node_seg[1:])
        self.seg_deg = seg_size
        self.degree = {
            "in": torch.bincount(dst, minlength=n),
            "out": torch.bincount(src, minlength=n),
        }
        self.owner, self.m, self.fanouts = owner, num_machines, fanouts
        self.seen = torch.zeros(n, dtype=torch.bool)

    def _segments(self, frontier: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The segments of ``frontier``'s nodes, and the frontier position of each."""
        start = self.node_seg[frontier]
        count = self.node_seg[frontier + 1] - start
        at = torch.repeat_interleave(torch.arange(len(frontier)), count)
        offset = torch.arange(len(at)) - torch.repeat_interleave(
            torch.cumsum(count, 0) - count, count
        )
        return start[at] + offset, at

    def walk(self, seeds: torch.Tensor, me: int, gen: torch.Generator, out: dict | None):
        """The input nodes of one batch; per-layer counts go into ``out`` (when given)."""
        seen, frontier = self.seen, seeds
        seen[seeds] = True
        try:
            for layer, k in enumerate(self.fanouts):
                segs, at = self._segments(frontier)
                if out is not None:
                    self._count(frontier, segs, at, me, k, layer, out)
                nbr, _, _ = sample_neighbors(self.topo, segs, k, generator=gen)
                new = torch.unique(nbr[~seen[nbr]])
                seen[new] = True
                frontier = torch.cat([frontier, new])
                if out is not None:
                    out["src"][layer] = len(frontier)
        finally:
            seen[frontier] = False
        return frontier

    def _count(self, frontier, segs, at, me: int, k: int, layer: int, out: dict) -> None:
        own = self.owner[frontier]
        local = own == me
        deg = self.seg_deg[segs]
        take_seg = deg if k < 0 else torch.clamp(deg, max=k)
        take = torch.zeros(len(frontier), dtype=torch.int64).index_add_(0, at, take_seg)
        out["dst"][layer] = len(frontier)
        out["requests_local"][layer] = int(local.sum())
        out["requests_remote"][layer] = len(frontier) - int(local.sum())
        out["edges_local"][layer] = int(take[local].sum())
        out["edges_remote"][layer] = int(take[~local].sum())
        out["sample_machines"][layer] = count_machines(own[~local], self.m)


def count_machines(owners: torch.Tensor, m: int) -> int:
    """How many distinct machines ``owners`` name (one request each)."""
    return int((torch.bincount(owners, minlength=m) > 0).sum()) if len(owners) else 0


def trainer_cache(
    policy, capacity: int, walker: Walker, seeds, me, batch_size, gen
) -> Cache | None:
    n = len(walker.seen)
    if policy is None or capacity == 0:
        return None
    if policy in DYNAMIC_POLICIES:
        return make_cache(policy, n, capacity)
    if policy == "random":
        order = random_order(n, int(torch.randint(2**62, (1,), generator=gen)))
    elif policy == "presample":  # one epoch of this trainer's own batches, counted (GNNLab)
        counts = torch.zeros(n, dtype=torch.int64)
        for batch in torch.split(seeds[torch.randperm(len(seeds), generator=gen)], batch_size):
            counts[walker.walk(batch, me, gen, None)] += 1
        order = hotness_order(counts)
    else:
        order = hotness_order(walker.degree[policy.split("-")[0]])
    return StaticCache(order, capacity)


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Torch on one thread while the replay runs: its operations are per mini-batch (thousands
    of small arrays), where threads cost more than they give, and collapse when the machine is
    busy (R-MAT scale 17, 8 trainers: 0.54 s on one thread, 7.9 s on two; under load 5 s against
    29 s: ``benchmarks/epoch_replay.py``)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def fetch_inputs(
    step: dict, at: tuple, batch, inputs, owner, me: int, m: int, store
) -> torch.Tensor:
    """Where the batch's seeds and input rows live, counted into ``step`` at ``at``; the inputs
    the GPU cache held."""
    step["seeds"][at] = len(batch)
    step["seeds_local"][at] = int((owner[batch] == me).sum())
    own = owner[inputs]
    hit = store.access(inputs)[0] if store is not None else torch.zeros(len(inputs), dtype=bool)
    miss_own = own[~hit]
    local = held_locally(RULE, miss_own == me)  # DGL's: owned rows only, never HALO copies
    step["inputs"][at] = len(inputs)
    step["inputs_cached"][at] = int(hit.sum())
    step["inputs_local"][at] = int(local.sum())
    step["inputs_remote"][at] = len(miss_own) - int(local.sum())
    step["inputs_remote_owned"][at] = int((own != me).sum())
    step["fetch_machines"][at] = count_machines(miss_own[~local], m)
    return hit

"""Negative sampling for link prediction, GLT's ``RandomNegativeSampler``: node pairs drawn
uniformly that are not edges of the graph.

Each round draws the missing number of pairs ``(u, v)``, ``u`` and ``v`` uniform over the nodes,
and rejects those that are edges (a self-loop is a negative unless the graph has it). After
``trials`` rounds what is still missing is left out, or, with ``padding``, filled with pairs
drawn without the check (which may be edges). The edges are looked up in one sorted key per edge,
so a round costs ``O(k log E)`` for ``k`` pairs: no loop over pairs. The pairs are drawn and
checked on the host and returned on the topology's device. A graph where every pair is an edge
has no negative to find: no round is drawn (the result is empty, or all padding); and the rounds
are at most :data:`MAX_TRIALS`.
"""

from __future__ import annotations

import torch

from ..errors import GraphpartError
from ..typing import Seed
from ..utils.check import INT64_MAX, check_allocation, check_count, check_flag
from ..utils.seeds import check_random_state, torch_generator
from .topology import Topology, check_topology

__all__ = ["negative_sample", "MAX_TRIALS"]

#: Rounds of drawing at most (GLT's default is 5): each round draws only the pairs still
#: missing, so a graph that leaves pairs missing after this many is better served by ``padding``.
MAX_TRIALS = 1000
#: Bytes one pair wanted holds at once while drawn: both ends, its key, its place among the edge
#: keys, the test, and the pair kept.
BYTES_PER_PAIR = 64


def edge_keys(topo: Topology) -> torch.Tensor:
    """One sorted int64 key ``src * num_nodes + dst`` per edge of ``topo`` (either layout).

    Parameters
    ----------
    topo : Topology
        The graph.

    Returns
    -------
    Tensor
        The keys, sorted (duplicate edges give equal keys).

    Examples
    --------
    >>> edge_keys(Topology.from_coo([0, 2], [1, 0], num_nodes=3)).tolist()
    [1, 6]
    """
    n = check_topology(topo).num_nodes
    if n * n > INT64_MAX:
        raise GraphpartError(
            f"node pairs are keyed src * num_nodes + dst in int64: at most 3,037,000,499 nodes, "
            f"got {n:,}"
        )
    src, dst, _ = topo.to_coo()
    return torch.sort(src * topo.num_nodes + dst).values


def negative_sample(
    topo: Topology, num: int, *, trials: int = 5, padding: bool = False, seed: Seed = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """``num`` node pairs ``(src, dst)`` that are not edges of ``topo``, uniform over the nodes.

    Parameters
    ----------
    topo : Topology
        The graph (edges from source to destination, whatever its layout).
    num : int
        Pairs wanted.
    trials : int, default 5
        Rounds of drawing the missing pairs and rejecting edges (1 to :data:`MAX_TRIALS`).
    padding : bool, default False
        Fill what is still missing after ``trials`` with unchecked pairs (GLT's ``padding``);
        else return fewer pairs.
    seed : int, numpy.random.Generator or None
        The random stream.

    Returns
    -------
    src, dst : Tensor
        int64, as many as found (``num`` with ``padding``): every pair a non-edge, but the
        padding.

    Raises
    ------
    GraphpartError
        For a bad argument, or ``num`` pairs that would not fit in memory.

    Examples
    --------
    >>> topo = Topology.from_coo([0, 1, 2], [1, 2, 0], num_nodes=3)
    >>> src, dst = negative_sample(topo, 4, seed=0)
    >>> keys = set(zip(src.tolist(), dst.tolist()))
    >>> keys.isdisjoint({(0, 1), (1, 2), (2, 0)}), len(src)
    (True, 4)
    """
    topo = check_topology(topo)
    num = check_count(num, "num")
    trials = check_count(trials, "trials", low=1, high=MAX_TRIALS)
    padding = check_flag(padding, "padding")
    gen = torch_generator(check_random_state(seed))
    n = topo.num_nodes
    if n == 0 and num:
        raise GraphpartError("a graph without nodes has no node pairs to draw")
    check_allocation(BYTES_PER_PAIR * num, f"{num:,} negative pairs")
    keys = edge_keys(topo)
    if num and len(keys) >= n * n and len(torch.unique_consecutive(keys)) == n * n:
        trials = 0  # every pair is an edge: nothing to find, no round drawn
    found_src, found_dst, missing = [], [], num
    for _ in range(trials):
        if not missing:
            break
        u = torch.randint(0, n, (missing,), generator=gen)
        v = torch.randint(0, n, (missing,), generator=gen)
        k = u * n + v
        pos = torch.searchsorted(keys, k).clamp(max=max(len(keys) - 1, 0))
        edge = keys[pos] == k if len(keys) else torch.zeros(missing, dtype=torch.bool)
        found_src.append(u[~edge])
        found_dst.append(v[~edge])
        missing -= int((~edge).sum())
    if padding and missing:
        found_src.append(torch.randint(0, n, (missing,), generator=gen))
        found_dst.append(torch.randint(0, n, (missing,), generator=gen))
    empty = torch.zeros(0, dtype=torch.int64)
    dev = topo.device  # drawn and checked on the host, returned where the topology samples
    return torch.cat([empty, *found_src]).to(dev), torch.cat([empty, *found_dst]).to(dev)

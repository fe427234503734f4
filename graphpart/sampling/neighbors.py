"""Uniform neighbour sampling: one hop (:func:`sample_neighbors`) and several
(:class:`NeighborSampler`).

A multi-hop sample expands, at each hop, only the nodes first reached at the
previous hop (as PyG's and GLT's samplers do): a node met again is not
sampled twice. What a trainer must look up features for is
:attr:`MiniBatch.input_nodes`, every node the sample touched.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from ..errors import GraphpartError
from ..typing import IdArray, Seed
from ..utils.check import INT64_MAX, check_allocation, check_count, check_flag, short_repr
from ..utils.seeds import torch_generator
from ..utils.tensors import as_id_tensor, check_ids_in_range
from .topology import Topology, check_topology

__all__ = ["sample_neighbors", "NeighborSampler", "MiniBatch", "parse_fanouts"]


def sample_neighbors(
    topo: Topology,
    seeds: torch.Tensor,
    fanout: int,
    replace: bool = False,
    generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Up to ``fanout`` uniform neighbours of each seed (``-1``: all), as ``(neighbour, seed,
    edge_id)``.

    Rows are neighbours in the topology's layout (in-neighbours for CSC). With
    ``replace`` every seed with a neighbour gets exactly ``fanout`` draws;
    without, seeds with at most ``fanout`` neighbours keep them all. Vectorised
    over all seeds: no loop per node.

    Parameters
    ----------
    topo : Topology
        Sampled in its layout: CSC gives in-neighbours, CSR out-neighbours.
    seeds : Tensor
        Node ids in ``[0, topo.num_nodes)`` (a tensor, array or sequence of ints). A seed given
        twice is sampled twice.
    fanout : int
        Neighbours drawn per seed; a negative value (``-1``) takes all of them.
    replace : bool, default False
        Draw with replacement: every seed with a neighbour gets exactly ``fanout`` draws,
        repeats possible.
    generator : torch.Generator or None, default None
        Source of the random draws (``None``: torch's default generator).

    Returns
    -------
    neighbour : Tensor
        The sampled neighbours (int64), grouped by seed in the order of ``seeds``.
    seed : Tensor
        The seed each neighbour was drawn for.
    edge_id : Tensor
        The id of each sampled edge (from ``topo.edge_ids``).

    Examples
    --------
    >>> t = Topology.from_coo([1, 2, 3, 0], [0, 0, 0, 1])
    >>> rng = torch.Generator().manual_seed(0)
    >>> nbr, seed, eid = sample_neighbors(t, torch.tensor([0, 1]), 2, generator=rng)
    >>> seed.tolist(), sorted(nbr[:2].tolist()) in ([1, 2], [1, 3], [2, 3]), nbr[2].item()
    ([0, 0, 1], True, 0)
    """
    dev = check_topology(topo).device
    if isinstance(fanout, bool) or not isinstance(fanout, numbers.Integral):
        raise GraphpartError(
            f"fanout must be an int (-1: every neighbour), got {short_repr(fanout, 60)}"
        )
    fanout = -1 if fanout < 0 else check_count(fanout, "fanout")
    replace = check_flag(replace, "replace")
    if generator is not None and not isinstance(generator, torch.Generator):
        raise GraphpartError(
            f"generator must be a torch.Generator or None, got {short_repr(generator, 60)}"
        )
    if isinstance(seeds, torch.Tensor) and seeds.device != dev:
        seeds = seeds.to(dev)
    seeds = as_id_tensor(seeds, "seeds")
    if len(seeds) and (int(seeds.min()) < 0 or int(seeds.max()) >= topo.num_nodes):
        check_ids_in_range(seeds.cpu(), topo.num_nodes, "seeds")
    start = topo.indptr[seeds]
    deg = topo.indptr[seeds + 1] - start
    max_deg = int(deg.max()) if len(deg) else 0
    if fanout < 0:
        picks = int(deg.sum())
    elif replace:
        picks = int((deg > 0).sum()) * fanout
    else:
        picks = int(torch.clamp(deg, max=fanout).sum())
    # per pick: its entry, draw, neighbour, seed and edge id (and a mark and a copy on the way)
    check_allocation(48 * picks, f"a sample of {picks:,} neighbours")
    if fanout < 0 or (not replace and fanout >= max_deg):
        take = deg
        pos = _all_entries(start, deg)
    elif replace:
        has = deg > 0
        draws = _rand((int(has.sum()), fanout), generator, dev, torch.float32)
        pos = (start[has, None] + (draws * deg[has, None]).long()).reshape(-1)
        take = torch.where(has, fanout, 0)
    else:
        take = torch.clamp(deg, max=fanout)
        big = deg > fanout
        small_pos = _all_entries(start[~big], deg[~big])
        picked = start[big, None] + _floyd(
            deg[big], fanout, generator
        )  # fanout distinct entries per row
        pos = torch.empty(int(take.sum()), dtype=torch.int64, device=dev)
        row_start = torch.cumsum(take, 0) - take
        in_big = torch.zeros(len(pos), dtype=torch.bool, device=dev)
        in_big[(row_start[big, None] + torch.arange(fanout, device=dev)).reshape(-1)] = True
        pos[in_big] = picked.reshape(-1)
        pos[~in_big] = small_pos
    seed_of = torch.repeat_interleave(seeds, take)
    return _at(topo.indices, pos), seed_of, _at(topo.edge_ids, pos)


def _at(entries: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
    """``entries[pos]`` on ``pos``'s device: gathered on the host and copied over where the
    entries stay in host memory (``ZERO_COPY``)."""
    if entries.device == pos.device:
        return entries[pos]
    return entries[pos.cpu()].to(pos.device, non_blocking=True)


def _rand(shape, generator, device: torch.device, dtype) -> torch.Tensor:
    """Uniform draws from ``generator`` (a CPU generator: the same stream in every mode), on
    ``device``."""
    return torch.rand(shape, generator=generator, dtype=dtype).to(device)


def _all_entries(start: torch.Tensor, deg: torch.Tensor) -> torch.Tensor:
    """Concatenated ``arange(start[i], start[i] + deg[i])``."""
    return torch.repeat_interleave(start - (torch.cumsum(deg, 0) - deg), deg) + torch.arange(
        int(deg.sum()), device=start.device
    )


def _floyd(deg: torch.Tensor, k: int, generator: torch.Generator | None) -> torch.Tensor:
    """``k`` distinct uniform offsets in ``[0, deg[i])`` per row (Floyd's algorithm; ``deg > k``).

    Step ``i`` draws ``t`` in ``[0, j]`` with ``j = deg - k + i`` and keeps ``t``,
    or ``j`` if ``t`` was already kept: every ``k``-subset is equally likely.
    The loop runs over the ``k`` draws, each vectorised over all rows.
    """
    out = torch.empty((len(deg), k), dtype=torch.int64, device=deg.device)
    draws = _rand((len(deg), k), generator, deg.device, torch.float64)
    for i in range(k):
        j = deg - k + i
        t = torch.minimum((draws[:, i] * (j + 1)).long(), j)
        taken = (out[:, :i] == t[:, None]).any(1)
        out[:, i] = torch.where(taken, j, t)
    return out


#: Sampling layers at most (GNNs use a handful; each layer's work grows with the one before).
MAX_LAYERS = 64


def check_fanouts(fanouts: object) -> tuple[int, ...]:
    """``fanouts`` as a tuple of ints, each positive or ``-1`` (all neighbours); numpy integers
    are taken as ints, and at most :data:`MAX_LAYERS` layers.

    Parameters
    ----------
    fanouts : sequence of int or 1-D array
        One fanout per hop, each a positive int (at most the int64 maximum) or ``-1``; bools
        are refused.

    Returns
    -------
    tuple of int
        The fanouts as Python ints.

    Raises
    ------
    GraphpartError
        When ``fanouts`` is not a sequence (a single int, a string), has no layer or more than
        :data:`MAX_LAYERS`, or holds anything other than positive ints and ``-1``.

    Examples
    --------
    >>> import numpy as np
    >>> check_fanouts([np.int64(10), -1]), check_fanouts(np.array([5, 5]))
    ((10, -1), (5, 5))
    >>> check_fanouts(range(1, 10**12))
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: fanouts must be a non-empty sequence of at most 64 layers ...
    """
    if isinstance(fanouts, (np.ndarray, torch.Tensor)) and fanouts.ndim == 1:
        fanouts = fanouts[: MAX_LAYERS + 1].tolist()  # an array of fanouts, as Python ints
    if isinstance(fanouts, (int, str, bytes)) or not isinstance(fanouts, Sequence):
        raise GraphpartError(
            "fanouts must be a non-empty sequence of ints (one per hop), got "
            f"{short_repr(fanouts, 80)}"
        )
    if not 1 <= len(fanouts) <= MAX_LAYERS:
        raise GraphpartError(
            f"fanouts must be a non-empty sequence of at most {MAX_LAYERS} layers (one fanout "
            f"per hop), got {len(fanouts)}"
        )
    out = tuple(fanouts)
    if not all(
        isinstance(f, numbers.Integral)
        and not isinstance(f, bool)
        and (0 < int(f) <= INT64_MAX or int(f) == -1)
        for f in out
    ):
        raise GraphpartError(
            "each fanout must be a positive int64 or -1 (all neighbours), "
            f"got {short_repr(list(out), 80)}"
        )
    return tuple(int(f) for f in out)


def parse_fanouts(text: str, name: str = "fanouts") -> tuple[int, ...]:
    """Fanouts typed as text (``"15,10,5"``, spaces allowed), checked by :func:`check_fanouts`:
    the one reader of the command line's and the widgets' fanouts.

    Parameters
    ----------
    text : str
        Integers separated by commas.
    name : str, default "fanouts"
        How the message names the field (``"--fanouts"``).

    Returns
    -------
    tuple of int
        The fanouts.

    Examples
    --------
    >>> parse_fanouts("15, 10,5")
    (15, 10, 5)
    >>> parse_fanouts("10;5", "--fanouts")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: --fanouts must be integers separated by commas ..., got '10;5'
    """
    try:
        values = [int(x) for x in str(text).replace(" ", "").split(",") if x]
    except ValueError:
        raise GraphpartError(
            f"{name} must be integers separated by commas (e.g. 15,10,5), got {short_repr(text)}"
        ) from None
    return check_fanouts(values)


@dataclass(frozen=True)
class MiniBatch:
    """The sample of one mini-batch.

    Attributes
    ----------
    seeds : Tensor
        The batch's seed nodes (output nodes of the last GNN layer).
    hops : tuple of Tensor
        ``hops[i]``: nodes first reached at hop ``i + 1`` (sorted, distinct).
    edges : tuple of (Tensor, Tensor, Tensor)
        ``(neighbour, node, edge_id)`` sampled at each hop.
    input_nodes : Tensor
        Every distinct node of the sample, seeds first, then each hop's new
        nodes: the rows a trainer looks features up for.
    """

    seeds: torch.Tensor
    hops: tuple[torch.Tensor, ...]
    edges: tuple[tuple[torch.Tensor, torch.Tensor, torch.Tensor], ...]
    input_nodes: torch.Tensor

    @property
    def num_sampled_edges(self) -> int:
        return sum(len(e[0]) for e in self.edges)


class NeighborSampler:
    """Multi-hop uniform neighbour sampling with one fanout per hop, seeded.

    Parameters
    ----------
    topo : Topology
        Sampled in its layout: CSC samples in-neighbours (message passing), CSR out-neighbours.
    fanouts : sequence of int
        Neighbours per node at each hop, from the seeds outwards (``-1``: all).
    replace : bool
        Sample with replacement.
    seed : int, numpy.random.Generator or None
        Same seed, same samples.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> topo = Topology.from_graph(load_karate_club())
    >>> mb = NeighborSampler(topo, [3, 2], seed=0).sample(torch.tensor([0, 33]))
    >>> mb.input_nodes[:2].tolist(), len(mb.hops), len(mb.edges[0][0])
    ([0, 33], 2, 6)
    """

    def __init__(
        self, topo: Topology, fanouts: Sequence[int], replace: bool = False, seed: Seed = None
    ) -> None:
        check_topology(topo)
        self.topo = topo
        self.fanouts = check_fanouts(fanouts)
        self.replace = check_flag(replace, "replace")
        self.generator = torch_generator(seed)
        # reset after each sample; on the device sampling runs on
        self._seen = torch.zeros(topo.num_nodes, dtype=torch.bool, device=topo.device)

    def sample(self, seeds: IdArray) -> MiniBatch:
        """Sample around ``seeds`` (duplicates are kept once), on the topology's device."""
        seeds = torch.unique(as_id_tensor(seeds, "seeds"))
        check_ids_in_range(seeds.cpu(), self.topo.num_nodes, "seeds")
        seeds = seeds.to(self.topo.device)
        seen = self._seen
        seen[seeds] = True
        frontier, hops, edges = seeds, [], []
        try:
            for fanout in self.fanouts:
                nbr, node, eid = sample_neighbors(
                    self.topo, frontier, fanout, self.replace, self.generator
                )
                edges.append((nbr, node, eid))
                reached = torch.unique(nbr)
                frontier = reached[~seen[reached]]
                seen[frontier] = True
                hops.append(frontier)
            nodes = torch.cat([seeds, *hops])
        finally:
            seen[torch.cat([seeds, *hops])] = False
        return MiniBatch(seeds, tuple(hops), tuple(edges), nodes)

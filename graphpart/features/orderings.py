"""Static orderings: which rows a feature store puts first (the hot part is the first
``split_ratio``).

=============  ===============================================================
random         a random permutation (what a cache without knowledge gets)
in-degree      most in-neighbours first (GLT's ``sort_by_in_degree``)
out-degree     most out-neighbours first (PaGraph)
presample      most accessed over a few sampling epochs first (GNNLab's PreSC)
oracle         most accessed over the measured run itself (an upper bound)
=============  ===============================================================

Every ordering is a permutation of node ids, hot first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from ..errors import GraphpartError
from ..sampling import Topology
from ..typing import Seed
from ..utils.check import check_count, short_repr
from ..utils.seeds import torch_generator
from .oracles import hotness_order, oracle_order
from .trace import Trace, record_trace

if TYPE_CHECKING:
    from ..sampling import NeighborLoader

__all__ = [
    "random_order",
    "degree_order",
    "node_degree",
    "presample_order",
    "oracle_order",
    "hotness_order",
    "ORDERINGS",
]

ORDERINGS = ("random", "in-degree", "out-degree", "presample", "oracle")


def random_order(num_nodes: int, seed: Seed = None) -> torch.Tensor:
    """A random permutation of ``num_nodes`` ids.

    Parameters
    ----------
    num_nodes : int
        Number of node ids, at least 0.
    seed : int, numpy.random.Generator or None, default None
        Seeds the draw; ``None``: fresh entropy. A Generator is advanced by one draw.

    Returns
    -------
    Tensor
        The int64 permutation of ``0 .. num_nodes - 1``.
    """
    return torch.randperm(check_count(num_nodes, "num_nodes"), generator=torch_generator(seed))


def degree_order(topo: Topology, direction: str = "in") -> torch.Tensor:
    """Nodes by decreasing in- or out-degree (ties: smaller id first).

    Parameters
    ----------
    topo : Topology
        The graph's structure, in CSC or CSR layout.
    direction : {"in", "out"}, default "in"
        Rank by in-degree (GLT) or out-degree (PaGraph).

    Returns
    -------
    Tensor
        The int64 permutation of the ``topo.num_nodes`` node ids, highest degree first.

    Raises
    ------
    GraphpartError
        When ``direction`` is neither ``"in"`` nor ``"out"``.

    Examples
    --------
    >>> t = Topology.from_coo([0, 1, 2, 2], [1, 2, 1, 0])
    >>> degree_order(t, "in").tolist(), degree_order(t, "out").tolist()
    ([1, 0, 2], [2, 0, 1])
    """
    return hotness_order(node_degree(topo, direction))


def node_degree(topo: Topology, direction: str = "in") -> torch.Tensor:
    """Every node's in- or out-degree (what :func:`degree_order` ranks by).

    Parameters
    ----------
    topo : Topology
        The graph's structure, in CSC or CSR layout.
    direction : {"in", "out"}, default "in"
        Which degree: read from the row pointers when it matches the layout (in-degree for
        CSC, out-degree for CSR), else counted from the column indices.

    Returns
    -------
    Tensor
        One degree per node, length ``topo.num_nodes``.

    Raises
    ------
    GraphpartError
        When ``direction`` is neither ``"in"`` nor ``"out"``.

    Examples
    --------
    >>> t = Topology.from_coo([0, 1, 2, 2], [1, 2, 1, 0])
    >>> node_degree(t, "in").tolist(), node_degree(t, "out").tolist()
    ([1, 2, 1], [1, 1, 2])
    """
    if direction not in ("in", "out"):
        raise GraphpartError(f"direction must be 'in' or 'out', got {short_repr(direction)}")
    rows = "in" if topo.layout == "CSC" else "out"
    if direction == rows:
        return topo.degree()
    return torch.bincount(topo.indices, minlength=topo.num_nodes)


def presample_order(loader: NeighborLoader, epochs: int = 1) -> tuple[torch.Tensor, Trace]:
    """GNNLab's pre-sampling: run ``loader`` for ``epochs``, order nodes by how often they were
    looked up.

    Returns the order and the pre-sampling trace (its cost: that many epochs of sampling).

    Parameters
    ----------
    loader : NeighborLoader
        The sampler to run; iterating it advances its random generator, so a run that follows
        draws other batches.
    epochs : int, default 1
        Epochs of pre-sampling, at least 1.

    Returns
    -------
    order : Tensor
        The int64 permutation of the ``loader.topo.num_nodes`` node ids, most looked up first
        (ties: smaller id first).
    trace : Trace
        What the pre-sampling looked up, batch after batch.

    Raises
    ------
    GraphpartError
        When ``epochs`` is 0 or not a non-negative integer.
    """
    if check_count(epochs, "epochs") == 0:
        raise GraphpartError("pre-sampling needs at least one epoch, got 0")
    trace = record_trace(loader, epochs)
    return oracle_order(trace), trace

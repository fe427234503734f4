"""Subgraph sampling, GLT's ``subgraph`` operation: the subgraph a node set induces, with the ids
of its edges.

The edges of the set's rows are gathered in one pass over the compressed layout, and those whose
other end is in the set are kept (a sorted search per edge): ``O(m log k)`` for ``m`` edges at
the ``k`` nodes, no loop over nodes.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..index import expand_ranges
from ..typing import IdArray
from ..utils.tensors import as_id_tensor, check_ids_in_range
from .topology import Topology, check_topology

__all__ = ["Subgraph", "induced_subgraph"]


@dataclass(frozen=True)
class Subgraph:
    """The subgraph a node set induces.

    Attributes
    ----------
    nodes : Tensor
        The node set, sorted and without repeats: local id ``i`` is node ``nodes[i]``.
    src, dst : Tensor
        The edges between them, in local ids, in the topology's edge order (row by row).
    edge_ids : Tensor
        Each edge's id in the graph.
    """

    nodes: torch.Tensor
    src: torch.Tensor
    dst: torch.Tensor
    edge_ids: torch.Tensor

    @property
    def num_edges(self) -> int:
        return len(self.edge_ids)


def induced_subgraph(topo: Topology, nodes: IdArray) -> Subgraph:
    """Every edge of ``topo`` whose two ends are in ``nodes``, in local ids, with its edge id.

    Parameters
    ----------
    topo : Topology
        The graph.
    nodes : array_like of int
        The node set (repeats and order do not matter).

    Returns
    -------
    Subgraph
        The sorted node set and the edges among them.

    Examples
    --------
    >>> topo = Topology.from_coo([0, 1, 2, 3], [1, 2, 3, 0], num_nodes=4)
    >>> sub = induced_subgraph(topo, [2, 1, 0])
    >>> sub.nodes.tolist(), sub.src.tolist(), sub.dst.tolist(), sub.edge_ids.tolist()
    ([0, 1, 2], [0, 1], [1, 2], [0, 1])
    """
    dev = check_topology(topo).device
    topo = topo.to_mode("CPU")  # gathered on the host, returned where the topology samples
    ids = as_id_tensor(nodes, "nodes").cpu()
    if len(ids):
        check_ids_in_range(ids, topo.num_nodes, "nodes")
    keep = torch.unique(ids)
    entries = torch.from_numpy(expand_ranges(topo.indptr.numpy(), keep.numpy()))
    counts = (topo.indptr[keep + 1] - topo.indptr[keep]).to(torch.int64)
    rows = torch.repeat_interleave(torch.arange(len(keep)), counts)
    other = topo.indices[entries]
    pos = torch.searchsorted(keep, other).clamp(max=max(len(keep) - 1, 0))
    inside = keep[pos] == other if len(keep) else torch.zeros(0, dtype=torch.bool)
    rows, cols, eids = rows[inside], pos[inside], topo.edge_ids[entries[inside]]
    if topo.layout == "CSC":  # rows are destinations
        src, dst = cols, rows
    else:
        src, dst = rows, cols
    return Subgraph(*(t.to(dev, torch.int64) for t in (keep, src, dst, eids)))

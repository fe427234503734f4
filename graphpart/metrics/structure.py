"""How partitions connect: the cut matrix, the quotient graph and HALO growth by hop.

These are the numbers behind :mod:`graphpart.viz`'s cut-matrix, quotient and
HALO-growth figures; the figures only draw them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..index import part_ranges
from ..partitioning.halo import HaloBuilder
from ..storage.reopen import as_partitioning
from ..utils.check import check_count

if TYPE_CHECKING:
    import os

    from ..partitioning.core import Partitioning

__all__ = ["cut_matrix", "QuotientGraph", "quotient_graph", "HaloGrowth", "halo_growth"]


def cut_matrix(p: Partitioning | str | os.PathLike) -> np.ndarray:
    """``M[i, j]``: edges from a node of partition ``i`` to a node of partition ``j``.

    The diagonal holds the edges inside each partition; the edge cut is the sum
    off the diagonal.

    Parameters
    ----------
    p : Partitioning, str or os.PathLike
        A partitioning, or the path of partitions on disk (a config ``.json``, or a PyG or GLT
        folder).

    Returns
    -------
    ndarray
        int64, shape ``(num_parts, num_parts)``; it sums to the number of edges.

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> p = partition(load_karate_club(), 2, seed=0)
    >>> m = cut_matrix(p)
    >>> int(m.sum()) == p.graph.num_edges(), int(m.sum() - np.trace(m)) == p.metrics.edge_cut
    (True, True)
    """
    p = as_partitioning(p)
    part = p.shuffle.node_part()
    k = p.num_parts
    flat = np.bincount(part[p.shuffle.src] * k + part[p.shuffle.dst], minlength=k * k)
    return flat.reshape(k, k)


@dataclass(frozen=True)
class QuotientGraph:
    """One node per partition, one undirected edge per pair of partitions that share cut edges.

    Attributes
    ----------
    sizes : ndarray
        Nodes owned by each partition.
    internal : ndarray
        Edges inside each partition.
    src, dst, weight : ndarray
        Pairs ``src < dst`` of partitions and the cut edges between them (both directions).
    """

    sizes: np.ndarray
    internal: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    weight: np.ndarray


def quotient_graph(p: Partitioning | str | os.PathLike) -> QuotientGraph:
    """The partition quotient graph: what a drawing of a large partitioned graph shows.

    Parameters
    ----------
    p : Partitioning, str or os.PathLike
        A partitioning, or the path of partitions on disk (a config ``.json``, or a PyG or GLT
        folder).

    Returns
    -------
    QuotientGraph
        Partition sizes, edges inside each partition, and one edge per pair of partitions joined
        by cut edges, weighted by their number in both directions.

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> q = quotient_graph(partition(load_karate_club(), 2, seed=0))
    >>> q.sizes.tolist(), q.src.tolist(), q.dst.tolist()
    ([17, 17], [0], [1])
    """
    p = as_partitioning(p)
    m = cut_matrix(p)
    sym = m + m.T
    i, j = np.triu_indices(p.num_parts, k=1)
    keep = sym[i, j] > 0
    b = p.shuffle.node_bounds
    sizes = np.diff(part_ranges(b), axis=1).ravel()
    return QuotientGraph(sizes, np.diagonal(m).copy(), i[keep], j[keep], sym[i, j][keep])


@dataclass(frozen=True)
class HaloGrowth:
    """Inner and HALO nodes of every partition as the number of hops grows.

    Attributes
    ----------
    inner : ndarray, shape (num_parts,)
    halo : ndarray, shape (num_parts, max_hops + 1)
        HALO nodes within ``h`` hops (column 0 is all zeros).
    """

    inner: np.ndarray
    halo: np.ndarray

    @property
    def replication(self) -> np.ndarray:
        """(inner + HALO) / inner summed over partitions, for each hop count."""
        return (self.inner.sum() + self.halo.sum(axis=0)) / max(int(self.inner.sum()), 1)


def halo_growth(p: Partitioning | str | os.PathLike, max_hops: int = 3) -> HaloGrowth:
    """HALO nodes per partition for ``num_hops`` = 0 .. ``max_hops``.

    The HALO is rebuilt from the partitioning's assignment for every hop count, whatever
    ``num_hops`` it was made with.

    Parameters
    ----------
    p : Partitioning, str or os.PathLike
        A partitioning, or partitions on disk in any format (as :func:`cut_matrix` takes).
    max_hops : int, default 3
        The largest hop count, at least 0.

    Returns
    -------
    HaloGrowth
        Inner nodes per partition, and HALO nodes per partition for each hop count.

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> g = halo_growth(partition(load_karate_club(), 2, seed=0), max_hops=2)
    >>> g.halo[:, 0].tolist(), bool((np.diff(g.halo, axis=1) >= 0).all())
    ([0, 0], True)
    """
    max_hops = check_count(max_hops, "max_hops")
    p = as_partitioning(p)
    builder = HaloBuilder(p.shuffle, max_hops)
    k = p.num_parts
    halo = np.zeros((k, max_hops + 1), dtype=np.int64)
    inner = np.zeros(k, dtype=np.int64)
    for i in range(k):
        v = builder.view(i)
        inner[i] = v.num_inner_nodes
        by_hop = np.bincount(v.hop.astype(np.int64), minlength=max_hops + 1)
        by_hop[0] = 0
        halo[i] = np.cumsum(by_hop)
    return HaloGrowth(inner, halo)

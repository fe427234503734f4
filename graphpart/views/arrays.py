"""graph_arrays: a whole graph as typed arrays, for the WebGL view of big graphs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..homogeneous import HomogeneousGraph
from ..index import undirected_pairs
from ..lookup import NodeTable, node_table
from ..palette import CUT_COLOR, lighter_hex, part_hex
from ..partitioning import Partitioning
from ..viz.layout import node_positions
from .graph import neighbour_counts

__all__ = ["GraphArrays", "graph_arrays"]


@dataclass(frozen=True)
class GraphArrays:
    """Everything a big view draws, one array per quantity (node ``i`` is homogeneous id ``i``).

    Attributes
    ----------
    positions : ndarray of float32, shape (n, 2)
    colors : ndarray of uint8, shape (n, 4)
        RGBA: the owner's colour.
    sizes : ndarray of float32, shape (n,)
        Grows with the square root of the degree.
    owner : ndarray of uint8, shape (n,)
        Each node's partition (at most 256 partitions).
    links : ndarray of uint32, shape (m, 2)
        Each undirected pair of neighbours once.
    link_colors : ndarray of uint8, shape (m, 4)
        Near-black when cut, else the partition's colour, lighter.
    """

    positions: np.ndarray
    colors: np.ndarray
    sizes: np.ndarray
    owner: np.ndarray
    links: np.ndarray
    link_colors: np.ndarray


def _rgba(hexes: list[str]) -> np.ndarray:
    """``#rrggbb`` colours as ``(k, 4)`` uint8 RGBA rows."""
    out = np.full((len(hexes), 4), 255, dtype=np.uint8)
    for i, h in enumerate(hexes):  # one per partition, not per node
        out[i, :3] = [int(h[j : j + 2], 16) for j in (1, 3, 5)]
    return out


def graph_arrays(p: Partitioning, table: NodeTable | None = None) -> GraphArrays:
    """The whole graph of ``p`` as typed arrays: positions, owner colours, sizes, links.

    Parameters
    ----------
    p : Partitioning
        At most 256 partitions.
    table : NodeTable, optional
        ``node_table(p)``, when already computed.

    Returns
    -------
    GraphArrays

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> a = graph_arrays(gp.partition(load_karate_club(), 2, seed=0))
    >>> a.positions.shape, a.links.shape, a.colors.dtype.name
    ((34, 2), (78, 2), 'uint8')
    """
    from ..errors import GraphpartError

    if p.num_parts > 256:
        raise GraphpartError(f"a big view draws at most 256 partitions, got {p.num_parts}")
    table = table or node_table(p)
    h = HomogeneousGraph.of(p.graph)
    n = h.num_nodes
    owner = np.asarray(table.owner, dtype=np.uint8)
    src, dst = np.asarray(h.src, dtype=np.int64), np.asarray(h.dst, dtype=np.int64)
    lo, hi = undirected_pairs(src, dst, n)
    colors = part_hex(p.num_parts)
    inner = _rgba(lighter_hex(colors))
    cut = owner[lo] != owner[hi]
    link_colors = np.where(cut[:, None], _rgba([CUT_COLOR])[0], inner[owner[lo]])
    degree = neighbour_counts(src, dst, n)
    top = max(int(degree.max(initial=1)), 1)
    return GraphArrays(
        positions=np.asarray(node_positions(p.graph), dtype=np.float32)[:, :2].copy(),
        colors=_rgba(colors)[owner],
        sizes=(2 + 6 * np.sqrt(degree / top)).astype(np.float32),
        owner=owner,
        links=np.stack([lo, hi], axis=1).astype(np.uint32),
        link_colors=link_colors.astype(np.uint8),
    )

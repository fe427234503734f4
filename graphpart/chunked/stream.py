"""Streaming partitioners for chunked graphs: Fennel and LDG, in one pass over the edge chunks.

Memory is linear in the number of nodes (one partition id per node) plus one
edge chunk: the edges are never held together. Each chunk is read once; the
nodes it reaches first are placed in batches of ``batch_size``, each node in
the partition holding most of its neighbours seen so far, minus a load penalty:

* Fennel (Tsourakakis et al., WSDM 2014):
  ``neighbours(p) - alpha * gamma * load(p) ** (gamma - 1)``;
  ``alpha`` defaults to half the paper's ``sqrt(k) * m / n ** gamma``, which gave lower cuts at the
  same balance on SBM, mesh (4elt) and R-MAT graphs;
* LDG (Stanton & Kliot, KDD 2012): ``neighbours(p) * (1 - load(p) / capacity)``.

Inside a batch the scores are computed together (no per-node Python loop), so a
batch sees the nodes placed by earlier batches but not each other. Loads are
kept per node type and capped at ``(1 + slack) * n_type / k``; nodes no edge
reaches are spread over the least loaded partitions at the end.
"""

from __future__ import annotations

import logging
import math

import numpy as np

from ..errors import GraphpartError
from ..homogeneous import to_typed, type_offsets
from ..index import group_order, group_rank
from .format import ChunkedMetadata
from .read import read_edges

__all__ = ["stream_partition", "STREAMING"]

STREAMING = ("fennel", "ldg")
logger = logging.getLogger(__name__)


class _State:
    """Partition of every homogeneous node (-1 while unplaced) and loads per (node type, part)."""

    def __init__(
        self,
        counts: np.ndarray,
        k: int,
        slack: float,
        algorithm: str,
        num_edges: int,
        gamma: float,
        alpha: float | None,
    ) -> None:
        self.k, self.algorithm, self.gamma = k, algorithm, gamma
        self.offsets = type_offsets(counts)
        self.n = int(self.offsets[-1])
        self.part = np.full(self.n, -1, dtype=np.int32)
        self.load = np.zeros((len(counts), k), dtype=np.int64)
        self.cap = np.ceil((1 + slack) * counts / k).astype(np.int64)
        self.scale = self.n / np.maximum(
            counts, 1
        )  # a type's load, as if every node were of that type
        paper = math.sqrt(k) * max(num_edges, 1) / max(self.n, 1) ** gamma
        self.alpha = 0.5 * paper if alpha is None else alpha

    def type_of(self, nodes: np.ndarray) -> np.ndarray:
        return to_typed(nodes, self.offsets)[0]

    def place(self, nodes: np.ndarray, nbr_counts: np.ndarray) -> None:
        """Place ``nodes`` given their neighbour counts per partition (rows: nodes, columns: parts).

        What would overflow a part's capacity is placed again among the parts
        with room (at most ``k`` rounds: each round fills a part).
        """
        todo = np.arange(len(nodes))
        for _ in range(self.k + 1):
            t = self.type_of(nodes[todo])
            load = self.load[t].astype(np.float64)
            counts = nbr_counts[todo]
            if self.algorithm == "fennel":
                score = counts - self.alpha * self.gamma * (load * self.scale[t, None]) ** (
                    self.gamma - 1
                )
            else:
                score = counts * (1.0 - load / self.cap[t, None])
            score = score - 1e-9 * load  # ties: the lighter part
            score[load >= self.cap[t, None]] = -np.inf
            choice = np.argmax(score, axis=1)
            key = t * self.k + choice
            over = _rank_within(key) >= (self.cap - self.load).ravel()[key]
            ok = todo[~over]
            self.part[nodes[ok]] = choice[~over]
            np.add.at(self.load, (t[~over], choice[~over]), 1)
            todo = todo[over]
            if not len(todo):
                return
        self.fill(nodes[todo], self.type_of(nodes[todo]))

    def fill(self, nodes: np.ndarray, t: np.ndarray) -> None:
        """Spread ``nodes`` over the parts with the most room, per node type (a loop over types
        only)."""
        for ti in np.unique(t):
            group = nodes[t == ti]
            room = np.maximum(self.cap[ti] - self.load[ti], 0)
            if room.sum() < len(group):  # cannot happen with slack >= 0, but never lose a node
                room = room + int(np.ceil((len(group) - room.sum()) / self.k))
            slots = np.repeat(np.arange(self.k), room)
            # Water-filling: take the free slots in order of the load each would bring its part to.
            level = self.load[ti][slots] + _rank_within(slots)
            slots = slots[np.argsort(level, kind="stable")][: len(group)]
            self.part[group] = slots
            self.load[ti] += np.bincount(slots, minlength=self.k)


def _rank_within(values: np.ndarray) -> np.ndarray:
    return group_rank(*group_order(values, int(values.max()) + 1 if len(values) else 0))


def _process_chunk(
    state: _State, u: np.ndarray, v: np.ndarray, batch_size: int, refine: int
) -> None:
    a = np.concatenate([u, v])  # undirected: each edge makes both ends neighbours
    b = np.concatenate([v, u])
    mine = state.part[a] < 0
    a, b = a[mine], b[mine]
    new = np.unique(a)
    if not len(new):
        return
    idx = np.searchsorted(new, a)
    # Most informed first: nodes with more already placed neighbours in this chunk go in earlier
    # batches.
    informed = np.bincount(idx[state.part[b] >= 0], minlength=len(new))
    by_info = np.argsort(-informed, kind="stable")
    rank_of = np.empty(len(new), dtype=np.int64)
    rank_of[by_info] = np.arange(len(new))
    new, rank = new[by_info], rank_of[idx]
    order = np.argsort(rank, kind="stable")
    rank, b = rank[order], b[order]
    k = state.k
    for start in range(0, len(new), batch_size):  # a loop over batches, vectorised inside
        stop = min(start + batch_size, len(new))
        lo, hi = np.searchsorted(rank, [start, stop])
        r, nb, nodes = rank[lo:hi] - start, b[lo:hi], new[start:stop]
        for step in range(1 + refine):  # refinement: again, now seeing the batch's own placements
            if step:
                np.subtract.at(state.load, (state.type_of(nodes), state.part[nodes]), 1)
            p = state.part[nb]
            seen = p >= 0
            counts = np.bincount(r[seen] * k + p[seen], minlength=(stop - start) * k).reshape(
                stop - start, k
            )
            state.place(nodes, counts.astype(np.float64))


def stream_partition(
    meta: ChunkedMetadata,
    num_parts: int,
    algorithm: str = "fennel",
    *,
    slack: float = 0.05,
    gamma: float = 1.5,
    batch_size: int = 64,
    refine: int = 1,
    alpha: float | None = None,
) -> np.ndarray:
    """Partition of every homogeneous node (types in sorted order), in one pass over the edge
    chunks.

    Parameters
    ----------
    meta : ChunkedMetadata
    num_parts : int
    algorithm : {"fennel", "ldg"}
    slack : float
        Each part holds at most ``(1 + slack) * n_type / num_parts`` nodes of each type.
    gamma : float
        Fennel's load exponent.
    batch_size : int
        Nodes placed together; smaller follows the stream more closely, larger is faster.
    refine : int
        Extra placement rounds per batch that see the batch's own placements.
    alpha : float, optional
        Fennel's load weight (see the module docstring).

    Examples
    --------
    >>> import tempfile
    >>> from graphpart.chunked import write_chunked, read_metadata
    >>> from graphpart.datasets import sbm
    >>> g = sbm(block_sizes=[300] * 4, p_in=0.05, p_out=0.002, seed=0)
    >>> meta = read_metadata(write_chunked(g, tempfile.mkdtemp() + "/sbm", 4))
    >>> parts = stream_partition(meta, 4, "fennel")
    >>> bool(np.bincount(parts).max() <= 1.05 * g.num_nodes() / 4)
    True
    """
    if algorithm not in STREAMING:
        raise GraphpartError(f"streaming algorithm must be one of {STREAMING}, got {algorithm!r}")
    if not slack >= 0 or not gamma > 1 or int(batch_size) < 1:
        raise GraphpartError(
            f"need slack >= 0, gamma > 1 and batch_size >= 1, got {slack}, {gamma}, {batch_size}"
        )
    ntypes = sorted(meta.ntypes)
    counts = np.array([meta.num_nodes[t] for t in ntypes], dtype=np.int64)
    state = _State(counts, num_parts, slack, algorithm, sum(meta.num_edges.values()), gamma, alpha)
    for e in sorted(meta.etypes):
        so, do = state.offsets[ntypes.index(e[0])], state.offsets[ntypes.index(e[2])]
        for c in range(len(meta.edges[e].paths)):
            s, d = read_edges(meta, e, c)
            _process_chunk(state, s + so, d + do, int(batch_size), int(refine))
            logger.info(
                "%s: edge chunk %d of %s placed; %d nodes unplaced",
                algorithm,
                c,
                e,
                int((state.part < 0).sum()),
            )
    rest = np.flatnonzero(state.part < 0)
    if len(rest):
        state.fill(rest, state.type_of(rest))
    return state.part.astype(np.int64)

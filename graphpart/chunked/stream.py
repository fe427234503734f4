"""Streaming partitioners for chunked graphs: Fennel and LDG over the edge chunks, balancing nodes
and in-degree.

Memory is linear in the number of nodes (a part, a class and an in-degree per node) plus one edge
chunk: the edges are never held together. Each pass reads every chunk once; the nodes a chunk
reaches first are placed in batches of ``batch_size``, each node in the part holding most of its
neighbours seen so far, minus a load penalty:

* Fennel (Tsourakakis et al., WSDM 2014):
  ``neighbours(p) - alpha * gamma * load(p) ** (gamma - 1)``;
  ``alpha`` defaults to half the paper's ``sqrt(k) * m / n ** gamma``, which gave lower cuts at the
  same balance on SBM, mesh (4elt) and R-MAT graphs. With ``balance_edges`` the load is the mean
  of the node and in-degree loads, both in node units (Cuttana's edge-balanced Fennel);
* LDG (Stanton & Kliot, KDD 2012): ``neighbours(p) * (1 - load(p) / capacity)``, one factor per
  constraint (XtraPuLP's product form).

Every constraint has a cap that placement never crosses while some part has room
(:class:`~graphpart.chunked._loads.Loads`); the last nodes, where no part has room for them under
every cap, go where they overflow least, and each cap left exceeded is logged as a warning. The
caps: nodes per balance class (node type, crossed with the values of ``balance_ntypes``) and,
with ``balance_edges``, the in-degree, which is what a partition's edges are under DGL's rule (an
edge goes with its destination). The in-degrees take one extra pass over the edges. Inside a
batch the scores are computed together (no per-node Python loop), so a batch sees the nodes
placed by earlier batches but not each other; nodes no edge reaches are dealt out at the end.

Streaming places a node on first sight, from the few neighbours placed by then: on graphs with
communities it splits them (an SBM of 256 blocks: 69% of edges cut, METIS 26%). Refinement
passes then move nodes by label propagation, one chunk at a time, each to the part holding most
of its neighbours in the chunk where every cap allows, largest gains first (XtraPuLP's refinement
under hard caps; half the nodes may move each pass, alternating, as neighbours moving together
swap parts for ever). Each pass measures the exact cut it starts from; refinement stops at the
first pass that gains under 0.5% and keeps the parts with the lowest cut, so it never ends worse
than streaming (the SBM: 27% after about ten passes; a sparser one with larger blocks, 23% after
eighteen; R-MAT, whose chunks show a node only part of its neighbours, gains nothing and stops
after two). Restreaming from scratch (Nishimura & Ugander) was tried and gained under 1% here:
its fresh loads let the first blocks fill the parts their neighbours chose before, and the rest
scatter under the caps.
"""

from __future__ import annotations

import logging
import math

import numpy as np

from ..errors import GraphpartError
from ..homogeneous import type_offsets
from ..utils.check import check_count, short_repr
from ._eta import Progress
from ._loads import Loads
from .format import ChunkedMetadata
from .read import read_edges

__all__ = [
    "stream_partition",
    "in_degrees",
    "edge_spread",
    "edge_balance",
    "homogeneous_chunks",
    "STREAMING",
    "SPREAD_LIMIT",
]

STREAMING = ("fennel", "ldg")
#: ``balance_edges=None`` balances the in-degree too when :func:`edge_spread` exceeds this.
SPREAD_LIMIT = 1.0
#: Refinement stops when a pass lowers the cut by less than this fraction.
MIN_GAIN = 0.005
logger = logging.getLogger(__name__)


def homogeneous_chunks(meta: ChunkedMetadata):
    """Every edge chunk as ``(src, dst)`` in homogeneous ids (node types in sorted order).

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata; one chunk is read at a time.

    Yields
    ------
    etype : tuple of (str, str, str)
        The chunk's canonical edge type (edge types in sorted order).
    chunk : int
        The chunk's position among that type's chunks.
    src, dst : numpy.ndarray
        The chunk's int64 end ids, in homogeneous ids.
    """
    ntypes = sorted(meta.ntypes)
    offsets = type_offsets([meta.num_nodes[t] for t in ntypes])
    for e in sorted(meta.etypes):
        so, do = offsets[ntypes.index(e[0])], offsets[ntypes.index(e[2])]
        for c in range(len(meta.edges[e].paths)):
            s, d = read_edges(meta, e, c)
            yield e, c, s + so, d + do


def in_degrees(meta: ChunkedMetadata) -> np.ndarray:
    """In-degree of every homogeneous node (types in sorted order), in one pass over the edges.

    Memory: ``8 N`` bytes plus one chunk.

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata.

    Returns
    -------
    numpy.ndarray
        int64, one in-degree per node (all edge types counted).
    """
    n = sum(meta.num_nodes.values())
    deg = np.zeros(n, dtype=np.int64)
    for _, _, _, d in homogeneous_chunks(meta):
        counts = np.bincount(d)  # up to the largest id of the chunk, not n
        deg[: len(counts)] += counts
    return deg


def edge_spread(in_degree: np.ndarray, num_parts: int) -> float:
    """How unevenly a node-balanced assignment may spread the edges: the in-degrees' coefficient
    of variation (standard deviation over mean; 0 for a regular graph, well above 1 for power-law
    graphs such as R-MAT), 0 for one part.

    Parameters
    ----------
    in_degree : numpy.ndarray
        One in-degree per node.
    num_parts : int
        Number of parts; below 2 the answer is 0.

    Returns
    -------
    float
        ``std / mean`` of ``in_degree``; 0.0 for fewer than two parts, no nodes or no edges.

    Examples
    --------
    >>> edge_spread(np.array([2, 2, 2, 2]), 2), round(edge_spread(np.array([0, 0, 0, 8]), 2), 2)
    (0.0, 1.73)
    """
    if num_parts < 2 or not len(in_degree) or not in_degree.any():
        return 0.0
    return float(in_degree.std() / in_degree.mean())


def edge_balance(
    meta: ChunkedMetadata, num_parts: int, balance_edges: bool | None, who: str = "streaming"
) -> np.ndarray | None:
    """The in-degrees to balance (``None``: nodes only): all of them for ``balance_edges=True``,
    none for ``False``; for ``None`` where :func:`edge_spread` exceeds :data:`SPREAD_LIMIT`,
    which is logged as a warning (the user did not ask for it).

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata; unless ``balance_edges`` is False, its edges are read
        once (:func:`in_degrees`).
    num_parts : int
        Number of parts (for :func:`edge_spread`).
    balance_edges : bool or None
        True, False, or None to decide from the spread.
    who : str, default "streaming"
        How the warning names the caller.

    Returns
    -------
    numpy.ndarray or None
        The in-degree of every homogeneous node (types in sorted order), or ``None`` to
        balance nodes only.
    """
    if balance_edges is False:
        return None
    deg = in_degrees(meta)
    spread = edge_spread(deg, num_parts)
    if balance_edges is None:
        if spread <= SPREAD_LIMIT:
            return None
        logger.warning(
            "%s: the in-degrees are spread unevenly (coefficient of variation %.2f > %.1f), so "
            "each part's in-degree (its edges) is balanced too; balance_edges=False "
            "(--no-balance-edges) balances nodes only",
            who,
            spread,
            SPREAD_LIMIT,
        )
    return deg


def _process_chunk(
    state: Loads,
    u: np.ndarray,
    v: np.ndarray,
    batch_size: int,
    refine: int,
) -> None:
    """Place the nodes of one edge chunk not yet placed."""
    a = np.concatenate([u, v])  # undirected: each edge makes both ends neighbours
    b = np.concatenate([v, u])
    mine = state.part[a] < 0
    a, b = a[mine], b[mine]
    new = np.unique(a)
    if not len(new):
        return
    idx = np.searchsorted(new, a)

    def parts_of(nodes: np.ndarray) -> np.ndarray:
        return state.part[nodes]

    # Most informed first: nodes with more already placed neighbours in this chunk go in earlier
    # batches.
    informed = np.bincount(idx[parts_of(b) >= 0], minlength=len(new))
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
            p = parts_of(nb)
            seen = p >= 0
            counts = np.bincount(r[seen] * k + p[seen], minlength=(stop - start) * k).reshape(
                stop - start, k
            )
            if step:
                state.remove(nodes)
            state.place(nodes, counts.astype(np.float64))


def _refine_chunk(state: Loads, u: np.ndarray, v: np.ndarray, step: int) -> int:
    """One label-propagation step over an edge chunk: every node it touches moves to the part
    holding most of its neighbours here, where that beats its own part and every cap allows
    (largest gains first: XtraPuLP's refinement, on one chunk at a time). Returns the moves."""
    if not len(u):  # an empty chunk (more chunks than edges, a graph without edges)
        return 0
    k = state.k
    a = np.concatenate([u, v])
    pb = state.part[np.concatenate([v, u])].astype(np.int64)
    key, count = np.unique(a * k + pb, return_counts=True)
    node, part = key // k, key % k
    first = np.r_[True, node[1:] != node[:-1]]
    start = np.flatnonzero(first)
    # per node: its best part here (most neighbours; ties: its own part) and its own part's count
    own = part == state.part[node]
    score = count * 2 + own  # the own part wins ties
    best_at = np.maximum.reduceat(score, start) if len(start) else score[:0]
    nodes = node[start]
    idx = np.repeat(np.arange(len(nodes)), np.diff(np.r_[start, len(node)]))
    # a node has at most one (node, own part) row: a scatter, not an accumulation
    mine = np.zeros(len(nodes), dtype=np.int64)
    mine[idx[own]] = count[own]
    winner = score == np.repeat(best_at, np.diff(np.r_[start, len(node)]))
    best_part = np.zeros(len(nodes), dtype=np.int64)
    best_part[idx[winner]] = part[winner]
    gain = (best_at // 2) - mine
    # half the nodes each pass (alternating): neighbours moving at once swap parts for ever
    turn = (nodes + step) % 2 == 0
    movers = np.flatnonzero((gain > 0) & (best_part != state.part[nodes]) & turn)
    movers = movers[np.argsort(-gain[movers], kind="stable")]
    moved = 0
    for _ in range(4):  # again with the room the moves out of a part left there
        done = state.move(nodes[movers], best_part[movers])
        if not done:
            break
        moved += done
        movers = movers[state.part[nodes[movers]] != best_part[movers]]
    return moved


def stream_partition(
    meta: ChunkedMetadata,
    num_parts: int,
    algorithm: str = "fennel",
    *,
    classes: np.ndarray | None = None,
    balance_edges: bool | np.ndarray | None = None,
    passes: int = 30,
    slack: float = 0.05,
    gamma: float = 1.5,
    batch_size: int = 64,
    refine: int = 1,
    alpha: float | None = None,
    initial: np.ndarray | None = None,
) -> np.ndarray:
    """Partition of every homogeneous node (types in sorted order), streaming over the edge chunks.

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata; its edge chunks are read once per pass.
    num_parts : int
        Number of parts, at least 1.
    algorithm : {"fennel", "ldg"}, default "fennel"
        The streaming score (see the module docstring).
    classes : ndarray of int, optional
        The balance class of every homogeneous node (e.g. node type x train mask, from
        :func:`~graphpart.chunked.assign.balance_classes_of`); default: its node type.
    balance_edges : bool, numpy.ndarray or None, default None
        Also cap every part's in-degree at ``(1 + slack)`` times the mean. ``None`` turns it on
        when :func:`edge_spread` exceeds :data:`SPREAD_LIMIT` (and logs that it did); an array
        is taken as the in-degrees to balance (:func:`edge_balance`'s answer).
    passes : int, default 30
        At most this many passes over the edges: the streaming pass, then refinement passes
        (label propagation under every cap) until one lowers the cut by less than
        :data:`MIN_GAIN` (0.5%); the parts with the lowest cut are kept. On graphs with
        communities streaming alone cuts far more than METIS (an SBM: 0.69 against 0.26) and
        refinement closes the gap (0.27); on R-MAT it finds nothing and stops after two.
    slack : float, default 0.05
        Each part holds at most ``(1 + slack)`` times its share of every class's nodes (and of
        the in-degree).
    gamma : float, default 1.5
        Fennel's load exponent, above 1.
    batch_size : int, default 64
        Nodes placed together; smaller follows the stream more closely, larger is faster.
    refine : int, default 1
        Extra placement rounds per batch that see the batch's own placements.
    alpha : float, optional
        Fennel's load weight (see the module docstring).
    initial : ndarray of int, optional
        A part for every node to refine instead of a streaming pass (e.g. METIS's on a sample of
        the edges); the refinement passes then move nodes under the same caps.

    Returns
    -------
    numpy.ndarray
        int64, the part (``0 .. num_parts - 1``) of every homogeneous node, node types in
        sorted order.

    Raises
    ------
    GraphpartError
        If ``algorithm`` is not a streaming one, or an argument, ``classes``, the in-degrees
        or ``initial`` is out of range or of the wrong length.

    Examples
    --------
    >>> import tempfile
    >>> from graphpart.chunked import write_chunked, read_metadata
    >>> from graphpart.datasets import rmat
    >>> g = rmat(12, seed=0)
    >>> meta = read_metadata(write_chunked(g, tempfile.mkdtemp() + "/rmat", 4))
    >>> parts = stream_partition(meta, 4, "fennel", balance_edges=True)
    >>> in_degree = np.bincount(parts[g.edges()[1].numpy()], minlength=4)
    >>> bool(np.bincount(parts).max() <= np.ceil(1.05 * g.num_nodes() / 4))
    True
    >>> bool(in_degree.max() <= np.ceil(1.05 * g.num_edges() / 4))
    True
    """
    if algorithm not in STREAMING:
        raise GraphpartError(
            f"streaming algorithm must be one of {STREAMING}, got {short_repr(algorithm)}"
        )
    num_parts = check_count(num_parts, "num_parts", low=1)
    if not slack >= 0 or not gamma > 1 or int(batch_size) < 1 or int(passes) < 1:
        raise GraphpartError(
            "need slack >= 0, gamma > 1, batch_size >= 1 and passes >= 1, got "
            f"{slack}, {gamma}, {batch_size}, {passes}"
        )
    ntypes = sorted(meta.ntypes)
    counts = np.array([meta.num_nodes[t] for t in ntypes], dtype=np.int64)
    n = int(counts.sum())
    if classes is None:
        classes = np.repeat(np.arange(len(ntypes), dtype=np.int32), counts)
    elif len(classes) != n:
        raise GraphpartError(f"classes must have one entry per node ({n}), got {len(classes)}")
    if isinstance(balance_edges, np.ndarray):
        deg = balance_edges
        if len(deg) != n or deg.dtype.kind not in "iu" or (len(deg) and deg.min() < 0):
            raise GraphpartError(
                f"in-degrees: need one non-negative integer per node ({n}), got {len(deg)} "
                f"of {deg.dtype}"
            )
    else:
        deg = edge_balance(meta, num_parts, balance_edges, algorithm)
    m = sum(meta.num_edges.values())
    paper = math.sqrt(num_parts) * max(m, 1) / max(n, 1) ** gamma
    state = Loads(
        classes, deg, num_parts, slack, algorithm, gamma, 0.5 * paper if alpha is None else alpha
    )
    chunks = sum(len(spec.paths) for spec in meta.edges.values())
    if initial is not None:
        initial = np.asarray(initial)
        if len(initial) != n or (n and (initial.min() < 0 or initial.max() >= num_parts)):
            raise GraphpartError(f"initial: need a part in [0, {num_parts}) for each of {n} nodes")
        state.start_from(initial)
    else:
        progress = Progress(f"{algorithm}: streaming pass", chunks)
        for _, _, s, d in homogeneous_chunks(meta):
            _process_chunk(state, s, d, int(batch_size), int(refine))
            progress.advance()
        rest = np.flatnonzero(state.part < 0)
        if len(rest):
            state.fill(rest)
    best, kept = np.inf, None
    for step in range(int(passes) - 1):
        start = (state.part.copy(), state.nload.copy(), state.eload.copy())
        moved = cut = 0
        progress = Progress(f"{algorithm}: refinement pass {step + 1}", chunks)
        for _, _, s, d in homogeneous_chunks(meta):
            cut += int((start[0][s] != start[0][d]).sum())  # the cut as the pass began
            moved += _refine_chunk(state, s, d, step)
            progress.advance()
        logger.info(
            "%s refinement pass %d: cut %d edges before it, %d moves",
            algorithm,
            step + 1,
            cut,
            moved,
        )
        if cut < best:
            best, kept, stale = cut, start, cut >= (1 - MIN_GAIN) * best
        else:
            stale = True
        if stale or not moved:
            break
    else:
        if kept is not None:  # the passes ran out while gaining: measure where the last one ended
            cut = sum(
                int((state.part[s] != state.part[d]).sum())
                for _, _, s, d in homogeneous_chunks(meta)
            )
            if cut < best:
                kept = None
    if kept is not None:  # the parts at the start of the pass with the lowest cut
        state.part[:], state.nload[:], state.eload[:] = kept
    state.warn_over_caps(algorithm)
    return state.part.astype(np.int64)

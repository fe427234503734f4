"""Streaming partitioners for chunked graphs: Fennel and LDG over the edge chunks, balancing nodes
and in-degree.

Memory is linear in the number of nodes (a part, a class and an in-degree per node) plus one edge
chunk: the edges are never held together. Each pass reads every chunk once; the nodes a chunk
reaches first are placed in batches of ``placement_batch``, each node in the part holding most of
its neighbours seen so far, minus a load penalty:

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
after one). A pass whose gain is in doubt (the one before it gained under 2%) is measured by a
pass that only reads, before the next refinement runs: the pass after a stale one would be
undone anyway, so it is not run (the same parts, one refinement pass fewer). Restreaming
from scratch (Nishimura & Ugander) was tried and gained under 1% here: its fresh loads let the
first blocks fill the parts their neighbours chose before, and the rest scatter under the caps.

Several streams (one per Dask worker, :class:`~graphpart.chunked._dask.Runner`) share a pass in
rounds, all seeing the parts and loads as the round began, which the driver then brings up to
date. Placing, each stream takes a chunk of its own; it counts each of its placements as many
times as there are streams (it expects the others to place as many meanwhile), so that together
they fill the parts evenly, and the driver applies their placements in stream order where every
cap still holds (a node two streams placed goes where the first put it; what no cap allows waits
for a later chunk). On R-MAT (2**18 nodes, 16 parts) two streams cut 0.900 against one stream's
0.895, both caps held. Refining, the streams take shares of one chunk's nodes, and the driver
makes their moves together, largest gains first, under the caps: exactly one stream's moves (a
chunk's moves are decided together anyway), whatever the number of streams.
"""

from __future__ import annotations

import logging
import math
import os
import threading
from dataclasses import dataclass

import numpy as np

from ..errors import GraphpartError
from ..homogeneous import type_offsets
from ..index import count_into, unique_int
from ..partitioning.stream_steps import MAX_ALPHA, MAX_GAMMA, MAX_SLACK
from ..utils.check import Options, check_count, check_rate, short_repr
from ._dask import Runner, open_shared, runner
from ._eta import Progress
from ._loads import Loads
from .cluster import ClusterOptions
from .format import ChunkedMetadata
from .read import read_edges

__all__ = ["StreamOptions", "stream_partition", "in_degrees"]

STREAMING = ("fennel", "ldg")


@dataclass(frozen=True)
class StreamOptions(Options):
    """The options of a streaming assignment (Fennel, LDG), declared and checked once:
    :func:`stream_partition` and :func:`~graphpart.chunked.assign` take them, as an object or
    by name (a misspelt name gets the nearest one).

    Attributes
    ----------
    passes : int, default 30
        At most this many passes over the edges: the streaming pass, then refinement passes
        (label propagation under every cap) until one lowers the cut by less than
        :data:`MIN_GAIN` (0.5%); the parts with the lowest cut are kept. On graphs with
        communities streaming alone cuts far more than METIS (an SBM: 0.69 against 0.26) and
        refinement closes the gap (0.27); on R-MAT it finds nothing and stops after one.
    slack : float, default 0.05
        Each part holds at most ``(1 + slack)`` times its share of every class's nodes (and of
        the in-degree, where balanced).
    gamma : float, default 1.5
        Fennel's load exponent, above 1.
    placement_batch : int, default 64
        Nodes placed together; smaller follows the stream more closely, larger is faster.
    refine : int, default 1
        Extra placement rounds per batch that see the batch's own placements.
    alpha : float or None, default None
        Fennel's load weight (see the module docstring); ``None``: half the paper's
        ``sqrt(k) m / n ** gamma``.

    Examples
    --------
    >>> StreamOptions.of(passes=5).passes
    5
    >>> StreamOptions.of(pases=5)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: unknown stream option 'pases' (did you mean passes?); ...
    """

    option_word = "stream option"

    passes: int = 30
    slack: float = 0.05
    gamma: float = 1.5
    placement_batch: int = 64
    refine: int = 1
    alpha: float | None = None

    def __post_init__(self) -> None:
        for name, low in (("passes", 1), ("placement_batch", 1), ("refine", 0)):
            object.__setattr__(self, name, check_count(getattr(self, name), name, low=low))
        slack = check_rate(self.slack, "slack", zero=True)
        if slack > MAX_SLACK:
            raise GraphpartError(f"slack must be at most {MAX_SLACK:g}, got {slack:g}")
        object.__setattr__(self, "slack", slack)
        gamma = check_rate(self.gamma, "gamma")
        if not 1 < gamma <= MAX_GAMMA:  # beyond it a load ** (gamma - 1) overflows
            raise GraphpartError(f"gamma must be above 1 and at most {MAX_GAMMA:g}, got {gamma:g}")
        object.__setattr__(self, "gamma", gamma)
        if self.alpha is not None:
            alpha = check_rate(self.alpha, "alpha")
            if alpha > MAX_ALPHA:
                raise GraphpartError(f"alpha must be at most {MAX_ALPHA:g}, got {alpha:g}")
            object.__setattr__(self, "alpha", alpha)


#: ``balance_edges=None`` balances the in-degree too when :func:`edge_spread` exceeds this.
SPREAD_LIMIT = 1.0
#: Refinement stops when a pass lowers the cut by less than this fraction.
MIN_GAIN = 0.005
#: Rounds whose chunks hold at most this many edges run in the driver, one task after another:
#: a Dask round trip (about 25 ms on two cores) costs more than the streams' parallelism saves.
HERE_EDGES = 1 << 18
logger = logging.getLogger(__name__)


def chunk_keys(meta: ChunkedMetadata) -> list[tuple[tuple[str, str, str], int]]:
    """Every edge chunk as ``(etype, position)``, edge types in sorted order: the order
    :func:`homogeneous_chunks` reads them in."""
    return [(e, c) for e in sorted(meta.etypes) for c in range(len(meta.edges[e].paths))]


def homogeneous_chunk(
    meta: ChunkedMetadata, etype: tuple[str, str, str], chunk: int
) -> tuple[np.ndarray, np.ndarray]:
    """Edge chunk ``chunk`` of ``etype`` as int64 ``(src, dst)`` in homogeneous ids (node types
    in sorted order)."""
    ntypes = sorted(meta.ntypes)
    offsets = type_offsets([meta.num_nodes[t] for t in ntypes])
    s, d = read_edges(meta, etype, chunk)
    return s + offsets[ntypes.index(etype[0])], d + offsets[ntypes.index(etype[2])]


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
    for e, c in chunk_keys(meta):
        yield (e, c, *homogeneous_chunk(meta, e, c))


def _in_degree_task(meta: ChunkedMetadata, keys: list, n: int, dtype: str) -> np.ndarray:
    deg = np.zeros(n, dtype=dtype)
    for key in keys:
        count_into(deg, homogeneous_chunk(meta, *key)[1])  # work of the chunk's size
    return deg


def in_degrees(meta: ChunkedMetadata, run: Runner | None = None) -> np.ndarray:
    """In-degree of every homogeneous node (types in sorted order), in one pass over the edges.

    Memory: ``4 N`` bytes per task plus one chunk (``8 N`` for a task's share of ``2**31`` edges
    or more); where tasks ran, ``4 N`` more here for the sum, made a block at a time.

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph's metadata.
    run : Runner, optional
        Where the pass runs: each of its tasks counts a share of the chunks (default: one task,
        here).

    Returns
    -------
    numpy.ndarray
        int32, one in-degree per node (all edge types counted); int64 where a node has
        ``2**31`` in-edges or more.
    """
    run = run or Runner(None, None, 1)
    n = sum(meta.num_nodes.values())
    keys = chunk_keys(meta)
    groups = [(meta, share, n, _count_dtype(meta, share)) for share in run.shares(keys)]
    counted = run.map(_in_degree_task, groups, "in-degrees")
    if len(counted) == 1 and counted[0].dtype == np.int32:
        return counted[0]
    return _sum_counts(counted, n)


def _count_dtype(meta: ChunkedMetadata, share: list) -> str:
    """int32 for a share of chunks of fewer than ``2**31`` edges (its counts fit), else int64."""
    if all(meta.edges[e].counts for e, _ in share):
        edges = sum(int(meta.edges[e].counts[c]) for e, c in share)
    else:  # chunks of unrecorded size: the whole graph's edges bound the share's
        edges = sum(meta.num_edges.values())
    return "int32" if edges < 2**31 else "int64"


def _sum_counts(counted: list[np.ndarray], n: int) -> np.ndarray:
    """The sum of the tasks' counts, as int32 where every sum fits, a block at a time (a whole
    int64 sum would hold ``8 N`` bytes beside the tasks' arrays)."""
    top = np.iinfo(np.int32).max
    out = np.empty(n, dtype=np.int32)
    for lo in range(0, n, SUM_BLOCK):  # blocks of nodes: a loop of N / 2**22 steps
        total = np.zeros(min(SUM_BLOCK, n - lo), dtype=np.int64)
        for c in counted:
            total += c[lo : lo + len(total)]
        if total.max(initial=0) > top:  # a node with 2**31 in-edges: int64 after all
            wide = np.zeros(n, dtype=np.int64)
            for c in counted:
                wide += c
            return wide
        out[lo : lo + len(total)] = total
    return out


#: :func:`in_degrees` sums the tasks' counts this many nodes at a time.
SUM_BLOCK = 1 << 22


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
    meta: ChunkedMetadata,
    num_parts: int,
    balance_edges: bool | None,
    who: str = "streaming",
    run: Runner | None = None,
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
    run : Runner, optional
        Where the pass over the edges runs (:func:`in_degrees`).

    Returns
    -------
    numpy.ndarray or None
        The in-degree of every homogeneous node (types in sorted order), or ``None`` to
        balance nodes only.
    """
    if balance_edges is False:
        return None
    deg = in_degrees(meta, run)
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
    state: Loads, u: np.ndarray, v: np.ndarray, placement_batch: int, refine: int
) -> None:
    """Place the nodes of one edge chunk not yet placed."""
    a = np.concatenate([u, v])  # undirected: each edge makes both ends neighbours
    b = np.concatenate([v, u])
    mine = state.part[a] < 0
    a, b = a[mine], b[mine]
    new = unique_int(a)
    if not len(new):
        return
    where = np.empty(len(state.part), dtype=np.int64)  # the stream's node ids: a table is quick
    where[new] = np.arange(len(new))
    idx = where[a]

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
    starts = np.arange(0, len(new), placement_batch)
    bounds = np.searchsorted(rank, np.append(starts, len(new)))
    for i, start in enumerate(starts.tolist()):  # a loop over batches, vectorised inside
        stop = min(start + placement_batch, len(new))
        lo, hi = bounds[i], bounds[i + 1]
        r, nb, nodes = rank[lo:hi] - start, b[lo:hi], new[start:stop]
        for step in range(1 + refine):  # refinement: again, now seeing the batch's own placements
            p = parts_of(nb)
            seen = p >= 0
            counts = np.bincount(r[seen] * k + p[seen], minlength=(stop - start) * k).reshape(
                stop - start, k
            )
            if step:
                state.remove(nodes[state.part[nodes] >= 0])  # a share may leave some out
            state.place(nodes, counts.astype(np.float64))


def _move_candidates(
    part: np.ndarray, k: int, a: np.ndarray, b: np.ndarray, step: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One label-propagation step over an edge chunk, given as the neighbours ``b[i]`` of nodes
    ``a[i]`` (both directions of its edges, or a stream's share of its nodes): every node
    ``a`` holds would move to the part holding most of its neighbours here, where that beats
    its own part (XtraPuLP's refinement, on one chunk at a time), ``part`` holding every
    node's part. Returns ``(nodes, to, gain)``; :func:`_move` makes the moves the caps allow."""
    if not len(a):  # an empty chunk (more chunks than edges, a graph without edges)
        return a[:0], a[:0], a[:0]
    pb = np.asarray(part[b], dtype=np.int64)
    key, count = unique_int(a * k + pb, return_counts=True)
    node, part_of = key // k, key % k
    first = np.r_[True, node[1:] != node[:-1]]
    start = np.flatnonzero(first)
    # per node: its best part here (most neighbours; ties: its own part) and its own part's count
    own = part_of == np.asarray(part[node])
    score = count * 2 + own  # the own part wins ties
    best_at = np.maximum.reduceat(score, start) if len(start) else score[:0]
    nodes = node[start]
    idx = np.repeat(np.arange(len(nodes)), np.diff(np.r_[start, len(node)]))
    # a node has at most one (node, own part) row: a scatter, not an accumulation
    mine = np.zeros(len(nodes), dtype=np.int64)
    mine[idx[own]] = count[own]
    winner = score == np.repeat(best_at, np.diff(np.r_[start, len(node)]))
    best_part = np.zeros(len(nodes), dtype=np.int64)
    best_part[idx[winner]] = part_of[winner]
    gain = (best_at // 2) - mine
    # half the nodes each pass (alternating): neighbours moving at once swap parts for ever
    turn = (nodes + step) % 2 == 0
    movers = np.flatnonzero((gain > 0) & (best_part != np.asarray(part[nodes])) & turn)
    return nodes[movers], best_part[movers], gain[movers]


def _move(state: Loads, nodes: np.ndarray, to: np.ndarray, gain: np.ndarray) -> int:
    """Make the moves the caps allow, largest gains first (ties: lower ids), again with the
    room the moves out of a part left there; returns how many moved."""
    order = np.lexsort((nodes, -gain))
    nodes, to = nodes[order], to[order]
    moved = 0
    for _ in range(4):
        done = state.move(nodes, to)
        if not done:
            break
        moved += done
        left = state.part[nodes] != to
        nodes, to = nodes[left], to[left]
    return moved


def _chunk_task(
    meta: ChunkedMetadata, key: tuple, loads: Loads, arrays: tuple, job: tuple
) -> tuple[list, int]:
    """One stream's work on one chunk: place the nodes it reaches first (``job[0] == "place"``)
    or refine it, under the caps as the round began. ``arrays`` are
    the handles of the class, in-degree and part of every node, and the parts as the pass began
    (:func:`~graphpart.chunked._dask.open_shared`). Returns, placing, the nodes it placed,
    their parts and the nodes it left unplaced, or refining, the moves it asks for as
    ``(nodes, to, gain)`` (:func:`_move_candidates`), with the chunk's cut as the pass began."""
    kind, step, placement_batch, refine, streams, (w, ways) = job
    s, d = homogeneous_chunk(meta, *key)
    cls, deg, part, start = (open_shared(a) for a in arrays)
    if kind == "refine":
        lo, hi = len(s) * w // ways, len(s) * (w + 1) // ways  # the cut: a share of the edges
        cut = int((np.asarray(start[s[lo:hi]]) != np.asarray(start[d[lo:hi]])).sum())
        if ways > 1:  # this stream's nodes of the chunk (not by parity: that takes turns)
            ms, md = (s // 2) % ways == w, (d // 2) % ways == w
            a, b = np.concatenate([s[ms], d[md]]), np.concatenate([d[ms], s[md]])
        else:
            a, b = np.concatenate([s, d]), np.concatenate([d, s])
        return _move_candidates(part, loads.k, a, b, step), cut
    nodes = unique_int(np.concatenate([s, d]))
    u, v = _local_ids(nodes, len(part), s, d)
    view = loads.share(nodes, streams, cls, deg, part)
    before = view.part.copy()
    _process_chunk(view, u, v, placement_batch, refine)
    new = np.flatnonzero(view.part != before)
    return (nodes[new], view.part[new], nodes[view.part < 0]), 0


_TABLES = threading.local()


def _local_ids(nodes: np.ndarray, n: int, *ends: np.ndarray) -> list[np.ndarray]:
    """``ends`` renumbered to their place in ``nodes`` (sorted, distinct, below ``n``), by a
    table of ``n`` entries each thread keeps between tasks: only the chunk's entries are
    written, where a new table each task faulted in pages of all ``n`` (work of order ``n`` per
    chunk). Quicker than a search; entries of other nodes are stale and never read."""
    table = getattr(_TABLES, "table", None)
    if table is None or len(table) < n:
        table = _TABLES.table = np.empty(n, dtype=np.int32)
    table[nodes] = np.arange(len(nodes), dtype=np.int32)
    return [table[e] for e in ends]


def _place(state: Loads, results: list, ways: int) -> int:
    """Apply a round's placements, ``(nodes, parts, left unplaced)`` per stream, in stream order;
    returns how many nodes were placed. One stream's go as they are; several streams' where the
    node is still unplaced and every cap holds, and what none placed is then dealt out as one
    stream would have at once (:meth:`Loads.fill`)."""
    if ways == 1:
        for nodes, parts, _ in results:
            state.add(nodes, parts)
        return sum(len(r[0]) for r in results)
    placed = 0
    for nodes, parts, _ in results:
        at = state.part[nodes] < 0
        placed += state.move(nodes[at], parts[at])
    return placed


def _rows(spec, c: int) -> int:
    return int(spec.counts[c]) if spec.counts else HERE_EDGES + 1


def _doubtful(cuts: list[int]) -> bool:
    """Whether the pass that just ended may have gained under :data:`MIN_GAIN`, so its cut is
    worth a pass of its own before the next refinement: unless the pass before it gained four
    times that (gains shrink from pass to pass)."""
    return len(cuts) < 2 or cuts[-2] - cuts[-1] < 4 * MIN_GAIN * cuts[-2]


def _cut_task(meta: ChunkedMetadata, keys: list, part) -> int:
    part = open_shared(part)
    cut = 0
    for key in keys:
        s, d = homogeneous_chunk(meta, *key)
        cut += int((np.asarray(part[s]) != np.asarray(part[d])).sum())
    return cut


def _measured_cut(meta: ChunkedMetadata, run: Runner, part) -> int:
    """The edges whose ends lie in different parts, one pass over the chunks in shares among
    ``run``'s tasks; ``part``: a handle of every node's part (:meth:`Runner.shared`).

    Parameters
    ----------
    meta : ChunkedMetadata
        The chunked graph; its edges are read once.
    run : Runner
        Where the pass runs.
    part : object
        The handle the tasks read the parts by.

    Returns
    -------
    int
        The cut edges (every edge type).
    """
    tasks = [(meta, share, part) for share in run.shares(chunk_keys(meta))]
    return sum(run.map(_cut_task, tasks, "cut"))


def _run_pass(
    state: Loads, meta: ChunkedMetadata, run: Runner, handles: tuple, job: tuple, what: str
) -> tuple[int, int]:
    """One pass over the chunks in rounds of ``run.tasks`` streams, each seeing the parts and
    loads as the round began: placing, each stream takes a chunk of its own; refining, each
    takes a share of one chunk's nodes (the moves a chunk asks for are decided together
    anyway, so the streams' are those one stream would propose). The round's changes are
    then applied in stream order where the node is still where its stream saw it, and where
    every cap still holds (what a later stream placed over a cap stays unplaced for a later
    chunk). One stream's changes are applied as they are. Returns ``(changes, cut as the pass
    began)``."""
    keys = chunk_keys(meta)
    progress = Progress(what, len(keys))
    # rows per chunk where the metadata records them (a chunk of unknown size goes to Dask)
    edges = {(e, c): _rows(meta.edges[e], c) for e, c in keys}
    sent = run.broadcast(meta)  # every chunk's path: sent once, not with each of the tasks
    changes = cut = 0
    ways = run.tasks
    job = (*job, ways)
    step = ways if job[0] == "place" else 1
    for r in range(0, len(keys), step):
        loads = state if run.client is None else state.detached()  # counters, not node arrays
        group = keys[r : r + step]
        # a round of small chunks runs in this process: a Dask round trip (about 25 ms here)
        # costs more than the streams save; the tasks, and so the answer, are the same
        here = max(edges[key] for key in group) <= HERE_EDGES
        ship = meta if here else sent
        if job[0] == "place":
            tasks = [(ship, key, loads, handles, (*job, (0, 1))) for key in group]
        else:  # one task here: the shares' moves are the whole chunk's, read once
            shares = 1 if here else ways
            tasks = [(ship, group[0], loads, handles, (*job, (w, shares))) for w in range(shares)]
        results = run.map(_chunk_task, tasks, what.replace(" ", "-"), here)
        cut += sum(c for _, c in results)
        if job[0] == "refine":  # the streams' shares of one chunk: moved together, as one
            changes += _move(state, *(np.concatenate(x) for x in zip(*(r for r, _ in results))))
        if job[0] == "place":
            changes += _place(state, [r for r, _ in results], ways)
        run.sync(state.part)
        progress.advance(len(group))
    return changes, cut


def stream_partition(
    meta: ChunkedMetadata,
    num_parts: int,
    algorithm: str = "fennel",
    *,
    classes: np.ndarray | None = None,
    balance_edges: bool | np.ndarray | None = None,
    options: StreamOptions | None = None,
    initial: np.ndarray | None = None,
    streams: int | None = None,
    cluster: ClusterOptions | None = None,
    work_dir: str | os.PathLike | None = None,
    **overrides,
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
    options : StreamOptions, optional
        Passes, slack, gamma, batch size, refinement rounds and alpha (:class:`StreamOptions`;
        default: its defaults).
    initial : ndarray of int, optional
        A part for every node to refine instead of a streaming pass (e.g. METIS's on a sample of
        the edges); the refinement passes then move nodes under the same caps.
    streams : int, optional
        How many streams work at once, each on its own chunks: a round gives each stream a
        chunk and an equal share of what every cap leaves, then applies their placements and
        moves in stream order (a node two streams moved goes where the first sent it; moves
        are checked against the caps again). The answer depends on the number of streams, not
        on where they run. Default: the cluster's workers, or 1 without a cluster.
    cluster : ClusterOptions, optional
        The Dask cluster the streams run on, one per worker (they share the parts through
        ``.npy`` files in ``work_dir``). A LocalCluster is only started from 2**22 edges:
        below that its streams run here, one after another, with the same answer.
    work_dir : str or path, optional
        Where the streams' shared files go (a folder every worker reads); default: the system's
        temporary folder. Removed at the end.
    **overrides
        :class:`StreamOptions` fields by name (``passes=5``); they replace those of
        ``options``.

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
    opts = StreamOptions.of(options, **overrides)
    passes, slack, gamma = opts.passes, opts.slack, opts.gamma
    placement_batch, refine, alpha = opts.placement_batch, opts.refine, opts.alpha
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
    if initial is not None:
        initial = np.asarray(initial)
        if len(initial) != n or (n and (initial.min() < 0 or initial.max() >= num_parts)):
            raise GraphpartError(f"initial: need a part in [0, {num_parts}) for each of {n} nodes")
    with runner(cluster, m, work_dir) as run:
        if streams is not None:
            run.tasks = check_count(streams, "streams", low=1)
        try:
            _passes(state, meta, run, initial, int(passes), int(placement_batch), int(refine))
        finally:
            _TABLES.__dict__.pop("table", None)  # this thread's, where tasks ran here
    state.warn_over_caps(algorithm)
    return state.part.astype(np.int64)


def _passes(state: Loads, meta, run: Runner, initial, passes, placement_batch, refine) -> None:
    """The streaming pass (unless ``initial`` gives the parts) and the refinement passes, each in
    rounds of ``run.tasks`` streams; ``state`` ends with the parts of the lowest cut."""
    who = state.algorithm
    part, part_handle = run.shared("part", state.n, state.part.dtype, -1)
    state.part = part
    handles = (run.share("classes", state.cls), None, part_handle, None)
    if state.deg is not None:
        handles = (handles[0], run.share("in-degree", state.deg), part_handle, None)
    if initial is not None:
        state.start_from(initial)
    else:
        _run_pass(
            state, meta, run, handles, ("place", 0, placement_batch, refine), f"{who}: streaming"
        )
        rest = np.flatnonzero(state.part < 0)
        logger.info("%s: %d nodes no chunk placed, dealt out", who, len(rest))
        if len(rest):
            state.fill(rest)
    run.sync(state.part)
    best, kept, cuts = np.inf, None, []
    for step in range(passes - 1):
        start = (np.array(state.part), state.nload.copy(), state.eload.copy())
        measured = step > 0 and _doubtful(cuts)
        if measured:  # where the last pass ended, measured first: a pass that gained too
            # little is undone with the pass after it, so that pass is not run
            cut = _measured_cut(meta, run, part_handle)
            cuts.append(cut)
            if cut >= (1 - MIN_GAIN) * best:  # stale: this pass's moves would be undone
                logger.info("%s refinement pass %d: cut %d edges after it", who, step, cut)
                if cut < best:
                    best, kept = cut, start
                break
        pass_handles = (*handles[:3], run.share("start", start[0]))
        job = ("refine", step, placement_batch, refine)
        moved, cut = _run_pass(
            state, meta, run, pass_handles, job, f"{who}: refinement pass {step + 1}"
        )
        logger.info(
            "%s refinement pass %d: cut %d edges before it, %d moves", who, step + 1, cut, moved
        )
        if not measured:
            cuts.append(cut)
        if cut < best:
            best, kept, stale = cut, start, cut >= (1 - MIN_GAIN) * best
        else:
            stale = True
        if stale or not moved:
            break
    else:
        if kept is not None:  # the passes ran out while gaining: measure where the last one ended
            if _measured_cut(meta, run, part_handle) < best:
                kept = None
    if kept is not None:  # the parts at the start of the pass with the lowest cut
        state.part[:], state.nload[:], state.eload[:] = kept

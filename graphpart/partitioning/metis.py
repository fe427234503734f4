"""METIS assignment: symmetric CSR input, balance constraints, isolated-node fill.

The steps are small private functions: :func:`metis_csr` symmetrises the graph
(drops self-loops and duplicates, which crash METIS; a graph over the edge budget is coarsened
by :mod:`.coarsen` instead, or, without communities to keep, sampled by :mod:`.sample`),
:func:`~graphpart.partitioning.balance.balance_weights`
turns ``balance_ntypes`` / ``balance_edges`` into one column per constraint as
DGL does, and :func:`metis_assignment` runs METIS (through
:mod:`._metis_ctypes`, so that ``ncon > 1`` is honoured) on the nodes that have
neighbours. Isolated nodes cannot change the cut; they are handed out
afterwards to even out every constraint, which lets METIS work on a smaller
graph with a correspondingly looser balance tolerance.

METIS is never asked for a balance no split has (a class with fewer nodes than
parts: :func:`~graphpart.partitioning.repair.achievable_tolerance`), which
makes it give up on every constraint; and what it returns goes through
:func:`~graphpart.partitioning.repair.repair_assignment`, which mends an empty
part or a constraint far outside its tolerance, or says why it cannot.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import scipy.sparse as sp
import torch

from ..errors import GraphpartError
from ..typing import Seed
from ..utils.check import check_count
from ..utils.heap import release
from ..utils.seeds import check_random_state
from ._metis_ctypes import part_graph
from .adjacency import adjacency
from .balance import balance_weights, constraint_names, fill_isolated
from .coarsen import coarsen
from .options import DEFAULT_METIS_MAX_EDGES, DEFAULT_REFINE_ROUNDS, MetisOptions
from .refine import MAX_TABLE_CELLS, refine_assignment
from .repair import held_tolerance, repair_assignment
from .sample import sample_edges

__all__: list[str] = []

logger = logging.getLogger(__name__)
#: Coarsening stops at this many nodes per part (KaMinPar's contraction limit): METIS partitions
#: a graph this small in well under a second, and a coarser one leaves it too few ways to balance.
COARSE_NODES_PER_PART = 2000
#: A cluster may hold this share of a part's nodes (or the balance tolerance's slack if larger: a
#: tighter tolerance, recursive bisection's 0.1%, would leave clusters of a node or two)...
CLUSTER_SHARE = 0.03
#: ... of a part as if there were at most this many parts: with more, small clusters split the
#: communities METIS should see whole (DC-SBM 2^20, blocks of 2048, 32 parts: clusters of at most
#: 983 nodes cut 1.229M in 6.2 s, of 3,932 nodes 1.208M in 4.0 s) ...
CLUSTER_PARTS = 8
#: ... and never more than this share of a part, so that METIS can still balance them.
MAX_CLUSTER_PART_SHARE = 1 / 8
#: METIS on a coarse graph is held to this share of the tolerance when it balances several
#: constraints: asked for the whole tolerance it ends there in every one (DC-SBM 2^20, 8 parts,
#: train mask and in-degrees: all four at 1.030), asked for a third it balances them to 1.01 at the
#: same cut, and the refinement on every node keeps to the tolerance. With one constraint METIS
#: runs both ways and the lower cut is kept: either can cost cut on its own (DC-SBM 2^15, 16 parts:
#: a third 11% more; 2^21, blocks of 16384, 32 parts: the whole tolerance 3% more).
COARSE_TOLERANCE_SHARE = 1 / 3
#: The refinement stops once a round lowers the cut by less than this share of it (a user who asks
#: for many rounds gets the ones that pay: on R-MAT scale 20 the 12th round still gains ~0.05%,
#: the rounds after the 15th less than 0.02%).
REFINE_MIN_GAIN = 2e-4


def metis_csr(
    src: np.ndarray,
    dst: np.ndarray,
    num_nodes: int,
    max_edges: int | None = None,
    seed: Seed = None,
    by_degree: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric CSR ``(xadj, adjncy)`` of a directed edge list, without self-loops or duplicates.

    With ``max_edges``, a graph with more (non-loop) edges keeps a random sample of
    about ``max_edges`` of them (fewer distinct pairs where edges come both ways
    round), which makes METIS several times faster on large graphs. ``by_degree`` makes the sample
    degree-aware: every node keeps about
    the same number of its edges (all of them when it has few), so low-degree
    nodes keep the neighbourhoods that decide where they belong; otherwise the
    sample is uniform.

    Parameters
    ----------
    src, dst : numpy.ndarray of int
        The edges, node ids in ``[0, num_nodes)``; direction, duplicates and self-loops do not
        matter.
    num_nodes : int
        The number of nodes (the CSR has ``num_nodes + 1`` row offsets).
    max_edges : int, optional
        Sample the edges when more than this many are not self-loops
        (:func:`~graphpart.partitioning.sample.sample_edges`); ``None`` keeps all.
    seed : int, numpy.random.Generator or None, default None
        Seeds the sample; unused without one.
    by_degree : bool, default True
        Sample degree-aware rather than uniformly.

    Returns
    -------
    xadj : numpy.ndarray of int64
        Row offsets, ``num_nodes + 1`` of them: node ``u``'s neighbours are
        ``adjncy[xadj[u]:xadj[u + 1]]``.
    adjncy : numpy.ndarray of int64
        The neighbours of each node, sorted, each pair of nodes listed once each way.

    Examples
    --------
    >>> xadj, adjncy = metis_csr(np.array([0, 0, 1, 2]), np.array([1, 1, 1, 0]), 3)
    >>> xadj.tolist(), adjncy.tolist()
    ([0, 2, 3, 4], [1, 2, 0, 0])
    """
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    keep = src != dst
    if max_edges is not None and np.count_nonzero(keep) > max_edges:
        keep = sample_edges(src, dst, num_nodes, max_edges, by_degree, check_random_state(seed))
        logger.info("METIS input sampled to %d of %d edges", int(keep.sum()), len(src))
    if keep.all():
        lo, hi = np.minimum(src, dst), np.maximum(src, dst)
    else:
        s, d = src[keep], dst[keep]
        lo, hi = np.minimum(s, d), np.maximum(s, d)
        del s, d
    del keep
    key = np.concatenate([lo * num_nodes + hi, hi * num_nodes + lo])
    del lo, hi
    key = torch.sort(torch.from_numpy(key)).values.numpy()  # torch sorts with both cores
    if len(key):
        first = np.empty(len(key), dtype=bool)
        first[0] = True
        np.not_equal(key[1:], key[:-1], out=first[1:])
        key = key[first]
    rows = key // num_nodes
    adjncy = key - rows * num_nodes
    xadj = np.zeros(num_nodes + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=num_nodes), out=xadj[1:])
    return xadj, adjncy


def metis_assignment(
    src: np.ndarray,
    dst: np.ndarray,
    num_nodes: int,
    num_parts: int,
    *,
    balance_ntypes: np.ndarray | None = None,
    balance_edges: bool = False,
    objtype: str | None = None,
    recursive: bool = False,
    options: MetisOptions | None = None,
    ubvec: np.ndarray | None = None,
    max_edges: int | None = None,
    seed: Seed = None,
    refine_rounds: int = DEFAULT_REFINE_ROUNDS,
    in_degrees: np.ndarray | None = None,
    balance_labels: Sequence[str] | None = None,
    spread_isolated: bool = False,
) -> np.ndarray:
    """Assign each node of a (homogeneous, directed) edge list to one of ``num_parts`` parts.

    Parameters
    ----------
    src, dst : ndarray of int
        The edges; direction, duplicates and self-loops do not matter to METIS.
    num_nodes : int
        Nodes of the graph (ids ``0 .. num_nodes - 1``).
    num_parts : int
        Parts to split them into.
    balance_ntypes : ndarray, optional
        One value per node; each distinct value becomes a balance constraint.
    balance_edges : bool
        Also balance the in-degrees (per class when ``balance_ntypes`` is given).
    objtype : {"cut", "vol"}, optional
        Minimise the edge cut (default) or the communication volume.
    recursive : bool
        Recursive bisection instead of k-way.
    options : MetisOptions, optional
        Speed and quality knobs (``niter``, ``ncuts``, ``ufactor``, ...).
    ubvec : ndarray, optional
        Allowed imbalance per constraint (e.g. ``[1.05, 1.1]``); defaults to
        ``1 + ufactor / 1000`` for every constraint.
    max_edges : int, optional
        The most edges METIS sees (``None``: all). A graph with more is coarsened first
        (:func:`~graphpart.partitioning.coarsen.coarsen`: clusters of neighbours of up to 3% of a
        part's nodes with up to 8 parts, 3% of an eighth of the graph or an eighth of a part with
        more, which keep communities) and METIS partitions the clusters' graph, every
        constraint's weights summed (several constraints held to a third of the tolerance, one
        both ways: :data:`COARSE_TOLERANCE_SHARE`). A graph whose
        first clusters hold almost none of its edges (R-MAT) gives METIS a random sample of them
        instead: degree-aware with ``balance_edges``, else uniform
        (:func:`~graphpart.partitioning.sample.sample_edges`); METIS then refines for one
        iteration only (unless ``options.niter`` says otherwise).
    seed : int, Generator or None
        Seeds the coarsening or the sample, METIS, the isolated-node fill and the refinement.
    refine_rounds : int
        When METIS saw a coarsened graph or a sample (``max_edges``), rounds of refinement on
        *every* edge afterwards (:func:`~graphpart.partitioning.refine.refine_assignment`: moves
        that lower the cut while every part stays within the same tolerance). 0 turns it off.
    in_degrees : ndarray, optional
        The in-degrees ``balance_edges`` balances (default: counted from ``dst``; a subgraph's
        caller passes those of the whole graph).
    balance_labels : sequence of str, optional
        A name for each value of ``balance_ntypes`` (value ``v`` is ``balance_labels[v]``), for
        messages about the constraints.
    spread_isolated : bool
        Deal the nodes without edges out evenly, class by class, and hold the others to the
        tolerance on their own (trainers: an isolated seed is a step's worth of work too). By
        default they fill the parts up, and METIS gets the slack they leave (a lower cut).

    Returns
    -------
    ndarray of int
        The part of every node. No part is empty, and every constraint is within its tolerance
        (``ubvec``, loosened where no split can meet it:
        :func:`~graphpart.partitioning.repair.achievable_tolerance`, with a warning naming the
        constraint) or at most a little outside it: METIS's result, repaired where it is far
        outside (:func:`~graphpart.partitioning.repair.repair_assignment`, which holds what it
        cannot meet as well as possible and says so in a
        :class:`~graphpart.errors.BalanceWarning`).

    Examples
    --------
    >>> src = np.array([0, 1, 2, 3, 4, 5, 0]); dst = np.array([1, 2, 0, 4, 5, 3, 3])
    >>> part = metis_assignment(src, dst, 6, 2, seed=0)
    >>> sorted(np.bincount(part).tolist()), len(set(part[:3])), len(set(part[3:]))
    ([3, 3], 1, 1)
    """
    if num_parts > num_nodes:
        fewer = f"num_parts <= {num_nodes} or " if num_nodes else ""
        raise GraphpartError(
            f"METIS cannot split {num_nodes} nodes into {num_parts} parts; use {fewer}"
            "part_method='random'"
        )
    if max_edges is not None:
        max_edges = check_count(max_edges, "max_edges (the edges METIS may see; None for all)")
    refine_rounds = check_count(refine_rounds, "refine_rounds")
    rng = check_random_state(seed)
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    sampled = (
        max_edges is not None and int(np.count_nonzero(src != dst)) > max_edges
    )  # as metis_csr decides
    refine = refine_rounds > 0 and sampled
    if refine and num_nodes * num_parts > MAX_TABLE_CELLS:
        # refinement holds a dense (nodes x parts) count table: skip it where that would not fit
        # easily
        logger.warning(
            "skipping refinement: %d nodes x %d parts exceeds its table budget",
            num_nodes,
            num_parts,
        )
        refine = False
    options = options or MetisOptions()
    metis_seed = int(rng.integers(1 << 30))
    in_deg = None
    if balance_edges:
        in_deg = np.bincount(dst, minlength=num_nodes) if in_degrees is None else in_degrees
    vwgt, cls, tol, names = _constraints(
        num_nodes,
        num_parts,
        balance_ntypes,
        balance_edges,
        in_deg,
        options,
        recursive,
        ubvec,
        balance_labels,
    )
    part = None
    if sampled:
        part = _coarse_part(
            adjacency(src, dst, num_nodes),
            vwgt,
            num_parts,
            tol,
            max_edges,
            rng,
            options=options,
            recursive=recursive,
            objtype=objtype or "cut",
            spread_isolated=spread_isolated,
            metis_seed=metis_seed,
        )
    if part is None:
        if refine and options.niter is None:
            options = replace(options, niter=1)  # the refinement on every edge does this job better
        # With in-degrees balanced, every part takes a share of the hubs and the low-degree nodes
        # must follow theirs: a degree-aware sample keeps their edges. Without, a uniform sample
        # leaves most low-degree nodes out, and METIS keeps the dense core together in fewer parts.
        xadj, adjncy = metis_csr(src, dst, num_nodes, max_edges, seed=rng, by_degree=balance_edges)
        part = _metis_connected(
            xadj,
            adjncy,
            num_parts,
            vwgt,
            tol,
            options,
            recursive,
            scale=not spread_isolated,
            objtype=objtype or "cut",
            seed=metis_seed,
        )
        del xadj, adjncy
    fill_isolated(part, np.flatnonzero(part < 0), cls, num_parts, rng, spread=spread_isolated)
    release()  # the coarsening's freed arrays, before the refinement's tables
    if refine:
        part = refine_assignment(
            src,
            dst,
            part,
            num_parts,
            vwgt,
            cls,
            tol,
            rng,
            rounds=refine_rounds,
            min_gain=REFINE_MIN_GAIN,
        )
    return repair_assignment(src, dst, part, num_parts, vwgt, cls, tol, rng, names)


def _constraints(
    num_nodes: int,
    num_parts: int,
    balance_ntypes: np.ndarray | None,
    balance_edges: bool,
    in_deg: np.ndarray | None,
    options: MetisOptions,
    recursive: bool,
    ubvec: np.ndarray | None,
    balance_labels: Sequence[str] | None,
):
    """The balance constraints of :func:`metis_assignment`: the weights, each node's class, the
    tolerance held (loosened where no split meets it) and a function naming the constraints."""
    vwgt, cls = balance_weights(num_nodes, balance_ntypes, balance_edges, in_deg)
    ncon = 1 if vwgt is None else vwgt.shape[1]
    default_ub = (
        1.0 + (options.ufactor if options.ufactor is not None else (1 if recursive else 30)) / 1000
    )
    ub = (
        np.full(ncon, default_ub)
        if ubvec is None
        else np.asarray(ubvec, dtype=np.float64).reshape(-1)
    )
    if ub.shape != (ncon,) or np.any(ub <= 1.0):
        raise GraphpartError(
            f"ubvec must hold {ncon} tolerance(s) > 1.0, one per constraint, got {ub.tolist()}"
        )

    def names() -> list[str]:
        return constraint_names(balance_ntypes, balance_edges, balance_labels)

    # inherent imbalance (fewer units than parts, ...) is accepted, with a word
    return vwgt, cls, held_tolerance(vwgt, num_nodes, num_parts, ub, names), names


def coarse_assignment(
    adj: sp.csr_matrix,
    num_parts: int,
    *,
    balance_ntypes: np.ndarray | None = None,
    balance_edges: bool = False,
    in_degrees: np.ndarray | None = None,
    max_edges: int = DEFAULT_METIS_MAX_EDGES,
    seed: Seed = None,
) -> np.ndarray | None:
    """METIS on a graph coarsened to at most ``max_edges`` edges, given its adjacency: the route
    :func:`metis_assignment` takes beyond ``max_edges``, for a caller that built the adjacency
    itself (out of core: :func:`~graphpart.partitioning.adjacency.stream_adjacency`) and refines
    on its own.

    Returns the part of every node (the nodes without edges dealt out to fill the parts up), or
    ``None`` where the graph has no communities to keep (R-MAT): a sample serves it as well.

    Examples
    --------
    >>> from graphpart.datasets import dcsbm
    >>> from graphpart.partitioning.adjacency import adjacency
    >>> g = dcsbm(14, community_size=512, mixing=0.05, seed=0)
    >>> s, d = (t.numpy() for t in g.edges())
    >>> part = coarse_assignment(adjacency(s, d, g.num_nodes()), 4, max_edges=10_000, seed=0)
    >>> balanced = bool(np.bincount(part).max() <= 1.03 * len(part) / 4)
    >>> balanced, float(np.mean(part[s] != part[d])) < 0.1
    (True, True)
    """
    n = adj.shape[0]
    rng = check_random_state(seed)
    options = MetisOptions()
    metis_seed = int(rng.integers(1 << 30))
    in_deg = in_degrees if balance_edges else None
    vwgt, cls, tol, _ = _constraints(
        n, num_parts, balance_ntypes, balance_edges, in_deg, options, False, None, None
    )
    part = _coarse_part(adj, vwgt, num_parts, tol, max_edges, rng, options, metis_seed=metis_seed)
    if part is not None:
        fill_isolated(part, np.flatnonzero(part < 0), cls, num_parts, rng, spread=False)
    return part


def _coarse_part(
    adj: sp.csr_matrix,
    vwgt: np.ndarray | None,
    num_parts: int,
    tol: np.ndarray,
    max_edges: int,
    rng: np.random.Generator,
    options: MetisOptions,
    recursive: bool = False,
    objtype: str = "cut",
    spread_isolated: bool = False,
    metis_seed: int | None = None,
) -> np.ndarray | None:
    """METIS on the coarsened graph, the part of every node (-1: no edges), or ``None`` where the
    probe finds no communities."""
    num_nodes = adj.shape[0]
    w = np.ones((num_nodes, 1)) if vwgt is None else vwgt
    size = min(
        max(float(tol.max()) - 1.0, CLUSTER_SHARE) * num_nodes / min(num_parts, CLUSTER_PARTS),
        MAX_CLUSTER_PART_SHARE * num_nodes / num_parts,
    )
    hierarchy = coarsen(
        adj, w, max(size, 1.0), max_edges, rng, min_nodes=COARSE_NODES_PER_PART * num_parts
    )
    if hierarchy is None:
        return None
    node_of = hierarchy.node_of
    kept = np.zeros(hierarchy.graph.shape[0], dtype=bool)
    kept[node_of[np.diff(adj.indptr) > 0]] = True  # clusters of nodes with edges
    coarse = hierarchy.graph
    rows = np.repeat(np.arange(coarse.shape[0]), np.diff(coarse.indptr))
    best = None
    # several constraints: a third of the tolerance; one: both ways, the lower cut kept
    for share in (COARSE_TOLERANCE_SHARE,) if len(tol) > 1 else (COARSE_TOLERANCE_SHARE, 1):
        tried = _metis_connected(
            coarse.indptr,
            coarse.indices,
            num_parts,
            np.rint(hierarchy.weights).astype(np.int64),
            1 + (tol - 1) * share,
            options,
            recursive,
            scale=not spread_isolated,
            objtype=objtype,
            seed=metis_seed,
            adjwgt=np.rint(coarse.data).astype(np.int64),
            kept=kept,
        )
        cut = float(coarse.data[tried[rows] != tried[coarse.indices]].sum())
        if best is None or cut < best[0]:
            best = (cut, tried)
    return best[1][node_of]


def _metis_connected(
    xadj: np.ndarray,
    adjncy: np.ndarray,
    num_parts: int,
    vwgt: np.ndarray | None,
    ub: np.ndarray,
    options: MetisOptions,
    recursive: bool,
    scale: bool = True,
    objtype: str = "cut",
    seed: int | None = None,
    adjwgt: np.ndarray | None = None,
    kept: np.ndarray | None = None,
) -> np.ndarray:
    """METIS on the nodes that have neighbours (or those ``kept``: a superset of them, as the
    clusters of a coarse graph that hold a whole component); the others are left at -1. With
    ``scale`` the tolerance is widened by the weight the others will add (they fill the parts
    up)."""
    num_nodes = len(xadj) - 1
    part = np.full(num_nodes, -1, dtype=np.int64)
    degree = np.diff(xadj)
    kept = degree > 0 if kept is None else kept
    connected = np.flatnonzero(kept)
    if not len(connected):
        return part
    if len(connected) < num_nodes:  # renumber the nodes METIS sees 0..c-1 (the others: no edges)
        new_id = np.cumsum(kept) - 1
        xadj = np.concatenate([[0], xadj[1:][connected]])
        adjncy = new_id[adjncy]
    w = np.ones((num_nodes, 1), dtype=np.int64) if vwgt is None else vwgt
    total, inside = w.sum(axis=0), w[connected].sum(axis=0)
    used = inside > 0
    # The isolated nodes fill the parts up afterwards, so a part may hold up to
    # ub * total / k of the connected weight: scale the tolerance accordingly.
    scaled = ub[used] * total[used] / inside[used] if scale else ub[used]
    sub_w = None if vwgt is None else np.ascontiguousarray(vwgt[connected][:, used])
    logger.info(
        "METIS: %d nodes, %d edges, %d parts, %d constraint(s)",
        len(connected),
        len(adjncy) // 2,
        num_parts,
        int(used.sum()),
    )
    _, part[connected] = part_graph(
        xadj,
        adjncy,
        num_parts,
        vwgt=sub_w,
        adjwgt=adjwgt,
        ubvec=scaled,
        options=options,
        recursive=recursive,
        objtype=objtype,
        seed=seed,
    )
    return part

"""The feature cache as a graph to point at: the latest mini-batch's sample, seeds in the
middle and each hop a ring further out, every node coloured by where its feature row came from
(the GPU cache, the trainer's own partition, a HALO copy where the session's rule keeps their
rows -- DGL's does not -- or a remote machine); hovering a node tells why the cache did or did not
hold it.

Computed from a :class:`~graphpart.features.LookupSession` and the partitioning; the
:class:`~graphpart.widgets.CacheSimulator` only draws it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ..index import group_order, group_rank
from ..lookup import node_keys
from ..palette import SERVED_COLORS
from ..utils.check import check_count, short_repr
from .graph import GraphData

if TYPE_CHECKING:  # pragma: no cover
    from ..features.session import LookupSession
    from ..partitioning.core import Partitioning

__all__ = ["batch_view_data"]

#: The seeds of the latest batch a view follows (their sample fans out: 10, 5 -> ~60 each).
MAX_SEEDS = 12
_SAMPLED_EDGE = "#c8c8c8"


def batch_view_data(
    p: Partitioning, session: LookupSession, policy: str, *, max_seeds: int = MAX_SEEDS
) -> GraphData:
    """The sample of the session's latest mini-batch (its first ``max_seeds`` seeds and what
    they reached), each node coloured by where ``policy``'s lookup of its row was served.

    Without a trainer (``session.locality`` is ``None``) a row is either in the GPU cache or
    copied from host memory. The card of each node says its hop, what it was sampled from,
    where its row came from and why the cache held it or not: a static order's score and rank
    against the cache's capacity, or when a dynamic cache last saw it.

    Parameters
    ----------
    p : Partitioning
        A partitioning of the graph the session samples: it gives each node's key and owner.
    session : LookupSession
        The session whose latest mini-batch is drawn.
    policy : str
        One of the session's policies (a key of ``session.caches``).
    max_seeds : int, default MAX_SEEDS
        How many of the batch's first seeds are drawn, with what they reached; at least 1.

    Returns
    -------
    GraphData
        Nodes keyed as by :func:`~graphpart.views.graph.node_keys`, seeds on a small circle
        and each hop on the next ring out, ``owner`` where the row was served (a key of
        :data:`SERVED_COLORS`); edges are the sampled edges between drawn nodes. Before the
        session's first step, no nodes and a title that says so.

    Raises
    ------
    GraphpartError
        When ``policy`` is not one the session runs, or ``max_seeds`` is below 1.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.features import LookupSession
    >>> from graphpart.sampling import Topology
    >>> g = load_karate_club()
    >>> p = gp.partition(g, 2, num_hops=1, seed=0)
    >>> s = LookupSession(Topology.from_graph(g), [3, 2], policies=["in-degree"],
    ...                   cache_ratio=0.1, batch_size=4, partitioning=p, part_id=0, seed=0)
    >>> _ = s.step()
    >>> d = batch_view_data(p, s, "in-degree")
    >>> sorted({a["kind"] for a in d.nodes.values()})[:2]
    ['hop 0 (seed)', 'hop 1']
    >>> d.title.startswith("trainer of part 0, batch 1: 4 seeds")
    True
    """
    if policy not in session.caches:
        raise GraphpartError(
            f"policy must be one the session runs ({sorted(session.caches)}), got "
            f"{short_repr(policy)}"
        )
    max_seeds = check_count(max_seeds, "max_seeds", 1)
    last = session.last
    who = "all training nodes" if session.part_id is None else f"trainer of part {session.part_id}"
    if last is None:
        return GraphData({}, [], {}, f"{who}: no mini-batch yet (press Step)")
    mb = last.sample
    ids = np.asarray(mb.input_nodes, dtype=np.int64)
    nodes, hop, parent, src, dst = _follow(mb, max_seeds)
    # each drawn node's place among the batch's looked-up rows
    at = np.argsort(ids, kind="stable")
    pos = at[np.searchsorted(ids[at], nodes)]
    hit = np.asarray(last.hit[policy], dtype=bool)[pos]
    served = _served(session, nodes, hit)
    x, y = _radial(hop, parent, nodes)
    keys = np.asarray(node_keys(p), dtype=object)
    owner = np.asarray(p.node_part, dtype=np.int64)[nodes]
    text = _cards(session, policy, last, keys, nodes, hop, parent, pos, hit, served, owner)
    # a seed of the batch beyond the drawn ones, reached from a drawn seed: drawn where it was
    # reached, its card says it is a seed too
    also = (hop > 0) & np.isin(nodes, np.asarray(mb.seeds, dtype=np.int64))
    text = [t.replace(" | row from:", " (also a seed of this batch) | row from:", 1) if a else t
            for t, a in zip(text, also.tolist())]  # fmt: skip
    degree = np.bincount(
        np.searchsorted(nodes, np.concatenate([src, dst])) if len(src) else [], minlength=len(nodes)
    )
    s = lambda a: np.asarray(a).astype(str).astype(object)  # noqa: E731
    kinds = np.where(hop == 0, "hop 0 (seed)", "hop " + s(hop))
    out = {}
    for i, key in enumerate(keys[nodes].tolist()):
        out[key] = {
            "x": float(x[i]),
            "y": float(y[i]),
            "owner": served[i],
            "kind": kinds[i],
            "homogeneous id": int(nodes[i]),
            "sample hop": int(hop[i]),
            "owner partition": int(owner[i]),
            "degree": int(degree[i]),
            "label": text[i],
        }
    edges = [
        (a, b, {"color": _SAMPLED_EDGE})
        for a, b in zip(keys[src].tolist(), keys[dst].tolist())
        if a != b
    ]
    palette = {k: SERVED_COLORS[k] for k in SERVED_COLORS if k in set(served)}
    title = (
        f"{who}, batch {last.index + 1}: {min(max_seeds, len(mb.seeds))} seeds of "
        f"{len(mb.seeds):,} and the {len(nodes) - min(max_seeds, len(mb.seeds)):,} nodes their "
        f"sample reached, by where {policy} served each row"
    )
    note = "grey lines: the sampled edges (a node's neighbour -> the node)"
    return GraphData(out, edges, palette, title, edge_note=note)


def _follow(mb, max_seeds: int):
    """The first ``max_seeds`` seeds and every node their sample reached, hop by hop: the
    nodes (sorted), each one's first hop and the node that first sampled it, and the sampled
    edges among them (neighbour -> node)."""
    first = np.asarray(mb.seeds[:max_seeds], dtype=np.int64)
    nodes, hop, parent = [first], [np.zeros(len(first), np.int64)], [np.full(len(first), -1)]
    drawn = first
    src, dst = [], []
    for h, (nbr, node, _) in enumerate(mb.edges, start=1):
        nbr, node = np.asarray(nbr, dtype=np.int64), np.asarray(node, dtype=np.int64)
        keep = np.isin(node, drawn)
        nbr, node = nbr[keep], node[keep]
        src.append(nbr)
        dst.append(node)
        fresh = ~np.isin(nbr, drawn)
        new, where = np.unique(nbr[fresh], return_index=True)
        nodes.append(new)
        hop.append(np.full(len(new), h))
        parent.append(node[fresh][where])
        drawn = np.concatenate([drawn, new])
    nodes, hop, parent = np.concatenate(nodes), np.concatenate(hop), np.concatenate(parent)
    order = np.argsort(nodes, kind="stable")
    src = np.concatenate(src) if src else np.zeros(0, np.int64)
    dst = np.concatenate(dst) if dst else np.zeros(0, np.int64)
    return nodes[order], hop[order], parent[order], src, dst


def _radial(hop: np.ndarray, parent: np.ndarray, nodes: np.ndarray):
    """Seeds on a circle, each hop on the next ring out, every node in its own slice of the
    slice of the node that sampled it (a radial tree: sampled edges stay short)."""
    n = len(nodes)
    start, width = np.zeros(n), np.zeros(n)
    seeds = np.flatnonzero(hop == 0)
    width[seeds] = 2 * np.pi / max(len(seeds), 1)
    start[seeds] = np.arange(len(seeds)) * width[seeds]
    for h in range(1, int(hop.max(initial=0)) + 1):
        mine = np.flatnonzero(hop == h)
        up = np.searchsorted(nodes, parent[mine])  # the parent's row
        order, counts = group_order(up, n)
        rank = group_rank(order, counts)
        width[mine] = width[up] / counts[up]
        start[mine] = start[up] + rank * width[mine]
    angle, radius = start + width / 2, hop + 0.35  # the seeds on a small circle
    return radius * np.cos(angle), radius * np.sin(angle)


def _served(session, nodes: np.ndarray, hit: np.ndarray) -> np.ndarray:
    """Where each row came from: the GPU cache, else the trainer's partition, its HALO copy
    (where the session's rule keeps HALO rows), a remote machine; with no trainer, host
    memory."""
    from ..features.locality import keeps_halo_rows

    out = np.where(hit, "GPU cache", "host memory").astype(object)
    if session.locality is not None:
        loc = np.asarray(session.locality, dtype=np.int64)[nodes]
        halo = "HALO copy" if keeps_halo_rows(session.rule) else "remote machine"
        names = np.array(["own partition", halo, "remote machine"], dtype=object)
        out = np.where(hit, "GPU cache", names[loc]).astype(object)
    return out


def _cards(session, policy, last, keys, nodes, hop, parent, pos, hit, served, owner):
    """Each node's hover card (lines joined by `` | ``): hop and sampler, where the row came
    from, why the cache held it or not, owner."""
    s = lambda a: np.asarray(a).astype(str).astype(object)  # noqa: E731
    cap = session.capacity
    via = np.where(parent >= 0, " (sampled by node " + keys[np.maximum(parent, 0)] + ")", "")
    head = "node " + keys[nodes] + " | " + np.where(hop == 0, "seed", "hop " + s(hop)) + via
    row = " | row from: " + served.astype(object)
    reason = session.reasons.get(policy)
    if reason is not None:
        rank = np.asarray(reason.rank, dtype=np.int64)[nodes]
        score = (
            ""
            if reason.score is None
            else reason.score_name + " " + s(np.asarray(reason.score)[nodes]) + ", "
        )
        by = "in a random order" if reason.score is None else f"by {reason.score_name}"
        why = (
            " | " + np.where(hit, "cached: ", "not cached: ").astype(object) + score + "rank "
            + s([f"{r + 1:,}" for r in rank.tolist()])
            + f" of {session.topo.num_nodes:,} {by} | the cache keeps the top {cap:,}"
        )  # fmt: skip
    else:
        seen = np.asarray(last.seen_before, dtype=np.int64)[pos]
        kept = np.asarray(last.admitted_before[policy], dtype=np.int64)[pos]
        now = np.asarray(last.admitted[policy], dtype=bool)[pos]
        batch = lambda a: s([f"batch {b + 1}" for b in a.tolist()])  # noqa: E731
        why = np.where(
            hit,
            " | cached: admitted in " + batch(kept) + ", kept since by " + policy,
            np.where(
                kept >= 0,
                " | not cached: admitted in " + batch(kept) + " | evicted since by " + policy,
                np.where(
                    seen >= 0,
                    " | not cached: looked up in " + batch(seen) + ", not admitted then",
                    " | not cached: its first lookup",
                ),
            ),
        ).astype(object)
        full = "holds no rows" if cap == 0 else f"admits the batch's last {cap:,} misses only"
        why = why + np.where(
            hit, "", np.where(now, f" | {policy} admits it now", f" | not admitted now: it {full}")
        ).astype(object)
    return (head + row + why + " | owner: part " + s(owner)).tolist()

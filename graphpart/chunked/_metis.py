"""``assign --algorithm metis``: METIS on every edge where it holds them within its process's
budget (:func:`~graphpart.utils.memory.process_budget`: 8 GB at most, within what is free past
the headroom and the refinement's workers), else on the graph coarsened out of core, else on a
sample; every route but the first refined over every edge.

Coarsened (the default beyond the budget): the symmetric adjacency is built from the chunks in
two passes (:func:`~graphpart.partitioning.adjacency.stream_adjacency`, 8 bytes per entry), then
clustered and contracted as in memory and partitioned by METIS
(:func:`~graphpart.partitioning.metis.coarse_assignment`); refinement passes of
:func:`~graphpart.chunked.stream.stream_partition` (label propagation under hard caps) follow
on the cluster's workers. A DC-SBM of 16.8M nodes and 252M edges so cuts 1.003x what METIS cuts
on every edge of the same model at 2M nodes, its main process at 5.3 GiB.

Sampled (a graph whose first clusters keep almost none of its edges, R-MAT; or one whose
adjacency leaves coarsening over the budget): a first pass counts each node's degree (in and
out, self-loops apart) and its in-degree, and keeps a probe of about 2^17 evenly spaced edges; a
second pass keeps each edge with the degree-aware shares of
:func:`~graphpart.partitioning.sample.sample_edges` (each node keeps about the same number of its
edges). On a graph with communities a sample loses them: a quarter of the edges cut 1.07x, a
fifth 1.17x what METIS cuts on every edge.

Memory (:mod:`~graphpart.chunked.metis_memory`): every edge ``B + 96 N + 300 E``; coarsened
``B + 150 MB + max(16 N + 24 E + 48 C, 76 N + 24 A)`` for ``A`` adjacency entries; a sample of
``M`` edges ``B + 96 N + 300 M``; each is checked before it starts.
"""

from __future__ import annotations

import logging

import numpy as np

from ..index import count_into
from ..partitioning.adjacency import stream_adjacency
from ..partitioning.metis import coarse_assignment, metis_assignment
from ..partitioning.sample import keep_shares
from ..typing import Seed
from ..utils import memory
from ..utils.check import check_count
from ..utils.memory import check_memory, process_budget, usable_memory
from ..utils.seeds import check_random_state
from ..utils.units import fmt_bytes
from . import metis_memory, plan
from .format import ChunkedMetadata
from .read import homogeneous_edges
from .stream import homogeneous_chunks, in_degrees, stream_partition

__all__ = ["sample_chunks", "sampled_metis", "coarse_chunked", "metis_chunked"]

logger = logging.getLogger(__name__)

_PROBE = 1 << 17


def sample_chunks(
    meta: ChunkedMetadata, max_edges: int, by_degree: bool, seed: Seed = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """About ``max_edges`` edges of the chunked graph (homogeneous ids; self-loops left out),
    drawn chunk by chunk, and every node's in-degree; two passes over the edges.

    Examples
    --------
    >>> import tempfile
    >>> from graphpart.chunked import write_chunked, read_metadata
    >>> from graphpart.datasets import rmat
    >>> meta = read_metadata(write_chunked(rmat(12, seed=0), tempfile.mkdtemp() + "/g", 4))
    >>> s, d, indeg = sample_chunks(meta, 10_000, True, seed=0)
    >>> 8_000 < len(s) < 12_000, int(indeg.sum()) == sum(meta.num_edges.values())
    (True, True)
    """
    rng = check_random_state(seed)
    n = sum(meta.num_nodes.values())
    m = sum(meta.num_edges.values())
    deg = np.zeros(n, dtype=np.int64)
    indeg = np.zeros(n, dtype=np.int64)
    step = max(1, m >> 17)
    probe_s, probe_d, loops, seen = [], [], 0, 0
    for _, _, s, d in homogeneous_chunks(meta):
        real = s != d
        loops += len(s) - int(real.sum())
        count_into(deg, s[real])
        count_into(deg, d[real])
        count_into(indeg, d)
        at = np.arange((-seen) % step, len(s), step)  # every step-th edge of the whole stream
        probe_s.append(s[at][real[at]])
        probe_d.append(d[at][real[at]])
        seen += len(s)
    num_real = m - loops
    if by_degree and num_real:
        ps, pd = np.concatenate(probe_s), np.concatenate(probe_d)
        share = keep_shares(deg, ps, pd, max_edges * len(ps) / num_real)
    del deg, probe_s, probe_d
    src, dst = [], []
    for _, _, s, d in homogeneous_chunks(meta):
        draw = rng.random(len(s), dtype=np.float32)
        if by_degree:
            qa, qb = share[s], share[d]
            keep = draw < qa + qb - qa * qb
        else:
            keep = draw < np.float32(max_edges / max(num_real, 1))
        keep &= s != d
        src.append(s[keep])
        dst.append(d[keep])
    empty = np.zeros(0, dtype=np.int64)
    return np.concatenate([empty, *src]), np.concatenate([empty, *dst]), indeg


def _metis(src, dst, n, num_parts, classes, balance_edges, seed, in_degrees=None) -> np.ndarray:
    """METIS on these edges, balancing each class of ``classes`` (and the in-degrees: those given,
    the graph's, or those of the edges)."""
    return metis_assignment(
        src,
        dst,
        n,
        num_parts,
        balance_ntypes=classes if classes.max(initial=0) > 0 else None,
        balance_edges=bool(balance_edges),
        seed=seed,
        in_degrees=in_degrees if balance_edges else None,
    )


def _refined(meta, parts, num_parts, classes, indeg, passes, cluster, work_dir) -> np.ndarray:
    """METIS's ``parts`` refined by passes over every edge under the caps (each class's node
    count, and the in-degrees ``indeg`` where given), on ``cluster``'s workers."""
    return stream_partition(
        meta,
        num_parts,
        "fennel",
        classes=classes,
        balance_edges=False if indeg is None else indeg,
        passes=passes,
        initial=parts,
        cluster=cluster,
        work_dir=work_dir,
    )


def sampled_metis(
    meta: ChunkedMetadata,
    num_parts: int,
    classes: np.ndarray,
    balance_edges: bool,
    max_edges: int,
    seed: Seed = None,
    cluster=None,
    work_dir=None,
    passes: int = 30,
) -> np.ndarray:
    """METIS on a streamed sample of about ``max_edges`` edges, then refinement passes over every
    edge under the caps (on ``cluster``'s workers); the part of every homogeneous node."""
    rng = check_random_state(seed)
    src, dst, indeg = sample_chunks(meta, max_edges, True, rng)
    n = len(indeg)
    logger.info("metis: a sample of %d of %d edges", len(src), sum(meta.num_edges.values()))
    parts = _metis(src, dst, n, num_parts, classes, balance_edges, rng, indeg)
    del src, dst
    return _refined(
        meta, parts, num_parts, classes, indeg if balance_edges else None, passes, cluster, work_dir
    )


def coarse_chunked(
    meta: ChunkedMetadata,
    num_parts: int,
    classes: np.ndarray,
    balance_edges: bool,
    max_edges: int,
    budget: int,
    seed: Seed = None,
    cluster=None,
    work_dir=None,
    passes: int = 30,
) -> np.ndarray | None:
    """METIS on the graph coarsened to at most ``max_edges`` edges, its adjacency built from the
    chunks (:func:`~graphpart.partitioning.adjacency.stream_adjacency`), then refinement passes over
    every edge under the caps (on ``cluster``'s workers); the part of every homogeneous node.
    ``None`` where the graph has no communities to keep (the sample serves it as well) or where
    its adjacency leaves coarsening more than ``budget`` bytes
    (:func:`~.metis_memory.coarse_need`)."""
    rng = check_random_state(seed)
    n, m = sum(meta.num_nodes.values()), sum(meta.num_edges.values())
    indeg = in_degrees(meta) if balance_edges else None
    adj = stream_adjacency(lambda: ((s, d) for _, _, s, d in homogeneous_chunks(meta)), n)
    need = metis_memory.coarse_need(n, m, plan.largest_chunk(meta), max_edges, adj.nnz)
    if need > budget:
        logger.warning(
            "metis: coarsening %d adjacency entries needs about %.1f GB, over the %.1f GB this "
            "step may take: METIS sees a sample instead",
            adj.nnz,
            need / 1e9,
            budget / 1e9,
        )
        return None
    parts = coarse_assignment(
        adj,
        num_parts,
        balance_ntypes=classes if classes.max(initial=0) > 0 else None,
        balance_edges=balance_edges,
        in_degrees=indeg,
        max_edges=max_edges,
        seed=rng,
    )
    del adj
    if parts is None:
        logger.info("metis: no communities to keep, so METIS sees a sample")
        return None
    return _refined(meta, parts, num_parts, classes, indeg, passes, cluster, work_dir)


def metis_chunked(
    meta: ChunkedMetadata,
    num_parts: int,
    classes: np.ndarray,
    balance_edges: bool,
    max_edges: int | None = None,
    seed: Seed = None,
    cluster=None,
    work_dir=None,
) -> np.ndarray:
    """The METIS assignment of every homogeneous node, its main process within
    :func:`~graphpart.utils.memory.process_budget` (at most 8 GB, within what is free past the
    headroom and the refinement's workers on this machine).

    * On every edge where METIS holds them within the budget (and ``max_edges`` does not ask for
      fewer);
    * else on the graph coarsened to ``max_edges`` edges (default
      :data:`~graphpart.partitioning.options.DEFAULT_METIS_MAX_EDGES`) by
      :func:`coarse_chunked`, refined over every edge on ``cluster``'s workers (sharing files in
      ``work_dir``);
    * else (a graph without communities, or whose adjacency the budget cannot hold) on a
      streamed sample of ``max_edges`` edges, or of as many as the budget holds, refined the
      same way.

    Refuses before reading an edge when not even the sample fits."""
    rng = check_random_state(seed)
    n, m = sum(meta.num_nodes.values()), sum(meta.num_edges.values())
    if max_edges is not None:
        max_edges = check_count(max_edges, "max_edges", low=1)
    # the refinement's streams run beside this process, on this machine's workers
    workers = plan.local_workers(cluster)
    others = workers * plan.stream_need(n, m, plan.largest_chunk(meta))[1]
    have = memory.available_memory()
    usable, budget = usable_memory(have), process_budget(others, have)
    route = metis_memory.metis_route(n, m, plan.largest_chunk(meta), max_edges, budget)
    if route.coarse_to is not None:
        logger.info("metis: the graph coarsened to at most %d edges", route.coarse_to)
        parts = coarse_chunked(
            meta, num_parts, classes, balance_edges, route.coarse_to, budget, rng, cluster, work_dir
        )
        if parts is not None:
            return parts
    if route.sample < m and max_edges is None:
        logger.warning(
            "metis: METIS sees a sample of %d of the graph's %d edges (what %.1f GB holds), "
            "refined over every edge; --metis-max-edges sets the sample",
            route.sample,
            m,
            route.need / 1e9,
        )
    fits = max(
        (budget - plan.BASE - metis_memory.METIS_BYTES_PER_NODE * n)
        // metis_memory.METIS_BYTES_PER_EDGE,
        0,
    )
    seen = route.sample
    sampled = seen < m
    hint = f"--metis-max-edges {fits:,}".replace(",", "") if fits >= max(n // 2, 1) else None
    check_memory(
        metis_memory.metis_need(n, seen),
        f"assign --algorithm metis on {n:,} nodes and {seen:,} "
        + ("sampled edges" if sampled else "edges")
        + f" (its budget: {fmt_bytes(usable)} free past the headroom"
        + (
            f", less {fmt_bytes(others)} for the refinement's {workers} workers)" if others else ")"
        ),
        (f"use {hint} (METIS on a streamed sample, refined on every edge), " if hint else "use ")
        + "--algorithm fennel or ldg (streaming: memory linear in the nodes, in-degree balanced "
        "too), or a machine with more memory",
        budget,
    )
    if sampled:
        return sampled_metis(meta, num_parts, classes, balance_edges, seen, rng, cluster, work_dir)
    src, dst, _, _ = homogeneous_edges(meta, sorted(meta.ntypes), sorted(meta.etypes))
    return _metis(src, dst, n, num_parts, classes, balance_edges, rng)

"""What ``assign --algorithm metis`` holds in its one process, by route: METIS on every edge, on
the graph coarsened out of core, or on a sample (the routes:
:func:`~graphpart.chunked._metis.metis_chunked`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import GraphpartError
from ..partitioning.options import DEFAULT_METIS_MAX_EDGES, PartitionOptions
from ..utils.check import short_repr
from .cluster import BASE

__all__ = ["MetisRoute", "metis_route", "metis_need", "coarse_need", "metis_edges"]

#: What METIS assign holds per edge at its peak: the homogeneous edge list, the symmetric CSR, the
#: refinement's tables (measured: 4.9 GiB for R-MAT scale 20, 16.1M edges).
METIS_BYTES_PER_EDGE = 300
#: ... and per node (measured: 6.3 GiB for R-MAT scale 24 on a sample of 16.8M edges).
METIS_BYTES_PER_NODE = 96
#: METIS on the coarsened graph (``assign metis`` beyond what METIS holds): building the adjacency
#: from the chunks, bytes per edge (two int32 + float32 entries; 8 more where merging repeated
#: neighbours leaves under half of them, which scipy copies), per node and per edge of the
#: largest chunk (its entries sorted by row) ...
COARSE_BUILD_BYTES_PER_EDGE, COARSE_BYTES_PER_NODE, COARSE_CHUNK_BYTES_PER_EDGE = 24, 16, 48
#: ... then coarsening it: per adjacency entry (the matrix, a batch of label propagation or the
#: contraction's products) and per node (labels, loads, weights, the way back, in-degrees).
COARSE_BYTES_PER_ENTRY, COARSE_LEVEL_BYTES_PER_NODE = 24, 76
#: ... and beside both, what the process holds beyond :data:`BASE` (measured: DC-SBM 2^21 and 2^22
#: peaked 110 MB and 40 MB over the formula without it, 2^24 170 MB under).
COARSE_EXTRA = 150 << 20


def metis_need(num_nodes: int, num_edges: int) -> int:
    """Peak memory of ``assign --algorithm metis``.

    Parameters
    ----------
    num_nodes : int
        Nodes of the graph (all types).
    num_edges : int
        Edges METIS sees: the graph's, or the sample's when it partitions a sample.

    Returns
    -------
    int
        Bytes: ``BASE + 96 * num_nodes + 300 * num_edges``.
    """
    return BASE + METIS_BYTES_PER_NODE * num_nodes + METIS_BYTES_PER_EDGE * num_edges


def coarse_need(
    num_nodes: int, num_edges: int, chunk: int, seen: int, entries: int | None = None
) -> int:
    """Peak memory of ``assign --algorithm metis`` on the coarsened graph, in its main process: the
    largest of building the adjacency from the chunks (``B + 150 MB + 16 N + 24 E + 48 C``),
    coarsening it (``B + 150 MB + 76 N + 24 A`` for its ``A`` entries: ``E`` for a graph stored
    both ways, the default before it is built; at most ``2 E``) and METIS on the ``seen`` edges
    of the coarsest graph beside it (``B + 150 MB + 76 N + 8 A + 300 seen``).

    Parameters
    ----------
    num_nodes, num_edges : int
        The graph's nodes and edges (all types).
    chunk : int
        Edges of the largest chunk.
    seen : int
        The most edges of the coarsest graph, which METIS partitions.
    entries : int or None, default None
        The adjacency's entries, once built; default ``num_edges``.

    Returns
    -------
    int
        Bytes.

    >>> round(coarse_need(2**24, 252 * 10**6, 4 * 10**6, 10**6) / 1e9, 2)
    7.79
    """
    entries = num_edges if entries is None else entries
    build = (
        COARSE_BYTES_PER_NODE * num_nodes
        + COARSE_BUILD_BYTES_PER_EDGE * num_edges
        + COARSE_CHUNK_BYTES_PER_EDGE * chunk
    )
    level = COARSE_LEVEL_BYTES_PER_NODE * num_nodes + max(
        COARSE_BYTES_PER_ENTRY * entries, 8 * entries + METIS_BYTES_PER_EDGE * min(seen, num_edges)
    )
    return BASE + COARSE_EXTRA + max(build, level)


@dataclass(frozen=True)
class MetisRoute:
    """What ``assign --algorithm metis`` does within its budget (:func:`metis_route`).

    Attributes
    ----------
    coarse_to : int or None
        The most edges of the coarsened graph METIS partitions; ``None``: not coarsened.
    sample : int
        The edges METIS sees otherwise: all of them, or a sample (a coarsened route's fallback,
        for a graph without communities).
    need : int
        Peak bytes of the main process.
    formula : str
        ``need`` as a formula, the route named.
    """

    coarse_to: int | None
    sample: int
    need: int
    formula: str


def metis_route(
    num_nodes: int, num_edges: int, chunk: int, max_edges: int | None, budget: int
) -> MetisRoute:
    """The route ``assign --algorithm metis`` takes within ``budget`` bytes: METIS on every edge
    where it holds them (and ``max_edges`` does not ask for fewer); else on the graph coarsened
    to ``max_edges`` edges (default 1,000,000) where its adjacency fits, with, for a graph found
    to have no communities, a sample of ``max_edges`` edges or of as many as the memory planned
    holds; else a sample of ``max_edges`` edges or of as many as the budget holds.

    Parameters
    ----------
    num_nodes, num_edges : int
        The graph's nodes and edges (all types).
    chunk : int
        Edges of the largest chunk.
    max_edges : int or None
        ``--metis-max-edges``: the most edges METIS may see (``None``: every edge within the
        budget, else the coarse graph of at most 1,000,000).
    budget : int
        Bytes the step's main process may take (:func:`~graphpart.utils.memory.process_budget`).

    Returns
    -------
    MetisRoute
        The route, its peak memory and its formula.

    >>> r = metis_route(2**24, 252 * 10**6, 4 * 10**6, None, 8 * 10**9)
    >>> r.coarse_to, r.sample, round(r.need / 1e9, 2)
    (1000000, 19565806, 7.79)
    """
    n, e = num_nodes, num_edges
    if (max_edges is None and metis_need(n, e) <= budget) or (max_edges or 0) >= e:
        return MetisRoute(None, e, metis_need(n, e), "B + 96 N + 300 E")
    target = DEFAULT_METIS_MAX_EDGES if max_edges is None else max_edges
    need = coarse_need(n, e, chunk, target)
    if need <= budget:
        sample = max_edges
        if sample is None:
            sample = min(
                max(target, metis_edges(n, e, None, need)), metis_edges(n, e, None, budget)
            )
        return MetisRoute(
            target,
            min(sample, e),
            max(need, metis_need(n, min(sample, e))),
            f"B + 150 MB + max(16 N + 24 E + 48 C, 76 N + 24 A), A = E (coarsened to "
            f"{target:,} edges; "
            f"without communities: B + 96 N + 300 M, a sample of {min(sample, e):,})",
        )
    sample = metis_edges(n, e, max_edges, budget)
    return MetisRoute(
        None, sample, metis_need(n, sample), f"B + 96 N + 300 M (a sample: {sample:,})"
    )


def metis_edges(num_nodes: int, num_edges: int, max_edges: int | None, have: int) -> int:
    """The edges ``assign --algorithm metis`` gives METIS: ``max_edges`` where below the edge
    count; without it every edge where they fit in ``have`` bytes, else the largest sample that
    fits (when that is at least half an edge per node; else every edge, and the step is
    refused).

    Parameters
    ----------
    num_nodes, num_edges : int
        The graph's nodes and edges (all types).
    max_edges : int or None
        The sample asked for, if any.
    have : int
        Bytes METIS may take.

    Returns
    -------
    int
        The edges METIS sees."""
    if max_edges is not None:
        return min(int(max_edges), num_edges)
    fits = max((have - BASE - METIS_BYTES_PER_NODE * num_nodes) // METIS_BYTES_PER_EDGE, 0)
    return int(fits) if max(num_nodes // 2, 1) <= fits < num_edges else num_edges


def check_metis_max_edges(metis_max_edges: object, algorithm: str) -> int | None:
    """``metis_max_edges`` for an assign by ``algorithm``, checked by the one rule
    :func:`~graphpart.chunked.assign` and the plan of it share: ``None``, or an edge count
    (:class:`~graphpart.PartitionOptions`' rule) with ``metis`` only.

    Parameters
    ----------
    metis_max_edges : object
        What was given.
    algorithm : str
        The assign algorithm it goes with.

    Returns
    -------
    int or None
        The count, or ``None``.

    Raises
    ------
    GraphpartError
        When it is not a count >= 1, or is given with another algorithm than ``metis``.

    Examples
    --------
    >>> check_metis_max_edges(None, "random") is None
    True
    >>> check_metis_max_edges(10, "random")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: metis_max_edges applies to metis, not random
    """
    if metis_max_edges is None:
        return None
    if algorithm != "metis":
        named = algorithm if algorithm in ("random", "fennel", "ldg") else short_repr(algorithm)
        raise GraphpartError(f"metis_max_edges applies to metis, not {named}")
    return PartitionOptions(metis_max_edges=metis_max_edges).metis_max_edges

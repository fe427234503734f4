"""What a partition costs a Dask worker to build, and what to say when it does not fit."""

from __future__ import annotations

import numpy as np

from ..utils.units import fmt_bytes
from ._shuffle import largest_run
from .format import ChunkedMetadata
from .plan import node_row_bytes, partition_need

__all__ = ["partition_too_big"]


def partition_too_big(
    nodes: np.ndarray, counts: list[np.ndarray], meta: ChunkedMetadata, format: str = "dgl"
):
    """``message(p, limit)``: why partition ``p``'s worker kept dying: about how much memory it
    needs (``nodes`` per partition, ``counts`` per edge type as (chunks, parts)) to write
    ``format``'s files, the workers' ``limit``, and what to do.

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> msg = partition_too_big(np.array([10**6, 10]), [np.array([[9 * 10**6, 5]])],
    ...                         SimpleNamespace(node_data={}, edges={}))
    >>> m = msg(0, 2**30)
    >>> m.split(":")[0], "need about 855 MB" in m, "memory limit is 1.07 GB" in m
    ('partition 0 did not fit in a Dask worker', True, True)
    """
    edges = sum((c.sum(axis=0) for c in counts), np.zeros(len(nodes), dtype=np.int64))
    row_bytes, chunk = node_row_bytes(meta), largest_run(meta)

    def message(p: int, limit: int) -> str:
        need = partition_need(
            int(nodes[p]), int(edges[p]), int(nodes.sum()), row_bytes, format, chunk
        )
        have = fmt_bytes(limit) if limit else "no limit set"
        if format != "dgl":
            return (
                f"partition {p} did not fit in a Dask worker: writing a partition out of core "
                f"needs about {fmt_bytes(need)} whatever its size, and the worker memory limit "
                f"is {have}. Use a higher --memory-limit (or fewer workers per machine)"
            )
        return (
            f"partition {p} did not fit in a Dask worker: {int(nodes[p]):,} nodes and "
            f"{int(edges[p]):,} edges need about {fmt_bytes(need)} to build (the largest "
            f"partition has {int(edges.max()):,} edges), and the worker memory limit is {have}. "
            "Use more partitions, a higher --memory-limit (or fewer workers per machine), or an "
            "edge-balanced assignment (assign --algorithm fennel --balance-edges)"
        )

    return message

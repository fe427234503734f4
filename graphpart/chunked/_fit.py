"""What a partition costs a Dask worker to build, and what to say when it does not fit."""

from __future__ import annotations

import numpy as np

from .format import ChunkedMetadata
from .plan import partition_need

__all__ = ["partition_too_big"]


def partition_too_big(nodes: np.ndarray, counts: list[np.ndarray], meta: ChunkedMetadata):
    """``message(p, limit)``: why partition ``p``'s worker kept dying: about how much memory it
    needs (``nodes`` per partition, ``counts`` per edge type as (chunks, parts)), the workers'
    ``limit``, and what to do.

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> msg = partition_too_big(np.array([10**6, 10]), [np.array([[9 * 10**6, 5]])],
    ...                         SimpleNamespace(node_data={}))
    >>> m = msg(0, 2**30)
    >>> m.split(":")[0], "need about 0.8 GB" in m, "memory limit is 1.0 GB" in m
    ('partition 0 did not fit in a Dask worker', True, True)
    """
    edges = sum((c.sum(axis=0) for c in counts), np.zeros(len(nodes), dtype=np.int64))
    row_bytes = sum(
        _row_bytes(spec) for specs in meta.node_data.values() for spec in specs.values()
    )

    def message(p: int, limit: int) -> str:
        need = partition_need(int(nodes[p]), int(edges[p]), int(nodes.sum()), row_bytes)
        have = f"{limit / 2**30:.1f} GB" if limit else "no limit set"
        return (
            f"partition {p} did not fit in a Dask worker: {int(nodes[p]):,} nodes and "
            f"{int(edges[p]):,} edges need about {need / 2**30:.1f} GB to build (the largest "
            f"partition has {int(edges.max()):,} edges), and the worker memory limit is {have}. "
            "Use more partitions, a higher --memory-limit (or fewer workers per machine), or an "
            "edge-balanced assignment (assign --algorithm fennel --balance-edges)"
        )

    return message


def _row_bytes(spec) -> int:
    """Bytes per row of one node-data spec (an upper guess when the dtype is not recorded)."""
    width = int(np.prod(spec.shape)) if spec.shape else 1
    return width * (np.dtype(spec.dtype).itemsize if spec.dtype else 8)

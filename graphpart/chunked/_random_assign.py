"""Step 1, random: a balanced random assignment drawn chunk by chunk on Dask."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..homogeneous import type_offsets
from ..typing import Seed
from ._files import write_array
from .cluster import ClusterOptions
from .format import ChunkedMetadata

__all__ = ["random_on_dask", "random_chunk", "RANDOM_CHUNK"]

#: Nodes per task of the random assignment on Dask.
RANDOM_CHUNK = 1 << 20


def random_chunk(out: Path, start: int, stop: int, homo_start: int, num_parts: int, seed) -> Path:
    """Nodes ``[start, stop)`` of one type: part ``homogeneous id % k``, shuffled within the
    chunk."""
    rng = np.random.default_rng(seed)
    parts = rng.permutation(
        (np.arange(stop - start, dtype=np.int64) + homo_start + start) % num_parts
    )
    write_array(out, parts, {"name": "csv", "delimiter": " "})
    return out


def random_on_dask(
    meta: ChunkedMetadata, tmp: Path, k: int, seed: Seed, cluster: ClusterOptions
) -> None:
    """A balanced random assignment (each type and the total within one node of even),
    chunk-parallel."""
    from ._dask import dask_client, run_tasks

    ntypes = sorted(meta.ntypes)
    offsets = type_offsets([meta.num_nodes[t] for t in ntypes])
    ranges = [
        (t, a, min(a + RANDOM_CHUNK, meta.num_nodes[t]), int(offsets[i]))
        for i, t in enumerate(ntypes)
        for a in range(0, meta.num_nodes[t], RANDOM_CHUNK)
    ]
    if isinstance(seed, np.random.Generator):  # draw the entropy from it, as elsewhere
        seed = int(seed.integers(1 << 62))
    seeds = np.random.SeedSequence(None if seed is None else int(seed)).spawn(len(ranges))
    args = [
        (tmp / f".{t}.{j}.part", a, b, off, k, sq)
        for j, ((t, a, b, off), sq) in enumerate(zip(ranges, seeds))
    ]
    with dask_client(cluster) as c:
        files = run_tasks(c, random_chunk, args, False, "random-assign")
    for t in ntypes:
        with open(tmp / f"{t}.txt", "wb") as out:
            for (name, *_), f in zip(ranges, files):
                if name == t:
                    out.write(f.read_bytes())
                    f.unlink()

"""A partition's edges put in CSC order (by local destination) out of core.

The edges arrive in edge id order, far more of them than a worker may hold. Their in-degrees are
known first, so the local destinations are cut into buckets of about :data:`BLOCK` edges (a
node's in-edges are never split); each block of edges is appended to its
buckets' files, and each bucket is then read back, sorted by destination (stably: edge id order
within a destination) and handed on. One write and one read of the partition's edges, and memory
for one bucket.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from ..index import group_order

__all__ = ["CscBuckets", "BLOCK"]

#: Edges sorted at a time (at most, unless one node has more in-edges).
BLOCK = 1 << 22
#: Edges sent to the buckets at a time.
SLICE = 1 << 20
_COLS = 4  # local source, local destination, edge id, flags (edge type * 2 + inner)


class CscBuckets:
    """Edges appended in any number of blocks, read back in CSC order one bucket at a time.

    Parameters
    ----------
    folder : pathlib.Path
        A work folder for the bucket files (made afresh; removed by :meth:`close`).
    indptr : numpy.ndarray
        The CSC offsets (``num_nodes + 1``, from 0) the edges will fill.
    block : int, optional
        Edges per bucket (default :data:`BLOCK`): at most ``block`` plus the in-edges of the
        bucket's first node (a node's in-edges are never split).
    """

    def __init__(self, folder: Path, indptr: np.ndarray, block: int | None = None) -> None:
        self.folder = folder
        shutil.rmtree(folder, ignore_errors=True)  # a killed task's files
        folder.mkdir(parents=True)
        total = int(indptr[-1])
        marks = np.arange(0, total, max(int(block or BLOCK), 1), dtype=np.int64)
        # the first node of each bucket: the one whose range holds the mark (repeats dropped), so
        # a bucket holds at most ``block`` edges plus those of its first node
        firsts = np.searchsorted(indptr, marks, side="right") - 1
        self.firsts = np.unique(np.concatenate([[0], firsts]).astype(np.int64))
        self.files = [folder / f"bucket{b}.bin" for b in range(len(self.firsts))]
        self.rows = np.zeros(len(self.files), dtype=np.int64)
        self.handles = [open(f, "wb") for f in self.files]

    def add(self, src: np.ndarray, dst: np.ndarray, eid: np.ndarray, flags: np.ndarray) -> None:
        """Append edges (local ends, edge ids, flags) given in edge id order, :data:`SLICE` at a
        time (so the copies made here stay small whatever the block given)."""
        for lo in range(0, len(dst), SLICE):
            hi = lo + SLICE
            self._add(src[lo:hi], dst[lo:hi], eid[lo:hi], flags[lo:hi])

    def _add(self, src, dst, eid, flags) -> None:
        bucket = np.searchsorted(self.firsts, dst, side="right") - 1
        cols = np.stack([src, dst, eid, flags], axis=1).astype(np.int64, copy=False)
        order, counts = group_order(bucket, len(self.files))
        ends = np.cumsum(counts)
        for b in np.flatnonzero(counts):  # a loop over buckets, not edges
            cols[order[ends[b] - counts[b] : ends[b]]].tofile(self.handles[b])
        self.rows += counts

    def blocks(self) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """``(src, eid, flags)`` of each bucket's edges, in CSC order."""
        for h in self.handles:
            h.close()
        for b, f in enumerate(self.files):
            a = np.fromfile(f, dtype=np.int64, count=int(self.rows[b]) * _COLS)
            f.unlink()
            a = a.reshape(-1, _COLS)
            a = a[np.argsort(a[:, 1], kind="stable")]
            yield a[:, 0], a[:, 2], a[:, 3]

    def close(self) -> None:
        """Remove the work folder."""
        for h in self.handles:
            h.close()
        shutil.rmtree(self.folder, ignore_errors=True)

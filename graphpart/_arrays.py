"""Small array helpers shared across modules."""

from __future__ import annotations

import numpy as np

__all__ = ["unique_int"]


def unique_int(a: np.ndarray) -> np.ndarray:
    """Sorted unique values of an integer array.

    ``np.sort`` plus a neighbour comparison: on large int64 arrays this is many
    times faster than ``np.unique`` (whose hash-based path dominates at 10M+ items).

    Examples
    --------
    >>> unique_int(np.array([3, 1, 3, 2, 1]))
    array([1, 2, 3])
    """
    s = np.sort(a)
    if len(s) == 0:
        return s
    return s[np.concatenate([[True], s[1:] != s[:-1]])]

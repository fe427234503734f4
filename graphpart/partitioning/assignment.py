"""Node-to-partition assignments: balanced random, and checks on user-supplied ones."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import torch

from ..errors import GraphpartError
from ..typing import Seed
from ..utils.check import check_count
from ..utils.seeds import check_random_state

__all__ = ["random_assignment", "check_assignment", "check_num_parts"]


def check_num_parts(num_parts: object, name: str = "num_parts") -> int:
    """``num_parts`` as a positive int, or a :class:`~graphpart.GraphpartError`.

    Parameters
    ----------
    num_parts : object
        The value to check: an integer (a Python or NumPy int, not a bool) >= 1 and at most the
        int64 maximum.
    name : str, default "num_parts"
        The name the error message gives the value.

    Returns
    -------
    int
        ``num_parts`` as an int.

    Raises
    ------
    GraphpartError
        If ``num_parts`` is not an integer, or is below 1 or above the int64 maximum.

    Examples
    --------
    >>> check_num_parts(4)
    4
    >>> check_num_parts(0)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: num_parts must be an integer >= 1, got 0
    """
    return check_count(num_parts, name, low=1)


def random_assignment(type_counts: np.ndarray, num_parts: int, seed: Seed = None) -> np.ndarray:
    """A *balanced* random assignment of homogeneous node ids to ``num_parts`` parts.

    Nodes are numbered type after type (``type_counts[t]`` nodes of type ``t``).
    Every part receives the same number of nodes of every type, give or take
    one, and the same total give or take one. (DGL's ``part_method="random"``
    draws each node's part independently, so its parts differ by about the
    square root of their size.)

    Parameters
    ----------
    type_counts : numpy.ndarray of int
        The number of nodes of each node type, in node type order.
    num_parts : int
        The number of parts (>= 1; not checked here).
    seed : int, numpy.random.Generator or None, default None
        Seeds the random order inside each type; ``None`` draws fresh entropy.

    Returns
    -------
    numpy.ndarray of int64
        The part, in ``[0, num_parts)``, of every node (homogeneous ids), of length
        ``type_counts.sum()``.

    Examples
    --------
    >>> a = random_assignment(np.array([5, 4]), 3, seed=0)
    >>> np.bincount(a[:5]).tolist(), np.bincount(a[5:]).tolist(), np.bincount(a).tolist()
    ([2, 2, 1], [1, 1, 2], [3, 3, 3])
    """
    counts = np.asarray(type_counts, dtype=np.int64)
    n = int(counts.sum())
    rng = check_random_state(seed)
    # Position p of the type-by-type order gets part p % k: balanced per type and
    # overall. A random order inside each type then decides which node is where.
    type_of = np.repeat(np.arange(len(counts)), counts)
    order = np.lexsort((rng.random(n), type_of))
    parts = np.empty(n, dtype=np.int64)
    parts[order] = np.arange(n) % num_parts
    return parts


def check_assignment(
    assignment: object, type_counts: np.ndarray, ntypes: list[str], num_parts: int
) -> np.ndarray:
    """A user-supplied assignment as an int64 array over homogeneous node ids.

    ``assignment`` is an int array with one entry per node (homogeneous ids) or a
    dict ``{ntype: array}`` of type-wise assignments covering every node type.

    Parameters
    ----------
    assignment : array-like of int, torch.Tensor or dict of str to array-like
        One part id per node in homogeneous id order, or ``{ntype: part ids}`` with exactly
        the node types of ``ntypes`` as keys (each array one entry per node of that type).
        Arrays must be one-dimensional with an integer dtype.
    type_counts : numpy.ndarray of int
        The number of nodes of each node type, in the order of ``ntypes``.
    ntypes : list of str
        The node types, in homogeneous id order.
    num_parts : int
        The number of parts; every value must lie in ``[0, num_parts)``.

    Returns
    -------
    numpy.ndarray of int64
        The part of every node, in homogeneous id order (dict entries concatenated in the
        order of ``ntypes``).

    Raises
    ------
    GraphpartError
        If a dict's keys differ from ``ntypes``, an array is not one-dimensional int, has the
        wrong length, or holds a value outside ``[0, num_parts)``.
    """
    counts = np.asarray(type_counts, dtype=np.int64)
    if isinstance(assignment, Mapping):
        unknown = sorted(set(map(str, assignment)) - set(ntypes))
        missing = [t for t in ntypes if t not in assignment]
        if unknown or missing:
            raise GraphpartError(
                f"a dict assignment needs exactly the node types {ntypes}; "
                f"unknown: {unknown}, missing: {missing}"
            )
        parts = [
            _as_parts(assignment[t], int(c), f"assignment[{t!r}]") for t, c in zip(ntypes, counts)
        ]
        arr = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    else:
        arr = _as_parts(assignment, int(counts.sum()), "assignment")
    if arr.size and (arr.min() < 0 or arr.max() >= num_parts):
        raise GraphpartError(
            f"assignment values must lie in [0, {num_parts}) for {num_parts} parts, "
            f"got values from {int(arr.min())} to {int(arr.max())}"
        )
    return arr


def _as_parts(a: object, n: int, what: str) -> np.ndarray:
    arr = a.detach().cpu().numpy() if isinstance(a, torch.Tensor) else np.asarray(a)
    if arr.dtype.kind not in "iu" or arr.ndim != 1:
        raise GraphpartError(
            f"{what} must be a one-dimensional int array, got dtype {arr.dtype} and shape "
            f"{arr.shape}"
        )
    if len(arr) != n:
        raise GraphpartError(f"{what} must have one entry per node ({n}), got {len(arr)}")
    return arr.astype(np.int64, copy=False)

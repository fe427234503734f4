"""User input as tensors, checked: id arrays, data columns, flat int lists; each refusal a
:class:`~graphpart.GraphpartError` saying what was received and what was expected."""

from __future__ import annotations

import numpy as np
import torch

from ..errors import DataShapeError, GraphpartError, IDRangeError
from ..typing import IdArray, TensorLike
from .check import check_allocation, short_repr

__all__ = ["as_id_tensor", "as_data_tensor", "check_ids_in_range", "flat_ints"]


def _describe(x: object) -> str:
    if isinstance(x, (torch.Tensor, np.ndarray)):
        return f"{type(x).__name__} of dtype {x.dtype} and shape {tuple(x.shape)}"
    return type(x).__name__


def as_id_tensor(ids: IdArray, name: str = "ids") -> torch.Tensor:
    """Convert ``ids`` to a 1-D int64 tensor, refusing floats, bools and other shapes.

    Parameters
    ----------
    ids : torch.Tensor, numpy.ndarray or sequence of int
        The ids. An empty sequence of any dtype is accepted.
    name : str, default "ids"
        How error messages name ``ids``.

    Returns
    -------
    torch.Tensor
        int64, one-dimensional. An int64 tensor is returned as is (not copied); a numpy
        int64 array may share its memory.

    Raises
    ------
    GraphpartError
        If ``ids`` is not a regular array, holds non-integers (bools included), or is not
        one-dimensional.

    Examples
    --------
    >>> as_id_tensor(np.array([3, 1], dtype=np.int32))
    tensor([3, 1])
    >>> as_id_tensor([0.5])
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: ids must hold integers, got list with dtype float64
    """
    if isinstance(ids, torch.Tensor):
        t = ids
    else:
        if isinstance(ids, range):  # numpy would walk it one int at a time
            check_allocation(8 * len(ids), f"{name}: a range of {len(ids):,} ids")
            if len(ids) and not -(2**63) <= min(ids[0], ids[-1]) <= max(ids[0], ids[-1]) < 2**63:
                raise GraphpartError(f"{name} must fit in int64, got {short_repr(ids)}")
        try:
            if isinstance(ids, range):
                arr = np.arange(ids.start, ids.stop, ids.step, dtype=np.int64)
            else:
                arr = np.asarray(ids)
        except (ValueError, TypeError, OverflowError, MemoryError) as exc:
            raise GraphpartError(
                f"{name} must be a one-dimensional array of integers, got {type(ids).__name__} "
                f"that is not a regular array ({exc})"
            ) from None
        if arr.size == 0 and arr.dtype.kind not in "iu":
            arr = arr.astype(np.int64)
        if arr.dtype.kind not in "iu":
            raise GraphpartError(
                f"{name} must hold integers, got {type(ids).__name__} with dtype {arr.dtype}"
            )
        t = torch.from_numpy(np.ascontiguousarray(arr, dtype=np.int64))
    if t.dtype.is_floating_point or t.dtype.is_complex or t.dtype == torch.bool:
        raise GraphpartError(f"{name} must hold integers, got {_describe(t)}")
    if t.dim() != 1:
        raise GraphpartError(f"{name} must be one-dimensional, got {_describe(t)}")
    return t.to(torch.int64)


def flat_ints(v: object, most: int, what: str, expected: str) -> object:
    """A Python list, tuple or range of ints as an int64 array, checked before numpy walks it
    (a list shared a million times deep, ``range(10**12)``); anything else unchanged. At most
    ``most`` entries; ``what`` must be ``expected`` otherwise.

    Parameters
    ----------
    v : object
        The value; only a list, tuple or range is converted.
    most : int
        The most entries accepted, checked before any is read.
    what : str
        How error messages name ``v``.
    expected : str
        What ``v`` should be, for the message when an entry cannot be converted.

    Returns
    -------
    numpy.ndarray or object
        A 1-D int64 array for a list, tuple or range; ``v`` itself for anything else.

    Raises
    ------
    GraphpartError
        If ``v`` is a list, tuple or range with more than ``most`` entries, or with an entry
        numpy cannot convert to int64 (floats and bools are converted, not refused).

    Examples
    --------
    >>> flat_ints([1, 2], 3, "seeds", "ids").tolist(), flat_ints("x", 3, "seeds", "ids")
    ([1, 2], 'x')
    >>> flat_ints(range(10**12), 3, "seeds", "ids")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: seeds lists 1,000,000,000,000 entries, more than 3
    """
    if not isinstance(v, (list, tuple, range)):
        return v
    if len(v) > most:
        raise GraphpartError(f"{what} lists {len(v):,} entries, more than {most:,}")
    try:
        return np.fromiter(v, dtype=np.int64, count=len(v))
    except (TypeError, ValueError, OverflowError):
        raise GraphpartError(f"{what} must be {expected}, got {short_repr(v, 80)}") from None


def check_ids_in_range(ids: torch.Tensor, upper: int, what: str) -> None:
    """Raise :class:`~graphpart.errors.IDRangeError` unless every id is in ``[0, upper)``.

    Parameters
    ----------
    ids : torch.Tensor
        Integer ids; an empty tensor always passes.
    upper : int
        One past the largest valid id.
    what : str
        How the error message names ``ids``.

    Raises
    ------
    IDRangeError
        Naming the smallest id if it is negative, else the largest.
    """
    if ids.numel() == 0:
        return
    lo, hi = int(ids.min()), int(ids.max())
    if lo < 0 or hi >= upper:
        bad = lo if lo < 0 else hi
        raise IDRangeError(f"{what} must be within [0, {upper}), got {bad}")


def as_data_tensor(value: TensorLike, length: int, what: str) -> torch.Tensor:
    """Convert ``value`` to a tensor whose first dimension is ``length``.

    Parameters
    ----------
    value : torch.Tensor, numpy.ndarray or sequence
        The data; a tensor is kept as is, anything else goes through :func:`numpy.asarray`.
    length : int
        The number of rows required.
    what : str
        How error messages name ``value``.

    Returns
    -------
    torch.Tensor
        ``value`` as a tensor of at least one dimension, with ``length`` rows (a numpy array
        shares its memory, a tensor is returned itself).

    Raises
    ------
    DataShapeError
        If ``value`` cannot be converted, is 0-d, or has another number of rows.

    Examples
    --------
    >>> as_data_tensor(np.ones((2, 3)), 2, "node data 'x'").shape
    torch.Size([2, 3])
    >>> as_data_tensor([1, 2, 3], 2, "node data 'y'")
    Traceback (most recent call last):
    ...
    graphpart.errors.DataShapeError: node data 'y' must have 2 rows (one per item), got shape (3,)
    """
    try:
        t = value if isinstance(value, torch.Tensor) else torch.as_tensor(np.asarray(value))
    except (TypeError, ValueError, RuntimeError) as exc:
        raise DataShapeError(
            f"{what} must be convertible to a tensor, got {_describe(value)} ({exc})"
        ) from None
    if t.dim() == 0 or t.shape[0] != length:
        raise DataShapeError(
            f"{what} must have {length} rows (one per item), got shape {tuple(t.shape)}"
        )
    return t

"""Named data tensors whose lengths are checked against the item count."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping

import torch

from ..errors import GraphpartError
from ..typing import TensorLike
from ..utils.check import short_repr
from ..utils.tensors import as_data_tensor

__all__ = ["DataStore"]


class DataStore(MutableMapping):
    """A ``{name: tensor}`` mapping whose tensors all have ``length`` rows.

    A value set is converted to a tensor (:func:`~graphpart.utils.check.as_data_tensor`); a
    name must be a non-empty string.

    Parameters
    ----------
    length : int
        The number of rows (nodes or edges of one type) every tensor must have.
    owner : str
        What the data belongs to, as error messages name it (``"node type 'paper'"``).
    data : dict of str to array-like, optional
        Initial tensors, each checked as if set one by one.

    Examples
    --------
    >>> d = DataStore(3, "node type '_N'")
    >>> d["x"] = [1.0, 2.0, 3.0]
    >>> d["x"]
    tensor([1., 2., 3.], dtype=torch.float64)
    >>> d["y"] = [1, 2]
    Traceback (most recent call last):
    ...
    graphpart.errors.DataShapeError: data 'y' of node type '_N' must have 3 rows (one per item), got
    shape (2,)
    """

    def __init__(self, length: int, owner: str, data: Mapping[str, TensorLike] | None = None):
        self._length = length
        self._owner = owner
        self._store: dict[str, torch.Tensor] = {}
        if data is not None:
            if not isinstance(data, Mapping):
                raise GraphpartError(
                    f"data of {owner} must be a mapping {{name: tensor}}, got {type(data).__name__}"
                )
            for k, v in data.items():
                self[k] = v

    @property
    def length(self) -> int:
        """Number of rows every tensor must have."""
        return self._length

    def __setitem__(self, name: str, value: TensorLike) -> None:
        if not isinstance(name, str) or not name:
            raise GraphpartError(f"data names must be non-empty strings, got {short_repr(name)}")
        self._store[name] = as_data_tensor(value, self._length, f"data {name!r} of {self._owner}")

    def __getitem__(self, name: str) -> torch.Tensor:
        try:
            return self._store[name]
        except KeyError:
            raise KeyError(
                f"no data named {short_repr(name)} on {self._owner}; it has {sorted(self._store)}"
            ) from None

    def require(self, name: str) -> torch.Tensor:
        """Like ``self[name]``, but a missing name is a :class:`~graphpart.GraphpartError`.

        Examples
        --------
        >>> DataStore(1, "node type 'a'").require("w")
        Traceback (most recent call last):
        ...
        graphpart.errors.GraphpartError: no data named 'w' on node type 'a'; it has []
        """
        if name not in self._store:
            raise GraphpartError(
                f"no data named {short_repr(name)} on {self._owner}; it has {sorted(self._store)}"
            )
        return self._store[name]

    def __delitem__(self, name: str) -> None:
        del self._store[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._store)

    def __len__(self) -> int:
        return len(self._store)

    def __repr__(self) -> str:
        inner = ", ".join(
            f"{k!r}: {tuple(v.shape)} {str(v.dtype).replace('torch.', '')}"
            for k, v in self._store.items()
        )
        return "{" + inner + "}"

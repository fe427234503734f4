"""Seed normalisation: the one place a seed becomes a generator."""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ..typing import Seed

if TYPE_CHECKING:
    import torch

__all__ = ["check_seed", "check_random_state", "torch_generator"]


def check_seed(seed: Seed) -> Seed:
    """Return ``seed`` checked, as given: an int (as a Python int), a generator or ``None`` --
    what an options family stores, to draw from later (:func:`check_random_state`).

    Parameters
    ----------
    seed : int, numpy.random.Generator or None
        The seed to check.

    Returns
    -------
    int, numpy.random.Generator or None
        ``seed``, an int as a Python int.

    Raises
    ------
    GraphpartError
        If ``seed`` is a negative int, a bool, or of another type.

    Examples
    --------
    >>> check_seed(3), check_seed(None)
    (3, None)
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: seed must be a non-negative int, got -1
    """
    if seed is None or isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        if seed < 0:
            raise GraphpartError(f"seed must be a non-negative int, got {seed}")
        return int(seed)
    raise GraphpartError(
        f"seed must be an int, a numpy.random.Generator or None, got {type(seed).__name__}"
    )


def check_random_state(seed: Seed) -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` for ``seed``.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None
        An int seeds a new generator, a generator is returned as is, ``None``
        draws fresh entropy from the operating system.

    Returns
    -------
    numpy.random.Generator
        ``seed`` itself if it is a generator, else a new one.

    Raises
    ------
    GraphpartError
        If ``seed`` is a negative int, a bool, or of another type.

    Examples
    --------
    >>> check_random_state(0).integers(10, size=3)
    array([8, 6, 5])
    >>> rng = np.random.default_rng(1)
    >>> check_random_state(rng) is rng
    True
    """
    seed = check_seed(seed)
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def torch_generator(seed: Seed) -> torch.Generator:
    """A CPU :class:`torch.Generator` seeded from ``seed`` (normalised by
    :func:`check_random_state`).

    Parameters
    ----------
    seed : int, numpy.random.Generator or None
        As for :func:`check_random_state`; a generator given is advanced by one draw.

    Returns
    -------
    torch.Generator
        A new CPU generator, seeded with one integer drawn from ``seed``'s generator.

    Examples
    --------
    >>> import torch
    >>> a, b = torch_generator(3), torch_generator(3)
    >>> bool((torch.rand(4, generator=a) == torch.rand(4, generator=b)).all())
    True
    """
    import torch

    return torch.Generator().manual_seed(int(check_random_state(seed).integers(2**63 - 1)))

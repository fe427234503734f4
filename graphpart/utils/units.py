"""Quantities as people read them: bytes in an adaptive unit, rates at three significant digits."""

from __future__ import annotations

import math

__all__ = ["byte_unit", "fmt_bytes", "sig3"]

_BYTE_UNITS = (("B", 1.0), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("PB", 1e15))


def byte_unit(x: float) -> tuple[str, float]:
    """The unit (and its size) that shows ``x`` bytes as 1 to 999 at three significant digits.

    A value that rounds up to 1000 of a unit takes the next unit, so :func:`fmt_bytes` and an axis
    labelled with this unit agree.

    Parameters
    ----------
    x : float
        A size in bytes (its sign is ignored).

    Returns
    -------
    tuple of (str, float)
        The unit's name (``"B"``, ``"KB"``, ... ``"PB"``, powers of 1000) and its size in bytes.

    Examples
    --------
    >>> byte_unit(3e7), byte_unit(999_600), byte_unit(12)
    (('MB', 1000000.0), ('MB', 1000000.0), ('B', 1.0))
    """
    x = abs(float(x))
    if not math.isfinite(x):
        return "B", 1.0
    for (unit, size), (_, above) in zip(_BYTE_UNITS, _BYTE_UNITS[1:]):
        if float(f"{x / size:.3g}") < above / size:
            return unit, size
    return _BYTE_UNITS[-1]


def fmt_bytes(x: float) -> str:
    """Bytes at three significant digits in an adaptive unit: sizes 1% apart or more read apart.

    Parameters
    ----------
    x : float
        A size in bytes.

    Returns
    -------
    str
        The size and its unit, e.g. ``"15.4 MB"``; whole bytes below 1 KB without decimals.

    Examples
    --------
    >>> fmt_bytes(512), fmt_bytes(10_240_000), fmt_bytes(15_360_000), fmt_bytes(2.5e9)
    ('512 B', '10.2 MB', '15.4 MB', '2.50 GB')
    >>> fmt_bytes(999_600), fmt_bytes(9_996_000), fmt_bytes(0), fmt_bytes(-2048)
    ('1.00 MB', '10.0 MB', '0 B', '-2.05 KB')
    """
    x = float(x)
    if not math.isfinite(x):
        return f"{x} B"
    unit, size = byte_unit(x)
    v = float(f"{abs(x) / size:.3g}")  # rounded first: 9.996 -> 10.0, not 10.00
    sign = "-" if x < 0 and v else ""
    if unit == "B" and v.is_integer():
        return f"{sign}{v:.0f} B"
    digits = max(0, 2 - math.floor(math.log10(v))) if v else 0
    return f"{sign}{v:.{digits}f} {unit}"


def sig3(x: float) -> str:
    """A number at three significant digits, never in exponent form (a rate such as Gb/s).

    Parameters
    ----------
    x : float
        The number.

    Returns
    -------
    str
        ``x`` rounded to three significant digits, written without trailing zeros.

    Examples
    --------
    >>> sig3(1.2589), sig3(1000.0), sig3(10.0), sig3(0.5), sig3(123456.0)
    ('1.26', '1000', '10', '0.5', '123000')
    """
    v = float(f"{float(x):.3g}")
    return f"{v:.0f}" if v.is_integer() else f"{v:g}"

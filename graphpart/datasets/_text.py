"""Vectorised tokenising of line-oriented text files (METIS graphs, WordNet data).

The whole buffer is scanned with NumPy: no Python loop over lines or tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Lines", "tokenize_lines", "to_int"]

_SPACE = np.zeros(256, dtype=bool)
_SPACE[[9, 10, 11, 12, 13, 32]] = True


@dataclass(frozen=True)
class Lines:
    """Tokens of a text, grouped by line.

    ``tokens`` holds every token of the kept lines in order; ``counts[i]`` is the
    number of tokens of line ``i`` and ``skipped[i]`` tells a comment line.
    """

    tokens: np.ndarray  # object array of bytes
    counts: np.ndarray  # int64, one per line
    skipped: np.ndarray  # bool, one per line

    @property
    def starts(self) -> np.ndarray:
        """Index in ``tokens`` of each line's first token."""
        return np.cumsum(self.counts) - self.counts


def tokenize_lines(data: bytes, comment: bytes | None = None, cut: bytes | None = None) -> Lines:
    """Split ``data`` into lines and whitespace-separated tokens.

    Parameters
    ----------
    comment : bytes, optional
        A line starting with this byte is a comment: it gets no tokens and is
        marked ``skipped``.
    cut : bytes, optional
        Everything from this byte to the end of its line is ignored.

    Examples
    --------
    >>> lines = tokenize_lines(b"% c\\n1 2\\n\\n3 | x y\\n", comment=b"%", cut=b"|")
    >>> lines.counts.tolist(), lines.skipped.tolist(), list(lines.tokens)
    ([0, 2, 0, 1], [True, False, False, False], [b'1', b'2', b'3'])
    """
    buf = np.frombuffer(data, dtype=np.uint8).copy()
    newline = buf == 10
    nl = np.flatnonzero(newline)
    starts = np.concatenate([[0], nl + 1])
    if len(buf) and buf[-1] == 10 or len(buf) == 0:
        starts = starts[:-1]  # no phantom line after a final newline
    line_of = np.cumsum(newline) - newline  # line index of every byte
    nlines = len(starts)
    skipped = np.zeros(nlines, dtype=bool)
    if comment is not None and nlines:
        first = buf[np.minimum(starts, max(len(buf) - 1, 0))]
        skipped = (first == comment[0]) & (starts < len(buf))
        buf[skipped[line_of] & ~newline] = 32
    if cut is not None and len(buf):
        hits = np.cumsum(buf == cut[0])
        before_line = np.concatenate([[0], hits])[starts][line_of] if nlines else hits
        buf[(hits - before_line > 0) & ~newline] = 32
    space = _SPACE[buf]
    first_char = ~space & np.concatenate([[True], space[:-1]]) if len(buf) else space
    token_line = line_of[first_char]
    tokens = np.array(buf.tobytes().split(), dtype=object)
    counts = np.bincount(token_line, minlength=nlines).astype(np.int64)
    return Lines(tokens, counts, skipped)


def to_int(tokens: np.ndarray, base: int = 10) -> np.ndarray:
    """Parse an object array of bytes tokens as int64 (raises ValueError on junk).

    Examples
    --------
    >>> to_int(np.array([b"12", b"-3"], dtype=object)).tolist()
    [12, -3]
    >>> to_int(np.array([b"1f"], dtype=object), base=16).tolist()
    [31]
    """
    if len(tokens) == 0:
        return np.zeros(0, dtype=np.int64)
    fixed = tokens.astype(np.bytes_)
    if base == 10:
        return fixed.astype(np.int64)
    if base != 16:
        raise ValueError(f"base must be 10 or 16, got {base}")
    width = fixed.dtype.itemsize
    digits = fixed.view(np.uint8).reshape(len(fixed), width)
    values = _HEX[digits]
    if (values < 0).any():
        raise ValueError("invalid hexadecimal token")
    out = np.zeros(len(fixed), dtype=np.int64)
    for col in range(width):  # a loop over digit positions, not over tokens
        present = digits[:, col] != 0
        out = np.where(present, out * 16 + values[:, col], out)
    return out


_HEX = np.full(256, -1, dtype=np.int64)
_HEX[0] = 0  # NumPy's padding of shorter tokens
for _i, _c in enumerate(b"0123456789abcdef"):
    _HEX[_c] = _i
    _HEX[bytes([_c]).upper()[0]] = _i

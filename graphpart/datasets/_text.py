"""Vectorised tokenising of line-oriented text files (METIS graphs, WordNet data).

The whole buffer is scanned with NumPy: tokens are byte ranges, numbers are
parsed digit column by digit column, and no Python object is made per line or
per token.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Lines", "tokenize_lines"]

_SPACE = np.zeros(256, dtype=bool)
_SPACE[[9, 10, 11, 12, 13, 32]] = True
_DIGIT = np.full(256, -1, dtype=np.int8)
for _i, _c in enumerate(b"0123456789abcdef"):
    _DIGIT[_c] = _i
    _DIGIT[bytes([_c]).upper()[0]] = _i


@dataclass(frozen=True)
class Lines:
    """Tokens of a text as byte ranges, grouped by line.

    ``counts[i]`` is the number of tokens of line ``i`` (0 for a comment line,
    which ``skipped`` marks); tokens are numbered in reading order.
    """

    buf: np.ndarray  # uint8, comments and cut-off parts blanked
    start: np.ndarray  # first byte of each token
    end: np.ndarray  # one past the last byte of each token
    counts: np.ndarray  # tokens per line
    skipped: np.ndarray  # comment lines

    @property
    def starts(self) -> np.ndarray:
        """Index of each line's first token."""
        return np.cumsum(self.counts) - self.counts

    def _columns(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s = self.start[idx]
        width = int((self.end[idx] - s).max()) if len(idx) else 0
        cols = np.arange(width)
        valid = cols[None, :] < (self.end[idx] - s)[:, None]
        pos = np.minimum(s[:, None] + cols[None, :], max(len(self.buf) - 1, 0))
        chars = np.where(valid, self.buf[pos] if len(self.buf) else 0, 0).astype(np.uint8)
        return chars, valid

    def text(self, idx: np.ndarray) -> np.ndarray:
        """The tokens ``idx`` as a NumPy bytes array.

        Examples
        --------
        >>> tokenize_lines(b"ab c\\n").text(np.array([1, 0])).tolist()
        [b'c', b'ab']
        """
        chars, _ = self._columns(np.asarray(idx, dtype=np.int64))
        if chars.shape[1] == 0:
            return np.zeros(len(chars), dtype="S1")
        return np.ascontiguousarray(chars).view(f"S{chars.shape[1]}").ravel()

    def ints(self, idx: np.ndarray, base: int = 10) -> np.ndarray:
        """The tokens ``idx`` parsed as int64 (a leading ``-`` allowed); ValueError on junk.

        Examples
        --------
        >>> t = tokenize_lines(b"12 -3 1f\\n")
        >>> t.ints(np.array([0, 1])).tolist(), t.ints(np.array([2]), base=16).tolist()
        ([12, -3], [31])
        """
        chars, valid = self._columns(np.asarray(idx, dtype=np.int64))
        if chars.shape[1] == 0:
            return np.zeros(len(chars), dtype=np.int64)
        if chars.shape[1] > 18:
            raise ValueError("a number has more than 18 digits")
        negative = chars[:, 0] == ord("-")
        digits = _DIGIT[chars]
        digit_ok = (digits >= 0) & (digits < base)
        digit_ok[:, 0] |= negative
        if (valid & ~digit_ok).any() or (negative & (valid.sum(1) == 1)).any():
            raise ValueError("expected integer tokens")
        out = np.zeros(len(chars), dtype=np.int64)
        for col in range(chars.shape[1]):  # a loop over digit positions, not over tokens
            use = valid[:, col] & ~(negative & (col == 0))
            out = np.where(use, out * base + digits[:, col], out)
        return np.where(negative, -out, out)


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
    >>> lines.counts.tolist(), lines.skipped.tolist(), lines.ints(np.arange(3)).tolist()
    ([0, 2, 0, 1], [True, False, False, False], [1, 2, 3])
    """
    buf = np.frombuffer(data, dtype=np.uint8).copy()
    newline = buf == 10
    starts = np.concatenate([[0], np.flatnonzero(newline) + 1])
    if len(buf) == 0 or buf[-1] == 10:
        starts = starts[:-1]  # no phantom line after a final newline
    # line index of every byte (int32: the buffer is scanned per byte, keep it lean)
    line_of = np.cumsum(newline, dtype=np.int32) - newline
    nlines = len(starts)
    skipped = np.zeros(nlines, dtype=bool)
    if comment is not None and nlines:
        skipped = buf[starts] == comment[0]
        buf[skipped[line_of] & ~newline] = 32
    if cut is not None and nlines:
        hits = np.cumsum(buf == cut[0], dtype=np.int32)
        before_line = np.concatenate([np.zeros(1, np.int32), hits])[starts][line_of]
        buf[(hits - before_line > 0) & ~newline] = 32
    space = _SPACE[buf]
    prev_space = np.concatenate([[True], space[:-1]])
    next_space = np.concatenate([space[1:], [True]])
    start = np.flatnonzero(~space & prev_space)
    end = np.flatnonzero(~space & next_space) + 1
    counts = np.bincount(line_of[start], minlength=nlines).astype(np.int64)
    return Lines(buf, start, end, counts, skipped)

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

    def _column(self, s: np.ndarray, length: np.ndarray, col: int) -> np.ndarray:
        """Byte ``col`` of each token (0 past its end), one gather per column."""
        pos = np.minimum(s + col, max(len(self.buf) - 1, 0))
        chars = self.buf[pos] if len(self.buf) else np.zeros(len(s), np.uint8)
        return np.where(col < length, chars, 0).astype(np.uint8)

    def text(self, idx: np.ndarray) -> np.ndarray:
        """The tokens ``idx`` as a NumPy bytes array.

        Examples
        --------
        >>> tokenize_lines(b"ab c\\n").text(np.array([1, 0])).tolist()
        [b'c', b'ab']
        """
        idx = np.asarray(idx, dtype=np.int64)
        s = self.start[idx]
        length = self.end[idx] - s
        width = max(int(length.max()) if len(idx) else 0, 1)
        chars = np.zeros((len(idx), width), dtype=np.uint8)
        for col in range(width):  # a loop over character positions, not over tokens
            chars[:, col] = self._column(s, length, col)
        return chars.view(f"S{width}").ravel()

    def ints(self, idx: np.ndarray, base: int = 10) -> np.ndarray:
        """The tokens ``idx`` parsed as int64 (a leading ``-`` allowed); ValueError on junk.

        Examples
        --------
        >>> t = tokenize_lines(b"12 -3 1f\\n")
        >>> t.ints(np.array([0, 1])).tolist(), t.ints(np.array([2]), base=16).tolist()
        ([12, -3], [31])
        """
        idx = np.asarray(idx, dtype=np.int64)
        s = self.start[idx]
        length = self.end[idx] - s
        out = np.zeros(len(idx), dtype=np.int64)
        if len(idx) == 0:
            return out
        if int(length.max()) > 18:
            raise ValueError("a number has more than 18 digits")
        negative = self._column(s, length, 0) == ord("-")
        if (negative & (length == 1)).any():
            raise ValueError("expected integer tokens")
        for col in range(int(length.max())):  # a loop over digit positions, not over tokens
            use = (col < length) & ~(negative & (col == 0))
            digit = _DIGIT[self._column(s, length, col)].astype(np.int64)
            if (use & ((digit < 0) | (digit >= base))).any():
                raise ValueError("expected integer tokens")
            out = np.where(use, out * base + digit, out)
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


def format_lines(values: np.ndarray, counts: np.ndarray) -> bytes:
    """Write non-negative ints as text, ``counts[i]`` space-separated per line.

    The inverse of :func:`tokenize_lines` for numbers, vectorised: digits are
    placed column by column into one byte buffer.

    Examples
    --------
    >>> format_lines(np.array([1, 20, 0, 305]), np.array([2, 0, 2]))
    b'1 20\\n\\n0 305\\n'
    """
    values = np.asarray(values, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    if len(values) and values.min() < 0:
        raise ValueError("format_lines writes non-negative integers only")
    ndig = np.ones(len(values), dtype=np.int64)
    for k in range(1, 19):
        ndig += values >= 10**k
    # Every value takes its digits plus one separator (a newline after a line's
    # last value, else a space); an empty line takes a lone newline.
    line = np.repeat(np.arange(len(counts)), counts)
    last = np.zeros(len(values), dtype=bool)
    last[np.cumsum(counts)[counts > 0] - 1] = True
    value_len = ndig + 1
    empty = counts == 0
    # Item order: values grouped by line, with each empty line's newline in its place.
    item_line = np.concatenate([line, np.flatnonzero(empty)])
    item_len = np.concatenate([value_len, np.ones(int(empty.sum()), dtype=np.int64)])
    order = np.argsort(item_line, kind="stable")
    start = np.empty(len(order), dtype=np.int64)
    start[order] = np.cumsum(item_len[order]) - item_len[order]
    out = np.full(int(item_len.sum()), ord(" "), dtype=np.uint8)
    vstart = start[: len(values)]
    for j in range(int(ndig.max()) if len(ndig) else 0):  # one pass per digit column
        has = ndig > j
        out[vstart[has] + ndig[has] - 1 - j] = 48 + (values[has] // 10**j) % 10
    out[vstart[last] + ndig[last]] = ord("\n")
    out[start[len(values) :]] = ord("\n")
    return out.tobytes()

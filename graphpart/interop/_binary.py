"""DGL's binary building blocks: little-endian scalars, strings, vectors and ``NDArray`` records.

Reading maps the file (copy-on-write, so nothing is ever written back) and returns tensors that
are views of the mapping: a 10 GB feature file costs page cache, not a copy. Every read checks
that the bytes exist and that lengths are plausible, so a truncated or hostile file raises
:class:`~graphpart.errors.FormatError` naming the file and the byte offset instead of
allocating wildly or reading garbage.

NDArray record (all little-endian)::

    u64 magic 0xDD5E40F096B4A13F | u64 reserved | i32 device type (1 = CPU) | i32 device id
    i32 ndim | u8 dtype code, u8 bits, u16 lanes | i64 shape[ndim] | i64 byte count | data
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import BinaryIO

import numpy as np
import torch

from ..errors import FormatError

__all__ = ["Reader", "Writer", "NDARRAY_MAGIC", "MAX_NDIM"]

NDARRAY_MAGIC = 0xDD5E40F096B4A13F
#: No tensor DGL writes has more dimensions; a larger count means a damaged or hostile file.
MAX_NDIM = 32
_CPU = 1
# (DLPack type code, bits) <-> torch dtype: what DGL 2.x loads (its loader refuses unsigned types
# wider than a byte: "Unsupported kUInt bits"). Code 6 (bool) is read only: DGL stores bool as
# uint8.
_DTYPES = {
    (0, 8): torch.int8,
    (0, 16): torch.int16,
    (0, 32): torch.int32,
    (0, 64): torch.int64,
    (1, 8): torch.uint8,
    (2, 16): torch.float16,
    (2, 32): torch.float32,
    (2, 64): torch.float64,
    (4, 16): torch.bfloat16,
    (6, 8): torch.bool,
}
_CODES = {v: k for k, v in _DTYPES.items() if k[0] != 6}
_CODES[torch.bool] = (1, 8)
_NUMPY = {torch.bfloat16: np.uint16, torch.bool: np.uint8}


class Reader:
    """Sequential reads over a memory-mapped file; every read is bounds-checked.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "x.bin")
    >>> with open(path, "wb") as f:
    ...     w = Writer(f)
    ...     w.u64(7); w.string("hi"); w.ndarray(torch.arange(3))
    >>> r = Reader(path)
    >>> r.u64(), r.string(), r.ndarray().tolist()
    (7, 'hi', [0, 1, 2])
    """

    def __init__(self, path: str | os.PathLike, offset: int = 0) -> None:
        self.path = Path(path)
        size = self.path.stat().st_size
        # mode "c": copy-on-write pages, so torch gets writable views and the file is never changed.
        self.buf = np.memmap(self.path, dtype=np.uint8, mode="c") if size else np.zeros(0, np.uint8)
        self.size = size
        self.pos = offset

    # ------------------------------------------------------------------ errors
    def fail(self, msg: str, at: int | None = None) -> FormatError:
        """A :class:`FormatError` naming the file and the offset."""
        return FormatError(f"{self.path}: at byte {self.pos if at is None else at}: {msg}")

    def need(self, n: int, what: str) -> None:
        """Raise unless ``n`` more bytes exist."""
        if n < 0 or self.pos + n > self.size:
            raise self.fail(
                f"{what} needs {n} bytes but the file ends at byte {self.size} (truncated?)"
            )

    # ------------------------------------------------------------------ scalars
    def _unpack(self, fmt: str, what: str):
        n = struct.calcsize(fmt)
        self.need(n, what)
        value = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += n
        return value

    def u64(self, what: str = "a u64") -> int:
        return self._unpack("<Q", what)[0]

    def i64(self, what: str = "an i64") -> int:
        return self._unpack("<q", what)[0]

    def i32(self, what: str = "an i32") -> int:
        return self._unpack("<i", what)[0]

    def u8(self, what: str = "a byte") -> int:
        return self._unpack("<B", what)[0]

    def flag(self, what: str = "a bool") -> bool:
        value = self.u8(what)
        if value > 1:
            raise self.fail(f"{what} must be 0 or 1, got {value}", self.pos - 1)
        return bool(value)

    def magic(self, expected: int, what: str) -> None:
        at = self.pos
        got = self.u64(f"the {what} magic number")
        if got != expected:
            raise self.fail(f"expected the {what} magic number {expected:#x}, got {got:#x}", at)

    def count(self, what: str, item_bytes: int = 1) -> int:
        """A u64 length, checked against the bytes left (each item takes at least
        ``item_bytes``)."""
        at = self.pos
        n = self.u64(f"the length of {what}")
        if n * max(item_bytes, 1) > self.size - self.pos:
            raise self.fail(
                f"{what} claims {n} items but only {self.size - self.pos} bytes remain", at
            )
        return n

    def string(self, what: str = "a string") -> str:
        n = self.count(what)
        raw = bytes(self.buf[self.pos : self.pos + n])
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail(f"{what} is not UTF-8") from None
        self.pos += n
        return text

    def strings(self, what: str) -> list[str]:
        return [self.string(f"{what}[{i}]") for i in range(self.count(what, 8))]

    # ------------------------------------------------------------------ NDArray
    def ndarray(self, what: str = "an NDArray") -> torch.Tensor:
        """One NDArray record as a tensor viewing the mapped file (no copy)."""
        start = self.pos
        self.magic(NDARRAY_MAGIC, f"NDArray ({what})")
        self.u64("the NDArray reserved field")
        dev_type, _dev_id = self.i32("the device type"), self.i32("the device id")
        if dev_type != _CPU:
            raise self.fail(
                f"{what} was saved from device type {dev_type}; only CPU arrays (1) are stored",
                start,
            )
        ndim = self.i32("ndim")
        if not 0 <= ndim <= MAX_NDIM:
            raise self.fail(f"{what} has ndim {ndim}, expected 0..{MAX_NDIM}", self.pos - 4)
        code, bits, lanes = self._unpack("<BBH", "the dtype")
        dtype = _DTYPES.get((code, bits))
        if dtype is None or lanes != 1:
            raise self.fail(
                f"{what} has an unsupported dtype (code {code}, {bits} bits, {lanes} lanes)",
                self.pos - 4,
            )
        self.need(8 * ndim, "the shape")
        shape = tuple(int(s) for s in np.frombuffer(self.buf, "<i8", ndim, self.pos))
        self.pos += 8 * ndim
        if any(s < 0 for s in shape):
            raise self.fail(
                f"{what} has a negative dimension in shape {shape}", self.pos - 8 * ndim
            )
        nbytes = self.i64("the byte count")
        expected = int(np.prod(shape, dtype=object)) * (bits // 8)
        if nbytes != expected:
            raise self.fail(
                f"{what} of shape {shape} and {bits}-bit items needs {expected} bytes, "
                f"the record says {nbytes}",
                self.pos - 8,
            )
        self.need(nbytes, f"the data of {what}")
        np_dtype = _NUMPY.get(dtype, None) or torch.empty(0, dtype=dtype).numpy().dtype
        flat = self.buf[self.pos : self.pos + nbytes].view(np.dtype(np_dtype).newbyteorder("<"))
        self.pos += nbytes
        # DGL's records are packed, so most arrays start at an odd offset; torch reads such views
        # correctly on x86-64 and ARM64, so they are mapped rather than copied.
        try:
            t = torch.from_numpy(flat.reshape(shape))
        except (ValueError, RuntimeError) as exc:  # e.g. an empty array with absurd dimensions
            raise self.fail(f"{what} of shape {shape} cannot be made ({exc})", start) from None
        if dtype in _NUMPY:
            t = t.view(dtype)
        return t


class Writer:
    """Little-endian writes of DGL's records onto a binary file object."""

    def __init__(self, f: BinaryIO) -> None:
        self.f = f

    def tell(self) -> int:
        return self.f.tell()

    def u64(self, v: int) -> None:
        self.f.write(struct.pack("<Q", v))

    def i64(self, v: int) -> None:
        self.f.write(struct.pack("<q", v))

    def i32(self, v: int) -> None:
        self.f.write(struct.pack("<i", v))

    def u8(self, v: int) -> None:
        self.f.write(struct.pack("<B", v))

    def string(self, s: str) -> None:
        raw = s.encode("utf-8")
        self.u64(len(raw))
        self.f.write(raw)

    def strings(self, items: list[str]) -> None:
        self.u64(len(items))
        for s in items:
            self.string(s)

    def ndarray_head(self, dtype: torch.dtype, shape: tuple[int, ...]) -> None:
        """The head of an NDArray record of ``dtype`` and ``shape``, up to its byte count; its
        data follows (all of it, in row order: :meth:`ndarray` writes both)."""
        if dtype not in _CODES:
            raise FormatError(
                f"DGL's NDArray cannot hold dtype {dtype}; expected one of "
                f"{sorted(str(d) for d in _CODES)}"
            )
        code, bits = _CODES[dtype]
        self.u64(NDARRAY_MAGIC)
        self.u64(0)
        self.i32(_CPU)
        self.i32(0)
        self.i32(len(shape))
        self.f.write(struct.pack("<BBH", code, bits, 1))
        for s in shape:
            self.i64(int(s))
        self.i64(int(np.prod(shape, dtype=np.int64)) * bits // 8)

    def ndarray(self, t: torch.Tensor) -> None:
        """One NDArray record (bool is stored as uint8, as DGL does)."""
        if not isinstance(t, torch.Tensor):
            t = torch.as_tensor(t)
        t = t.detach().cpu()
        self.ndarray_head(t.dtype, tuple(t.shape))
        if t.dtype == torch.bool:
            t = t.to(torch.uint8)
        data = t.contiguous()
        if data.dtype == torch.bfloat16:  # numpy has no bfloat16: write its bits
            data = data.view(torch.int16)
        arr = np.ascontiguousarray(data.numpy()).reshape(-1)
        if arr.nbytes:
            self.f.write(memoryview(arr).cast("B"))

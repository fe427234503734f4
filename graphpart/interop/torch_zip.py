"""``torch.save``'s zip layout, written and read one block at a time.

``torch.save`` needs every tensor in memory; a partition of a graph larger than memory is
assembled one block of edges at a time, so :class:`TorchZipWriter` lays the archive out from the
tensors' dtypes and shapes alone and fills each tensor's record as its rows arrive.
:func:`read_torch_zip` opens such a file (or one ``torch.save`` wrote) as a tree whose tensors
are :class:`StoredArray` s, read a slice at a time, so a checker's memory does not grow with the
file.

The layout (what ``torch.load`` of torch 2.x reads): a zip of stored (uncompressed) records
``archive/data.pkl`` (the object tree, pickle protocol 2, each tensor a
``torch._utils._rebuild_tensor_v2`` call on a persistent ``('storage', torch.<T>Storage, key,
'cpu', numel)``), ``archive/.format_version``, ``archive/.storage_alignment``,
``archive/byteorder``, ``archive/data/<key>`` (the raw little-endian bytes, 64-byte aligned by a
padding extra field ``FB``), ``archive/version`` and ``archive/.data/serialization_id``. Records
past 4 GiB, and offsets past it, use the ZIP64 extensions.
"""

from __future__ import annotations

import collections
import copy
import os
import pickle
import struct
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ..errors import FormatError
from ..utils.check import short_repr

__all__ = ["Stream", "TorchZipWriter", "StoredArray", "read_torch_zip"]

ALIGN = 64
#: Sizes and offsets from here on take ZIP64 fields (a constant so that tests can lower it).
ZIP64_LIMIT = 0xFFFFFFFF
_STORAGES = {
    "int64": "LongStorage",
    "int32": "IntStorage",
    "int16": "ShortStorage",
    "int8": "CharStorage",
    "uint8": "ByteStorage",
    "bool": "BoolStorage",
    "float64": "DoubleStorage",
    "float32": "FloatStorage",
    "float16": "HalfStorage",
}
_DTYPES = {v: np.dtype(k) for k, v in _STORAGES.items()}
#: The dtypes a torch file written here holds (those torch has a storage class for).
STORABLE = frozenset(_STORAGES)
_MAX_PICKLE = 64 << 20
_DOS_DATE = (0 << 9) | (1 << 5) | 1  # 1980-01-01, as torch writes it


class Stream:
    """A tensor of ``shape`` and ``dtype`` whose rows :meth:`TorchZipWriter.append` supplies.

    Parameters
    ----------
    dtype : numpy.dtype or str
        A fixed-size numeric dtype (bool, int, uint, float); a torch file holds only those torch
        has a storage class for (int64, int32, int16, int8, uint8, bool, float64, float32,
        float16): :class:`TorchZipWriter` refuses the others, which other files (DGL's tensor
        files) can take.
    shape : tuple of int
        The whole tensor's shape; rows are appended along its first axis.
    """

    def __init__(self, dtype: np.dtype | str, shape: tuple[int, ...]) -> None:
        self.dtype = np.dtype(dtype)
        if self.dtype.kind not in "biuf" or self.dtype.fields is not None:
            raise ValueError(f"a stream holds numbers, not {self.dtype}")
        self.shape = tuple(int(x) for x in shape)
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize
        self.key = ""
        self.offset = self.filled = 0
        self.crc = 0


class _Storage:
    def __init__(self, stream: Stream) -> None:
        self.stream = stream


class _Pickler(pickle._Pickler):
    """Streams as tensor rebuilds over persistent storages; classes in ``names`` written under the
    global names given (stand-ins for classes that cannot be imported here, e.g. DGL's). The
    pure-Python pickler: its ``save_global`` can be told the names, and the tree is small."""

    def __init__(self, f, names: dict | None = None) -> None:
        super().__init__(f, protocol=2)
        self.names = names or {}

    def reducer_override(self, obj):  # noqa: D102 - pickle's hook
        if isinstance(obj, Stream):
            import torch._utils

            shape = obj.shape
            stride = tuple(int(np.prod(shape[i + 1 :], dtype=np.int64)) for i in range(len(shape)))
            args = (_Storage(obj), 0, shape, stride, False, collections.OrderedDict())
            return torch._utils._rebuild_tensor_v2, args
        return NotImplemented

    def persistent_id(self, obj):  # noqa: D102 - pickle's hook
        if isinstance(obj, _Storage):
            import torch

            s = obj.stream
            numel = s.nbytes // s.dtype.itemsize
            return ("storage", getattr(torch, _STORAGES[s.dtype.name]), s.key, "cpu", numel)
        return None

    def save_global(self, obj, name=None):  # noqa: D102 - pickle's hook
        names = self.names.get(obj) if isinstance(obj, type) else None
        if names is None:
            return super().save_global(obj, name)
        self.write(pickle.GLOBAL + f"{names[0]}\n{names[1]}\n".encode())
        self.memoize(obj)


def _walk(tree: object, leaf) -> object:
    """``tree`` rebuilt with ``leaf(x)`` for each leaf: into dicts, tuples, lists and the state
    (``__dict__``) of other objects (a shallow copy each); strings, numbers and arrays are
    leaves."""
    if isinstance(tree, dict):
        return {k: _walk(v, leaf) for k, v in tree.items()}
    if isinstance(tree, (tuple, list)):
        return type(tree)(_walk(v, leaf) for v in tree)
    if isinstance(tree, (Stream, np.ndarray)) or type(tree).__name__ == "Tensor":
        return leaf(tree)
    if hasattr(tree, "__dict__") and not isinstance(tree, type):
        new = copy.copy(tree)
        new.__dict__.update({k: _walk(v, leaf) for k, v in vars(tree).items()})
        return new
    return tree


def _leaves(tree: object) -> list[Stream]:
    found: list[Stream] = []
    _walk(tree, lambda x: found.append(x) if isinstance(x, Stream) else x)
    return found


def _as_streams(tree: object, given: list) -> object:
    """``tree`` with each array replaced by a :class:`Stream` (and noted in ``given``)."""

    def leaf(x):
        if isinstance(x, Stream):
            return x
        a = np.asarray(x.numpy() if hasattr(x, "numpy") else x, order="C")  # 0-d stays 0-d
        s = Stream(a.dtype, a.shape)
        given.append((s, a))
        return s

    return _walk(tree, leaf)


def _local_header(name: bytes, size: int, crc: int, offset: int) -> bytes:
    big = size >= ZIP64_LIMIT
    zip64 = struct.pack("<HHQQ", 1, 16, size, size) if big else b""
    base = offset + 30 + len(name) + len(zip64) + 4
    pad = (-base) % ALIGN
    extra = zip64 + struct.pack("<HH", 0x4246, pad) + b"\0" * pad  # "FB": torch's padding
    field = 0xFFFFFFFF if big else size
    head = struct.pack(
        "<IHHHHHIIIHH", 0x04034B50, 45 if big else 20, 0, 0, 0, _DOS_DATE, crc, field, field,
        len(name), len(extra),
    )  # fmt: skip
    return head + name + extra


def _central(name: bytes, size: int, crc: int, offset: int) -> bytes:
    big = size >= ZIP64_LIMIT or offset >= ZIP64_LIMIT
    extra = struct.pack("<HHQQQ", 1, 24, size, size, offset) if big else b""
    field, at = (0xFFFFFFFF, 0xFFFFFFFF) if big else (size, offset)
    return (
        struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            45,
            45 if big else 20,
            0,
            0,
            0,
            _DOS_DATE,
            crc,
            field,
            field,
            len(name),
            len(extra),
            0,
            0,
            0,
            0,
            at,
        )  # fmt: skip
        + name
        + extra
    )


class TorchZipWriter:
    """Write ``tree`` (nested dicts of arrays, :class:`Stream` s, ints, floats, strings) to ``f`` as
    ``torch.save`` would, each :class:`Stream` filled later by :meth:`append` in row order.

    ``f`` is a file opened for writing at its start (e.g. from
    :func:`graphpart.fs.atomic.atomic_write`); :meth:`close` writes the directory and checks
    that every stream is full. Memory: the pickled tree and one block.

    Parameters
    ----------
    f : binary file object
        Opened for writing, positioned at its start, seekable; records are written at their
        offsets as they are laid out.
    tree : object
        Nested dicts (or tuples, lists, and objects whose ``__dict__`` is their pickled state)
        whose leaves are numpy arrays or tensors (written at once), :class:`Stream` s (filled
        later) or plain ints, floats and strings.
    names : dict of type to (str, str), optional
        Classes in ``tree`` pickled under other global names ``(module, name)``: stand-ins for
        classes that are not importable here (GraphBolt's graph, without DGL).

    Examples
    --------
    >>> import io, torch
    >>> f = io.BytesIO()
    >>> src = Stream("int64", (5,))
    >>> w = TorchZipWriter(f, {"n": 5, "src": src, "w": np.ones(2, dtype=np.float32)})
    >>> w.append(src, np.arange(3)); w.append(src, np.arange(3, 5)); w.close()
    >>> _ = f.seek(0)
    >>> torch.load(f, weights_only=True)["src"].tolist()
    [0, 1, 2, 3, 4]
    """

    def __init__(self, f: BinaryIO, tree: object, names: dict | None = None) -> None:
        given: list = []
        tree = _as_streams(tree, given)
        self.streams = _leaves(tree)
        for i, s in enumerate(self.streams):
            if s.dtype.name not in _STORAGES:
                raise ValueError(f"no torch storage for dtype {s.dtype}")
            s.key = str(i)
        pkl = _dumps(tree, names)
        small = [
            (b"archive/data.pkl", pkl),
            (b"archive/.format_version", b"1"),
            (b"archive/.storage_alignment", str(ALIGN).encode()),
            (b"archive/byteorder", b"little"),
        ]
        tail = [
            (b"archive/version", b"3\n"),
            (b"archive/.data/serialization_id", str(int.from_bytes(os.urandom(16))).encode()),
        ]
        self.f, self.entries, at = f, [], 0
        for name, data in small:
            at = self._put(at, name, data)
        for s in self.streams:
            head = _local_header(b"archive/data/" + s.key.encode(), s.nbytes, 0, at)
            self.entries.append([b"archive/data/" + s.key.encode(), s.nbytes, 0, at, s])
            s.offset = at + len(head)
            self._write(at, head)
            at = s.offset + s.nbytes
        for name, data in tail:
            at = self._put(at, name, data)
        self.end = at
        for s, a in given:
            self.append(s, a)

    def _write(self, at: int, data: bytes | memoryview) -> None:
        self.f.seek(at)
        self.f.write(data)

    def _put(self, at: int, name: bytes, data: bytes) -> int:
        crc = zlib.crc32(data)
        head = _local_header(name, len(data), crc, at)
        self.entries.append([name, len(data), crc, at, None])
        self._write(at, head + data)
        return at + len(head) + len(data)

    def append(self, stream: Stream, rows: np.ndarray) -> None:
        """Write the next ``rows`` of ``stream`` (cast to its dtype)."""
        a = np.ascontiguousarray(rows, dtype=stream.dtype)
        if a.shape[1:] != stream.shape[1:] or stream.filled + a.nbytes > stream.nbytes:
            raise ValueError(
                f"record {stream.key}: rows of shape {a.shape} do not fit its shape {stream.shape}"
                f" ({stream.filled} of {stream.nbytes} bytes written)"
            )
        if not a.nbytes:
            return
        data = memoryview(a.reshape(-1)).cast("B")
        self._write(stream.offset + stream.filled, data)
        stream.crc = zlib.crc32(data, stream.crc)
        stream.filled += a.nbytes

    def close(self) -> None:
        """Write the CRCs and the central directory; every stream must be full."""
        cd = bytearray()
        for entry in self.entries:
            name, size, crc, at, s = entry
            if s is not None:
                if s.filled != s.nbytes:
                    raise ValueError(f"record {s.key}: {s.filled} of {s.nbytes} bytes written")
                crc = s.crc
                self._write(at, _local_header(name, size, crc, at))
            cd += _central(name, size, crc, at)
        n, cd_at = len(self.entries), self.end
        self._write(cd_at, bytes(cd))
        end = cd_at + len(cd)
        if cd_at >= ZIP64_LIMIT or n >= 0xFFFF:
            z64 = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n, len(cd), cd_at)
            loc = struct.pack("<IIQI", 0x07064B50, 0, end, 1)
            self._write(end, z64 + loc)
            end += len(z64) + len(loc)
            n16, size32, at32 = 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF
        else:
            n16, size32, at32 = n, len(cd), cd_at
        self._write(end, struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n16, n16, size32, at32, 0))
        self.f.truncate(end + 22)


def _dumps(tree: object, names: dict | None) -> bytes:
    import io

    buf = io.BytesIO()
    _Pickler(buf, names).dump(tree)
    return buf.getvalue()


class StoredArray:
    """A tensor record of a torch zip file, read a slice at a time (``a[lo:hi]``, ``a.read()``).

    Parameters
    ----------
    path : pathlib.Path
        The torch zip file.
    offset : int
        Byte offset of the tensor's first item in the file.
    dtype : numpy.dtype
        The items' dtype (read in native byte order).
    shape : tuple of int
        The tensor's shape; slices index its first axis (a 0-d tensor has one row).
    """

    def __init__(self, path: Path, offset: int, dtype: np.dtype, shape: tuple[int, ...]) -> None:
        self.path, self.offset, self.dtype, self.shape = path, offset, dtype, shape
        self.row = int(np.prod(shape[1:], dtype=np.int64)) if len(shape) > 1 else 1

    def __len__(self) -> int:
        return self.shape[0] if self.shape else 1

    def __getitem__(self, rows: slice) -> np.ndarray:
        if not isinstance(rows, slice) or rows.step not in (None, 1):
            raise TypeError("a StoredArray is read by contiguous slices")
        lo, hi, _ = rows.indices(len(self))
        hi = max(hi, lo)
        at = self.offset + lo * self.row * self.dtype.itemsize
        a = np.fromfile(self.path, dtype=self.dtype, count=(hi - lo) * self.row, offset=at)
        return a.reshape((hi - lo, *self.shape[1:]))

    def read(self) -> np.ndarray:
        """The whole array."""
        return self[:] if self.shape else self[:].reshape(())


class _Unpickler(pickle.Unpickler):
    """Only what a tree of tensors needs; a storage becomes its record's place in the file."""

    def __init__(
        self, data: bytes, records: dict[str, tuple[int, int]], path: Path, names: dict
    ) -> None:
        import io

        super().__init__(io.BytesIO(data))
        self.records, self.path = records, path
        self.classes = {v: k for k, v in names.items()}

    def find_class(self, module: str, name: str):  # noqa: D102 - pickle's hook
        if (module, name) in self.classes:
            return self.classes[module, name]
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return self._tensor
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if module == "torch" and name in _DTYPES:
            return _DTYPES[name]
        raise FormatError(f"{self.path}: {module}.{name} is not part of a tree of tensors")

    def persistent_load(self, pid):  # noqa: D102 - pickle's hook
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            raise FormatError(
                f"{self.path}: a persistent id {short_repr(str(pid)[:80])} is not a storage"
            )
        _, dtype, key, _, numel = pid
        if not isinstance(dtype, np.dtype) or str(key) not in self.records:
            raise FormatError(f"{self.path}: storage {short_repr(str(key)[:40])} has no record")
        at, size = self.records[str(key)]
        if not isinstance(numel, int) or numel * dtype.itemsize != size:
            raise FormatError(f"{self.path}: storage {key} holds {size} bytes, not {numel} items")
        return (dtype, at, numel)

    def _tensor(self, storage, offset, shape, stride, *_):
        dtype, at, numel = storage
        shape = tuple(int(x) for x in shape)
        want = tuple(int(np.prod(shape[i + 1 :], dtype=np.int64)) for i in range(len(shape)))
        if tuple(stride) != want or offset < 0 or offset + int(np.prod(shape)) > numel:
            raise FormatError(f"{self.path}: a tensor that is not a contiguous part of its storage")
        return StoredArray(self.path, at + offset * dtype.itemsize, dtype, shape)


def read_torch_zip(path: str | os.PathLike, names: dict | None = None) -> object:
    """The object tree of a torch zip file, each tensor a :class:`StoredArray` (nothing but the
    tree is read; only dicts, numbers, strings and tensors are accepted).

    Parameters
    ----------
    path : str or os.PathLike
        A zip file as ``torch.save`` writes it, or as :class:`TorchZipWriter` does; each tensor
        must be a contiguous part of an uncompressed storage record.
    names : dict of type to (str, str), optional
        Stand-in classes allowed in the tree, by the global names they stand for (as
        :class:`TorchZipWriter` takes them); they receive their state and nothing else runs.

    Returns
    -------
    object
        The unpickled tree (usually a dict), each tensor replaced by a :class:`StoredArray`.

    Raises
    ------
    FormatError
        The file is not a readable zip with one ``data.pkl`` of at most 64 MiB, a record runs
        past the file's end, or the pickle names anything but tensors, storages and
        ``OrderedDict``.
    """
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as z, open(path, "rb") as f:
            infos = z.infolist()
            pkl = [i for i in infos if i.filename.endswith("/data.pkl")]
            if len(pkl) != 1 or pkl[0].file_size > _MAX_PICKLE:
                raise FormatError(f"{path}: not a torch zip file (no data.pkl, or one too large)")
            prefix = pkl[0].filename[: -len("data.pkl")]
            records = {}
            for i in infos:
                if (
                    i.filename.startswith(prefix + "data/")
                    and i.compress_type == zipfile.ZIP_STORED
                ):
                    f.seek(i.header_offset)
                    head = f.read(30)
                    if len(head) < 30 or head[:4] != b"PK\x03\x04":
                        raise FormatError(f"{path}: damaged record {i.filename}")
                    nlen, xlen = struct.unpack("<HH", head[26:30])
                    at = i.header_offset + 30 + nlen + xlen
                    if at + i.file_size > os.path.getsize(path):
                        raise FormatError(f"{path}: record {i.filename} runs past the file's end")
                    records[i.filename[len(prefix + "data/") :]] = (at, i.file_size)
            data = z.read(pkl[0])
    except (zipfile.BadZipFile, OSError, struct.error) as exc:
        raise FormatError(f"{path}: not a readable torch zip file ({exc})") from None
    try:
        return _Unpickler(data, records, path, names or {}).load()
    except FormatError:
        raise
    except Exception as exc:  # a damaged pickle raises many types
        raise FormatError(f"{path}: damaged object tree ({type(exc).__name__}: {exc})") from None

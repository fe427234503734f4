"""``dgl.data.save_tensors`` / ``load_tensors`` files: a dict of named tensors, in torch alone.

Layout: u64 magic ``0xDD5A9FBE3FA2443F``, u64 count, then the list itself (u64 count again,
then ``(string name, NDArray)`` pairs). DGL writes partition features this way
(``node_feat.dgl`` keyed ``ntype/name``, ``edge_feat.dgl`` keyed ``src:rel:dst/name``).
Reading maps the file: the tensors are views of it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import torch

from ..errors import FormatError
from ..fs.atomic import atomic_write
from ._binary import Reader, Writer

__all__ = ["load_tensors", "save_tensors"]

TENSOR_FILE_MAGIC = 0xDD5A9FBE3FA2443F


def load_tensors(path: str | os.PathLike) -> dict[str, torch.Tensor]:
    """Read a ``save_tensors`` file into ``{name: tensor}`` (memory-mapped).

    Parameters
    ----------
    path : str or os.PathLike
        A file written by ``dgl.data.save_tensors`` or :func:`save_tensors`.

    Returns
    -------
    dict of str to torch.Tensor
        The tensors in file order, each a view of the mapped file (bool data comes back as
        uint8, as DGL stores it).

    Raises
    ------
    FormatError
        The file has another magic number, repeats a name, is truncated or has trailing bytes.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "feat.dgl")
    >>> save_tensors(path, {"_N/feat": torch.ones(2, 3), "_N/mask": torch.tensor([True, False])})
    >>> {k: (tuple(v.shape), v.dtype) for k, v in load_tensors(path).items()}
    {'_N/feat': ((2, 3), torch.float32), '_N/mask': ((2,), torch.uint8)}
    """
    r = Reader(path)
    r.magic(TENSOR_FILE_MAGIC, "DGL tensor file")
    at = r.pos
    n = r.count("the tensor dict", 16)
    m = r.count("the tensor list", 16)
    if m != n:
        raise r.fail(f"the header counts {n} tensors but the list holds {m}", at)
    out: dict[str, torch.Tensor] = {}
    for i in range(n):
        at = r.pos
        name = r.string(f"the name of tensor {i}")
        if name in out:
            raise r.fail(f"tensor name {name!r} appears twice", at)
        out[name] = r.ndarray(f"tensor {name!r}")
    if r.pos != r.size:
        raise r.fail(f"{r.size - r.pos} bytes follow the last tensor")
    return out


def save_tensors(path: str | os.PathLike, tensors: dict[str, torch.Tensor]) -> None:
    """Write ``{name: tensor}`` as ``dgl.data.save_tensors`` does, atomically (bool as uint8).

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; it is replaced atomically.
    tensors : dict of str to torch.Tensor
        Named tensors, written in the dict's order (DGL's partitions key them ``ntype/name``).

    Raises
    ------
    FormatError
        ``tensors`` is not a dict with str keys, or a tensor has a dtype DGL cannot store.
    """
    if not isinstance(tensors, dict) or not all(isinstance(k, str) for k in tensors):
        raise FormatError(
            f"save_tensors takes a dict of str -> tensor, got {type(tensors).__name__}"
        )
    with atomic_write(Path(path)) as f:
        w = Writer(f)
        w.u64(TENSOR_FILE_MAGIC)
        w.u64(len(tensors))
        w.u64(len(tensors))
        for name, t in tensors.items():
            w.string(name)
            w.ndarray(t)


def save_tensors_streamed(
    path: str | os.PathLike,
    fields: list[tuple[str, np.dtype, tuple[int, ...], Iterable[np.ndarray]]],
) -> None:
    """Write what :func:`save_tensors` writes, each tensor from blocks of rows: memory is one
    block, whatever the tensors' size.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; it appears atomically, once every tensor is whole.
    fields : list of (name, dtype, shape, blocks)
        Each tensor in file order: its name, numpy dtype (bool is stored as uint8), full shape,
        and an iterable of row blocks that fill it in order.

    Raises
    ------
    FormatError
        A dtype DGL cannot store, or blocks whose rows do not fill the shape exactly.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "feat.dgl")
    >>> save_tensors_streamed(path, [("_N/x", np.dtype("int64"), (3,), [np.arange(2), [7]])])
    >>> load_tensors(path)["_N/x"].tolist()
    [0, 1, 7]
    """
    with atomic_write(Path(path), fsync=False) as f:
        w = Writer(f)
        w.u64(TENSOR_FILE_MAGIC)
        w.u64(len(fields))
        w.u64(len(fields))
        for name, dtype, shape, blocks in fields:
            dtype = np.dtype(np.uint8 if np.dtype(dtype) == bool else dtype)
            w.string(name)
            w.ndarray_head(torch.from_numpy(np.zeros(0, dtype)).dtype, tuple(shape))
            rows = 0
            for b in blocks:
                a = np.ascontiguousarray(b, dtype=dtype)
                if a.shape[1:] != tuple(shape[1:]):
                    raise FormatError(f"{name}: rows of shape {a.shape[1:]}, expected {shape[1:]}")
                rows += len(a)
                f.write(memoryview(a.reshape(-1)).cast("B"))
            if rows != shape[0]:
                raise FormatError(f"{name}: {rows} rows written, expected {shape[0]}")

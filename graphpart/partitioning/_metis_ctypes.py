"""The METIS C API, called through ctypes from the library bundled in pymetis.

pymetis's Python wrapper fixes ``ncon = 1``, so multi-constraint partitioning
(``balance_ntypes``, ``balance_edges``) needs the C entry points themselves.
pymetis's extension module exports them, built with 64-bit ``idx_t`` and
32-bit float ``real_t``. Only this module knows that.
"""

from __future__ import annotations

import ctypes
import functools

import numpy as np

from ..errors import GraphpartError
from ..utils.check import short_repr
from .options import MetisOptions

__all__ = ["part_graph", "OPTION_INDEX"]

IDX = np.int64
REAL = np.float32
NOPTIONS = 40  # METIS_NOPTIONS in METIS 5.x
METIS_OK = 1
_STATUS = {-2: "input error", -3: "out of memory", -4: "error"}

# Indices into the options array (metis.h, mirrored by pymetis.options_indices).
OPTION_INDEX = {
    "objtype": 1,
    "ctype": 2,
    "iptype": 3,
    "rtype": 4,
    "dbglvl": 5,
    "niter": 6,
    "ncuts": 7,
    "seed": 8,
    "no2hop": 9,
    "minconn": 10,
    "contig": 11,
    "ufactor": 16,
    "numbering": 17,
}
_OBJTYPE = {"cut": 0, "vol": 1}
_CTYPE = {"rm": 0, "shem": 1}


def options_array(
    options: MetisOptions, objtype: str = "cut", seed: int | None = None
) -> np.ndarray:
    """The METIS options array (``idx_t[METIS_NOPTIONS]``) of ``options``, the objective and the
    seed."""
    if objtype not in _OBJTYPE:
        raise GraphpartError(f"objtype must be 'cut' or 'vol', got {short_repr(objtype)}")
    opts = np.full(NOPTIONS, -1, dtype=IDX)
    _lib().METIS_SetDefaultOptions(opts.ctypes.data_as(ctypes.c_void_p))
    opts[OPTION_INDEX["objtype"]] = _OBJTYPE[objtype]
    opts[OPTION_INDEX["numbering"]] = 0
    given = {
        "niter": options.niter,
        "ncuts": options.ncuts,
        "ufactor": options.ufactor,
        "seed": seed,
    }
    for name, value in given.items():
        if value is not None:
            opts[OPTION_INDEX[name]] = int(value)
    if options.ctype is not None:
        opts[OPTION_INDEX["ctype"]] = _CTYPE[options.ctype]
    opts[OPTION_INDEX["minconn"]] = int(options.minconn)
    opts[OPTION_INDEX["contig"]] = int(options.contig)
    return opts


@functools.lru_cache(maxsize=1)
def _lib() -> ctypes.CDLL:
    from pymetis import _internal

    lib = ctypes.CDLL(_internal.__file__)
    for fn in (lib.METIS_PartGraphKway, lib.METIS_PartGraphRecursive):
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_void_p] * 13
    lib.METIS_SetDefaultOptions.restype = ctypes.c_int
    lib.METIS_SetDefaultOptions.argtypes = [ctypes.c_void_p]
    return lib


def _ptr(a: np.ndarray | None) -> ctypes.c_void_p | None:
    return None if a is None else a.ctypes.data_as(ctypes.c_void_p)


def _idx_array(a: np.ndarray, name: str) -> np.ndarray:
    out = np.ascontiguousarray(a, dtype=IDX)
    if out.size and out.min() < 0:
        raise GraphpartError(f"METIS {name} must be non-negative")
    return out


def part_graph(
    xadj: np.ndarray,
    adjncy: np.ndarray,
    nparts: int,
    *,
    vwgt: np.ndarray | None = None,
    adjwgt: np.ndarray | None = None,
    ubvec: np.ndarray | None = None,
    options: MetisOptions = MetisOptions(),
    recursive: bool = False,
    objtype: str = "cut",
    seed: int | None = None,
) -> tuple[int, np.ndarray]:
    """Partition a symmetric CSR graph into ``nparts``; return ``(objval, part)``.

    ``vwgt`` has shape ``(n,)`` or ``(n, ncon)``; ``ubvec`` has one imbalance
    tolerance (e.g. 1.05) per constraint. The graph must be symmetric with no
    self-loops or duplicate edges (callers build it with
    :func:`graphpart.partitioning.metis.metis_csr`).

    Examples
    --------
    >>> xadj = np.array([0, 1, 3, 5, 6]); adjncy = np.array([1, 0, 2, 1, 3, 2])
    >>> cut, part = part_graph(xadj, adjncy, 2)
    >>> cut, sorted(np.bincount(part).tolist())
    (1, [2, 2])
    """
    xadj = _idx_array(xadj, "xadj")
    adjncy = _idx_array(adjncy, "adjncy")
    n = len(xadj) - 1
    if n < 0 or xadj[0] != 0 or xadj[-1] != len(adjncy) or np.any(np.diff(xadj) < 0):
        raise GraphpartError("METIS xadj must start at 0, be non-decreasing and end at len(adjncy)")
    if len(adjncy) and adjncy.max() >= n:
        raise GraphpartError(f"METIS adjncy holds a node id >= the number of nodes ({n})")
    if nparts < 1:
        raise GraphpartError(f"nparts must be >= 1, got {nparts}")
    part = np.zeros(n, dtype=IDX)
    if n == 0 or nparts == 1:
        return 0, part
    ncon = 1
    if vwgt is not None:
        vwgt = _idx_array(vwgt, "vertex weights")
        if vwgt.ndim == 1:
            vwgt = vwgt[:, None]
        if vwgt.ndim != 2 or vwgt.shape[0] != n:
            raise GraphpartError(
                f"vertex weights must have shape ({n},) or ({n}, ncon), got {vwgt.shape}"
            )
        ncon = vwgt.shape[1]
        vwgt = np.ascontiguousarray(vwgt)
    if adjwgt is not None:
        adjwgt = _idx_array(adjwgt, "edge weights")
        if adjwgt.shape != adjncy.shape:
            raise GraphpartError(f"edge weights must have shape {adjncy.shape}, got {adjwgt.shape}")
    if ubvec is not None:
        ubvec = np.ascontiguousarray(ubvec, dtype=REAL).reshape(-1)
        if ubvec.shape != (ncon,) or np.any(ubvec <= 1.0):
            raise GraphpartError(f"ubvec must hold {ncon} tolerance(s) > 1.0, got {ubvec.tolist()}")
    opts = options_array(options, objtype, seed)
    nvtxs_c, ncon_c, nparts_c = (np.array([v], dtype=IDX) for v in (n, ncon, nparts))
    objval = np.zeros(1, dtype=IDX)
    fn = _lib().METIS_PartGraphRecursive if recursive else _lib().METIS_PartGraphKway
    status = fn(
        _ptr(nvtxs_c),
        _ptr(ncon_c),
        _ptr(xadj),
        _ptr(adjncy),
        _ptr(vwgt),
        None,
        _ptr(adjwgt),
        _ptr(nparts_c),
        None,
        _ptr(ubvec),
        _ptr(opts),
        _ptr(objval),
        _ptr(part),
    )
    if status != METIS_OK:
        raise GraphpartError(
            f"METIS failed ({_STATUS.get(status, status)}) on a graph of {n} nodes"
        )
    return int(objval[0]), part

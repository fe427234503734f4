"""The METIS C API, called through ctypes from the library bundled in pymetis.

pymetis's Python wrapper fixes ``ncon = 1``, so multi-constraint partitioning
(``balance_ntypes``, ``balance_edges``) needs the C entry points themselves.
pymetis's extension module exports them, built with 64-bit ``idx_t`` and
32-bit float ``real_t``. Only this module knows that.
"""

from __future__ import annotations

import ctypes
import functools
from dataclasses import dataclass

import numpy as np

from ..errors import GraphpartError
from ..utils.check import Options, short_repr

__all__ = ["MetisOptions", "part_graph", "OPTION_INDEX"]

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


#: The most refinement iterations (``niter``) or partitionings (``ncuts``) METIS is asked for.
MAX_TRIES = 100


@dataclass(frozen=True)
class MetisOptions(Options):
    """METIS options that matter for speed and quality.

    The objective (``objtype``) and the seed are partition options
    (:class:`~graphpart.PartitionOptions`): :func:`part_graph` takes them on their own.

    Attributes
    ----------
    niter : int or None
        Refinement iterations per level (METIS default 10), at most :data:`MAX_TRIES`. Fewer
        is faster.
    ncuts : int or None
        Independent partitionings tried, at most :data:`MAX_TRIES`; the best is kept
        (default 1).
    ufactor : int or None
        Allowed load imbalance in thousandths: 30 allows 1.03 (k-way default).
    ctype : {"rm", "shem"} or None
        Coarsening matching: random or sorted heavy-edge (default).
    minconn, contig : bool
        Minimise the partitions' connectivity / force contiguous partitions.
    """

    option_word = "METIS option"

    niter: int | None = None
    ncuts: int | None = None
    ufactor: int | None = None
    ctype: str | None = None
    minconn: bool = False
    contig: bool = False

    def __post_init__(self) -> None:
        if self.ctype is not None and self.ctype not in _CTYPE:
            raise GraphpartError(f"ctype must be 'rm' or 'shem', got {short_repr(self.ctype)}")
        for name in ("niter", "ncuts", "ufactor"):
            value = getattr(self, name)
            if value is not None and (
                not isinstance(value, (int, np.integer))
                or isinstance(value, bool)
                or value < (1 if name in ("niter", "ncuts") else 0)
                or value >= 2**62
            ):
                raise GraphpartError(
                    f"METIS option {name} must be a non-negative int "
                    f"(niter, ncuts >= 1), got {short_repr(value)}"
                )
        for name in ("niter", "ncuts"):  # each a refinement pass or a whole partitioning
            value = getattr(self, name)
            if value is not None and value > MAX_TRIES:
                raise GraphpartError(
                    f"METIS option {name} is at most {MAX_TRIES} (METIS's time grows with it: "
                    f"each is a whole refinement or partitioning), got {int(value):,}"
                )

    def to_array(self, objtype: str = "cut", seed: int | None = None) -> np.ndarray:
        """The METIS options array (``idx_t[METIS_NOPTIONS]``), with the objective and seed."""
        if objtype not in _OBJTYPE:
            raise GraphpartError(f"objtype must be 'cut' or 'vol', got {short_repr(objtype)}")
        opts = np.full(NOPTIONS, -1, dtype=IDX)
        _lib().METIS_SetDefaultOptions(opts.ctypes.data_as(ctypes.c_void_p))
        opts[OPTION_INDEX["objtype"]] = _OBJTYPE[objtype]
        opts[OPTION_INDEX["numbering"]] = 0
        given = {"niter": self.niter, "ncuts": self.ncuts, "ufactor": self.ufactor, "seed": seed}
        for name, value in given.items():
            if value is not None:
                opts[OPTION_INDEX[name]] = int(value)
        if self.ctype is not None:
            opts[OPTION_INDEX["ctype"]] = _CTYPE[self.ctype]
        opts[OPTION_INDEX["minconn"]] = int(self.minconn)
        opts[OPTION_INDEX["contig"]] = int(self.contig)
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
    opts = options.to_array(objtype, seed)
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

"""GraphBolt's partition graph (``fused_csc_sampling_graph.pt``), read and written without DGL.

DGL saves a ``FusedCSCSamplingGraph`` with ``torch.save``: a pickle of the Python wrapper whose
state holds a TorchScript object, whose state is ``({...}, "__torch__.torch.classes.graphbolt.
FusedCSCSamplingGraph")`` with the dict::

    independent_tensors  {"version_number": int64[1], "indptr", "indices", ["node_type_offset"],
                          ["type_per_edge"]}   (CSC: indptr over destinations, indices = sources)
    node_type_to_id      {ntype: int64 scalar}          (heterographs only)
    edge_type_to_id      {"src:rel:dst": int64 scalar}  (heterographs only)
    node_attributes      {name: tensor}   e.g. "_ID", "inner_node"
    edge_attributes      {name: tensor}   e.g. "_ID", "inner_edge"  (in CSC edge order)

Reading goes through torch's weights-only unpickler with two inert stand-ins allowed for the
two class names: nothing from the file is ever called, and any other class is refused. Writing
emits the same two class names with a pickler that never imports DGL.
"""

from __future__ import annotations

import copyreg
import os
import types
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from ..errors import FormatError
from ..fs.atomic import atomic_write
from ..graph.core import Graph
from ..utils.check import check_flag, describe_exception, short_repr
from .safe_load import check_tensors, weights_only_load
from .torch_zip import TorchZipWriter

__all__ = [
    "GraphBoltGraph",
    "load_graphbolt",
    "save_graphbolt",
    "graphbolt_tree",
    "NAMES",
    "GraphBoltStore",
]

_PY_CLASS = ("dgl.graphbolt.impl.fused_csc_sampling_graph", "FusedCSCSamplingGraph")
_SCRIPT_CLASS = ("torch", "ScriptObject")
_SCRIPT_NAME = "__torch__.torch.classes.graphbolt.FusedCSCSamplingGraph"
_VERSION = 6199  # the state version DGL 2.1's GraphBolt writes and checks


class _Inert:
    """A stand-in for a class named in a pickle: it only keeps the state it is given."""

    def __setstate__(self, state):
        self.__dict__["_state"] = state


def _stand_in(module: str, name: str) -> type:
    cls = types.new_class(name, (_Inert,))
    cls.__module__, cls.__qualname__ = module, name
    return cls


_PyGraph, _ScriptObject = _stand_in(*_PY_CLASS), _stand_in(*_SCRIPT_CLASS)


@dataclass(frozen=True)
class GraphBoltGraph:
    """The arrays of a GraphBolt partition graph (CSC).

    Attributes
    ----------
    indptr : torch.Tensor
        int32 or int64, ``num_nodes + 1`` offsets into ``indices``, one range per destination.
    indices : torch.Tensor
        int32 or int64, the source of each edge, in CSC edge order.
    type_per_edge : torch.Tensor or None, default None
        The edge type id of each edge (heterographs), in CSC edge order.
    node_type_offset : torch.Tensor or None, default None
        Where each node type's id range starts, from 0 to ``num_nodes`` (when the file has it).
    node_type_to_id : dict of str to int or None, default None
        Node type name to type id (heterographs).
    edge_type_to_id : dict of str to int or None, default None
        ``"src:rel:dst"`` to edge type id (heterographs).
    node_attributes : dict of str to torch.Tensor, default {}
        Per-node tensors, e.g. ``_ID`` and ``inner_node``.
    edge_attributes : dict of str to torch.Tensor, default {}
        Per-edge tensors in CSC edge order, e.g. ``_ID`` and ``inner_edge``.
    """

    indptr: torch.Tensor
    indices: torch.Tensor
    type_per_edge: torch.Tensor | None = None
    node_type_offset: torch.Tensor | None = None
    node_type_to_id: dict[str, int] | None = None
    edge_type_to_id: dict[str, int] | None = None
    node_attributes: dict[str, torch.Tensor] = field(default_factory=dict)
    edge_attributes: dict[str, torch.Tensor] = field(default_factory=dict)

    @property
    def num_nodes(self) -> int:
        return len(self.indptr) - 1

    def coo(self) -> tuple[torch.Tensor, torch.Tensor]:
        """``(src, dst)`` in the file's (CSC) edge order."""
        dst = torch.repeat_interleave(
            torch.arange(self.num_nodes), torch.diff(self.indptr.to(torch.int64))
        )
        return self.indices.to(torch.int64), dst


def _fail(path: Path, msg: str) -> FormatError:
    return FormatError(f"{path} is not a GraphBolt partition graph: {msg}")


_GROUPS = ("independent_tensors", "node_attributes", "edge_attributes")


def _tensor_dict(path: Path, d: dict, group: str) -> dict[str, torch.Tensor]:
    """``d[group]``: absent or a dict of named tensors, else refused naming what it holds."""
    value = d.get(group)
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in value.items()
    ):
        raise _fail(path, f"{group} should map names to tensors, got {_kind(value)}")
    return dict(value)


def _type_map(path: Path, d: dict, key: str) -> dict[str, int] | None:
    """``d[key]``: absent, empty or a dict of type names to ids, else refused."""
    value = d.get(key)
    if value is None or (isinstance(value, dict) and not value):
        return None
    ids = {}
    if isinstance(value, dict):
        for k, v in value.items():  # DGL stores each id as a 0-d tensor
            if isinstance(v, torch.Tensor) and v.dim() == 0 and not v.dtype.is_floating_point:
                v = int(v)
            if isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool):
                ids[k] = v
    if (
        not isinstance(value, dict)
        or len(ids) != len(value)
        or not all(0 <= v < 2**31 for v in ids.values())
    ):
        raise _fail(path, f"{key} should map type names to ids, got {_kind(value)}")
    return ids


def _kind(value: object) -> str:
    """What a field holds, in a few words (never the object itself)."""
    if isinstance(value, dict):
        kinds = sorted({f"{type(k).__name__}: {type(v).__name__}" for k, v in value.items()})
        return f"a dict of {', '.join(kinds[:3]) or 'nothing'}"
    return f"a {type(value).__name__}"


def load_graphbolt(path: str | os.PathLike) -> GraphBoltGraph:
    """Read ``fused_csc_sampling_graph.pt`` without DGL and without running code from the file.

    The file is loaded memory-mapped with torch's weights-only unpickler; the arrays are then
    checked (CSC offsets, index ranges, attribute rows, type ids).

    Parameters
    ----------
    path : str or os.PathLike
        A ``FusedCSCSamplingGraph`` saved with ``torch.save`` (by DGL or :func:`save_graphbolt`).

    Returns
    -------
    GraphBoltGraph
        The graph's CSC arrays, type maps and node and edge attributes.

    Raises
    ------
    FormatError
        The file is not a pickled GraphBolt graph, holds another class, or its arrays disagree.

    Examples
    --------
    >>> import tempfile, os
    >>> from graphpart import Graph
    >>> path = os.path.join(tempfile.mkdtemp(), "fused_csc_sampling_graph.pt")
    >>> save_graphbolt(path, Graph.from_edges([0, 1], [2, 2], ndata={"_ID": torch.arange(3)}))
    >>> gb = load_graphbolt(path)
    >>> gb.indptr.tolist(), gb.indices.tolist(), sorted(gb.node_attributes)
    ([0, 0, 0, 2], [0, 1], ['_ID'])
    """
    path = Path(path)
    try:
        obj = check_tensors(
            weights_only_load(path, mmap=True, safe=[_PyGraph, _ScriptObject]),
            path,
            "GraphBolt graph",
        )
    except FormatError:
        raise
    except Exception as exc:  # torch raises several types for damaged or hostile files
        raise _fail(path, f"{describe_exception(exc)}") from None
    if not isinstance(obj, _PyGraph) or not isinstance(getattr(obj, "_state", None), dict):
        raise _fail(path, f"expected a pickled {'.'.join(_PY_CLASS)}, got {type(obj).__name__}")
    script = obj._state.get("_c_csc_graph")
    state = getattr(script, "_state", None)
    if not isinstance(script, _ScriptObject) or not (
        isinstance(state, tuple)
        and len(state) == 2
        and state[1] == _SCRIPT_NAME
        and isinstance(state[0], dict)
    ):
        raise _fail(path, f"its _c_csc_graph is not a TorchScript {_SCRIPT_NAME}")
    d = state[0]
    groups = {g: _tensor_dict(path, d, g) for g in _GROUPS}
    tensors = groups["independent_tensors"]
    if not {"indptr", "indices"} <= set(tensors):
        raise _fail(path, "independent_tensors lacks indptr or indices")
    for name in ("indptr", "indices", "type_per_edge", "node_type_offset"):
        t = tensors.get(name)
        if t is not None and (t.dim() != 1 or t.dtype.is_floating_point or t.dtype == torch.bool):
            raise _fail(
                path, f"{name} must be a one-dimensional integer tensor, got {t.dtype} of shape "
                f"{tuple(t.shape)}"
            )  # fmt: skip
    gb = GraphBoltGraph(
        tensors["indptr"],
        tensors["indices"],
        tensors.get("type_per_edge"),
        tensors.get("node_type_offset"),
        _type_map(path, d, "node_type_to_id"),
        _type_map(path, d, "edge_type_to_id"),
        groups["node_attributes"],
        groups["edge_attributes"],
    )
    ip = gb.indptr.to(torch.int64)
    if (
        ip.dim() != 1
        or len(ip) < 1
        or int(ip[0]) != 0
        or int(ip[-1]) != len(gb.indices)
        or bool((ip[1:] < ip[:-1]).any())
    ):
        raise _fail(path, f"indptr is not non-decreasing from 0 to the {len(gb.indices)} edges")
    if len(gb.indices) and (int(gb.indices.min()) < 0 or int(gb.indices.max()) >= gb.num_nodes):
        raise _fail(path, f"indices leave [0, {gb.num_nodes})")
    for t, name in ((gb.indptr, "indptr"), (gb.indices, "indices")):
        if t.dtype not in (torch.int32, torch.int64):
            raise _fail(path, f"{name} must be int32 or int64, got {t.dtype}")
    rows = {"node": gb.num_nodes, "edge": len(gb.indices)}
    for kind, attrs in (("node", gb.node_attributes), ("edge", gb.edge_attributes)):
        for key, t in attrs.items():
            if t.dim() == 0 or len(t) != rows[kind]:
                raise _fail(
                    path,
                    f"{kind} attribute {key!r} has shape {tuple(t.shape)}, expected {rows[kind]} "
                    "rows",
                )
            if key == "_ID" and (t.dtype.is_floating_point or t.dtype == torch.bool):
                raise _fail(path, f"{kind} _ID must be integers, got {t.dtype}")
    if gb.type_per_edge is not None and gb.type_per_edge.shape != gb.indices.shape:
        raise _fail(
            path,
            f"type_per_edge has shape {tuple(gb.type_per_edge.shape)}, expected "
            f"{tuple(gb.indices.shape)}",
        )
    _check_types(path, gb)
    return gb


def graphbolt_records(path: str | os.PathLike) -> dict:
    """The arrays of ``fused_csc_sampling_graph.pt`` left on disk: each a
    :class:`~graphpart.interop.torch_zip.StoredArray` read a slice at a time, so a reader's
    memory does not grow with the partition (:func:`load_graphbolt` maps them all as tensors).

    Only the layout is checked here (the class names, one-dimensional integer arrays of
    consistent lengths); a reader checks the values of each slice it reads.

    Parameters
    ----------
    path : str or os.PathLike
        A GraphBolt partition graph (written by DGL or graphpart).

    Returns
    -------
    dict
        ``indptr``, ``indices``, ``type_per_edge`` (or ``None``), ``node_attributes`` and
        ``edge_attributes`` (dicts of name to record).

    Raises
    ------
    FormatError
        The file is not a GraphBolt graph laid out as torch's zip, or its arrays disagree in
        length.
    """
    from .torch_zip import StoredArray, read_torch_zip

    path = Path(path)
    obj = read_torch_zip(path, NAMES)
    outer = getattr(obj, "_state", None)
    script = outer.get("_c_csc_graph") if isinstance(outer, dict) else None
    state = getattr(script, "_state", None) if isinstance(script, _ScriptObject) else None
    if not isinstance(obj, _PyGraph) or not (
        isinstance(state, tuple) and len(state) == 2 and isinstance(state[0], dict)
    ):
        raise _fail(path, f"expected a pickled {'.'.join(_PY_CLASS)}")
    d = state[0]
    groups = {}
    for g in _GROUPS:
        value = d.get(g) or {}
        if not isinstance(value, dict) or not all(
            isinstance(k, str) and isinstance(v, StoredArray) and len(v.shape) == 1
            for k, v in value.items()
        ):
            raise _fail(path, f"{g} should map names to one-dimensional tensors")
        groups[g] = value
    t = groups["independent_tensors"]
    if "indptr" not in t or "indices" not in t or len(t["indptr"]) < 1:
        raise _fail(path, "independent_tensors lacks indptr or indices")
    n, m = len(t["indptr"]) - 1, len(t["indices"])
    ints = [t[k] for k in ("indptr", "indices", "type_per_edge") if k in t]
    if any(a.dtype.kind not in "iu" for a in ints) or (
        "type_per_edge" in t and len(t["type_per_edge"]) != m
    ):
        raise _fail(path, "indptr, indices and type_per_edge must be integers, one per edge")
    for kind, attrs, rows in (
        ("node", groups["node_attributes"], n),
        ("edge", groups["edge_attributes"], m),
    ):
        for key, a in attrs.items():
            if len(a) != rows:
                raise _fail(path, f"{kind} attribute {key!r} has {len(a)} rows, expected {rows}")
            if key == "_ID" and a.dtype.kind not in "iu":
                raise _fail(path, f"{kind} _ID must be integers, got {a.dtype}")
    return {
        "indptr": t["indptr"],
        "indices": t["indices"],
        "type_per_edge": t.get("type_per_edge"),
        "node_attributes": groups["node_attributes"],
        "edge_attributes": groups["edge_attributes"],
    }


def _check_types(path: Path, gb: GraphBoltGraph) -> None:
    """Type ids that name the types of the maps: every ``type_per_edge`` in the edge-type map's
    ids, ``node_type_offset`` from 0 to the node count, one range per node type."""
    etype_ids = sorted(gb.edge_type_to_id.values()) if gb.edge_type_to_id else []
    tpe = gb.type_per_edge
    if tpe is not None and len(tpe):
        lo, hi = int(tpe.min()), int(tpe.max())
        if not etype_ids or lo < 0 or hi > etype_ids[-1] or lo < etype_ids[0]:
            raise _fail(
                path,
                f"type_per_edge holds {lo}..{hi}, outside the edge types' ids "
                f"{short_repr(etype_ids)}",
            )
    off = gb.node_type_offset
    if off is not None:
        off = off.to(torch.int64)
        n_types = len(gb.node_type_to_id) if gb.node_type_to_id else len(off) - 1
        if (
            len(off) != n_types + 1
            or int(off[0]) != 0
            or int(off[-1]) != gb.num_nodes
            or bool((off[1:] < off[:-1]).any())
        ):
            raise _fail(
                path,
                f"node_type_offset must rise from 0 to the {gb.num_nodes} nodes in "
                f"{n_types + 1} steps, got {short_repr(off[:8].tolist())}",
            )


@dataclass(frozen=True)
class GraphBoltStore:
    """What a GraphBolt partition stores beside its CSC arrays and node ``_ID`` s, by DGL's
    option names (``dgl_partition_to_graphbolt(store_eids=..., store_inner_node=...,
    store_inner_edge=...)``).

    graphpart stores all three by default, where DGL stores none: edge ids are the way from a
    sampled edge to its features and original id (graphpart's readers, ``verify`` and the
    views need them, as DGL's own ``DGL_DIST_DEBUG`` check does), and the flags cost a byte per
    node and per edge.

    Attributes
    ----------
    store_eids : bool, default True
        Edge ``_ID`` (int64, new edge ids).
    store_inner_node : bool, default True
        Node ``inner_node`` (uint8).
    store_inner_edge : bool, default True
        Edge ``inner_edge`` (uint8).
    """

    store_eids: bool = True
    store_inner_node: bool = True
    store_inner_edge: bool = True

    def __post_init__(self) -> None:
        for name in ("store_eids", "store_inner_node", "store_inner_edge"):
            object.__setattr__(self, name, check_flag(getattr(self, name), name))


#: The global names the stand-ins are pickled under (what ``torch.load`` finds with DGL).
NAMES = {_PyGraph: _PY_CLASS, _ScriptObject: _SCRIPT_CLASS}


def _instance(cls: type, state: object) -> _Inert:
    inst = cls.__new__(cls)
    inst.__dict__["_state"] = state
    return inst


def _reduce_ex(self, protocol):
    """Pickle as ``NEWOBJ`` of the class, then ``BUILD`` with the state: what DGL's files hold."""
    return copyreg.__newobj__, (type(self),), self._state


_PyGraph.__reduce_ex__ = _ScriptObject.__reduce_ex__ = _reduce_ex


def id_dtype(count: int) -> np.dtype:
    """The smallest of int32 and int64 that holds ids below ``count``, as DGL casts ``indptr``
    and ``indices`` (int32 while ``count < 2**31 - 1``).

    Parameters
    ----------
    count : int
        The number the ids stay below (edges for ``indptr``, nodes for ``indices``).

    Returns
    -------
    numpy.dtype
        ``int32`` or ``int64``.

    Examples
    --------
    >>> id_dtype(10), id_dtype(2**31)
    (dtype('int32'), dtype('int64'))
    """
    return np.dtype(np.int32 if count < np.iinfo(np.int32).max else np.int64)


def type_dtype(count: int) -> np.dtype:
    """The smallest signed integer dtype for ``count`` edge types (``type_per_edge``), as DGL's."""
    for dt in (np.int8, np.int16, np.int32):
        if count < np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype(np.int64)


def graphbolt_tree(
    indptr: object,
    indices: object,
    node_attributes: dict,
    edge_attributes: dict,
    type_per_edge: object = None,
    node_type_to_id: dict[str, int] | None = None,
    edge_type_to_id: dict[str, int] | None = None,
) -> _Inert:
    """The object ``torch.save`` of DGL's ``FusedCSCSamplingGraph`` pickles, with arrays or
    :class:`~graphpart.interop.torch_zip.Stream` s as its tensors: written by
    :class:`~graphpart.interop.torch_zip.TorchZipWriter` with ``names=NAMES``.

    Parameters
    ----------
    indptr, indices : array, tensor or Stream
        CSC offsets (one range per destination) and the sources, in CSC edge order.
    node_attributes, edge_attributes : dict
        Named per-node and per-edge (CSC order) arrays, tensors or streams.
    type_per_edge : array, tensor, Stream or None, default None
        Each edge's type id (heterographs).
    node_type_to_id, edge_type_to_id : dict of str to int or None, default None
        The type maps (heterographs).

    Returns
    -------
    object
        The stand-in of DGL's Python class holding the TorchScript stand-in and its state.
    """
    tensors = {
        "version_number": np.array([_VERSION], dtype=np.int64),
        "indptr": indptr,
        "indices": indices,
    }
    if type_per_edge is not None:
        tensors["type_per_edge"] = type_per_edge
    state = {"independent_tensors": tensors}
    for key, ids in (("node_type_to_id", node_type_to_id), ("edge_type_to_id", edge_type_to_id)):
        if ids:
            state[key] = {k: np.array(v, dtype=np.int64) for k, v in ids.items()}
    state["node_attributes"] = dict(node_attributes)
    state["edge_attributes"] = dict(edge_attributes)
    return _instance(_PyGraph, {"_c_csc_graph": _instance(_ScriptObject, (state, _SCRIPT_NAME))})


def save_graphbolt(
    path: str | os.PathLike,
    g: Graph,
    node_type_to_id: dict[str, int] | None = None,
    edge_type_to_id: dict[str, int] | None = None,
) -> None:
    """Write a homogeneous partition graph as GraphBolt's ``fused_csc_sampling_graph.pt``.

    Edges are stored in CSC order (destination-major, edge order kept within a destination);
    ``_ID`` and ``inner_node`` / ``inner_edge`` become node / edge attributes and, for
    heterographs (type maps given), the edges' ``_TYPE`` becomes ``type_per_edge``: what DGL
    writes, with its dtypes (``indptr`` and ``indices`` int32 where they fit, ids int64, flags
    uint8, the smallest type ids). Written atomically.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (DGL names it ``fused_csc_sampling_graph.pt``); replaced atomically.
    g : Graph
        A homogeneous graph. Its ``ndata`` ``_ID`` and ``inner_node`` and its ``edata`` ``_ID``
        and ``inner_edge``, when present, are stored; other data is not.
    node_type_to_id : dict of str to int, optional
        Node type name to type id, stored as ``node_type_to_id``; default none (homogeneous).
    edge_type_to_id : dict of str to int, optional
        ``"src:rel:dst"`` to edge type id, stored as ``edge_type_to_id``; when given and ``g``
        has ``edata["_TYPE"]``, that becomes ``type_per_edge``. Default none (homogeneous).
    """
    n = g.num_nodes()
    src, dst = (x.numpy() for x in g.edges())
    order = np.argsort(dst, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(dst, minlength=n), out=indptr[1:])
    tpe = None
    if edge_type_to_id and "_TYPE" in g.edata:
        tpe = g.edata["_TYPE"].numpy()[order].astype(type_dtype(len(edge_type_to_id)))
    tree = graphbolt_tree(
        indptr.astype(id_dtype(len(src))),
        src[order].astype(id_dtype(n)),
        {k: _attr(k, g.ndata[k].numpy()) for k in NODE_ATTRIBUTES if k in g.ndata},
        {k: _attr(k, g.edata[k].numpy()[order]) for k in EDGE_ATTRIBUTES if k in g.edata},
        tpe,
        node_type_to_id,
        edge_type_to_id,
    )
    with atomic_write(Path(path)) as f:
        w = TorchZipWriter(f, tree, NAMES)
        w.close()


#: What DGL keeps of a partition graph in GraphBolt's format (``store_eids``, ``store_inner_*``).
NODE_ATTRIBUTES, EDGE_ATTRIBUTES = ("_ID", "inner_node"), ("_ID", "inner_edge")


def _attr(key: str, a: np.ndarray) -> np.ndarray:
    """An attribute in DGL's dtype: ids int64, the inner flags uint8."""
    return a.astype(np.int64 if key == "_ID" else np.uint8)

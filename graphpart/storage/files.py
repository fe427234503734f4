"""The files of one partition in each on-disk flavour graphpart writes, and reading any of them.

========== ===================================================== ==================================
format     files under ``part<i>/``                              read by
========== ===================================================== ==================================
graphpart  ``graph.pt``, ``node_feats.pt``, ``edge_feats.pt``    graphpart (torch, weights only)
dgl        ``graph.dgl``, ``node_feat.dgl``, ``edge_feat.dgl``   DGL 2.x ``load_partition``,
                                                                 ``DistGraph``, and graphpart
graphbolt  ``fused_csc_sampling_graph.pt``, ``node_feat.dgl``,   DGL 2.x ``load_partition(...,
           ``edge_feat.dgl``                                     use_graphbolt=True)``, and
                                                                 graphpart
========== ===================================================== ==================================

Readers tell the files apart by their first bytes, not their names, so a config written by
DGL or by graphpart in either format loads the same way.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import torch

from ..errors import FormatError, GraphpartError
from ..fs.atomic import atomic_write
from ..graph.core import Graph
from ..interop.dgl_graphs import GRAPH_FILE_MAGIC, load_graphs, save_graphs
from ..interop.dgl_tensors import TENSOR_FILE_MAGIC, load_tensors, save_tensors
from ..interop.safe_load import check_tensors, weights_only_load
from ..interop.torch_zip import STORABLE, TorchZipWriter
from ..utils.check import describe_exception, short_repr

__all__ = [
    "FORMATS",
    "check_format",
    "check_data_dtypes",
    "stored_dtype",
    "part_file_names",
    "write_feats_file",
    "read_feats_file",
    "sniff",
]

logger = logging.getLogger(__name__)

FORMATS = ("graphpart", "dgl", "graphbolt")
#: Unsigned integers wider than a byte, and the signed type partition files store them as, in
#: every format: DGL 2.x loads no such type ("Unsupported kUInt bits") and torch files have no
#: storage class for them. Every value is kept; uint64 has no such type and is refused.
WIDENED = {"uint16": "int32", "uint32": "int64"}
_NAMES = {
    "graphpart": {
        "part_graph": "graph.pt",
        "node_feats": "node_feats.pt",
        "edge_feats": "edge_feats.pt",
    },
    "dgl": {
        "part_graph": "graph.dgl",
        "node_feats": "node_feat.dgl",
        "edge_feats": "edge_feat.dgl",
    },
}
# GraphBolt's CSC file alone holds the graph: no second copy of it as graph.dgl (DGL converts one
# into the other; a trainer loads one).
_NAMES["graphbolt"] = {
    "part_graph_graphbolt": "fused_csc_sampling_graph.pt",
    "node_feats": "node_feat.dgl",
    "edge_feats": "edge_feat.dgl",
}
#: Per-partition files of original ids (dispatch's ``--save-orig-nids`` / ``--save-orig-eids``).
ORIG_NIDS, ORIG_EIDS = "orig_nids.pt", "orig_eids.pt"
#: Every file graphpart writes in a partition folder, and what it is (:func:`sniff`'s word).
PART_FILES = {
    "graph.pt": "torch",
    "node_feats.pt": "torch",
    "edge_feats.pt": "torch",
    "graph.dgl": "dgl-graph",
    "node_feat.dgl": "dgl-tensors",
    "edge_feat.dgl": "dgl-tensors",
    "fused_csc_sampling_graph.pt": "torch",
    ORIG_NIDS: "torch",
    ORIG_EIDS: "torch",
}
# The dtypes DGL's loaders and DistGraph expect of the reserved fields of a partition graph.
_DGL_NDATA = {
    "_ID": torch.int64,
    "inner_node": torch.uint8,
    "part_id": torch.int64,
    "_TYPE": torch.int32,
}
_DGL_EDATA = {"_ID": torch.int64, "inner_edge": torch.uint8, "_TYPE": torch.int32}


def check_format(fmt: object) -> str:
    """``fmt`` if it names an on-disk format.

    Parameters
    ----------
    fmt : object
        The format to check: one of :data:`FORMATS`.

    Returns
    -------
    str
        ``fmt``, unchanged.

    Raises
    ------
    GraphpartError
        If ``fmt`` is not in :data:`FORMATS` (``"pyg"`` gets a hint at
        :func:`graphpart.interop.export_pyg`).

    Examples
    --------
    >>> check_format("dgl")
    'dgl'
    >>> check_format("pyg")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: format must be one of ('graphpart', 'dgl', 'graphbolt'), got
    'pyg' (PyG: use graphpart.interop.export_pyg)
    """
    if fmt not in FORMATS:
        hint = " (PyG: use graphpart.interop.export_pyg)" if fmt == "pyg" else ""
        raise GraphpartError(f"format must be one of {FORMATS}, got {short_repr(fmt)}{hint}")
    return fmt


def _dtype_name(dtype: object) -> str:
    if isinstance(dtype, torch.dtype):
        return str(dtype).removeprefix("torch.")
    try:
        return np.dtype(dtype).name
    except TypeError:
        return str(dtype)


def stored_dtype(dtype: np.dtype | torch.dtype | str, what: str = "data") -> str:
    """The dtype a partition file (any format) stores data of ``dtype`` as: itself, or for
    uint16 and uint32 the signed type holding all their values (:data:`WIDENED`).

    Parameters
    ----------
    dtype : numpy.dtype, torch.dtype or str
        The data's dtype.
    what : str, default "data"
        What the data is, for the message.

    Returns
    -------
    str
        The stored dtype's name (numpy's, e.g. ``"int64"``).

    Raises
    ------
    GraphpartError
        For a dtype no partition file holds (uint64, float128, complex, object, ...).

    Examples
    --------
    >>> stored_dtype("uint32"), stored_dtype(torch.float16)
    ('int64', 'float16')
    >>> stored_dtype("uint64", "node data 'x'")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: node data 'x' is uint64, which no partition file holds ...
    """
    name = _dtype_name(dtype)
    out = WIDENED.get(name, name)
    if out not in STORABLE:
        hint = (
            " (DGL loads no unsigned type wider than uint8): cast it to int64"
            if name == "uint64"
            else f"; expected one of {', '.join(sorted(STORABLE | set(WIDENED)))}"
        )
        raise GraphpartError(f"{what} is {name}, which no partition file holds{hint}")
    return out


def check_data_dtypes(dtypes: dict[str, object]) -> dict[str, str]:
    """Check, before any work, that partition files can hold every named data's dtype; log one
    line naming the data stored wider (:func:`stored_dtype`).

    Parameters
    ----------
    dtypes : dict of str to dtype
        What each data is called in messages (e.g. ``"node data 'x' of '_N'"``) to its dtype.

    Returns
    -------
    dict of str to str
        The stored dtype of each, by the same keys.

    Raises
    ------
    GraphpartError
        For the first dtype no partition file holds.

    Examples
    --------
    >>> check_data_dtypes({"node data 'x'": "uint16", "node data 'y'": "float32"})
    {"node data 'x'": 'int32', "node data 'y'": 'float32'}
    """
    out = {what: stored_dtype(d, what) for what, d in dtypes.items()}
    wider = [
        f"{w} ({_dtype_name(dtypes[w])} -> {out[w]})"
        for w in out
        if out[w] != _dtype_name(dtypes[w])
    ]
    if wider:
        logger.warning(
            "stored as wider signed integers, every value kept (DGL loads no unsigned type wider "
            "than uint8): %s",
            "; ".join(wider),
        )
    return out


def _stored(t: torch.Tensor) -> torch.Tensor:
    """``t`` in the dtype partition files store it as (:func:`stored_dtype`)."""
    out = stored_dtype(t.dtype)
    return t if out == _dtype_name(t.dtype) else t.to(getattr(torch, out))


def part_file_names(fmt: str) -> dict[str, str]:
    """Config key -> file name of one partition's files in ``fmt``.

    Parameters
    ----------
    fmt : {"graphpart", "dgl", "graphbolt"}
        The on-disk format (checked by :func:`check_format`).

    Returns
    -------
    dict of str to str
        A new dict from ``"part_graph"`` (``"part_graph_graphbolt"`` for ``"graphbolt"``),
        ``"node_feats"`` and ``"edge_feats"`` to the file name inside ``part<i>/``.
    """
    return dict(_NAMES[check_format(fmt)])


def sniff(path: Path) -> str:
    """``"dgl-graph"``, ``"dgl-tensors"``, ``"torch"`` (a zip) or ``"unknown"``, from the first
    bytes.

    Parameters
    ----------
    path : pathlib.Path
        The file; its first 8 bytes are read.

    Returns
    -------
    str
        ``"dgl-graph"`` or ``"dgl-tensors"`` for DGL's magic numbers, ``"torch"`` when the file
        starts with ``PK`` (a zip, as ``torch.save`` writes), else ``"unknown"`` (a legacy torch
        pickle too).
    """
    with open(path, "rb") as f:
        head = f.read(8)
    if len(head) == 8:
        magic = int.from_bytes(head, "little")
        if magic == GRAPH_FILE_MAGIC:
            return "dgl-graph"
        if magic == TENSOR_FILE_MAGIC:
            return "dgl-tensors"
    return "torch" if head[:2] == b"PK" else "unknown"


_CRC_LOCK = threading.Lock()


@contextlib.contextmanager
def _without_crc32() -> Iterator[None]:
    """Skip the zip CRC-32 in ``torch.save`` (most of its time on large tensors; ``torch.load`` of
    every version does not check it, though generic zip tools report the entries as damaged). The
    rename into place is what guards against torn files. Torch before 2.6 has no switch: CRC kept.
    The option is process-wide, so saves through here take turns (a lock) and restore it."""
    setter = getattr(torch.serialization, "set_crc32_options", None)
    if setter is None:
        yield
        return
    with _CRC_LOCK:
        saved = torch.serialization.get_crc32_options()
        setter(False)
        try:
            yield
        finally:
            setter(saved)


def _torch_save(obj: dict, path: Path) -> None:
    """``torch.save`` through a temporary sibling: a re-run task or a kill never leaves half a
    file."""
    with (
        atomic_write(path, fsync=False) as f,
        _without_crc32(),
    ):  # a unique temporary, removed on failure
        torch.save(obj, f)


@contextlib.contextmanager
def streamed_torch_file(
    path: Path, tree: object, names: dict | None = None
) -> Iterator[TorchZipWriter]:
    """A torch file at ``path`` whose :class:`~graphpart.interop.torch_zip.Stream` leaves are
    filled block by block inside the ``with`` (what ``torch.save`` of the full tree writes); it
    appears, through a temporary sibling, only when every stream is full.

    Parameters
    ----------
    path : pathlib.Path
        The file to write.
    tree : dict
        Nested dicts whose leaves are arrays or tensors (written at once), ``Stream`` s (filled
        inside the ``with``) or plain values; e.g. :func:`graph_tree`, or GraphBolt's
        :func:`~graphpart.interop.graphbolt.graphbolt_tree`.
    names : dict, optional
        Stand-in classes and the global names they are pickled under
        (:data:`graphpart.interop.graphbolt.NAMES`).

    Yields
    ------
    TorchZipWriter
        The writer; append each stream's blocks in row order. It is closed (and every stream
        checked full) when the ``with`` block ends without an error.
    """
    with atomic_write(path, fsync=False) as f:
        w = TorchZipWriter(f, tree, names)
        yield w
        w.close()


def graph_tree(num_nodes: int, src: object, dst: object, ndata: dict, edata: dict) -> dict:
    """The object a graphpart-format ``graph.pt`` holds (arrays, tensors or streams as leaves).

    Parameters
    ----------
    num_nodes : int
        Nodes of the local graph (inner and HALO).
    src, dst : array, tensor or Stream
        The local graph's edge endpoints, in local node ids.
    ndata, edata : dict
        Node and edge data of the local graph (``_ID``, ``inner_node``, ``part_id``, ...).

    Returns
    -------
    dict
        ``{"num_nodes": int, "src": src, "dst": dst, "ndata": dict, "edata": dict}``
        (``ndata`` and ``edata`` copied into new dicts).
    """
    return {
        "num_nodes": int(num_nodes),
        "src": src,
        "dst": dst,
        "ndata": dict(ndata),
        "edata": dict(edata),
    }


def _cast(data: dict, dtypes: dict) -> dict:
    return {k: (v.to(dtypes[k]) if k in dtypes else v) for k, v in data.items()}


def write_graph_file(
    folder: Path,
    fmt: str,
    num_nodes: int,
    src: torch.Tensor,
    dst: torch.Tensor,
    ndata: dict,
    edata: dict,
    meta: dict | None = None,
) -> None:
    """Write one partition's local graph in ``fmt`` (``meta`` is what GraphBolt needs).

    Parameters
    ----------
    folder : pathlib.Path
        The partition's folder (``part<i>``); it must exist.
    fmt : {"graphpart", "dgl", "graphbolt"}
        ``"graphpart"`` writes ``graph.pt`` with ``torch.save`` (atomically); ``"dgl"`` writes
        DGL's ``graph.dgl``, with the reserved fields cast to the dtypes DGL expects;
        ``"graphbolt"`` writes ``fused_csc_sampling_graph.pt`` alone.
    num_nodes : int
        Nodes of the local graph (inner and HALO).
    src, dst : torch.Tensor
        The local graph's edge endpoints, in local node ids.
    ndata, edata : dict
        Node and edge data of the local graph (``_ID``, ``inner_node`` / ``inner_edge``,
        ``part_id``, ``_TYPE``, ...).
    meta : dict, optional
        Keyword arguments of :func:`graphpart.interop.graphbolt.save_graphbolt` (the type
        maps of :func:`~graphpart.storage.make_config.graphbolt_meta`); used for
        ``"graphbolt"`` only.
    """
    names = part_file_names(fmt)
    if fmt == "graphpart":
        _torch_save(graph_tree(num_nodes, src, dst, ndata, edata), folder / names["part_graph"])
        return
    g = Graph.from_edges(
        src,
        dst,
        num_nodes=int(num_nodes),
        ndata=_cast(ndata, _DGL_NDATA),
        edata=_cast(edata, _DGL_EDATA),
    )
    if fmt == "graphbolt":
        from ..interop.graphbolt import save_graphbolt

        save_graphbolt(folder / names["part_graph_graphbolt"], g, **(meta or {}))
    else:
        save_graphs(folder / names["part_graph"], [g])


def write_feats_file(path: Path, feats: dict[str, torch.Tensor]) -> None:
    """Write a feature dict: DGL's tensor file for ``*.dgl`` names, a torch file otherwise.

    Parameters
    ----------
    path : pathlib.Path
        The file to write; its suffix picks the format. A torch file is written atomically
        (through a temporary sibling).
    feats : dict of str to torch.Tensor
        The features, e.g. ``{"<type>/<name>": rows}``.
    """
    feats = {k: _stored(v) for k, v in feats.items()}
    if path.suffix == ".dgl":
        save_tensors(path, feats)
    else:
        _torch_save(feats, path)


def _torch_load(path: Path) -> object:
    try:
        return check_tensors(weights_only_load(path, mmap=True), path, "partition file")
    except FormatError:
        raise
    except Exception as exc:  # torch raises several types for damaged or foreign files
        raise FormatError(
            f"{path} is not a readable tensor file: neither DGL's binary format nor a "
            f"weights-only torch file ({describe_exception(exc)})"
        ) from None


def read_feats_file(path: Path) -> dict[str, torch.Tensor]:
    """A feature dict from a DGL tensor file or a weights-only torch file (memory-mapped).

    Parameters
    ----------
    path : pathlib.Path
        The file; its format is told by its first bytes (:func:`sniff`), not its name.

    Returns
    -------
    dict of str to torch.Tensor
        The tensors as stored (keys are not checked here).

    Raises
    ------
    FormatError
        If the file is neither, or does not hold a dict of tensors.
    """
    kind = sniff(path)
    if kind == "dgl-tensors":
        return load_tensors(path)
    obj = _torch_load(path)  # a zip or a legacy torch pickle, weights only
    if not isinstance(obj, dict) or not all(isinstance(v, torch.Tensor) for v in obj.values()):
        raise FormatError(f"{path} should hold a dict of tensors, got {type(obj).__name__}")
    return obj


def read_graph_file(path: Path) -> Graph:
    """The local graph of a partition, from ``graph.dgl`` (DGL's or ours) or graphpart's
    ``graph.pt``.

    Parameters
    ----------
    path : pathlib.Path
        The file; its format is told by its first bytes (:func:`sniff`), not its name.

    Returns
    -------
    Graph
        The homogeneous local graph with its node and edge data as stored.

    Raises
    ------
    FormatError
        If the file is not one homogeneous graph (DGL's format) or a dict of ``num_nodes``,
        ``src``, ``dst``, ``ndata`` and ``edata`` (graphpart's).
    """
    kind = sniff(path)
    if kind == "dgl-graph":
        graphs, _ = load_graphs(path)
        if len(graphs) != 1 or not graphs[0].is_homogeneous:
            raise FormatError(
                f"{path} should hold one homogeneous partition graph, got {len(graphs)} graph(s)"
                + ("" if len(graphs) != 1 else f" with types {graphs[0].ntypes}")
            )
        return graphs[0]
    obj = _torch_load(path)
    if not isinstance(obj, dict):
        raise FormatError(
            f"{path} is not a partition graph: it holds a {type(obj).__name__}, not a dict of "
            "num_nodes, src, dst, ndata and edata"
        )
    try:
        n, src, dst, nd, ed = obj["num_nodes"], obj["src"], obj["dst"], obj["ndata"], obj["edata"]
        return Graph.from_edges(src, dst, num_nodes=n, ndata=nd, edata=ed)
    except (KeyError, TypeError, GraphpartError) as exc:
        raise FormatError(f"{path} is not a partition graph ({describe_exception(exc)})") from None

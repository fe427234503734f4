"""One written partition's arrays as ``verify`` reads them: node arrays whole, edge arrays and
features as sliceable records, so that checking a partition holds its nodes but never its edges.

graphpart's torch files are opened through :func:`~graphpart.interop.torch_zip.read_torch_zip`
and GraphBolt's through :func:`~graphpart.interop.graphbolt.graphbolt_records` (each tensor read a
slice at a time; GraphBolt's edges in CSC order, their destinations expanded from ``indptr`` per
slice, the node data DGL leaves out taken from the partition book); other files (DGL's
``graph.dgl``, a legacy torch pickle) are loaded whole as
:func:`~graphpart.storage.read.load_partition` loads them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import FormatError
from ..interop.torch_zip import StoredArray, read_torch_zip
from ..storage.files import sniff
from ..storage.sources import PartitionSource
from ..utils.check import short_repr

__all__ = ["PartArrays", "open_part", "whole"]


@dataclass(frozen=True)
class PartArrays:
    """A partition's local graph: ``ndata`` in memory; ``src``, ``dst``, ``edata`` and the
    features sliceable (``a[lo:hi]`` gives an ndarray)."""

    num_nodes: int
    ndata: dict[str, np.ndarray]
    src: object
    dst: object
    edata: dict[str, object]
    node_feats: dict[str, object]
    edge_feats: dict[str, object]

    @property
    def num_edges(self) -> int:
        return len(self.src)


def whole(a: object) -> np.ndarray:
    """A sliceable record as one array."""
    return a.read() if isinstance(a, StoredArray) else np.asarray(a)


def _records(tree: object, path, what: str) -> dict[str, StoredArray]:
    if not isinstance(tree, dict) or not all(
        isinstance(k, str) and isinstance(v, StoredArray) for k, v in tree.items()
    ):
        raise FormatError(f"{path}: {what} should be a dict of tensors")
    return tree


def _lazy(files: dict) -> PartArrays:
    path = files["part_graph"]
    tree = read_torch_zip(path)
    if not isinstance(tree, dict) or not {"num_nodes", "src", "dst", "ndata", "edata"} <= set(tree):
        raise FormatError(f"{path} is not a partition graph (num_nodes, src, dst, ndata, edata)")
    n, src, dst = tree["num_nodes"], tree["src"], tree["dst"]
    ndata, edata = (_records(tree[k], path, k) for k in ("ndata", "edata"))
    if not isinstance(n, int) or n < 0:
        raise FormatError(f"{path}: num_nodes should be a count, got {short_repr(str(n)[:40])}")
    for name, a, rows in [
        ("src", src, None),
        ("dst", dst, None),
        *((f"ndata[{k!r}]", v, n) for k, v in ndata.items()),
        *((f"edata[{k!r}]", v, None) for k, v in edata.items()),
    ]:
        rows = len(src) if rows is None and isinstance(src, StoredArray) else rows
        if not isinstance(a, StoredArray) or len(a.shape) != 1 or len(a) != rows:
            raise FormatError(f"{path}: {name} should be a vector of {rows} entries")
    feats = [_feats(files[key]) for key in ("node_feats", "edge_feats")]
    return PartArrays(n, {k: v.read() for k, v in ndata.items()}, src, dst, edata, *feats)


class _Sliced:
    """An edge array computed a slice at a time (``a[lo:hi]``) from others."""

    def __init__(self, length: int, fn) -> None:
        self.length, self.fn = length, fn

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, rows: slice) -> np.ndarray:
        lo, hi, _ = rows.indices(self.length)
        return self.fn(lo, max(hi, lo))


def _feats(path) -> dict:
    from ..storage.files import read_feats_file

    if sniff(path) == "torch":
        return _records(read_torch_zip(path), path, "the features")
    return {k: v.numpy() for k, v in read_feats_file(path).items()}  # mapped, not read


def _lazy_graphbolt(source: PartitionSource, part_id: int) -> PartArrays:
    """A GraphBolt partition: ``indptr`` and the node arrays in memory, the edges by slices."""
    import torch

    from ..interop.graphbolt import graphbolt_records

    cfg, files = source.config, source.config.part_files(part_id)
    path = files["part_graph_graphbolt"]
    r = graphbolt_records(path)
    indptr = r["indptr"].read().astype(np.int64)
    m = len(r["indices"])
    if indptr[0] != 0 or indptr[-1] != m or np.any(indptr[1:] < indptr[:-1]):
        raise FormatError(f"{path}: indptr is not non-decreasing from 0 to the {m} edges")
    nattr, eattr = r["node_attributes"], r["edge_attributes"]
    if "_ID" not in nattr or "_ID" not in eattr:
        raise FormatError(
            f"{path} lacks node or edge _ID attributes: graphpart reads GraphBolt partitions "
            "written with their edge ids (dispatch's default; DGL's store_eids=True)"
        )
    nid = nattr["_ID"].read().astype(np.int64)
    book = cfg.book(part_id)
    part = book.nid2partid(torch.from_numpy(nid)).numpy()
    inner = nattr["inner_node"].read() if "inner_node" in nattr else (part == part_id)
    ndata = {"_ID": nid, "part_id": part, "inner_node": inner.astype(np.uint8)}
    typed = len(cfg.ntypes) > 1 or len(cfg.etypes) > 1
    if typed:
        ndata["_TYPE"] = book.map_to_per_ntype(torch.from_numpy(nid))[0].numpy()
    dst = _Sliced(m, lambda lo, hi: np.searchsorted(indptr, np.arange(lo, hi), "right") - 1)
    edata = {"_ID": eattr["_ID"]}
    edata["inner_edge"] = eattr.get("inner_edge") or _Sliced(
        m, lambda lo, hi: ndata["inner_node"][dst[lo:hi]]
    )
    if typed:
        tpe = r["type_per_edge"]
        edata["_TYPE"] = tpe if tpe is not None else _Sliced(
            m,
            lambda lo, hi: book.map_to_per_etype(torch.from_numpy(eattr["_ID"][lo:hi]))[0].numpy(),
        )  # fmt: skip
    nf, ef = (_feats(files[k]) for k in ("node_feats", "edge_feats"))
    return PartArrays(len(nid), ndata, r["indices"], dst, edata, nf, ef)


def open_part(source: PartitionSource, part_id: int) -> PartArrays:
    """Partition ``part_id`` of ``source``, its edges left on disk where the files allow."""
    if source.format in ("graphpart", "dgl"):
        files = source.config.part_files(part_id)
        if "part_graph" in files and sniff(files["part_graph"]) == "torch":
            return _lazy(files)
        if "part_graph" not in files and sniff(files["part_graph_graphbolt"]) == "torch":
            return _lazy_graphbolt(source, part_id)
    graph, nf, ef = source.load(part_id)
    src, dst = (x.numpy() for x in graph.edges())
    return PartArrays(
        graph.num_nodes(),
        {k: v.numpy() for k, v in graph.ndata.items()},
        src,
        dst,
        {k: v.numpy() for k, v in graph.edata.items()},
        {k: v.numpy() for k, v in (nf or {}).items()},
        {k: v.numpy() for k, v in (ef or {}).items()},
    )

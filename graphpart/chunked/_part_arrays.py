"""One written partition's arrays as ``verify`` reads them: node arrays whole, edge arrays and
features as sliceable records, so that checking a partition holds its nodes but never its edges.

graphpart's torch files are opened through :func:`~graphpart.interop.torch_zip.read_torch_zip`
(each tensor read a slice at a time); other files (DGL's, GraphBolt's, a legacy torch pickle) are
loaded whole as :func:`~graphpart.storage.read.load_partition` loads them.
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
    feats = []
    for key in ("node_feats", "edge_feats"):
        f = files[key]
        if sniff(f) == "torch":
            feats.append(_records(read_torch_zip(f), f, "the features"))
        else:  # DGL's tensor file or a legacy pickle: loaded whole
            from ..storage.files import read_feats_file

            feats.append({k: v.numpy() for k, v in read_feats_file(f).items()})
    return PartArrays(n, {k: v.read() for k, v in ndata.items()}, src, dst, edata, *feats)


def open_part(source: PartitionSource, part_id: int) -> PartArrays:
    """Partition ``part_id`` of ``source``, its edges left on disk where the files allow."""
    if source.format in ("graphpart", "dgl"):
        files = source.config.part_files(part_id)
        if "part_graph" in files and sniff(files["part_graph"]) == "torch":
            return _lazy(files)
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

"""Original ids of a dispatched partitioning: merged per type after every partition is written
(``--save-orig-nids`` / ``--save-orig-eids``), and read back as ``partition_graph`` returns them."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import torch

from ..errors import GraphpartError
from ..fs.untrusted import check_regular_file
from ..index import group_order
from .assign import read_assignment

__all__ = ["load_orig_ids", "node_orig_maps", "orig_of"]


def merge_orig(tmp: Path, num_parts: int, fname: str, sizes: dict[str, int]) -> None:
    """Concatenate the per-partition original ids into one ``.npy`` per type (bounded: one part at a
    time).

    Parameters
    ----------
    tmp : pathlib.Path
        The output folder being built: it holds ``part<p>/<fname>`` for every partition, and
        receives the folder ``<fname without .pt>/`` with one ``<type>.npy`` (int64) per type.
    num_parts : int
        The number of partitions, read in order ``0 .. num_parts - 1``.
    fname : str
        The per-partition file (``orig_nids.pt`` or ``orig_eids.pt``): a dict of type name to
        the original ids of what the partition owns.
    sizes : dict of str to int
        The number of ids per type name (node type, or ``src:rel:dst``): the length of each
        merged file.
    """
    folder = tmp / fname.removesuffix(".pt")
    folder.mkdir()
    maps = {
        t: np.lib.format.open_memmap(folder / f"{t}.npy", mode="w+", dtype=np.int64, shape=(n,))
        for t, n in sizes.items()
    }
    pos = dict.fromkeys(sizes, 0)
    for p in range(num_parts):
        part = torch.load(tmp / f"part{p}" / fname, weights_only=True, mmap=True)
        for t, ids in part.items():
            maps[t][pos[t] : pos[t] + len(ids)] = ids.numpy()
            pos[t] += len(ids)
    for m in maps.values():
        m.flush()


def load_orig_ids(config_path: str | os.PathLike):
    """The merged original-id maps ``dispatch`` saved, shaped like
    ``partition_graph(return_mapping=True)``.

    Parameters
    ----------
    config_path : str or os.PathLike
        The partition config; the maps are read from ``orig_nids/`` and ``orig_eids/`` beside
        it.

    Returns
    -------
    orig_nids : torch.Tensor, dict of str to torch.Tensor, or None
        The original type-wise id of every node, indexed by its new type-wise id: one tensor
        for a homogeneous graph, else one per node type; ``None`` where not saved.
    orig_eids : torch.Tensor, dict of (str, str, str) to torch.Tensor, or None
        The same for the edges, keyed by canonical edge type.
    """
    from ..graph.schema import parse_etype
    from ..storage.config import read_config

    cfg = read_config(config_path)
    root = Path(config_path).parent
    out = []
    for folder, types, key in (
        ("orig_nids", cfg.ntypes, str),
        ("orig_eids", cfg.etypes, parse_etype),
    ):
        if not (root / folder).is_dir():
            out.append(None)
            continue
        maps = {
            key(t): torch.from_numpy(
                np.load(root / folder / f"{t}.npy", mmap_mode="r", allow_pickle=False).copy()
            )
            for t in types
        }
        homogeneous = len(cfg.ntypes) == 1 and len(cfg.etypes) == 1
        out.append(next(iter(maps.values())) if homogeneous else maps)
    return tuple(out)


def node_orig_maps(
    config: Path, cfg, meta, partitions_dir: str | os.PathLike | None = None
) -> dict[int, np.ndarray] | None:
    """Per node type (by index), the original id of each new type-wise id: the merged
    ``orig_nids/`` maps beside the config, else the assignment's (new ids follow the partition,
    then the original id), else ``None``.

    Parameters
    ----------
    config : pathlib.Path
        The partition config; ``orig_nids/<ntype>.npy`` are looked for beside it.
    cfg : PartitionConfig
        The config, read.
    meta : ChunkedMetadata
        The chunked graph's metadata (the node counts the maps must have).
    partitions_dir : str or os.PathLike, optional
        The assignment the partitions were written from.

    Returns
    -------
    dict of int to numpy.ndarray or None
        Node type index -> original ids indexed by new type-wise id (memory-mapped for the
        merged maps; from the assignment, int32 where the type's ids fit).

    Raises
    ------
    GraphpartError
        A merged map of another length or dtype, or an assignment of another partition count.
    """
    folder = config.parent / "orig_nids"
    maps = {}
    for i, t in enumerate(cfg.ntypes):
        f = folder / f"{t}.npy"
        if f.is_file():
            a = np.load(
                check_regular_file(f, "a merged node id map"), mmap_mode="r", allow_pickle=False
            )
            n = meta.num_nodes[t]
            if a.shape != (n,) or a.dtype.kind not in "iu":
                raise GraphpartError(f"{f}: expected {n} node ids, got {a.dtype} {a.shape}")
            if n and (int(a.min()) < 0 or int(a.max()) >= n):
                raise GraphpartError(f"{f}: node ids outside [0, {n})")
            maps[i] = a
    if len(maps) == len(cfg.ntypes):
        return maps
    if partitions_dir is None:
        return None
    parts, k = read_assignment(partitions_dir, meta)
    if k != cfg.num_parts:
        raise GraphpartError(
            f"{partitions_dir} assigns {k} partitions but {config} has {cfg.num_parts}"
        )
    maps = {}
    for i, t in enumerate(cfg.ntypes):  # int32 where the ids fit: the driver holds every node's
        order = group_order(np.asarray(parts.pop(t), dtype=np.int64), k)[0]
        maps[i] = order.astype(np.int32) if len(order) <= np.iinfo(np.int32).max else order
        del order
    return maps


def orig_of(maps: dict[int, np.ndarray], book, nid: np.ndarray) -> np.ndarray:
    """The original type-wise ids of new homogeneous ids ``nid`` (a loop over node types).

    Parameters
    ----------
    maps : dict of int to numpy.ndarray
        What :func:`node_orig_maps` returns.
    book : RangePartitionBook
        The partition book (new homogeneous id -> node type and type-wise id).
    nid : numpy.ndarray
        New homogeneous ids.

    Returns
    -------
    numpy.ndarray
        int64, the original type-wise id of each.
    """
    ntype, typed = (x.numpy() for x in book.map_to_per_ntype(torch.from_numpy(nid)))
    out = np.empty(len(nid), dtype=np.int64)
    for i, a in maps.items():
        sel = np.flatnonzero(ntype == i)
        out[sel] = a[typed[sel]]
    return out

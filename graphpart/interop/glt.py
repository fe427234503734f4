"""GraphLearn-for-PyTorch's partition folders, read without GLT and without unpickling objects.

Layout (GLT 0.2, original ids, edges with their source's partition by default)::

    root/META                         pickle of {num_parts, data_cls, node_types, edge_types}
    root/node_pb.pt, edge_pb.pt       partition of every node / edge (hetero: node_pb/<ntype>.pt,
                                      edge_pb/<src>__<rel>__<dst>.pt)
    root/part<i>/graph/{rows,cols,eids}.pt            (hetero: graph/<src>__<rel>__<dst>/...)
    root/part<i>/node_feat/{feats,ids}.pkl            appended pickle records, one per chunk
    root/part<i>/edge_feat/{feats,ids}.pkl            (hetero: per type folder)

``META`` and the ``.pkl`` records are pickles: they are read by an unpickler that allows plain
data and tensors only (:mod:`graphpart.interop.safe_load`). GLT's features have no names:
they are read as ``feat``.
"""

from __future__ import annotations

import os
from pathlib import Path

import torch

from ..errors import FormatError
from ..utils.check import short_repr
from ._relabel import ForeignPart, Relabeled, check_part_folders, check_types
from .safe_load import load_pickle_records, load_torch

__all__ = ["read_glt"]

HOMO_ETYPE = ("_N", "_E", "_N")


def is_glt_folder(path: Path) -> bool:
    """Whether ``path`` is a folder holding a file ``META`` (GLT's partition metadata)."""
    return path.is_dir() and (path / "META").is_file()


def _etype_dir(e) -> str:
    return "__".join(e)


def _meta(root: Path) -> dict:
    records = load_pickle_records(
        root / "META", f"GLT partition folder {root}", allow_tensors=False, limit=2
    )
    meta = records[0] if len(records) == 1 else None
    if (
        not isinstance(meta, dict)
        or not isinstance(meta.get("num_parts"), int)
        or meta["num_parts"] < 1
        or meta.get("data_cls") not in ("homo", "hetero")
    ):
        raise FormatError(
            f"GLT partition folder {root}: META must be one dict with num_parts >= 1 and "
            f"data_cls 'homo' or 'hetero', got {short_repr(records)}"
        )
    if meta["data_cls"] == "hetero" and not (
        isinstance(meta.get("node_types"), list)
        and isinstance(meta.get("edge_types"), list)
        and all(isinstance(e, (tuple, list)) and len(e) == 3 for e in meta["edge_types"])
    ):
        raise FormatError(
            f"GLT partition folder {root}: hetero META needs node_types and (src, rel, dst) "
            "edge_types"
        )
    return meta


def _ids(obj, what: str) -> torch.Tensor:
    if not isinstance(obj, torch.Tensor) or obj.dim() != 1 or obj.dtype.is_floating_point:
        raise FormatError(f"{what} should be a 1-D integer tensor, got {type(obj).__name__}")
    return obj.to(torch.int64)


def _feature(folder: Path, what: str) -> tuple[torch.Tensor, dict[str, torch.Tensor]] | None:
    if not (folder / "feats.pkl").exists():
        return None
    feats = load_pickle_records(folder / "feats.pkl", what)
    ids = load_pickle_records(folder / "ids.pkl", what)
    if not all(isinstance(x, torch.Tensor) for x in feats + ids) or len(feats) != len(ids):
        raise FormatError(
            f"{what}: {folder} should hold as many tensor chunks in feats.pkl as in ids.pkl"
        )
    try:
        ids_t = _ids(
            torch.cat(ids) if ids else torch.zeros(0, dtype=torch.int64), f"{folder}/ids.pkl"
        )
        rows = torch.cat(feats) if feats else torch.zeros(0)
    except RuntimeError as exc:  # 0-d or mismatched chunks
        raise FormatError(f"{what}: {folder} holds chunks that do not stack ({exc})") from None
    if len(rows) != len(ids_t):
        raise FormatError(f"{what}: {folder} has {len(rows)} feature rows for {len(ids_t)} ids")
    return ids_t, {"feat": rows}


def read_glt(root: str | os.PathLike) -> tuple[Relabeled, object]:
    """Open a GLT partition folder: the relabelled view and a loader of each partition's arrays.

    ``META``, the partition maps (``node_pb``, ``edge_pb``) and, without ``edge_pb``, every
    partition's ``eids.pt`` are read now; a partition's graph and features only when the loader
    is called.

    Parameters
    ----------
    root : str or os.PathLike
        The folder GLT wrote (``META``, ``node_pb``, ``edge_pb``, ``part<i>/``).

    Returns
    -------
    view : Relabeled
        graphpart's partition-major ids and local graphs for the folder's assignment.
    load : callable
        ``load(i)`` reads partition ``i``'s edges (rows, cols, eids) and features as a
        :class:`ForeignPart`; GLT's unnamed features come back under the name ``feat``.

    Raises
    ------
    FormatError
        ``META`` is not a plain dict with ``num_parts`` and ``data_cls``, a partition folder is
        missing, or a map or an ``eids.pt`` is not a valid 1-D integer tensor.
    """
    root = Path(root)
    meta = _meta(root)
    k, hetero = meta["num_parts"], meta["data_cls"] == "hetero"
    where = f"GLT partitions {root}"
    check_part_folders(root, k, "part", where)
    if hetero:
        ntypes, etypes = list(meta["node_types"]), [tuple(e) for e in meta["edge_types"]]
        check_types(ntypes, etypes, where)
        node_part = {
            t: _ids(load_torch(root / "node_pb" / f"{t}.pt", where), f"node_pb/{t}.pt")
            for t in ntypes
        }
    else:
        ntypes, etypes = ["_N"], [HOMO_ETYPE]
        node_part = {"_N": _ids(load_torch(root / "node_pb.pt", where), "node_pb.pt")}

    def graph_dir(i: int, e) -> Path:
        return root / f"part{i}" / "graph" / (_etype_dir(e) if hetero else "")

    edge_part = {}
    for e in etypes:
        f = root / "edge_pb" / f"{_etype_dir(e)}.pt" if hetero else root / "edge_pb.pt"
        if f.exists():
            edge_part[e] = _ids(load_torch(f, where), str(f))
        else:  # no edge map for a type without features (GLT): each partition's edges are its own
            chunks = [
                (_ids(load_torch(graph_dir(i, e) / "eids.pt", where), "eids.pt"), i)
                for i in range(k)
                if (graph_dir(i, e) / "eids.pt").exists()
            ]
            n = sum(len(c) for c, _ in chunks)  # each edge is stored by one partition
            if any(len(c) and (int(c.min()) < 0 or int(c.max()) >= n) for c, _ in chunks):
                raise FormatError(
                    f"{where}: without edge_pb, the partitions' eids.pt of {e} must number "
                    f"their {n:,} edges 0..{n - 1:,}; an id lies outside"
                )
            part = torch.full((n,), -1, dtype=torch.int64)
            for c, i in chunks:
                part[c] = i
            if n and int(part.min()) < 0:
                raise FormatError(
                    f"{where}: without edge_pb, the partitions' eids.pt of {e} must number "
                    f"their {n:,} edges 0..{n - 1:,} once each; some ids repeat"
                )
            edge_part[e] = part
    view = Relabeled(sorted(ntypes), sorted(etypes), node_part, edge_part, k, where)

    def load(i: int) -> ForeignPart:
        if not (root / f"part{i}").is_dir():
            raise FormatError(
                f"GLT partition folder {root} has no part{i}/ (META says {k} partitions)"
            )
        edges, nfeat, efeat = {}, {}, {}
        for e in etypes:
            d = graph_dir(i, e)
            if not (d / "rows.pt").exists():
                continue
            rows, cols = (
                _ids(load_torch(d / f"{x}.pt", where), f"{d}/{x}.pt") for x in ("rows", "cols")
            )
            eids = (
                _ids(load_torch(d / "eids.pt", where), f"{d}/eids.pt")
                if (d / "eids.pt").exists()
                else None
            )
            if eids is None:
                raise FormatError(
                    f"{where}: {d} has no eids.pt; graphpart needs edge ids to place edges"
                )
            edges[e] = (rows, cols, eids)
            f = _feature(root / f"part{i}" / "edge_feat" / (_etype_dir(e) if hetero else ""), where)
            if f is not None:
                efeat[e] = f
        for t in ntypes:
            f = _feature(root / f"part{i}" / "node_feat" / (t if hetero else ""), where)
            if f is not None:
                nfeat[t] = f
        return ForeignPart(edges, nfeat, efeat)

    return view, load

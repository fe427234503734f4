"""Read a PyTorch Geometric partition folder (``torch_geometric.distributed``; the layout is in
:mod:`graphpart.interop.pyg_layout`) as graphpart's relabelled view, whichever wrote it: PyG's
own ``Partitioner`` or :func:`~graphpart.interop.export_pyg`.
"""

from __future__ import annotations

import os
from pathlib import Path

import torch

from ..errors import FormatError
from ..fs.untrusted import read_json
from ..utils.check import short_repr
from ._relabel import ForeignPart, Relabeled, check_part_folders, check_types
from .pyg_layout import HOMO_ETYPE, empty_groups, etype_file
from .safe_load import load_torch

__all__ = ["read_pyg"]


def is_pyg_folder(path: Path) -> bool:
    """Whether ``path`` is a folder with a PyG ``META.json`` (nothing in it is read)."""
    return path.is_dir() and (path / "META.json").is_file()


def _named_rows(feats: object, what: str) -> dict[str, torch.Tensor]:
    """A ``feats`` entry: names to tensors of rows (``None`` or empty: no data)."""
    if feats is None:
        return {}
    if not isinstance(feats, dict) or not all(isinstance(n, str) for n in feats):
        raise FormatError(f"{what} feats should map names to tensors, got {short_repr(feats)}")
    return {n: v for n, v in feats.items() if isinstance(v, torch.Tensor)}


def _meta(root: Path) -> dict:
    meta = read_json(root / "META.json", f"PyG partition folder {root}")
    if (
        not isinstance(meta, dict)
        or not isinstance(meta.get("num_parts"), int)
        or meta["num_parts"] < 1
        or not isinstance(meta.get("is_hetero"), bool)
    ):
        raise FormatError(
            f"PyG partition folder {root}: META.json must hold num_parts >= 1 and is_hetero, "
            f"got {short_repr(meta)}"
        )
    if not isinstance(meta.get("graphpart") or {}, dict):
        raise FormatError(
            f"PyG partition folder {root}: META.json's graphpart entry should be a dict, got "
            f"{short_repr(meta['graphpart'])}"
        )
    if meta["is_hetero"] and not (
        isinstance(meta.get("node_types"), list)
        and isinstance(meta.get("edge_types"), list)
        and all(isinstance(e, list) and len(e) == 3 for e in meta["edge_types"])
    ):
        raise FormatError(
            f"PyG partition folder {root}: a heterogeneous META.json needs node_types and "
            f"edge_types as [src, rel, dst] lists"
        )
    return meta


def _tensor(obj, what: str) -> torch.Tensor:
    if not isinstance(obj, torch.Tensor) or obj.dim() != 1 or obj.dtype.is_floating_point:
        raise FormatError(
            f"{what} should be a 1-D integer tensor, got {type(obj).__name__}"
            f"{tuple(obj.shape) if isinstance(obj, torch.Tensor) else ''}"
        )
    return obj.to(torch.int64)


def read_pyg(root: str | os.PathLike) -> tuple[Relabeled, list]:
    """Open a PyG partition folder: the relabelled view and a loader of each partition's arrays.

    Parameters
    ----------
    root : path
        The folder (``META.json``, ``node_map``, ``edge_map``, ``part_<i>/``).

    Returns
    -------
    view : Relabeled
        graphpart's partition-major ids and local graphs for the folder's assignment.
    load : callable
        ``load(i)`` reads partition ``i``'s files as a :class:`ForeignPart`; a feature group
        export_pyg left out of a partition (it owns no rows of it) comes back with zero rows.

    Examples
    --------
    >>> from graphpart.datasets import peer_partitions
    >>> view, load = read_pyg(peer_partitions("karate", "pyg"))
    >>> view.num_parts, sorted(load(0).node_feats)
    (2, ['_N'])
    """
    root = Path(root)
    meta = _meta(root)
    k, hetero = meta["num_parts"], meta["is_hetero"]
    check_part_folders(root, k, "part_", f"PyG partition folder {root}")
    if hetero:
        ntypes = list(meta["node_types"])
        etypes = [tuple(e) for e in meta["edge_types"]]
        check_types(ntypes, etypes, f"PyG partition folder {root}")
        node_part = {
            t: _tensor(
                load_torch(root / "node_map" / f"{t}.pt", "PyG node map"), f"node_map/{t}.pt"
            )
            for t in ntypes
        }
        edge_part = {
            e: _tensor(
                load_torch(root / "edge_map" / f"{etype_file(e)}.pt", "PyG edge map"),
                f"edge_map/{e}",
            )
            for e in etypes
        }
    else:
        ntypes, etypes = ["_N"], [HOMO_ETYPE]
        node_part = {"_N": _tensor(load_torch(root / "node_map.pt", "PyG node map"), "node_map.pt")}
        edge_part = {
            HOMO_ETYPE: _tensor(load_torch(root / "edge_map.pt", "PyG edge map"), "edge_map.pt")
        }
    view = Relabeled(
        sorted(ntypes), sorted(etypes), node_part, edge_part, k, f"PyG partitions {root}"
    )
    # export_pyg leaves out a partition's empty groups (PyG cannot load them): zero rows here
    left_out = empty_groups(meta, ntypes, etypes, f"PyG partition folder {root}: META.json")
    ours = bool((meta.get("graphpart") or {}).get("type_wise_ids"))
    eoff, noff, total_e, total_n = {}, {}, 0, 0
    for e in etypes:  # PyG's own hetero writer: homogeneous ids in META order
        eoff[e], total_e = total_e, total_e + len(edge_part[e])
    for t in ntypes:
        noff[t], total_n = total_n, total_n + len(node_part[t])

    def load(i: int) -> ForeignPart:
        folder = root / f"part_{i}"
        if not folder.is_dir():
            raise FormatError(
                f"PyG partition folder {root} has no part_{i}/ (META.json says {k} partitions)"
            )
        graph = load_torch(folder / "graph.pt", f"PyG partition {i} graph")
        nf = (
            load_torch(folder / "node_feats.pt", f"PyG partition {i} node features")
            if (folder / "node_feats.pt").exists()
            else {}
        )
        ef = (
            load_torch(folder / "edge_feats.pt", f"PyG partition {i} edge features")
            if (folder / "edge_feats.pt").exists()
            else {}
        )
        for name, x in (("graph.pt", graph), ("node_feats.pt", nf), ("edge_feats.pt", ef)):
            if not isinstance(x, dict):  # before anything looks inside
                raise FormatError(f"{folder / name} should hold a dict, got {type(x).__name__}")
        if not hetero:
            graph, nf, ef = (
                {HOMO_ETYPE: graph},
                ({"_N": nf} if nf else {}),
                ({HOMO_ETYPE: ef} if ef else {}),
            )
        if not isinstance(graph, dict):
            raise FormatError(
                f"{folder / 'graph.pt'} should hold a dict, got {type(graph).__name__}"
            )
        edges = {}
        for e, d in graph.items():
            if not isinstance(d, dict):
                raise FormatError(
                    f"{folder / 'graph.pt'}: edge type {short_repr(e)} should hold a dict of "
                    f"row/col/edge_id, got {type(d).__name__}"
                )
            try:
                eid = _tensor(d["edge_id"], f"{folder}/graph.pt {e} edge_id")
                edges[tuple(e)] = (
                    _tensor(d["row"], f"{folder}/graph.pt {e} row"),
                    _tensor(d["col"], f"{folder}/graph.pt {e} col"),
                    eid if ours or not hetero else eid - eoff[tuple(e)],
                )
            except (KeyError, TypeError) as exc:
                raise FormatError(
                    f"{folder / 'graph.pt'}: edge type {e} lacks row/col/edge_id ({exc})"
                ) from None
        for name, x in (("graph.pt", graph), ("node_feats.pt", nf), ("edge_feats.pt", ef)):
            if not isinstance(x, dict):
                raise FormatError(f"{folder / name} should hold a dict, got {type(x).__name__}")
        node_feats = {}
        for t, d in nf.items():
            if not isinstance(d, dict) or "global_id" not in d:
                raise FormatError(f"{folder / 'node_feats.pt'}: {short_repr(t)} lacks global_id")
            if t not in noff:
                raise FormatError(
                    f"{folder / 'node_feats.pt'}: node type {short_repr(t)} is not in META.json"
                )
            ids = _tensor(
                d["id"] if "id" in d else d["global_id"], f"{folder}/node_feats.pt {t} ids"
            )
            if "id" not in d and hetero and not ours:
                ids = ids - noff[t]
            node_feats[t] = (ids, _named_rows(d.get("feats"), f"{folder}/node_feats.pt {t!r}"))
        edge_feats = {}
        for e, d in ef.items():
            rows = (
                _named_rows(d.get("feats"), f"{folder}/edge_feats.pt {short_repr(e)}")
                if isinstance(d, dict)
                else {}
            )
            if isinstance(d, dict) and "global_id" in d and rows:
                if not isinstance(e, (tuple, list)) or tuple(e) not in eoff:
                    raise FormatError(
                        f"{folder / 'edge_feats.pt'}: edge type {short_repr(e)} is not in META.json"
                    )
                edge_feats[tuple(e)] = (
                    _tensor(d["global_id"], f"{folder}/edge_feats.pt {e} global_id"),
                    rows,
                )
        for t, data in left_out[0].items():
            node_feats.setdefault(t, (torch.zeros(0, dtype=torch.int64), dict(data)))
        for e, data in left_out[1].items():
            if data:
                edge_feats.setdefault(e, (torch.zeros(0, dtype=torch.int64), dict(data)))
        return ForeignPart(edges, node_feats, edge_feats)

    return view, load

"""PyTorch Geometric's partition folders (``torch_geometric.distributed``): write them, read them.

Layout (PyG 2.8, ids are the original ones, never renumbered)::

    root/META.json                {num_parts, node_types, edge_types, node_offset, is_hetero,
                                  is_sorted}
    root/node_map.pt, edge_map.pt partition of every node / edge (hetero: node_map/<ntype>.pt,
                                  edge_map/<src>__<rel>__<dst>.pt, type-wise)
    root/part_<i>/graph.pt        {row, col, edge_id, size}: the edges whose destination <i> owns,
                                  sorted by destination (hetero: one such dict per edge type tuple)
    root/part_<i>/node_feats.pt   {global_id, feats: {name: rows}} of the nodes <i> owns (hetero:
                                  per type)
    root/part_<i>/edge_feats.pt   {global_id, feats: {name: rows}} of its edges, or {}

PyG's own heterogeneous writer stores homogeneous ids in ``graph.pt``'s ``edge_id`` and the node
``global_id`` (type-wise ids elsewhere), which its feature store then looks up with type-wise
ids. :func:`export_pyg` writes type-wise ids everywhere (what the lookups use) and marks its
META; :func:`read_pyg` reads both.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import torch

from .._check import short_repr
from .._io import atomic_dir
from .._untrusted import read_json
from ..errors import FormatError, GraphpartError
from ._relabel import ForeignPart, Relabeled, check_part_folders, check_types
from .safe_load import load_torch

__all__ = ["export_pyg", "read_pyg", "is_pyg_folder"]

logger = logging.getLogger(__name__)
HOMO_ETYPE = ("_N", "_E", "_N")


def is_pyg_folder(path: Path) -> bool:
    return path.is_dir() and (path / "META.json").is_file()


def _etype_file(e) -> str:
    return "__".join(e)


def _save(obj, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(obj, path)


def export_pyg(p, out: str | os.PathLike) -> Path:
    """Write a :class:`~graphpart.Partitioning` as the folder PyG's
    ``LocalGraphStore.from_partition``
    and ``LocalFeatureStore.from_partition`` load; returns the folder.

    Each partition holds the edges whose destination it owns (as graphpart and PyG both assign
    them), sorted by destination; node data goes to ``node_feats.pt``, edge data to
    ``edge_feats.pt``, under their own names (PyG's samplers look up ``"x"`` and ``"edge_attr"``).
    Files hold plain dicts of tensors. The folder is written atomically.

    Examples
    --------
    >>> import tempfile, graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> root = export_pyg(gp.partition(load_karate_club(), 2, seed=0), tempfile.mkdtemp() + "/pyg")
    >>> sorted(x.name for x in root.iterdir())
    ['META.json', 'edge_map.pt', 'node_map.pt', 'part_0', 'part_1']
    """
    from ..partitioning.core import Partitioning

    if not isinstance(p, Partitioning):
        raise GraphpartError(
            f"export_pyg takes a graphpart Partitioning (graphpart.partition(...)), "
            f"got {type(p).__name__}"
        )
    g, k = p.graph, p.num_parts
    hetero = not g.is_homogeneous
    assign = p.assignment if hetero else {g.ntypes[0]: p.assignment}
    offsets = p.homogeneous.node_offsets
    out = Path(out)
    with atomic_dir(out) as tmp:
        meta = {
            "num_parts": k,
            "node_types": list(g.ntypes) if hetero else None,
            "edge_types": [list(e) for e in g.canonical_etypes] if hetero else None,
            "node_offset": offsets[:-1].tolist() if hetero else None,
            "is_hetero": hetero,
            "is_sorted": True,
            "graphpart": {"type_wise_ids": True},
        }
        (tmp / "META.json").write_text(json.dumps(meta))
        edge_part = {}
        for e in g.canonical_etypes:
            edge_part[e] = assign[e[2]][g.edges(e)[1]]
        if hetero:
            for t in g.ntypes:
                _save(assign[t].clone(), tmp / "node_map" / f"{t}.pt")
            for e in g.canonical_etypes:
                _save(edge_part[e], tmp / "edge_map" / f"{_etype_file(e)}.pt")
        else:
            _save(assign[g.ntypes[0]].clone(), tmp / "node_map.pt")
            _save(edge_part[g.canonical_etypes[0]], tmp / "edge_map.pt")
        # one sort per type: edges by (partition, destination), nodes by partition; then slices
        edge_order, edge_bounds, node_order, node_bounds = {}, {}, {}, {}
        for e in g.canonical_etypes:
            d = g.edges(e)[1]
            edge_order[e] = torch.argsort(edge_part[e] * max(g.num_nodes(e[2]), 1) + d, stable=True)
            edge_bounds[e] = torch.searchsorted(edge_part[e][edge_order[e]], torch.arange(k + 1))
        for t in g.ntypes:
            node_order[t] = torch.argsort(assign[t], stable=True)
            node_bounds[t] = torch.searchsorted(assign[t][node_order[t]], torch.arange(k + 1))
        for i in range(k):
            graph, nfeat, efeat = {}, {}, {}
            for e in g.canonical_etypes:
                s, d = g.edges(e)
                ids = edge_order[e][edge_bounds[e][i] : edge_bounds[e][i + 1]]
                graph[e] = {
                    "row": s[ids].clone(),
                    "col": d[ids].clone(),
                    "edge_id": ids,
                    "size": (g.num_nodes(e[0]), g.num_nodes(e[2])),
                }
                data = {name: v[ids].clone() for name, v in g.edge_data(e).items()}
                if data:
                    efeat[e] = {"global_id": ids, "feats": data}
            for t in g.ntypes:
                ids = torch.sort(node_order[t][node_bounds[t][i] : node_bounds[t][i + 1]]).values
                if len(ids):  # PyG's feature store cannot index an empty id list
                    nfeat[t] = {
                        "global_id": ids,
                        "id": ids,
                        "feats": {name: v[ids].clone() for name, v in g.node_data(t).items()},
                    }
            if not hetero:
                graph, nfeat = (
                    graph[g.canonical_etypes[0]],
                    nfeat.get(
                        g.ntypes[0], {"global_id": torch.zeros(0, dtype=torch.int64), "feats": {}}
                    ),
                )
                nfeat.pop("id", None)
                efeat = efeat.get(g.canonical_etypes[0], {})
            _save(graph, tmp / f"part_{i}" / "graph.pt")
            _save(nfeat, tmp / f"part_{i}" / "node_feats.pt")
            _save(efeat, tmp / f"part_{i}" / "edge_feats.pt")
    logger.info("wrote %d PyG partitions to %s", k, out)
    return out


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
    """Open a PyG partition folder: the relabelled view and a loader of each partition's arrays."""
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
                load_torch(root / "edge_map" / f"{_etype_file(e)}.pt", "PyG edge map"),
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
        node_feats = {}
        for t, d in nf.items():
            if not isinstance(d, dict) or "global_id" not in d:
                raise FormatError(f"{folder / 'node_feats.pt'}: {t!r} lacks global_id")
            if t not in noff:
                raise FormatError(
                    f"{folder / 'node_feats.pt'}: node type {t!r} is not in META.json"
                )
            ids = _tensor(
                d["id"] if "id" in d else d["global_id"], f"{folder}/node_feats.pt {t} ids"
            )
            if "id" not in d and hetero and not ours:
                ids = ids - noff[t]
            node_feats[t] = (
                ids,
                {n: v for n, v in (d.get("feats") or {}).items() if isinstance(v, torch.Tensor)},
            )
        edge_feats = {}
        for e, d in ef.items():
            if isinstance(d, dict) and "global_id" in d and d.get("feats"):
                edge_feats[tuple(e)] = (
                    _tensor(d["global_id"], f"{folder}/edge_feats.pt {e} global_id"),
                    {n: v for n, v in d["feats"].items() if isinstance(v, torch.Tensor)},
                )
        return ForeignPart(edges, node_feats, edge_feats)

    return view, load

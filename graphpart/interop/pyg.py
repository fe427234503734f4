"""Write a :class:`~graphpart.Partitioning` as the partition folder PyTorch Geometric's
distributed stores load (``torch_geometric.distributed``): :func:`export_pyg`. The layout is in
:mod:`graphpart.interop.pyg_layout`; :mod:`graphpart.interop.pyg_read` reads such folders back.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

import torch

from ..errors import GraphpartError
from ..fs.atomic import atomic_dir
from .pyg_layout import data_schema, etype_file

if TYPE_CHECKING:
    from ..partitioning.core import Partitioning

__all__ = ["export_pyg"]

logger = logging.getLogger(__name__)


def _save(obj, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(obj, path)


def export_pyg(p: Partitioning, out: str | os.PathLike) -> Path:
    """Write a :class:`~graphpart.Partitioning` as the folder PyG's
    ``LocalGraphStore.from_partition`` and ``LocalFeatureStore.from_partition`` load; returns
    the folder.

    Each partition holds the edges whose destination it owns (as graphpart and PyG both assign
    them), sorted by destination; node data goes to ``node_feats.pt``, edge data to
    ``edge_feats.pt``, under their own names (PyG's samplers look up ``"x"`` and ``"edge_attr"``).
    A partition that owns no node of a type, or no edge of a type with data, leaves that group
    out of its feature files (PyG's ``LocalFeatureStore`` cannot load an empty ``global_id``);
    META.json records every type's data names, dtypes and row shapes, so graphpart reads such a
    partition back with zero-row arrays. Files hold plain dicts of tensors. The folder is written
    atomically.

    Parameters
    ----------
    p : Partitioning
        The partitioning to write: its graph, with all node and edge data, and its assignment.
    out : str or os.PathLike
        The folder to create; it is written atomically.

    Returns
    -------
    pathlib.Path
        ``out``: ``META.json``, the node and edge maps and one ``part_<i>`` folder per partition.

    Raises
    ------
    GraphpartError
        ``p`` is not a graphpart :class:`~graphpart.Partitioning`.

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
            "graphpart": {"type_wise_ids": True, "schema": data_schema(g)},
        }
        (tmp / "META.json").write_text(json.dumps(meta))
        edge_part = {}
        for e in g.canonical_etypes:
            edge_part[e] = assign[e[2]][g.edges(e)[1]]
        if hetero:
            for t in g.ntypes:
                _save(assign[t].clone(), tmp / "node_map" / f"{t}.pt")
            for e in g.canonical_etypes:
                _save(edge_part[e], tmp / "edge_map" / f"{etype_file(e)}.pt")
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
                if len(ids) and g.edge_data(e):  # PyG cannot index an empty global_id
                    efeat[e] = {
                        "global_id": ids,
                        "feats": {name: v[ids].clone() for name, v in g.edge_data(e).items()},
                    }
            for t in g.ntypes:
                ids = torch.sort(node_order[t][node_bounds[t][i] : node_bounds[t][i + 1]]).values
                if len(ids):  # PyG's feature store cannot index an empty id list
                    nfeat[t] = {
                        "global_id": ids,
                        "id": ids,
                        "feats": {name: v[ids].clone() for name, v in g.node_data(t).items()},
                    }
            if not hetero:  # no node_feats.pt for a partition without nodes (PyG reads none)
                graph, nfeat = graph[g.canonical_etypes[0]], nfeat.get(g.ntypes[0])
                if nfeat is not None:
                    nfeat.pop("id")
                efeat = efeat.get(g.canonical_etypes[0], {})
            _save(graph, tmp / f"part_{i}" / "graph.pt")
            if nfeat is not None:
                _save(nfeat, tmp / f"part_{i}" / "node_feats.pt")
            _save(efeat, tmp / f"part_{i}" / "edge_feats.pt")
    logger.info("wrote %d PyG partitions to %s", k, out)
    return out

"""On-disk partitions: ``partition_graph`` writes them, ``load_partition`` reads them back.

Layout (DGL's)::

    out_path/
      <graph_name>.json      config: node_map, edge_map, ntypes, etypes, part-<i> paths
      part0/graph.pt         the partition's local graph (inner nodes first, then HALO)
      part0/node_feats.pt    {"ntype/name": rows of the nodes the partition owns}
      part0/edge_feats.pt    {"src:rel:dst/name": rows of the edges it owns}
      ...

``format="dgl"`` writes DGL's own binary files instead (``graph.dgl``, ``node_feat.dgl``,
``edge_feat.dgl``: what DGL's ``load_partition`` and ``DistGraph`` load), ``format="graphbolt"``
adds GraphBolt's ``fused_csc_sampling_graph.pt`` (:mod:`graphpart.interop.partfiles`).

The whole folder is built next to ``out_path`` and renamed into place, so a
failure never leaves half an output. Loading reads either format, DGL-written ones
too, and never unpickles anything but tensors: torch files with ``weights_only=True``,
DGL files by :mod:`graphpart.interop`; large features are memory-mapped.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import NamedTuple

import numpy as np
import torch

from ._config import FORMAT_VERSION, check_graph_name, part_files
from ._io import atomic_dir
from ._schema import etype_str
from .errors import GraphpartError
from .graph import Graph
from .interop.partfiles import check_format, part_file_names, write_feats_file, write_graph_file
from .interop.sources import open_partitions
from .partitioning.book import RangePartitionBook
from .partitioning.core import DEFAULT_METIS_MAX_EDGES, DEFAULT_REFINE_ROUNDS, Partitioning, partition

__all__ = ["partition_graph", "save_partitions", "build_config", "write_part", "check_out_path", "load_partition", "load_partition_feats",
           "load_partition_book", "PartitionData", "BookData"]

logger = logging.getLogger(__name__)


class PartitionData(NamedTuple):
    """One loaded partition; unpacks like DGL's 7-tuple."""

    graph: Graph
    node_feats: dict[str, torch.Tensor] | None
    edge_feats: dict[str, torch.Tensor] | None
    book: RangePartitionBook
    graph_name: str
    ntypes: list[str]
    etypes: list[tuple[str, str, str]]


class BookData(NamedTuple):
    """A partition book with the names DGL's ``load_partition_book`` returns alongside it."""

    book: RangePartitionBook
    graph_name: str
    ntypes: list[str]
    etypes: list[tuple[str, str, str]]


def check_out_path(out: Path) -> None:
    """Refuse to replace a folder that holds anything but an earlier graphpart output."""
    if not out.exists():
        return
    if not out.is_dir():
        raise GraphpartError(f"out_path {out} exists and is not a folder")
    entries = [p for p in out.iterdir()]
    ours = any(p.suffix == ".json" and _is_config(p) for p in entries)
    if entries and not ours:
        raise GraphpartError(f"out_path {out} is not empty and holds no graphpart partitions; "
                             "partition_graph replaces its out_path, so give a new or empty folder")


def _is_config(p: Path) -> bool:
    try:
        return json.loads(p.read_text()).get("format") == "graphpart"
    except (OSError, ValueError, AttributeError):
        return False


def build_config(graph_name: str, part_method: str, num_hops: int, num_trainers_per_machine: int,
                 node_bounds: np.ndarray, edge_bounds: np.ndarray, ntypes: list[str],
                 etypes: list[str], format: str = "graphpart") -> dict:
    """The config JSON of a partitioning (both the in-memory and the chunked path write this)."""
    names = part_file_names(format)
    num_parts = int(node_bounds.shape[0])
    cfg = {
        "format": "graphpart", "version": FORMAT_VERSION, "graph_name": graph_name,
        "part_method": part_method, "num_parts": num_parts, "halo_hops": int(num_hops),
        "num_trainers_per_machine": int(num_trainers_per_machine),
        "num_nodes": int(node_bounds[-1, -1, 1]) if node_bounds.size else 0,
        "num_edges": int(edge_bounds[-1, -1, 1]) if edge_bounds.size else 0,
        "node_map": {t: node_bounds[:, i].tolist() for i, t in enumerate(ntypes)},
        "edge_map": {t: edge_bounds[:, i].tolist() for i, t in enumerate(etypes)},
        "ntypes": {t: i for i, t in enumerate(ntypes)}, "etypes": {e: i for i, e in enumerate(etypes)},
    }
    for i in range(num_parts):
        cfg[f"part-{i}"] = {k: f"part{i}/{name}" for k, name in names.items()}
    if format != "graphpart":
        cfg["file_format"] = format
    if format == "graphbolt":  # what DGL writes beside GraphBolt files
        cfg["node_map_dtype"] = cfg["edge_map_dtype"] = "int64"
    return cfg


def write_part(folder: Path, num_nodes: int, src: torch.Tensor, dst: torch.Tensor, ndata: dict, edata: dict,
               node_feats: dict, edge_feats: dict, extra: dict | None = None, format: str = "graphpart",
               meta: dict | None = None) -> None:
    """Write one partition's files (local graph, node and edge features) into ``folder`` in ``format``.

    ``extra`` maps further file names (e.g. ``orig_nids.pt``) to dicts of tensors; ``meta``
    carries the type names a GraphBolt file records.
    """
    folder.mkdir(parents=True, exist_ok=True)
    names = part_file_names(format)
    write_graph_file(folder, format, num_nodes, src, dst, ndata, edata, meta)
    write_feats_file(folder / names["node_feats"], node_feats)
    write_feats_file(folder / names["edge_feats"], edge_feats)
    for name, obj in (extra or {}).items():
        write_feats_file(folder / name, obj)


def graphbolt_meta(ntypes: list[str], etypes: list[str]) -> dict:
    """The type maps a GraphBolt partition records (none for a homogeneous graph)."""
    if len(ntypes) == 1 and len(etypes) == 1:
        return {}
    return {"node_type_to_id": {t: i for i, t in enumerate(ntypes)},
            "edge_type_to_id": {e: i for i, e in enumerate(etypes)}}


def save_partitions(p: Partitioning, graph_name: str, out_path: str | os.PathLike,
                    progress: bool = False, format: str = "graphpart") -> Path:
    """Write a :class:`Partitioning` to ``out_path`` in ``format``; returns the config path."""
    graph_name = check_graph_name(graph_name)
    check_format(format)
    out = Path(out_path)
    check_out_path(out)
    g = p.graph
    etypes = [etype_str(e) for e in g.canonical_etypes]
    cfg = build_config(graph_name, p.part_method, p.num_hops, p.num_trainers_per_machine, p.shuffle.node_bounds,
                       p.shuffle.edge_bounds, g.ntypes, etypes, format)
    meta = graphbolt_meta(g.ntypes, etypes)
    parts = range(p.num_parts)
    if progress:
        from tqdm.auto import tqdm

        parts = tqdm(parts, desc="writing partitions", unit="part")
    with atomic_dir(out) as tmp:
        for i in parts:
            lg = p.local_graph(i)
            src, dst = lg.edges()
            write_part(tmp / f"part{i}", lg.num_nodes(), src, dst, lg.ndata, lg.edata, p.node_feats(i),
                       p.edge_feats(i), format=format, meta=meta)
            logger.info("wrote partition %d: %d nodes, %d edges", i, lg.num_nodes(), lg.num_edges())
        (tmp / f"{graph_name}.json").write_text(json.dumps(cfg, indent=2))
    return out / f"{graph_name}.json"


def partition_graph(g: Graph, graph_name: str, num_parts: int, out_path: str | os.PathLike, *,
                    num_hops: int = 1, part_method="metis", balance_ntypes=None, balance_edges: bool = False,
                    return_mapping: bool = False, num_trainers_per_machine: int = 1, objtype: str = "cut",
                    seed=None, recursive: bool = False, metis_options=None,
                    metis_max_edges: int | None = DEFAULT_METIS_MAX_EDGES, metis_refine_rounds: int = DEFAULT_REFINE_ROUNDS,
                    progress: bool = False,
                    format: str = "graphpart"):
    """Partition ``g`` and write the partitions under ``out_path`` (see the module docstring).

    Arguments are those of :func:`graphpart.partition`; ``format`` is ``"graphpart"`` (torch
    files), ``"dgl"`` (DGL's binary files, which DGL's ``load_partition`` and ``DistGraph``
    load) or ``"graphbolt"`` (the DGL files plus GraphBolt's). With ``return_mapping``
    returns ``(orig_nids, orig_eids)`` as DGL does: tensors for a homogeneous
    graph, dicts by node type / canonical edge type otherwise, with
    ``orig[new_id] = old_id`` type-wise.

    Examples
    --------
    >>> import tempfile
    >>> from graphpart.datasets import load_karate_club
    >>> out = tempfile.mkdtemp()
    >>> nmap, emap = partition_graph(load_karate_club(), "karate", 2, out, seed=0, return_mapping=True)
    >>> g, nfeat, efeat, book, name, ntypes, etypes = load_partition(f"{out}/karate.json", 0)
    >>> name, ntypes, book.num_partitions(), sorted(nfeat)
    ('karate', ['_N'], 2, ['_N/label'])
    """
    check_graph_name(graph_name)
    check_format(format)
    check_out_path(Path(out_path))
    p = partition(g, num_parts, part_method=part_method, balance_ntypes=balance_ntypes,
                  balance_edges=balance_edges, num_hops=num_hops,
                  num_trainers_per_machine=num_trainers_per_machine, objtype=objtype, seed=seed,
                  recursive=recursive, metis_options=metis_options, metis_max_edges=metis_max_edges,
                  metis_refine_rounds=metis_refine_rounds)
    save_partitions(p, graph_name, out_path, progress=progress, format=format)
    if return_mapping:
        return p.orig_nids, p.orig_eids
    return None


def load_partition_feats(config_path: str | os.PathLike, part_id: int, load_nodes: bool = True,
                         load_edges: bool = True):
    """``(node_feats, edge_feats)`` of one partition (``None`` for what is not loaded).

    ``config_path`` may also be a PyG or GLT partition folder (see :func:`load_partition`).
    """
    _, nfeat, efeat = open_partitions(config_path).load(part_id, load_nodes=load_nodes, load_edges=load_edges,
                                                         load_graph=False)
    return nfeat, efeat


def load_partition_book(config_path: str | os.PathLike, part_id: int) -> BookData:
    """The partition book of ``part_id`` with the graph name and types (DGL's 4-tuple)."""
    src = open_partitions(config_path)
    if src.format in ("graphpart", "dgl"):
        part_files(src.config, part_id, src.path)
    return BookData(src.book(part_id), src.config["graph_name"], src.config["_ntypes"], src.etypes)


def load_partition(config_path: str | os.PathLike, part_id: int, load_feats: bool = True) -> PartitionData:
    """Load one partition: ``graph, node_feats, edge_feats, book, graph_name, ntypes, etypes``.

    ``config_path`` is a partition config written by graphpart or by DGL (``.dgl`` files; the
    GraphBolt variant keeps them too), or a PyG or GLT partition folder: those keep original ids,
    and are shown renumbered the way DGL and graphpart number them (``orig_id`` on the nodes keeps
    the original ids). The format is detected and logged.
    """
    src = open_partitions(config_path)
    graph, nfeat, efeat = src.load(part_id, load_feats=load_feats)
    cfg = src.config
    return PartitionData(graph, nfeat, efeat, src.book(part_id), cfg["graph_name"], cfg["_ntypes"], src.etypes)

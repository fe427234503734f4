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

from ._config import FORMAT_VERSION, check_graph_name, part_files, read_config
from ._io import atomic_dir
from ._schema import etype_str, parse_etype
from .errors import FormatError, GraphpartError
from .graph import Graph
from .interop.partfiles import check_format, part_file_names, read_feats_file, read_graph_file
from .interop.partfiles import write_feats_file, write_graph_file
from .partitioning.book import RangePartitionBook
from .partitioning.core import DEFAULT_METIS_MAX_EDGES, Partitioning, partition

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
                    metis_max_edges: int | None = DEFAULT_METIS_MAX_EDGES, progress: bool = False,
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
                  recursive=recursive, metis_options=metis_options, metis_max_edges=metis_max_edges)
    save_partitions(p, graph_name, out_path, progress=progress, format=format)
    if return_mapping:
        return p.orig_nids, p.orig_eids
    return None


def _book(cfg: dict, part_id: int) -> RangePartitionBook:
    nb, eb = cfg["_node_bounds"], cfg["_edge_bounds"]
    return RangePartitionBook(part_id, {t: nb[:, i] for i, t in enumerate(cfg["_ntypes"])},
                              {t: eb[:, i] for i, t in enumerate(cfg["_etypes"])}, cfg["ntypes"], cfg["etypes"])


def _check_feats(feats: dict, bounds: np.ndarray, types: list[str], part_id: int, path: Path) -> None:
    for key, value in feats.items():
        t, _, name = key.rpartition("/")
        if t not in types or not isinstance(value, torch.Tensor):
            raise FormatError(f"{path}: entry {key!r} is not '<type>/<name>' -> tensor over types {types}")
        i = types.index(t)
        expected = int(bounds[part_id, i, 1] - bounds[part_id, i, 0])
        if value.dim() == 0 or value.shape[0] != expected:
            raise FormatError(f"{path}: {key!r} has {tuple(value.shape)} rows but partition {part_id} "
                              f"owns {expected} of type {t!r}")


def load_partition_feats(config_path: str | os.PathLike, part_id: int, load_nodes: bool = True,
                         load_edges: bool = True):
    """``(node_feats, edge_feats)`` of one partition (``None`` for what is not loaded)."""
    cfg = read_config(config_path)
    files = part_files(cfg, part_id, Path(config_path))
    out = []
    for flag, key, bounds, types in ((load_nodes, "node_feats", cfg["_node_bounds"], cfg["_ntypes"]),
                                     (load_edges, "edge_feats", cfg["_edge_bounds"], cfg["_etypes"])):
        if not flag:
            out.append(None)
            continue
        feats = read_feats_file(files[key])
        _check_feats(feats, bounds, types, part_id, files[key])
        out.append(feats)
    return tuple(out)


def load_partition_book(config_path: str | os.PathLike, part_id: int) -> BookData:
    """The partition book of ``part_id`` with the graph name and types (DGL's 4-tuple)."""
    cfg = read_config(config_path)
    part_files(cfg, part_id, Path(config_path))
    return BookData(_book(cfg, part_id), cfg["graph_name"], cfg["_ntypes"],
                    [parse_etype(e) for e in cfg["_etypes"]])


def _load_graph(path: Path, cfg: dict, part_id: int) -> Graph:
    g = read_graph_file(path)
    try:
        ids, inner = g.ndata["_ID"], g.ndata["inner_node"].bool()
        eids, inner_e = g.edata["_ID"], g.edata["inner_edge"].bool()
    except (KeyError, TypeError, GraphpartError) as exc:
        raise FormatError(f"{path} is not a partition graph ({type(exc).__name__}: {exc})") from None
    nb, eb = cfg["_node_bounds"][part_id], cfg["_edge_bounds"][part_id]
    start, end = int(nb[0, 0]), int(nb[-1, 1])
    k = end - start
    if int(inner.sum()) != k or not torch.equal(ids[:k], torch.arange(start, end)) or bool(inner[k:].any()):
        raise FormatError(f"{path}: the inner nodes are not the range [{start}, {end}) the config gives "
                          f"partition {part_id}")
    es, ee = int(eb[0, 0]), int(eb[-1, 1])
    if int(inner_e.sum()) > ee - es or (len(eids) and (int(eids.min()) < 0 or int(eids.max()) >= cfg["num_edges"])):
        raise FormatError(f"{path}: edge ids do not match the config's edge_map for partition {part_id}")
    return g


def load_partition(config_path: str | os.PathLike, part_id: int, load_feats: bool = True) -> PartitionData:
    """Load one partition: ``graph, node_feats, edge_feats, book, graph_name, ntypes, etypes``."""
    cfg = read_config(config_path)
    files = part_files(cfg, part_id, Path(config_path))
    graph = _load_graph(files["part_graph"], cfg, part_id)
    nfeat, efeat = load_partition_feats(config_path, part_id) if load_feats else (None, None)
    return PartitionData(graph, nfeat, efeat, _book(cfg, part_id), cfg["graph_name"], cfg["_ntypes"],
                         [parse_etype(e) for e in cfg["_etypes"]])

"""Write partitions: ``partition_graph`` partitions and writes, ``save_partitions`` writes a
:class:`~graphpart.Partitioning`, ``write_part`` writes one partition from arrays (the in-memory
and the chunked path both end there).

Layout (DGL's)::

    out_path/
      <graph_name>.json      config: node_map, edge_map, ntypes, etypes, part-<i> paths
      part0/graph.pt         the partition's local graph (inner nodes first, then HALO)
      part0/node_feats.pt    {"ntype/name": rows of the nodes the partition owns}
      part0/edge_feats.pt    {"src:rel:dst/name": rows of the edges it owns}
      ...

``format="dgl"`` writes DGL's own binary files instead (``graph.dgl``, ``node_feat.dgl``,
``edge_feat.dgl``: what DGL's ``load_partition`` and ``DistGraph`` load), ``format="graphbolt"``
adds GraphBolt's ``fused_csc_sampling_graph.pt`` (:mod:`graphpart.storage.files`).

The whole folder is built next to ``out_path`` and renamed into place, so a failure never leaves
half an output, and only a folder that holds an earlier graphpart output is ever replaced.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import torch

from ..fs.atomic import atomic_dir
from ..graph.core import Graph, check_graph
from ..graph.schema import check_data_name, etype_str
from ..partitioning.core import Partitioning, partition
from ..partitioning.loads import balance_loads, balance_record, trainer_loads
from ..partitioning.options import PartitionOptions
from ..utils.check import short_repr
from ..utils.heap import release, reused_heap
from .config import check_graph_name
from .files import (
    check_data_dtypes,
    check_format,
    part_file_names,
    write_feats_file,
    write_graph_file,
)
from .make_config import build_config, graphbolt_meta
from .owned import OutputTarget, check_partition_output

__all__ = ["partition_graph", "save_partitions", "write_part"]

logger = logging.getLogger(__name__)


def _check_data(g: Graph) -> None:
    """Before any work: every node and edge data of ``g`` has a name the files can key
    (``"<type>/<name>"``) and a dtype they hold."""
    dtypes = {}
    for t in g.ntypes:
        for name, v in g.node_data(t).items():
            check_data_name(name, f"node data of type {short_repr(t)}")
            dtypes[f"node data {short_repr(name)} of type {short_repr(t)}"] = v.dtype
    for e in g.canonical_etypes:
        for name, v in g.edge_data(e).items():
            check_data_name(name, f"edge data of type {short_repr(etype_str(e))}")
            dtypes[f"edge data {short_repr(name)} of type {short_repr(etype_str(e))}"] = v.dtype
    check_data_dtypes(dtypes)


def write_part(
    folder: Path,
    num_nodes: int,
    src: torch.Tensor,
    dst: torch.Tensor,
    ndata: dict,
    edata: dict,
    node_feats: dict,
    edge_feats: dict,
    extra: dict | None = None,
    format: str = "graphpart",
    meta: dict | None = None,
) -> None:
    """Write one partition's files (local graph, node and edge features) into ``folder`` in
    ``format``.

    ``extra`` maps further file names (e.g. ``orig_nids.pt``) to dicts of tensors; ``meta``
    carries the type names a GraphBolt file records.

    Parameters
    ----------
    folder : pathlib.Path
        The partition's folder (``part<i>``), made if missing.
    num_nodes : int
        Nodes of the local graph (inner and HALO).
    src, dst : torch.Tensor
        The local graph's edge endpoints, in local node ids.
    ndata, edata : dict
        Node and edge data of the local graph (``_ID``, ``inner_node`` / ``inner_edge``,
        ``part_id``, ``_TYPE``, ...).
    node_feats, edge_feats : dict
        ``{"<type>/<name>": rows}`` of the nodes and edges the partition owns.
    extra : dict, optional
        Further files: file name to a dict of tensors, written like the features (DGL's tensor
        file for a ``.dgl`` name, a torch file otherwise).
    format : {"graphpart", "dgl", "graphbolt"}, default "graphpart"
        The files' format (:mod:`graphpart.storage.files`).
    meta : dict, optional
        The type maps of :func:`~graphpart.storage.make_config.graphbolt_meta`; used for
        ``"graphbolt"`` only.
    """
    folder.mkdir(parents=True, exist_ok=True)
    names = part_file_names(format)
    write_graph_file(folder, format, num_nodes, src, dst, ndata, edata, meta)
    write_feats_file(folder / names["node_feats"], node_feats)
    write_feats_file(folder / names["edge_feats"], edge_feats)
    for name, obj in (extra or {}).items():
        write_feats_file(folder / name, obj)


def save_partitions(
    p: Partitioning,
    graph_name: str,
    out_path: str | os.PathLike | OutputTarget,
    progress: bool = False,
    format: str = "graphpart",
) -> Path:
    """Write a :class:`Partitioning` to ``out_path`` in ``format``.

    Parameters
    ----------
    p : Partitioning
        What to write.
    graph_name : str
        The config's name (``<graph_name>.json``) and the graph name DGL reads.
    out_path : str, os.PathLike or OutputTarget
        The output folder, replaced whole (only when it holds an earlier graphpart output:
        :func:`~graphpart.storage.owned.check_partition_output`, run here unless given its result).
    progress : bool, default False
        A progress bar over the partitions.
    format : {"graphpart", "dgl", "graphbolt"}, default "graphpart"
        graphpart's torch files, DGL's binary files, or those plus GraphBolt's.

    Returns
    -------
    pathlib.Path
        The config file written.
    """
    graph_name = check_graph_name(graph_name)
    check_format(format)
    out = check_partition_output(out_path).path
    g = p.graph
    etypes = [etype_str(e) for e in g.canonical_etypes]
    balance_given = p.balance_classes is not None and (
        p.graph.is_homogeneous or p.balance_labels != tuple(p.graph.ntypes)
    )
    balance = balance_record(
        p.balance_labels if balance_given else None,
        p.balance_edges,
        balance_loads(p),
        trainer_loads(p),  # several trainers per machine: their loads too (graphpart inspect)
    )
    cfg = build_config(
        graph_name,
        p.part_method,
        p.num_hops,
        p.num_trainers_per_machine,
        p.shuffle.node_bounds,
        p.shuffle.edge_bounds,
        g.ntypes,
        etypes,
        format,
        balance,
    )
    meta = graphbolt_meta(g.ntypes, etypes)
    parts = range(p.num_parts)
    if progress:
        from tqdm.auto import tqdm

        parts = tqdm(parts, desc="writing partitions", unit="part")
    with atomic_dir(out) as tmp:
        for i in parts:
            num_nodes, src, dst, ndata, edata = p.local_arrays(i)
            write_part(
                tmp / f"part{i}",
                num_nodes,
                src,
                dst,
                ndata,
                edata,
                p.node_feats(i),
                p.edge_feats(i),
                format=format,
                meta=meta,
            )
            logger.info("wrote partition %d: %d nodes, %d edges", i, num_nodes, len(src))
        (tmp / f"{graph_name}.json").write_text(json.dumps(cfg, indent=2))
    return out / f"{graph_name}.json"


@reused_heap()
def partition_graph(
    g: Graph,
    graph_name: str,
    num_parts: int,
    out_path: str | os.PathLike | OutputTarget,
    options: PartitionOptions | None = None,
    *,
    return_mapping: bool = False,
    progress: bool = False,
    format: str = "graphpart",
    **overrides: Any,
) -> tuple[Any, Any] | None:
    """Partition ``g`` and write the partitions under ``out_path`` (see the module docstring).

    Parameters
    ----------
    g : Graph
        Homogeneous or heterogeneous.
    graph_name : str
        The config's name (``<graph_name>.json``).
    num_parts : int
        Number of partitions (machines).
    out_path : str, os.PathLike or OutputTarget
        The output folder, replaced whole, only when it holds an earlier graphpart output.
    options : PartitionOptions, optional
        How to partition; see :class:`~graphpart.PartitionOptions`.
    return_mapping : bool, default False
        Also return the id maps.
    progress : bool, default False
        A progress bar over the partitions written.
    format : {"graphpart", "dgl", "graphbolt"}, default "graphpart"
        graphpart's torch files, DGL's binary files (which DGL's ``load_partition`` and
        ``DistGraph`` load), or those plus GraphBolt's.
    **overrides
        :class:`~graphpart.PartitionOptions` fields by name, DGL's keyword arguments
        (``num_hops=1, part_method="metis", balance_ntypes=..., seed=0``).

    Returns
    -------
    tuple or None
        With ``return_mapping``: ``(orig_nids, orig_eids)`` as DGL returns them, tensors for a
        homogeneous graph, dicts by node type / canonical edge type otherwise, with
        ``orig[new_id] = old_id`` type-wise; else ``None``.

    Examples
    --------
    >>> import tempfile
    >>> from graphpart import load_partition
    >>> from graphpart.datasets import load_karate_club
    >>> out = tempfile.mkdtemp()
    >>> g = load_karate_club()
    >>> nmap, emap = partition_graph(g, "karate", 2, out, seed=0, return_mapping=True)
    >>> g, nfeat, efeat, book, name, ntypes, etypes = load_partition(f"{out}/karate.json", 0)
    >>> name, ntypes, book.num_partitions(), sorted(nfeat)
    ('karate', ['_N'], 2, ['_N/label'])
    """
    check_graph_name(graph_name)
    check_format(format)
    _check_data(check_graph(g))
    target = check_partition_output(out_path)
    p = partition(g, num_parts, PartitionOptions.of(options, **overrides))
    release()  # the partitioning's freed arrays, before the files'
    save_partitions(p, graph_name, target, progress=progress, format=format)
    if return_mapping:
        return p.orig_nids, p.orig_eids
    return None

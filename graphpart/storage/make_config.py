"""The partition config as written: :func:`build_config` (both the in-memory writer and the
chunked pipeline write this JSON, DGL's keys plus graphpart's balance record), the type maps a
GraphBolt file records, and :func:`config_of` for partitions that have no config file."""

from __future__ import annotations

import numpy as np

from .config import PartitionConfig
from .files import part_file_names

__all__ = ["build_config", "graphbolt_meta"]

#: The version of graphpart's config (``"version"``), written beside ``"format": "graphpart"``.
FORMAT_VERSION = 1


def build_config(
    graph_name: str,
    part_method: str,
    num_hops: int,
    num_trainers_per_machine: int,
    node_bounds: np.ndarray,
    edge_bounds: np.ndarray,
    ntypes: list[str],
    etypes: list[str],
    format: str = "graphpart",
    balance: dict | None = None,
    out_edges: bool | None = None,
) -> dict:
    """The config JSON of a partitioning (both the in-memory and the chunked path write this).

    ``balance`` records what was balanced: ``{"ntypes": class labels or None, "edges": bool,
    "loads": {constraint: per-partition load}}``
    (:func:`graphpart.partitioning.loads.balance_loads`).

    Parameters
    ----------
    graph_name : str
        The graph name stored under ``"graph_name"`` (not checked here).
    part_method : str
        What made the partitions, stored under ``"part_method"``.
    num_hops : int
        HALO hops the partitions hold (``"halo_hops"``).
    num_trainers_per_machine : int
        Trainers per machine (``"num_trainers_per_machine"``).
    node_bounds, edge_bounds : numpy.ndarray
        ``(num_parts, num_types, 2)`` ``[start, end)`` blocks of new ids per partition and type;
        they give ``node_map`` / ``edge_map``, the partition count and the node and edge totals
        (the last block's end).
    ntypes, etypes : list of str
        Node types and canonical edge types (``"src:rel:dst"``), in type-id order.
    format : {"graphpart", "dgl", "graphbolt"}, default "graphpart"
        The partition files each ``part-<i>`` entry names (``part<i>/<file>``); other than
        ``"graphpart"`` it is also stored as ``"file_format"``, and ``"graphbolt"`` adds DGL's
        ``node_map_dtype`` / ``edge_map_dtype``.
    balance : dict, optional
        The balance record (:func:`graphpart.partitioning.loads.balance_record`), stored under
        ``"balance"`` when given.
    out_edges : bool or None, default None
        Whether each partition copies the edges leaving it (``"out_edges"``; dispatch's
        option). Not stored when ``None``: with HALO hops a partition then copies them, as
        :func:`graphpart.partition_graph` does.

    Returns
    -------
    dict
        The JSON object to write as ``<graph_name>.json``, with ``"format": "graphpart"`` and
        ``"version"`` :data:`FORMAT_VERSION`.
    """
    names = part_file_names(format)
    num_parts = int(node_bounds.shape[0])
    cfg = {
        "format": "graphpart",
        "version": FORMAT_VERSION,
        "graph_name": graph_name,
        "part_method": part_method,
        "num_parts": num_parts,
        "halo_hops": int(num_hops),
        "num_trainers_per_machine": int(num_trainers_per_machine),
        "num_nodes": int(node_bounds[-1, -1, 1]) if node_bounds.size else 0,
        "num_edges": int(edge_bounds[-1, -1, 1]) if edge_bounds.size else 0,
        "node_map": {t: node_bounds[:, i].tolist() for i, t in enumerate(ntypes)},
        "edge_map": {t: edge_bounds[:, i].tolist() for i, t in enumerate(etypes)},
        "ntypes": {t: i for i, t in enumerate(ntypes)},
        "etypes": {e: i for i, e in enumerate(etypes)},
    }
    for i in range(num_parts):
        cfg[f"part-{i}"] = {k: f"part{i}/{name}" for k, name in names.items()}
    if balance is not None:
        cfg["balance"] = balance
    if format != "graphpart":
        cfg["file_format"] = format
    if format == "graphbolt":  # what DGL writes beside GraphBolt files
        cfg["node_map_dtype"] = cfg["edge_map_dtype"] = "int64"
    if out_edges is not None:
        cfg["out_edges"] = bool(out_edges)
    return cfg


def graphbolt_meta(ntypes: list[str], etypes: list[str]) -> dict:
    """The type maps a GraphBolt partition records (none for a homogeneous graph).

    Parameters
    ----------
    ntypes, etypes : list of str
        Node types and canonical edge types (``"src:rel:dst"``), in type-id order.

    Returns
    -------
    dict
        ``{"node_type_to_id": ..., "edge_type_to_id": ...}`` (type name to type id), the
        keyword arguments of :func:`graphpart.interop.graphbolt.save_graphbolt`; empty when
        there is one node type and one edge type.
    """
    if len(ntypes) == 1 and len(etypes) == 1:
        return {}
    return {
        "node_type_to_id": {t: i for i, t in enumerate(ntypes)},
        "edge_type_to_id": {e: i for i, e in enumerate(etypes)},
    }


def config_of(
    graph_name: str,
    part_method: str,
    num_hops: int,
    node_bounds: np.ndarray,
    edge_bounds: np.ndarray,
    ntypes: list[str],
    etypes: list[str],
) -> PartitionConfig:
    """What :func:`read_config` returns, for partitions known by their blocks alone (a PyG or GLT
    folder: there is no config file).

    Parameters
    ----------
    graph_name, part_method : str
    num_hops : int
    node_bounds, edge_bounds : numpy.ndarray
        ``(num_parts, num_types, 2)`` blocks of new ids.
    ntypes, etypes : list of str

    Returns
    -------
    PartitionConfig
        With no path and no balance record.
    """
    raw = build_config(
        graph_name, part_method, num_hops, 1, node_bounds, edge_bounds, ntypes, etypes
    )
    return PartitionConfig(
        path=None,
        graph_name=graph_name,
        num_parts=int(node_bounds.shape[0]),
        halo_hops=int(num_hops),
        num_nodes=raw["num_nodes"],
        num_edges=raw["num_edges"],
        ntypes=list(ntypes),
        etypes=list(etypes),
        node_bounds=node_bounds,
        edge_bounds=edge_bounds,
        part_method=part_method,
        raw=raw,
    )

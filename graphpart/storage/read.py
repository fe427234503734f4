"""Read partitions back: one partition, its features, its book (DGL's tuples), in any format
:func:`~graphpart.storage.open_partitions` opens. Loading never unpickles anything but tensors:
torch files with ``weights_only=True``, DGL files by :mod:`graphpart.interop`; large features are
memory-mapped.
"""

from __future__ import annotations

import os
from typing import NamedTuple

import torch

from ..graph.core import Graph
from ..partitioning.book import RangePartitionBook
from .sources import open_partitions

__all__ = [
    "load_partition",
    "load_partition_feats",
    "load_partition_book",
    "PartitionData",
    "BookData",
]


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


def load_partition_feats(
    config_path: str | os.PathLike, part_id: int, load_nodes: bool = True, load_edges: bool = True
):
    """``(node_feats, edge_feats)`` of one partition (``None`` for what is not loaded).

    ``config_path`` may also be a PyG or GLT partition folder (see :func:`load_partition`).

    Parameters
    ----------
    config_path : str or os.PathLike
        A partition config (``<graph_name>.json``, graphpart's or DGL's), a folder holding one
        config, or a PyG or GLT partition folder.
    part_id : int
        The partition, in ``[0, num_parts)``.
    load_nodes : bool, default True
        Read the node features.
    load_edges : bool, default True
        Read the edge features.

    Returns
    -------
    node_feats : dict of str to torch.Tensor or None
        ``{"<ntype>/<name>": rows}``, one row per node the partition owns; ``None`` when
        ``load_nodes`` is False.
    edge_feats : dict of str to torch.Tensor or None
        ``{"<src:rel:dst>/<name>": rows}``, one row per edge the partition owns; ``None`` when
        ``load_edges`` is False.
    """
    _, nfeat, efeat = open_partitions(config_path).load(
        part_id, load_nodes=load_nodes, load_edges=load_edges, load_graph=False
    )
    return nfeat, efeat


def load_partition_book(config_path: str | os.PathLike, part_id: int) -> BookData:
    """The partition book of ``part_id`` with the graph name and types (DGL's 4-tuple).

    The result is a :class:`BookData` named tuple. For a graphpart or DGL config, the
    partition's files are checked to exist (their contents are not read).

    Parameters
    ----------
    config_path : str or os.PathLike
        A partition config, a folder holding one config, or a PyG or GLT partition folder.
    part_id : int
        The partition, in ``[0, num_parts)``.

    Returns
    -------
    book : RangePartitionBook
        The partition book, as partition ``part_id`` sees it.
    graph_name : str
        The config's graph name (for a PyG or GLT folder: the folder's name if it is an
        identifier, else ``"graph"``).
    ntypes : list of str
        Node types, in type-id order.
    etypes : list of tuple of str
        Canonical edge types ``(src, rel, dst)``, in type-id order.
    """
    src = open_partitions(config_path)
    if src.format in ("graphpart", "dgl"):
        src.config.part_files(part_id)
    return BookData(src.book(part_id), src.config.graph_name, src.config.ntypes, src.etypes)


def load_partition(
    config_path: str | os.PathLike, part_id: int, load_feats: bool = True
) -> PartitionData:
    """Load one partition: ``graph, node_feats, edge_feats, book, graph_name, ntypes, etypes``.

    ``config_path`` is a partition config written by graphpart or by DGL (``.dgl`` files; the
    GraphBolt variant keeps them too), or a PyG or GLT partition folder: those keep original ids,
    and are shown renumbered the way DGL and graphpart number them (``orig_id`` on the nodes keeps
    the original ids). The format is detected and logged. The result is a :class:`PartitionData`
    named tuple, which unpacks like DGL's 7-tuple.

    Parameters
    ----------
    config_path : str or os.PathLike
        A partition config (``<graph_name>.json``, graphpart's or DGL's), a folder holding one
        config, or a PyG or GLT partition folder.
    part_id : int
        The partition, in ``[0, num_parts)``.
    load_feats : bool, default True
        Read the node and edge features; if False both come back as ``None``.

    Returns
    -------
    graph : Graph
        The partition's local graph, its inner nodes first and then its HALO nodes, with
        ``ndata["_ID"]`` / ``edata["_ID"]`` (new ids) and ``ndata["inner_node"]`` /
        ``edata["inner_edge"]``, checked against the config's ranges.
    node_feats : dict of str to torch.Tensor or None
        ``{"<ntype>/<name>": rows}`` of the nodes the partition owns; ``None`` without
        ``load_feats``.
    edge_feats : dict of str to torch.Tensor or None
        ``{"<src:rel:dst>/<name>": rows}`` of the edges the partition owns; ``None`` without
        ``load_feats``.
    book : RangePartitionBook
        The partition book, as partition ``part_id`` sees it.
    graph_name : str
        The config's graph name (for a PyG or GLT folder: the folder's name if it is an
        identifier, else ``"graph"``).
    ntypes : list of str
        Node types, in type-id order.
    etypes : list of tuple of str
        Canonical edge types ``(src, rel, dst)``, in type-id order.
    """
    src = open_partitions(config_path)
    graph, nfeat, efeat = src.load(part_id, load_feats=load_feats)
    cfg = src.config
    return PartitionData(
        graph, nfeat, efeat, src.book(part_id), cfg.graph_name, cfg.ntypes, src.etypes
    )

"""Follow one node through the chunked pipeline: its row in the feature chunks, the rows of the
edge chunks that name it, its line in the assignment file, its new id, and its row in the
partition files that hold it (owned, and as HALO copies).

Everything is read from the files, one chunk or one partition at a time (never the whole
graph), so it answers on graphs of any size: the cost is one pass over the edge chunks of the
node's types and one load per partition.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..utils.check import short_repr
from .assign import read_assignment
from .format import ChunkedMetadata, read_metadata
from .orig_ids import node_orig_maps, orig_of
from .read import read_edges

__all__ = ["NodeJourney", "follow_node", "pipeline_partitioning", "ChunkRow", "EdgeRows", "PartRow"]


@dataclass(frozen=True)
class ChunkRow:
    """A feature's chunk file, the node's row in it (0-based), the row's first values and how
    many values it has.

    Attributes
    ----------
    name : str
        The feature's name in ``node_data``.
    file : str
        The chunk file holding the node's row, relative to the chunked graph's folder.
    row : int
        The node's row in that file, 0-based.
    values : tuple
        The row's first values (flattened), as Python numbers.
    size : int
        How many values the row holds in all.
    """

    name: str
    file: str
    row: int
    values: tuple
    size: int


@dataclass(frozen=True)
class EdgeRows:
    """An edge chunk file and the rows (0-based; the first few) whose ``side`` names the node,
    with how many do in all.

    Attributes
    ----------
    etype : str
        The canonical edge type, ``"src:rel:dst"``.
    file : str
        The edge chunk file, relative to the chunked graph's folder.
    side : {"source", "destination"}
        Which end of the edges is the node.
    rows : tuple of int
        The first rows (0-based, at most ``max_rows`` of :func:`follow_node`) of the file
        whose ``side`` is the node.
    count : int
        How many rows of the file name the node on that side.
    """

    etype: str
    file: str
    side: str
    rows: tuple[int, ...]
    count: int


@dataclass(frozen=True)
class PartRow:
    """The node in one partition's files: its local id in the graph file, whether the
    partition owns it (else the HALO hop of the copy) and, where owned, its feature rows.

    Attributes
    ----------
    part : int
        The partition.
    graph_file : str
        The partition's graph file, as the partition config records it.
    local_id : int
        The node's id in the partition's graph.
    owned : bool
        Whether the partition owns the node (else it holds a HALO copy).
    hop : int
        The copy's HALO hop (the partition's ``halo_hop``; 0 where it has none).
    feats_file : str or None
        The partition's node-feature file, as the config records it; ``None`` for a copy.
    feat_row : int or None
        The node's row among the partition's feature rows of its type; ``None`` for a copy.
    values : dict
        Feature name to the row's first values (flattened), as Python numbers; empty for a
        copy.
    """

    part: int
    graph_file: str
    local_id: int
    owned: bool
    hop: int
    feats_file: str | None
    feat_row: int | None
    values: dict


@dataclass(frozen=True)
class NodeJourney:
    """Where one node is at every step of the pipeline (paths relative to each step's folder).

    Attributes
    ----------
    ntype : str
        The node's type.
    orig_id : int
        Its original id among the nodes of ``ntype`` (its row in the chunks).
    feature_rows : tuple of ChunkRow
        Its row in each node feature's chunks.
    edge_rows : tuple of EdgeRows
        The edge chunks that name it, one entry per chunk and side.
    assignment_file : str
        The assignment file of its type, ``"<ntype>.txt"``.
    assignment_line : int
        The line (1-based) of that file that holds its partition.
    part : int
        The partition the assignment gives it.
    new_id : int
        Its id after the partitions renumbered the nodes (homogeneous, all types).
    new_typed_id : int
        Its new id among the nodes of ``ntype``.
    parts : tuple of PartRow
        Every partition that holds it, owned or as a HALO copy, in partition order.
    owner : PartRow
        The entry of ``parts`` that owns it.
    copies : tuple of PartRow
        The entries of ``parts`` that hold HALO copies.
    """

    ntype: str
    orig_id: int
    feature_rows: tuple[ChunkRow, ...]
    edge_rows: tuple[EdgeRows, ...]
    assignment_file: str
    assignment_line: int
    part: int
    new_id: int
    new_typed_id: int
    parts: tuple[PartRow, ...]

    @property
    def owner(self) -> PartRow:
        """The row of the partition that owns the node."""
        return next(r for r in self.parts if r.owned)

    @property
    def copies(self) -> tuple[PartRow, ...]:
        """Its HALO copies in other partitions."""
        return tuple(r for r in self.parts if not r.owned)


def follow_node(
    config: str | os.PathLike,
    chunk_dir: str | os.PathLike,
    assignment_dir: str | os.PathLike,
    node: int,
    ntype: str | None = None,
    *,
    max_rows: int = 5,
    values: int = 4,
) -> NodeJourney:
    """Node ``node`` (original type-wise id of ``ntype``) at every step of the pipeline that
    wrote ``config`` from ``chunk_dir`` with the assignment in ``assignment_dir``.

    Parameters
    ----------
    config : str or os.PathLike
        The partition config (``<graph_name>.json``) that ``dispatch`` wrote.
    chunk_dir : str or os.PathLike
        The chunked graph: ``metadata.json`` or its folder.
    assignment_dir : str or os.PathLike
        The assignment folder (``<ntype>.txt`` files) the partitions were written from.
    node : int
        The node's original id among the nodes of ``ntype``, in ``[0, num_nodes)``.
    ntype : str or None, default None
        The node's type; ``None`` is allowed for a graph of one node type only.
    max_rows : int, default 5
        The most rows listed per edge chunk and side (:attr:`EdgeRows.rows`); the count
        covers all of them.
    values : int, default 4
        The most values shown of each feature row.

    Returns
    -------
    NodeJourney
        The node's rows in the chunks, its assignment line, its new ids and its rows in every
        partition that holds it.

    Raises
    ------
    GraphpartError
        If ``node`` or ``ntype`` is not in the chunked graph, a feature's chunks hold too few
        rows, or the config, the assignment and the chunks are not one pipeline's (other
        partition or type counts, or the node owned elsewhere than the assignment says).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> import graphpart as gp
    >>> from graphpart import chunked, datasets
    >>> w = Path(tempfile.mkdtemp())
    >>> g = datasets.sbm(block_sizes=[20] * 2, p_in=0.3, p_out=0.02, seed=0, feat_dim=3)
    >>> _ = chunked.write_chunked(g, w / "chunks", num_chunks=2)
    >>> a = chunked.assign(w / "chunks", w / "assign", 2, "random")
    >>> parts, _ = chunked.read_assignment(a, w / "chunks")
    >>> gp.partition_graph(g, "sbm", 2, w / "parts", part_method=parts["_N"])  # as dispatch would
    >>> j = follow_node(w / "parts" / "sbm.json", w / "chunks", a, 27)
    >>> row = next(r for r in j.feature_rows if r.name == "feat")
    >>> row.file, row.row, j.assignment_file, j.assignment_line
    ('node_data/n0.1-_N-feat-part1.npy', 7, '_N.txt', 28)
    >>> j.owner.values["feat"] == row.values  # the row travelled intact
    True
    """
    from ..storage.config import read_config
    from ..storage.read import load_partition

    meta = read_metadata(chunk_dir)
    cfg = read_config(config)
    ntype, node = _check_node(meta, node, ntype)
    root = Path(meta.path).parent  # file names relative to the chunked graph's folder
    feature_rows = tuple(_feature_rows(meta, ntype, node, values, root))
    edge_rows = tuple(_edge_rows(meta, ntype, node, max_rows, root))
    parts, num_parts = read_assignment(assignment_dir, meta)
    part = int(parts[ntype][node])
    _check_one_pipeline(config, assignment_dir, parts, num_parts, cfg, meta)
    bounds = np.asarray(cfg.node_bounds, dtype=np.int64)[:, cfg.ntypes.index(ntype)]
    typed_start = np.concatenate([[0], np.cumsum(bounds[:, 1] - bounds[:, 0])])
    # its new id by the assignment: the partition's first id of the type, then the rank among
    # the partition's nodes of the type (by original id); the files are searched for it
    want = int(bounds[part, 0]) + int(np.count_nonzero(np.asarray(parts[ntype][:node]) == part))
    maps = node_orig_maps(Path(config), cfg, meta)  # GraphBolt's files name no original ids
    rows, new_id, new_typed = [], -1, -1
    for q in range(num_parts):
        data = load_partition(config, q, load_feats=False)  # features: the owner's only
        _check_partition(config, assignment_dir, parts, q, data, cfg.book(q), maps)
        nd = data.graph.ndata
        type_id = list(data.ntypes).index(ntype)
        types = np.asarray(nd["_TYPE"]) if "_TYPE" in nd else np.zeros(len(nd["_ID"]), np.int64)
        ids = _orig_ids(nd, maps, cfg.book(q))
        here = np.flatnonzero(
            (ids == node) & (types == type_id) if ids is not None else np.asarray(nd["_ID"]) == want
        )
        if not len(here):
            continue
        local = int(here[0])
        owned = bool(nd["inner_node"][local])
        feats = {}
        feat_row = None
        if owned:  # owned nodes come first in a partition, by type, in new id order
            new_id = int(nd["_ID"][local])
            inner_of_type = np.flatnonzero(np.asarray(nd["inner_node"]) & (types == type_id))
            feat_row = int(np.searchsorted(inner_of_type, local))
            new_typed = int(typed_start[q]) + feat_row
            for key, x in load_partition(config, q).node_feats.items():
                t_name, _, name = key.rpartition("/")
                if t_name == ntype:
                    feats[name] = _head(np.asarray(x[feat_row]), values)
        files = cfg.raw[f"part-{q}"]
        rows.append(
            PartRow(
                q,
                files.get("part_graph", files.get("part_graph_graphbolt")),
                local,
                owned,
                int(nd["halo_hop"][local]) if "halo_hop" in nd else int(not owned),
                files["node_feats"] if owned else None,
                feat_row,
                feats,
            )
        )
    owners = [r.part for r in rows if r.owned]
    if owners != [part]:
        raise GraphpartError(
            f"{ntype} node {node} is owned by partition(s) {owners} of {config}, but the "
            f"assignment {assignment_dir} gives it to partition {part}: the partitions were not "
            "written from this assignment"
        )
    return NodeJourney(
        ntype,
        node,
        feature_rows,
        edge_rows,
        f"{ntype}.txt",
        node + 1,
        part,
        new_id,
        new_typed,
        tuple(rows),
    )


def _check_node(meta: ChunkedMetadata, node: object, ntype: str | None) -> tuple[str, int]:
    """The node type (the only one, when ``ntype`` is ``None``) and ``node`` as an int in its
    range."""
    if ntype is None:
        if len(meta.ntypes) != 1:
            raise GraphpartError(
                f"the graph has node types {meta.ntypes}: say which one with ntype="
            )
        ntype = meta.ntypes[0]
    if ntype not in meta.ntypes:
        raise GraphpartError(f"ntype must be one of {meta.ntypes}, got {short_repr(ntype)}")
    n = meta.num_nodes[ntype]
    if isinstance(node, bool) or not isinstance(node, (int, np.integer)) or not 0 <= node < n:
        raise GraphpartError(
            f"node must be an original id of node type {short_repr(ntype)}, an int in "
            f"[0, {n}), got {short_repr(node)}"
        )
    return ntype, int(node)


def _rel(path: Path, root: Path) -> str:
    try:
        return str(Path(path).relative_to(root))
    except ValueError:
        return str(path)


def _head(row: np.ndarray, values: int) -> tuple:
    """A feature row's first ``values`` values, as plain Python numbers."""
    return tuple(np.asarray(row).reshape(-1)[:values].tolist())


def _feature_rows(meta: ChunkedMetadata, ntype: str, node: int, values: int, root: Path):
    """The node's row in every feature's chunks: the chunk holding it, read alone."""
    for name, spec in meta.node_data.get(ntype, {}).items():
        counts = spec.counts
        if counts is None:  # rows per chunk unrecorded: count them chunk by chunk
            counts = []
            for i in range(len(spec.paths)):
                counts.append(len(spec.read(i)))
                if sum(counts) > node:
                    break
        start = np.concatenate([[0], np.cumsum(counts)])
        if node >= start[-1]:
            raise GraphpartError(
                f"feature {short_repr(name)} of {short_repr(ntype)}: its chunks hold "
                f"{int(start[-1]):,} rows, too few for node {node} (the metadata says "
                f"{meta.num_nodes[ntype]:,} nodes)"
            )
        i = int(np.searchsorted(start, node, side="right") - 1)
        row = node - int(start[i])
        x = np.asarray(spec.read(i)[row])
        yield ChunkRow(name, _rel(spec.paths[i], root), row, _head(x, values), int(x.size))


def _edge_rows(meta: ChunkedMetadata, ntype: str, node: int, max_rows: int, root: Path):
    """Every edge chunk's rows naming the node, as source or destination: one chunk at a
    time."""
    for etype in meta.etypes:
        spec = meta.edges[etype]
        for i in range(len(spec.paths)):
            src, dst = read_edges(meta, etype, i)
            for side, ids, t in (("source", src, etype[0]), ("destination", dst, etype[2])):
                if t != ntype:
                    continue
                hits = np.flatnonzero(ids == node)
                if len(hits):
                    yield EdgeRows(
                        ":".join(etype),
                        _rel(spec.paths[i], root),
                        side,
                        tuple(hits[:max_rows].tolist()),
                        len(hits),
                    )


def pipeline_partitioning(
    config: str | os.PathLike, chunk_dir: str | os.PathLike, assignment_dir: str | os.PathLike
):
    """The pipeline's output as an in-memory :class:`~graphpart.Partitioning` in original ids:
    the chunked graph under the assignment's partitions, with the partitions' HALO hops (the
    same new ids, owners and HALO copies as the files; what a view of the pipeline draws).
    Loads the whole graph: for graphs a view can draw.

    Parameters
    ----------
    config : str or os.PathLike
        The partition config (``<graph_name>.json``) that ``dispatch`` wrote; its partition
        count and ``halo_hops`` are used.
    chunk_dir : str or os.PathLike
        The chunked graph: ``metadata.json`` or its folder.
    assignment_dir : str or os.PathLike
        The assignment folder the partitions were written from.

    Returns
    -------
    Partitioning
        The chunked graph partitioned in memory by the assignment, with the config's HALO
        hops.

    Raises
    ------
    GraphpartError
        If the partitions in ``config`` were not written from this assignment (other
        partition count or node types, or a node owned by another partition).
    """
    from ..partitioning.core import partition
    from ..storage.config import read_config
    from .read import load_chunked

    meta = read_metadata(chunk_dir)
    g = load_chunked(meta.path)
    parts, num_parts = read_assignment(assignment_dir, meta)
    cfg = read_config(config)
    _check_written_from(config, assignment_dir, parts, num_parts, cfg, meta.path)
    assignment = parts if len(parts) > 1 else next(iter(parts.values()))
    return partition(g, num_parts, part_method=assignment, num_hops=int(cfg.halo_hops))


def _orig_ids(nd: dict, maps, book) -> np.ndarray | None:
    """The original type-wise id of each local node: the files' ``orig_id``, else by the merged
    ``orig_nids/`` maps (GraphBolt's files), else ``None``."""
    if "orig_id" in nd:
        return np.asarray(nd["orig_id"])
    return None if maps is None else orig_of(maps, book, np.asarray(nd["_ID"], dtype=np.int64))


def _check_one_pipeline(
    config, assignment_dir, parts: dict, num_parts: int, cfg, meta: ChunkedMetadata
) -> None:
    """Refuse a config, assignment and chunks that are not one pipeline's: another partition
    count, other node types, or other node counts per type."""
    counts = np.asarray(cfg.node_bounds, dtype=np.int64)
    counts = (counts[:, :, 1] - counts[:, :, 0]).sum(axis=0) if counts.size else counts
    in_config = {t: int(counts[i]) for i, t in enumerate(cfg.ntypes)} if counts.size else {}
    if cfg.num_parts != num_parts or sorted(cfg.ntypes) != sorted(parts):
        raise GraphpartError(
            f"{config} holds {cfg.num_parts} partitions of node types {cfg.ntypes}, but "
            f"the assignment {assignment_dir} has {num_parts} of {sorted(parts)}: they are not "
            "one pipeline's"
        )
    if in_config != {t: int(n) for t, n in meta.num_nodes.items()}:
        raise GraphpartError(
            f"{config} holds {in_config} nodes per type, but the chunks {meta.path} have "
            f"{dict(meta.num_nodes)}: they are not one pipeline's"
        )


def _check_partition(config, assignment_dir, parts: dict, q: int, data, book, maps) -> None:
    """Refuse partition ``q`` (loaded) where it owns a node the assignment gives elsewhere."""
    nd = data.graph.ndata
    inner = np.asarray(nd["inner_node"]).astype(bool)
    types = np.asarray(nd["_TYPE"]) if "_TYPE" in nd else np.zeros(len(inner), np.int64)
    orig = _orig_ids(nd, maps, book)
    for i, t in enumerate(data.ntypes):
        if orig is not None:  # the original ids are known: each must be q's
            mine = orig[inner & (types == i)]
            wrong = len(mine) and (
                mine.max(initial=0) >= len(parts[t]) or (parts[t][mine] != q).any()
            )
        else:  # GraphBolt's without orig_nids/: q must own as many as the assignment gives
            wrong = int((inner & (types == i)).sum()) != int((parts[t] == q).sum())
        if wrong:
            raise GraphpartError(
                f"partition {q} of {config} owns {t} nodes that the assignment "
                f"{assignment_dir} gives to other partitions: the partitions were not "
                "written from this assignment"
            )


def _check_written_from(
    config, assignment_dir, parts: dict, num_parts: int, cfg: dict, meta_path
) -> None:
    """Refuse partitions that were not written from this assignment and these chunks: one
    pipeline's counts, and every node a partition owns one the assignment gives it (one
    partition loaded at a time)."""
    from ..storage.read import load_partition

    meta = read_metadata(meta_path)
    _check_one_pipeline(config, assignment_dir, parts, num_parts, cfg, meta)
    maps = node_orig_maps(Path(config), cfg, meta)
    for q in range(num_parts):
        _check_partition(
            config, assignment_dir, parts, q, load_partition(config, q, load_feats=False),
            cfg.book(q), maps,
        )  # fmt: skip

"""Write graphs larger than memory in the chunked format, chunk by chunk: R-MAT generated in
blocks, and edge-list files (text, ``.npy``, parquet) read in blocks.

Memory: one block of edges (``block_edges``, 16M by default: about 0.5 GB in flight), one output
chunk, and ``O(N)`` for node data. R-MAT's edges are deduplicated and sorted by source as
:func:`graphpart.datasets.rmat` does, out of core: each block's edges go to ``buckets`` files by
source range (their keys ``src * n + dst``, 8 bytes an edge on disk, deleted as they are
consumed), and each bucket is sorted and deduplicated alone: sorted buckets in source order are
the sorted edge list. Every random draw is taken from the place in the generator's stream where
``rmat`` takes it (PCG64 ``advance``), so the output equals ``write_chunked(rmat(...))`` for the
same seed.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..datasets.synthetic import NodeTask, attach_node_data, planted_task
from ..errors import GraphpartError
from ..fs.atomic import work_dir
from ..fs.outpath import output_folder
from ..fs.untrusted import check_regular_file
from ..graph.core import Graph
from ..index import unique_int
from ..typing import Seed
from ..utils.check import check_count, options_by_name
from ..utils.seeds import check_random_state
from ._dask import LOCAL_EDGES, open_shared, runner
from .cluster import BASE, ClusterOptions
from .format import MAX_COUNT, ChunkFormat, check_node_count
from .plan import check_disk, check_step_memory, chunk_need, local_workers
from .write import check_num_chunks, check_stream_output, write_edge_stream

__all__ = ["rmat_chunked", "sbm_chunked", "dcsbm_chunked", "edges_chunked"]

#: Edges generated or read at a time.
BLOCK_EDGES = 1 << 24
#: Edges drawn per sort bucket (by default): 16M, about 0.4 GB while sorted.
BUCKET_EDGES = 1 << 24
logger = logging.getLogger(__name__)


def _stream_at(state: dict, floats: int) -> np.random.Generator:
    """A generator positioned ``floats`` float32 draws after ``state`` (an even count)."""
    bg = np.random.PCG64()
    bg.state = state
    bg.advance(floats // 2)
    return np.random.Generator(bg)


def _rmat_block(state, scale, m, a, b, c, lo, hi) -> tuple[np.ndarray, np.ndarray]:
    """Edges ``lo..hi`` of ``rmat``'s draw, before the permutation: each level's floats taken
    from their place in the generator's stream."""
    from ..datasets.rmat import rmat_quadrants

    def draw(level: int, u: np.ndarray) -> None:
        _stream_at(state, level * m + lo).random(out=u, dtype=np.float32)

    return rmat_quadrants(draw, scale, hi - lo, a, b, c)


class _Buckets:
    """Edge keys on disk, files by source range (one per bucket and writer, so that tasks
    drawing at once never share a file); read back sorted and deduplicated."""

    def __init__(self, folder: Path, n: int, num_buckets: int) -> None:
        self.folder, self.n = folder, n
        self.shift = max(int(np.ceil(np.log2(max(n, 1)))) - int(np.log2(num_buckets)), 0)
        self.count = -(-n // (1 << self.shift)) if n else 1

    def add(self, src: np.ndarray, dst: np.ndarray, writer: int = 0) -> None:
        key = src.astype(np.int64) * self.n + dst
        bucket = (src >> self.shift).astype(np.int64)
        order = np.argsort(bucket, kind="stable")
        bounds = np.searchsorted(bucket[order], np.arange(self.count + 1))
        key = key[order]
        for i in np.flatnonzero(np.diff(bounds)):  # a loop over buckets, one file open at a time
            with open(self.folder / f"b{i}-{writer}.bin", "ab") as f:
                key[bounds[i] : bounds[i + 1]].tofile(f)

    def dedupe(self, i: int) -> int:
        """Sort and deduplicate bucket ``i`` into ``d<i>.npy`` as int64 keys ``src * n + dst``
        (its files deleted; 8 bytes an edge to write and read back, not 16); its edge count."""
        paths = sorted(self.folder.glob(f"b{i}-*.bin"))
        keys = [np.fromfile(p, dtype=np.int64) for p in paths]
        key = unique_int(np.concatenate([np.zeros(0, np.int64), *keys]))
        del keys
        for p in paths:
            p.unlink()
        np.save(self.folder / f"d{i}.npy", key)
        return len(key)

    def edges(self, key: np.ndarray) -> np.ndarray:
        """Keys as ``(rows, 2)`` int64 ``(src, dst)`` edges."""
        return np.stack([key // self.n, key % self.n], axis=1)


def _draw_task(draw, store: _Buckets, blocks: list[int], symmetric: bool, writer: int) -> None:
    """Draw ``blocks`` (``draw(i) -> (src, dst)``, self-loops already dropped) into the buckets."""
    for i in blocks:
        src, dst = draw(i)
        store.add(src, dst, writer)
        if symmetric:
            store.add(dst, src, writer)


def _draw_all(draw, store: _Buckets, blocks: int, symmetric: bool, run, what: str) -> list[int]:
    """Every block drawn into the buckets, then every bucket deduplicated, in tasks on ``run``
    (a share of the blocks each: its own bucket files; a bucket each); the buckets' edge
    counts."""
    shares = run.shares(range(blocks))
    logger.info("%s: %d blocks in %d task(s)", what, blocks, len(shares))
    run.map(
        _draw_task, [(draw, store, s, symmetric, w) for w, s in enumerate(shares)], "chunk-draw"
    )
    return run.map(_Buckets.dedupe, [(store, i) for i in range(store.count)], "chunk-dedupe")


class _RmatDraw:
    """Block ``i`` of ``rmat``'s draws (``block`` edges each), permuted, self-loops dropped."""

    def __init__(self, state, scale, m, a, b, c, block, perm, self_loops) -> None:
        self.args = (state, scale, m, a, b, c)
        self.block, self.perm, self.self_loops = block, perm, self_loops

    def __call__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        state, scale, m, a, b, c = self.args
        lo = i * self.block
        src, dst = _rmat_block(state, scale, m, a, b, c, lo, min(lo + self.block, m))
        if self.perm is not None:
            perm = open_shared(self.perm)
            src, dst = np.asarray(perm[src]), np.asarray(perm[dst])
        if not self.self_loops:
            keep = src != dst
            src, dst = src[keep], dst[keep]
        return src, dst


class _DcsbmDraw:
    """Block ``i`` of a DC-SBM's draws, self-loops dropped (the model rebuilt once per process
    from its arguments: 20 bytes per node)."""

    def __init__(self, args: tuple) -> None:
        self.args, self.model = args, None

    def __getstate__(self) -> dict:
        return {"args": self.args, "model": None}

    def __call__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        from ..datasets.dcsbm import DcsbmModel

        if self.model is None:
            self.model = DcsbmModel(*self.args[:5], seed=None, base=self.args[5])
        src, dst = self.model.draw(i)
        keep = src != dst
        return src[keep], dst[keep]


def rmat_chunked(
    out_dir: str | os.PathLike,
    num_chunks: int,
    scale: int,
    edge_factor: int = 16,
    a: float = 0.57,
    b: float = 0.19,
    c: float = 0.19,
    *,
    symmetric: bool = False,
    self_loops: bool = False,
    permute: bool = True,
    seed: Seed = None,
    task: NodeTask | None = None,
    chunk_format: ChunkFormat | None = None,
    block_edges: int = BLOCK_EDGES,
    buckets: int | None = None,
    cluster: ClusterOptions | None = None,
    **names: object,
) -> Path:
    """``write_chunked(rmat(scale, ...), out_dir, num_chunks)`` without the graph in memory;
    returns the metadata path.

    The arguments are :func:`graphpart.datasets.rmat`'s and
    :func:`~graphpart.chunked.write_chunked`'s. ``buckets`` (default: one per 16M edges drawn,
    a power of two) sets the sort's pieces: each holds about ``edge_factor * 2**scale / buckets``
    edges, 24 bytes each while it is sorted.

    Parameters
    ----------
    out_dir : str or os.PathLike
        The chunked graph's folder: new, empty, or an earlier chunked graph of graphpart's,
        replaced whole once the new one is complete.
    num_chunks : int
        Chunks per edge type and per node field: from 1 to ``max(1024, edge_factor *
        2**scale)`` and at most ``2**20`` (checked again once the edges are deduplicated).
    scale : int
        log2 of the number of nodes, from 0 to 31.
    edge_factor : int, default 16
        Edges drawn per node before deduplication.
    a, b, c : float, default 0.57, 0.19, 0.19
        Quadrant probabilities (``d = 1 - a - b - c``).
    symmetric : bool, default False
        Add the reverse of every edge.
    self_loops : bool, default False
        Keep self-loops (dropped by default).
    permute : bool, default True
        Shuffle the node ids.
    seed : int, numpy.random.Generator or None, default None
        An int, ``None``, or a PCG64 generator at a fresh 64-bit boundary (such as
        ``numpy.random.default_rng()``); other generators are refused. The same seed gives
        ``rmat``'s graph.
    task : NodeTask or None, default None
        The labels, features and masks to attach (:class:`~graphpart.datasets.NodeTask`).
    chunk_format : ChunkFormat or None, default None
        The graph's name and its chunks' formats (:class:`~graphpart.chunked.ChunkFormat`).
    block_edges : int, default BLOCK_EDGES (``2**24``)
        Edges drawn at a time, at least 2 (an odd count is rounded down).
    buckets : int or None, default None
        Sort buckets (see above), at least 1.
    cluster : ClusterOptions or None, default None
        The Dask cluster the blocks are drawn on (a share each, into bucket files of its own)
        and the buckets sorted (a bucket each), from ``2**22`` edges; default: here. The
        answer is the same.
    **names
        :class:`~graphpart.datasets.NodeTask` and :class:`~graphpart.chunked.ChunkFormat`
        fields by name (``train_frac=0.1``, ``edge_format="parquet"``).

    Returns
    -------
    pathlib.Path
        The path of the written ``metadata.json``.

    Raises
    ------
    GraphpartError
        If an argument is out of range, the generator is not PCG64 at a 64-bit boundary,
        ``out_dir`` holds something else, or the disk lacks room for the chunks and buckets.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphpart.chunked import load_chunked, write_chunked
    >>> from graphpart.datasets import rmat
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = rmat_chunked(d / "a", 3, 8, seed=1, block_edges=1000, buckets=4)
    >>> g = load_chunked(d / "a")
    >>> [x.tolist() for x in g.edges()] == [x.tolist() for x in rmat(8, seed=1).edges()]
    True
    """
    from ..datasets.rmat import check_rmat_args

    task, chunk_format = _task_and_format(names, task, chunk_format)
    check_rmat_args(scale, edge_factor, a, b, c)
    k = check_num_chunks(num_chunks, int(edge_factor) << int(scale))  # at most this many edges
    block = check_count(block_edges, "block_edges", low=2)
    rng = check_random_state(seed)
    state = rng.bit_generator.state
    if state.get("bit_generator") != "PCG64" or state.get("has_uint32"):
        raise GraphpartError(
            "rmat_chunked draws from a PCG64 generator at a fresh 64-bit boundary (an int seed, "
            f"None or numpy.random.default_rng()); got {state.get('bit_generator')}"
        )
    n, m = 1 << scale, edge_factor << scale
    block -= block % 2
    if buckets is None:
        buckets = 1 << max(int(np.ceil(np.log2(max(m, 1) / BUCKET_EDGES))), 0)
    out_dir = Path(out_dir)
    check_stream_output(out_dir, chunk_format)
    # sort buckets (8 B an edge drawn) beside the chunks (numpy: 16 B an edge; text ~20) and data
    row = 8 * task.feat_dim + 8 + 3 * any(task.fractions)
    buckets = check_count(buckets, "buckets", low=1)
    # a bucket holds both directions of a symmetric graph's edges
    bucket = -(-m * (1 + symmetric) // buckets)
    _check_chunk_memory("rmat", n, m, row, min(block, m), bucket, cluster)
    check_disk((8 + 24 * (1 + symmetric)) * m + row * n, out_dir, "graphpart chunk")
    out_dir.absolute().parent.mkdir(parents=True, exist_ok=True)
    with (
        work_dir(output_folder(out_dir)) as work,  # marked: a killed run's goes next run
        runner(cluster, m, work) as run,
    ):
        store = _Buckets(Path(work), n, buckets)
        rng.bit_generator.advance(scale * m // 2)  # past every level's floats, as rmat draws
        perm = rng.permutation(n).astype(np.uint32) if permute else None
        draw = _RmatDraw(
            state, scale, m, a, b, c, block, None if perm is None else run.share("perm", perm),
            self_loops,
        )  # fmt: skip
        counts = _draw_all(draw, store, -(-m // block), symmetric, run, "chunk: R-MAT drawn")
        del perm, draw
        data = _node_data(n, rng, task)
        return write_edge_stream(
            out_dir, k, n, lambda: _read_deduped(store, counts), int(sum(counts)), data,
            chunk_format,
        )  # fmt: skip


def dcsbm_chunked(
    out_dir: str | os.PathLike,
    num_chunks: int,
    scale: int,
    avg_degree: float = 16,
    community_size: int = 4096,
    mixing: float = 0.2,
    exponent: float = 2.5,
    *,
    seed: Seed = None,
    task: NodeTask | None = None,
    chunk_format: ChunkFormat | None = None,
    cluster: ClusterOptions | None = None,
    **names: object,
) -> Path:
    """``write_chunked(dcsbm(scale, ...), out_dir, num_chunks)`` without the graph in memory;
    returns the metadata path.

    The model's blocks of draws (:class:`~graphpart.datasets.dcsbm.DcsbmModel`) go, both
    directions, to sort buckets by source range, each then sorted and deduplicated alone, as
    :func:`rmat_chunked` does. Memory: ``20`` bytes per node for the model, ``8`` more for the
    labels, one block of draws and one bucket (about 16M edges, 24 bytes each while sorted).
    Disk: the chunks plus ``16`` bytes per edge drawn for the buckets.

    Parameters
    ----------
    out_dir : str or os.PathLike
        The chunked graph's folder: new, empty, or an earlier chunked graph of graphpart's.
    num_chunks : int
        Chunks per edge type and per node field.
    scale, avg_degree, community_size, mixing, exponent, seed
        As :func:`graphpart.datasets.dcsbm`: the same arguments give the same graph.
    task, chunk_format, cluster, **names
        As :func:`rmat_chunked` (the labels are the communities: ``num_classes`` is refused).

    Returns
    -------
    pathlib.Path
        The path of the written ``metadata.json``.

    Raises
    ------
    GraphpartError
        If an argument is out of range, ``out_dir`` holds something else, or the disk lacks
        room for the chunks and buckets.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphpart.chunked import load_chunked
    >>> from graphpart.datasets import dcsbm
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> g = load_chunked(dcsbm_chunked(d / "a", 3, 10, 8, community_size=64, seed=1))
    >>> [x.tolist() for x in g.edges()] == [
    ...     x.tolist() for x in dcsbm(10, 8, community_size=64, seed=1).edges()]
    True
    """
    from ..datasets.dcsbm import DRAW_BLOCK, DcsbmModel, check_dcsbm_args

    task, chunk_format = _task_and_format(names, task, chunk_format, planted=True)
    check_dcsbm_args(scale, avg_degree, community_size, mixing, exponent)
    n = 1 << int(scale)
    draws = int(round(avg_degree * n / 2))  # as the model draws: checked before it is built
    m = 2 * draws
    k = check_num_chunks(num_chunks, max(m, 1))
    out_dir = Path(out_dir)
    check_stream_output(out_dir, chunk_format)
    row = 8 * task.feat_dim + 16 + 3 * any(task.fractions)
    buckets = 1 << max(int(np.ceil(np.log2(max(m, 1) / BUCKET_EDGES))), 0)
    _check_chunk_memory("dcsbm", n, m, row, min(DRAW_BLOCK, draws), -(-m // buckets), cluster)
    check_disk(40 * m + row * n, out_dir, "graphpart chunk")
    model = DcsbmModel(scale, avg_degree, community_size, mixing, exponent, seed)
    out_dir.absolute().parent.mkdir(parents=True, exist_ok=True)
    with (
        work_dir(output_folder(out_dir)) as work,  # marked: a killed run's goes next run
        runner(cluster, m, work) as run,
    ):
        store = _Buckets(Path(work), n, buckets)
        draw = _DcsbmDraw((scale, avg_degree, community_size, mixing, exponent, model.base))
        counts = _draw_all(draw, store, model.blocks, True, run, "chunk: DC-SBM drawn")
        data = _node_data(n, np.random.default_rng([model.base, 2**33]), task, model.labels())
        del model
        return write_edge_stream(
            out_dir, k, n, lambda: _read_deduped(store, counts), int(sum(counts)), data,
            chunk_format,
        )  # fmt: skip


def _node_data(
    n: int, rng, task: NodeTask, labels: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """The node data :func:`~graphpart.datasets.attach_node_data` gives ``n`` nodes, as arrays."""
    empty = np.zeros(0, np.int64)
    g = attach_node_data(Graph.from_edges(empty, empty, num_nodes=n), rng, task, labels)
    return {name: v.numpy() for name, v in g.ndata.items()}


def _task_and_format(
    names: dict, task: NodeTask | None, chunk_format: ChunkFormat | None, planted: bool = False
) -> tuple[NodeTask, ChunkFormat]:
    """A generator's node task and chunk format, from the objects and the names typed (one
    did-you-mean for both); ``planted``: its labels are its communities, ``num_classes`` is
    refused."""
    task, chunk_format = options_by_name(
        names, [(NodeTask, task, "task"), (ChunkFormat, chunk_format, "chunk_format")], "option"
    )
    return (planted_task(task, {}) if planted else task), chunk_format


def _check_chunk_memory(kind, n, m, row, block, bucket, cluster) -> None:
    """The memory rule, before a generator draws ``m`` edges: its main process and the drawing
    tasks on this machine's workers (in this process under ``LOCAL_EDGES``, as ``runner``
    decides) within what is free; ``bucket`` edges of the largest sort bucket."""
    needs = chunk_need(kind, n, m, row, block, bucket)
    if cluster is None or m < LOCAL_EDGES:  # drawn in this process: one block at a time
        main = replace(needs[0], memory=needs[0].memory + needs[1].memory - BASE)
        needs, workers = [main], 0
    else:
        workers = local_workers(cluster)
    check_step_memory(
        needs,
        "chunk",
        workers,
        "use fewer --workers, a smaller scale, or a machine with more memory",
        f"chunk --dataset {kind} ({n:,} nodes, {m:,} edges)",
    )


def _read_deduped(store: _Buckets, counts: list[int]) -> Iterator[np.ndarray]:
    for i in range(len(counts)):
        path = store.folder / f"d{i}.npy"
        key = np.load(path, allow_pickle=False)
        path.unlink()
        edges = store.edges(key)
        del key
        yield edges


def sbm_chunked(
    out_dir: str | os.PathLike,
    num_chunks: int,
    block_sizes,
    p_in: float = 0.1,
    p_out: float = 0.01,
    *,
    probs: np.ndarray | None = None,
    directed: bool = False,
    seed: Seed = None,
    task: NodeTask | None = None,
    chunk_format: ChunkFormat | None = None,
    **names: object,
) -> Path:
    """``write_chunked(sbm(block_sizes, ...), out_dir, num_chunks)`` without the graph in memory;
    returns the metadata path.

    The block pairs are drawn as :func:`graphpart.datasets.sbm` draws them, from a copy of the
    generator each time: once to count the edges, once to write them, and once more for the
    reverse edges of an undirected graph (which ``sbm`` lists after all the others). Memory: one
    block pair's edges and one chunk.

    Parameters
    ----------
    out_dir : str or os.PathLike
        The chunked graph's folder: new, empty, or an earlier chunked graph of graphpart's,
        replaced whole once the new one is complete.
    num_chunks : int
        Chunks per edge type and per node field, from 1 to ``2**20``; once the edges are
        counted, also at most ``max(1024, edges, nodes)``.
    block_sizes : sequence of int
        Nodes per block; the nodes of block ``i`` are contiguous and labelled ``i``.
    p_in, p_out : float, default 0.1, 0.01
        Within- and between-block edge probabilities.
    probs : numpy.ndarray or None, default None
        A full ``(k, k)`` block probability matrix instead (symmetric unless ``directed``).
    directed : bool, default False
        Draw a directed graph; else every edge is written in both directions.
    seed : int, numpy.random.Generator or None, default None
        The random state, as :func:`graphpart.datasets.sbm` takes it.
    task, chunk_format, **names
        As :func:`rmat_chunked` (the labels are the blocks: ``num_classes`` is refused).

    Returns
    -------
    pathlib.Path
        The path of the written ``metadata.json``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphpart.chunked import load_chunked
    >>> from graphpart.datasets import sbm
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> g = load_chunked(sbm_chunked(d / "s", 3, [30, 40], 0.2, 0.05, seed=2))
    >>> want = sbm([30, 40], 0.2, 0.05, seed=2)
    >>> [x.tolist() for x in g.edges()] == [x.tolist() for x in want.edges()]
    True
    """
    from ..datasets.sbm import block_pairs, check_sbm_args

    task, chunk_format = _task_and_format(names, task, chunk_format, planted=True)
    sizes, probs = check_sbm_args(block_sizes, p_in, p_out, probs, directed)
    k = check_num_chunks(num_chunks)
    check_stream_output(Path(out_dir), chunk_format)
    rng = check_random_state(seed)
    start = rng.bit_generator.state
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)

    def pairs(reverse: bool) -> Iterator[np.ndarray]:
        bg = type(rng.bit_generator)()
        bg.state = start
        for s, d in block_pairs(np.random.Generator(bg), sizes, probs, directed, offsets):
            yield np.stack([d, s] if reverse else [s, d], axis=1)

    total = sum(len(b) for b in pairs(False)) * (1 if directed else 2)
    for _ in block_pairs(rng, sizes, probs, directed, offsets):  # rng as sbm leaves it
        pass

    def blocks() -> Iterator[np.ndarray]:
        yield from pairs(False)
        if not directed:
            yield from pairs(True)

    n = int(offsets[-1])
    data = _node_data(n, rng, task, np.repeat(np.arange(len(sizes)), sizes))
    row = 8 * task.feat_dim + 16
    check_disk(24 * total + row * n, out_dir, "graphpart chunk")
    return write_edge_stream(out_dir, k, n, blocks, total, data, chunk_format)


def edges_chunked(
    edges: str | os.PathLike,
    out_dir: str | os.PathLike,
    num_chunks: int,
    *,
    num_nodes: int | None = None,
    chunk_format: ChunkFormat | None = None,
    block_edges: int = BLOCK_EDGES,
    **names: object,
) -> Path:
    """An edge-list file (``.npy`` of shape ``(E, 2)``, parquet with two integer columns, or text:
    two integers a line, ``#`` / ``%`` comment lines as SNAP writes them) as a chunked graph of one
    node and edge type, in file order; returns the metadata path.

    Read twice in blocks of ``block_edges``: once to count the edges and check the ids (the node
    count is the largest id plus one unless ``num_nodes`` is given), once to write the chunks.

    Parameters
    ----------
    edges : str or os.PathLike
        The edge-list file (see :func:`~graphpart.chunked.edge_files.edge_blocks`); ids are
        non-negative integers.
    out_dir : str or os.PathLike
        The chunked graph's folder: new, empty, or an earlier chunked graph of graphpart's,
        replaced whole once the new one is complete.
    num_chunks : int
        Edge chunks, from 1 to ``2**20``; once the edges are counted, also at most
        ``max(1024, edges, nodes)``.
    num_nodes : int or None, default None
        The node count; it must exceed every id. Default: the largest id plus one.
    chunk_format : ChunkFormat or None, default None
        The graph's name and its edge chunks' format (:class:`~graphpart.chunked.ChunkFormat`).
    block_edges : int, default BLOCK_EDGES (``2**24``)
        Edges read at a time, at least 1.

    **names
        :class:`~graphpart.chunked.ChunkFormat` fields by name.

    Returns
    -------
    pathlib.Path
        The path of the written ``metadata.json``.

    Raises
    ------
    GraphpartError
        If the file is not an edge list, holds a negative id or one past ``num_nodes``,
        ``out_dir`` holds something else, or the disk lacks room for the chunks.
    """
    from .edge_files import count_and_check, edge_blocks

    chunk_format = ChunkFormat.of(chunk_format, **names)
    k = check_num_chunks(num_chunks)
    block = check_count(block_edges, "block_edges", low=1)
    if num_nodes is not None:  # before the edges are read
        check_node_count(check_count(num_nodes, "num_nodes"), out_dir)
    size = check_regular_file(Path(edges), "edge list").stat().st_size
    check_stream_output(Path(out_dir), chunk_format)
    check_disk(2 * size, out_dir, "graphpart chunk")  # chunks: about the size of the list
    total, top = count_and_check(edges, block)
    if top >= MAX_COUNT - 1:
        raise GraphpartError(f"{edges}: node id {top} is past the largest the format holds")
    if num_nodes is None:
        num_nodes = top + 1
        check_node_count(num_nodes, edges)  # sparse ids: their count is the largest plus one
    else:
        num_nodes = check_count(num_nodes, "num_nodes")
        if top >= num_nodes:
            raise GraphpartError(
                f"{edges}: node id {top} is out of range for num_nodes={num_nodes}"
            )
    check_disk(24 * total, out_dir, "graphpart chunk")  # csv chunks: up to ~24 B an edge
    return write_edge_stream(
        out_dir, k, num_nodes, lambda: edge_blocks(edges, block), total, {}, chunk_format
    )

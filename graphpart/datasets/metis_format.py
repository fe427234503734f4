"""Reader and writer for the METIS graph file format (``.graph``).

A METIS graph file is undirected: a header ``n m [fmt [ncon]]`` (``m`` counts
undirected edges), then one line per vertex listing its optional size, its
``ncon`` optional weights and its 1-based neighbours, each optionally followed
by an edge weight. Lines starting with ``%`` are comments; an empty vertex line
is an isolated vertex. In graphpart the graph is directed, so each undirected
edge is two edges ``u -> v`` and ``v -> u``.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import torch

from ..errors import FormatError, GraphpartError
from ..fs.atomic import atomic_write
from ..graph.core import Graph
from ..index import unique_int
from ..utils.check import short_repr
from ._text import format_lines, tokenize_lines

__all__ = ["read_metis_graph", "write_metis_graph"]


def _parse_fmt(token: bytes | None, path: object) -> tuple[bool, bool, bool]:
    text = "0" if token is None else token.decode("ascii", "replace")
    if not text.isdigit() or len(text) > 3 or set(text) - {"0", "1"}:
        raise FormatError(f"{path}: fmt must be up to three 0/1 digits, got {short_repr(text)}")
    text = text.zfill(3)
    return text[0] == "1", text[1] == "1", text[2] == "1"


def read_metis_graph(path: str | os.PathLike) -> Graph:
    """Read a METIS graph file into a homogeneous :class:`~graphpart.Graph`.

    Vertex weights become ``ndata["weight"]`` (shape ``(n,)`` or ``(n, ncon)``),
    vertex sizes ``ndata["size"]``, edge weights ``edata["weight"]``.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.graph`` file. Missing trailing vertex lines are read as isolated vertices.

    Returns
    -------
    Graph
        ``n`` nodes and ``2 * m`` edges (each undirected edge in both directions), with int64
        ``size``, ``weight`` node data and ``weight`` edge data where the header's ``fmt`` has
        them.

    Raises
    ------
    FormatError
        The file cannot be read, its header or vertex lines are malformed, a neighbour is out
        of range, the edge count differs from the header's, or the adjacency is not symmetric.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "tri.graph"
    >>> _ = p.write_text("% a triangle\\n3 3\\n2 3\\n1 3\\n1 2\\n")
    >>> g = read_metis_graph(p)
    >>> g.num_nodes(), g.num_edges()
    (3, 6)
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise FormatError(f"cannot read METIS graph {path}: {exc}") from None
    lines = tokenize_lines(data, comment=b"%")
    kept = np.flatnonzero(~lines.skipped)
    if len(kept) == 0 or lines.counts[kept[0]] < 2:
        raise FormatError(f"{path}: expected a header line 'n m [fmt [ncon]]'")
    hstart, hcount = int(lines.starts[kept[0]]), int(lines.counts[kept[0]])
    if hcount > 4:
        raise FormatError(f"{path}: header has {hcount} fields, expected 'n m [fmt [ncon]]'")
    header_idx = np.arange(hstart, hstart + hcount)
    try:
        header = lines.ints(header_idx).tolist()
    except ValueError:
        raise FormatError(
            f"{path}: header must hold integers, got {lines.text(header_idx).tolist()}"
        ) from None
    n, m = header[:2]
    ncon_given = header[3] if hcount > 3 else None
    fmt_token = lines.text(header_idx[2:3])[0] if hcount > 2 else None
    has_size, has_vwgt, has_ewgt = _parse_fmt(fmt_token, path)
    ncon = ncon_given if ncon_given is not None else (1 if has_vwgt else 0)
    if ncon_given is not None and ncon_given < 1:
        raise FormatError(f"{path}: ncon must be at least 1, got {ncon_given}")
    if ncon_given is not None and not has_vwgt:
        raise FormatError(f"{path}: ncon={ncon_given} given but fmt has no vertex weights")
    vlines = kept[1 : 1 + n]
    extra = kept[1 + n :]
    if lines.counts[extra].any():
        raise FormatError(f"{path}: found data after the {n} vertex lines")
    # Missing trailing lines are isolated vertices (editors strip blank lines at the
    # end); a truncated file still fails the edge count and symmetry checks below.
    missing = n - len(vlines)
    counts = np.concatenate([lines.counts[vlines], np.zeros(missing, dtype=np.int64)])
    prefix = int(has_size) + ncon
    rest = counts - prefix
    if (rest < 0).any():
        v = int(np.flatnonzero(rest < 0)[0]) + 1
        raise FormatError(f"{path}: vertex {v} has fewer than {prefix} size/weight fields")
    if has_ewgt and (rest % 2).any():
        v = int(np.flatnonzero(rest % 2)[0]) + 1
        raise FormatError(f"{path}: vertex {v} has a neighbour without an edge weight")
    first = np.concatenate([lines.starts[vlines], np.zeros(missing, dtype=np.int64)])
    total = int(counts.sum())
    row = np.repeat(np.arange(n, dtype=np.int64), counts)
    tok_idx = np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(total)
    pos = tok_idx - np.repeat(first, counts)
    try:
        vals = lines.ints(tok_idx)
    except ValueError:
        raise FormatError(f"{path}: vertex lines must hold integers only") from None
    ndata: dict[str, np.ndarray] = {}
    if has_size:
        ndata["size"] = vals[pos == 0]
    if ncon:
        w = vals[(pos >= int(has_size)) & (pos < prefix)].reshape(n, ncon)
        ndata["weight"] = w[:, 0] if ncon == 1 else w
    adj_mask = pos >= prefix
    stride = 2 if has_ewgt else 1
    is_nbr = adj_mask & ((pos - prefix) % stride == 0)
    src, dst = row[is_nbr], vals[is_nbr] - 1
    edata = {"weight": vals[adj_mask & ~is_nbr]} if has_ewgt else {}
    if len(dst) and (dst.min() < 0 or dst.max() >= n):
        bad = int(dst.min() if dst.min() < 0 else dst.max()) + 1
        raise FormatError(f"{path}: neighbour {bad} is outside the vertices 1..{n}")
    if len(src) != 2 * m:
        raise FormatError(
            f"{path}: header says {m} edges (so {2 * m} adjacency entries), found {len(src)}"
        )
    if not _is_symmetric(src, dst, n, edata.get("weight")):
        raise FormatError(
            f"{path}: adjacency is not symmetric (u lists v but v does not list u, "
            "or lists it with another edge weight)"
        )
    return Graph.from_edges(src, dst, num_nodes=n, ndata=ndata, edata=edata)


def _is_symmetric(src: np.ndarray, dst: np.ndarray, n: int, w: np.ndarray | None) -> bool:
    if w is None:
        return bool(np.array_equal(np.sort(src * n + dst), np.sort(dst * n + src)))
    f = np.lexsort((w, src * n + dst))
    b = np.lexsort((w, dst * n + src))
    same = np.array_equal((src * n + dst)[f], (dst * n + src)[b])
    return bool(same and np.array_equal(w[f], w[b]))


def _undirected(g: Graph, ewgt: str | None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Both directions of every non-loop edge, once each; a pair's weight is its largest."""
    s, d = (t.numpy() for t in g.edges())
    # weights checked first: a bool or fractional column is refused in one line, not by numpy
    w = None if ewgt is None else _int_weights(g.edata.require(ewgt), f"edge data {ewgt!r}", 1)
    keep = s != d
    s, d = s[keep], d[keep]
    src, dst = np.concatenate([s, d]), np.concatenate([d, s])
    n = g.num_nodes()
    key = src * n + dst
    if w is None:
        key = unique_int(key)
        return key // n, key % n, None
    w = np.concatenate([w[keep], w[keep]])
    order = np.lexsort((-w, key))  # per pair, the largest weight first
    key, w = key[order], w[order]
    first = np.concatenate([[True], key[1:] != key[:-1]])
    return key[first] // n, key[first] % n, w[first]


def _int_weights(t: torch.Tensor, what: str, minimum: int) -> np.ndarray:
    a = t.numpy()
    if a.dtype.kind not in "iu" and not (a.dtype.kind == "f" and np.all(a == np.round(a))):
        raise GraphpartError(f"{what} must be integers for METIS, got dtype {a.dtype}")
    a = a.astype(np.int64)
    if a.size and a.min() < minimum:
        raise GraphpartError(f"{what} must be >= {minimum} for METIS, got {a.min()}")
    return a


def write_metis_graph(
    g: Graph,
    path: str | os.PathLike,
    node_weight: str | None = None,
    edge_weight: str | None = None,
) -> None:
    """Write a homogeneous graph as a METIS graph file, atomically.

    The edges are symmetrised, self-loops and duplicates dropped (METIS needs a
    simple undirected graph); a pair joined by several weighted edges keeps the
    largest weight.

    Parameters
    ----------
    g : Graph
        A homogeneous graph.
    path : str or os.PathLike
        The file to write; it is replaced atomically.
    node_weight : str, optional
        Node data of shape ``(n,)`` or ``(n, ncon)`` with non-negative integers.
    edge_weight : str, optional
        Edge data with positive integers.

    Raises
    ------
    GraphpartError
        ``g`` is heterogeneous, or a weight is not integral, is below its minimum or has
        another shape.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "path.graph"
    >>> write_metis_graph(Graph.from_edges([0, 1], [1, 2]), p)
    >>> p.read_text().splitlines()
    ['3 2', '2', '1 3', '2']
    """
    if not g.is_homogeneous:
        raise GraphpartError(
            f"write_metis_graph needs a homogeneous graph, got node types {g.ntypes}; "
            "use g.to_homogeneous() first"
        )
    n = g.num_nodes()
    src, dst, w = _undirected(g, edge_weight)
    if w is not None:
        w = _int_weights(torch.from_numpy(w), f"edge data {edge_weight!r}", 1)
    vw = None
    if node_weight is not None:
        vw = _int_weights(g.ndata.require(node_weight), f"node data {node_weight!r}", 0)
        vw = vw[:, None] if vw.ndim == 1 else vw
        if vw.ndim != 2:
            raise GraphpartError(
                f"node data {short_repr(node_weight)} must have shape (n,) or (n, ncon), got "
                f"{vw.shape}"
            )
    ncon = 0 if vw is None else vw.shape[1]
    deg = np.bincount(src, minlength=n)
    # Tokens of each vertex line: its weights, then neighbour (and weight) pairs.
    per_edge = np.stack([dst + 1, w], axis=1) if w is not None else (dst + 1)[:, None]
    width = per_edge.shape[1]
    counts = ncon + deg * width
    line_id = np.concatenate([np.repeat(np.arange(n), ncon), np.repeat(src, width)])
    values = np.concatenate(
        [vw.reshape(-1) if vw is not None else np.zeros(0, np.int64), per_edge.reshape(-1)]
    )
    values = values[np.argsort(line_id, kind="stable")]
    header = f"{n} {len(src) // 2}"
    if vw is not None:
        header += f" 01{int(w is not None)} {ncon}"
    elif w is not None:
        header += " 001"
    header += "\n"
    body = format_lines(values, counts)
    with atomic_write(path, "wb") as f:
        f.write(header.encode("ascii"))
        f.write(body)

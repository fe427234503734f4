"""ParMETIS interchange: export a chunked graph as ParMETIS input, import its output as an
assignment.

For users with a ParMETIS installation (DGL's ``pm_dglpart``): graphpart
writes the three input files and turns ParMETIS's per-partition node files back
into ``<ntype>.txt`` assignment files for ``dispatch``.

Input files (``<name>`` is the graph name), all whitespace separated:

* ``<name>_nodes.txt``: one row per node in homogeneous id order,
  ``<node_type_id> <w_0> ... <w_{T-1}> <type_wise_node_id>``; weight ``w_t`` is
  1 for the node's own type and 0 for the others, so ParMETIS balances every
  node type (a homogeneous graph has a single weight column of ones);
* ``<name>_edges.txt``: one edge a line,
  ``<src_homogeneous_id> <dst_homogeneous_id> <type_wise_edge_id> <edge_type_id>``, without
  self-loops or duplicate ``(src, dst)`` pairs (the first is kept), as ParMETIS requires;
* ``<name>_stats.txt``: ``<num_nodes> <num_edges> <num_node_weights>``.

Type ids are positions in the metadata's ``node_type`` / ``edge_type`` lists and
homogeneous ids number the nodes type after type in that order.

Output files read back: ``p<i>-<name>_nodes.txt`` for ``i = 0, 1, ...``, with rows
``<new_node_id> <node_type_id> <w_0> ... <w_{T-1}> <type_wise_node_id>``.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..fs.atomic import atomic_dir
from ..fs.outpath import check_replaceable
from ..fs.untrusted import check_regular_file
from ..homogeneous import type_offsets
from ..utils.check import check_file_name, short_repr
from ._files import text_columns, write_array
from ._owned import is_integer_text
from .assign import write_assignment
from .format import ChunkedMetadata, read_metadata
from .read import homogeneous_edges

__all__ = ["export_parmetis", "import_parmetis"]

_SPACE = {"name": "csv", "delimiter": " "}


def _offsets(meta: ChunkedMetadata) -> np.ndarray:
    return type_offsets([meta.num_nodes[t] for t in meta.ntypes])


def export_parmetis(
    in_dir: str | os.PathLike, out_dir: str | os.PathLike, graph_name: str | None = None
) -> Path:
    """Write ``<name>_nodes.txt``, ``<name>_edges.txt`` and ``<name>_stats.txt`` for ParMETIS into
    ``out_dir``.

    The edge list is deduplicated in memory (every edge chunk at once, like METIS).

    Parameters
    ----------
    in_dir : str or os.PathLike
        The chunked graph: ``metadata.json`` or its folder.
    out_dir : str or os.PathLike
        The output folder: new, empty, or an earlier export of the same graph name and
        nothing else; replaced whole once the three files are written.
    graph_name : str or None, default None
        The ``<name>`` of the files (a plain file name); default: the metadata's
        ``graph_name``.

    Returns
    -------
    pathlib.Path
        The output folder.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.chunked import write_chunked
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_chunked(load_karate_club(), d / "karate", 2)
    >>> out = export_parmetis(d / "karate", d / "pm")
    >>> stats, nodes = (out / "karate_stats.txt"), (out / "karate_nodes.txt")
    >>> stats.read_text().split(), nodes.read_text().splitlines()[:2]
    (['34', '156', '1'], ['0 1 0', '0 1 1'])
    """
    meta = read_metadata(in_dir)
    name = check_file_name(graph_name or meta.graph_name, "graph_name")
    off = _offsets(meta)
    T, n = len(meta.ntypes), int(off[-1])
    ntype = np.repeat(np.arange(T, dtype=np.int64), np.diff(off))
    nodes = np.zeros((n, T + 2), dtype=np.int64)
    nodes[:, 0] = ntype
    nodes[np.arange(n), 1 + ntype] = 1
    nodes[:, -1] = np.arange(n) - off[ntype]
    src, dst, etype, typed = homogeneous_edges(meta, meta.ntypes, meta.etypes)
    edges = np.stack([src, dst, typed, etype], axis=1)
    del src, dst, etype, typed
    keep = edges[:, 0] != edges[:, 1]
    _, first = np.unique(edges[keep, 0] * max(n, 1) + edges[keep, 1], return_index=True)
    edges = edges[np.flatnonzero(keep)[np.sort(first)]]
    out = check_replaceable(
        out_dir,
        "ParMETIS folder",
        f"{name}_stats.txt",
        lambda p: (
            p.is_file()
            and p.name in {f"{name}_{x}.txt" for x in ("nodes", "edges", "stats")}
            and is_integer_text(p)
        ),
    )
    with atomic_dir(out) as tmp:
        write_array(tmp / f"{name}_nodes.txt", nodes, _SPACE)
        write_array(tmp / f"{name}_edges.txt", edges, _SPACE)
        (tmp / f"{name}_stats.txt").write_text(f"{n} {len(edges)} {T}\n")
    return out


#: The most bytes a value of a ParMETIS row takes: an int64's 20 digits, a sign and a separator.
_VALUE_BYTES = 22


def _read_rows(path: Path, columns: int, most: int) -> np.ndarray:
    """A ParMETIS output file as ``(rows, columns)`` int64, once it is found to be a regular file
    (a link is refused: nothing is read through one), no larger than ``most`` rows of ``columns``
    integers can be, and its first row to hold ``columns`` values; parsed a block at a time,
    never past ``most`` rows. Refusals never quote the file."""
    path = check_regular_file(path, "ParMETIS output", links=False)
    size = path.stat().st_size
    if size > most * (columns * _VALUE_BYTES + 2):
        raise GraphpartError(
            f"{path} is {size:,} bytes, more than {most:,} rows of {columns} integers (the nodes "
            "not yet placed by the earlier files) can take"
        )
    blocks = text_columns(
        path,
        " ",
        max_columns=columns,
        types={f"f{j}": "int64" for j in range(columns)},
        what=f"ParMETIS rows of {columns} integers",
    )
    out, rows = [], 0
    with contextlib.closing(blocks):
        for cols in blocks:
            if len(cols) != columns:
                raise GraphpartError(
                    f"{path}: rows must be '<node_id> <node_type_id> <weights...> "
                    f"<type_wise_id>', {columns} integers, got {len(cols)}"
                )
            rows += len(cols[0])
            if rows > most:
                raise GraphpartError(
                    f"{path} holds at least {rows:,} rows, more than the {most:,} nodes not yet "
                    "placed by the earlier files"
                )
            out.append(np.stack(cols, axis=1).astype(np.int64, copy=False))
    return np.concatenate(out) if out else np.zeros((0, columns), dtype=np.int64)


def import_parmetis(
    parmetis_dir: str | os.PathLike,
    in_dir: str | os.PathLike,
    out_dir: str | os.PathLike,
    graph_name: str | None = None,
) -> Path:
    """Turn ParMETIS's ``p<i>-<name>_nodes.txt`` files into assignment files in ``out_dir``.

    Every node of the chunked graph in ``in_dir`` must appear in exactly one file.

    Parameters
    ----------
    parmetis_dir : str or os.PathLike
        The folder of ParMETIS's output, read as ``p0-<name>_nodes.txt``,
        ``p1-<name>_nodes.txt``, ... up to the first number missing; file ``i`` gives
        partition ``i``.
    in_dir : str or os.PathLike
        The chunked graph that was exported: ``metadata.json`` or its folder.
    out_dir : str or os.PathLike
        The assignment folder to write (``<ntype>.txt`` files and ``partition_meta.json``).
    graph_name : str or None, default None
        The ``<name>`` of the files; default: the metadata's ``graph_name``.

    Returns
    -------
    pathlib.Path
        The assignment folder.

    Raises
    ------
    GraphpartError
        If no ``p0-<name>_nodes.txt`` exists, a file is a link or not a regular file, is larger
        than the nodes left can take, does not hold rows of ``T + 3`` integers (``T`` node
        types), a type or type-wise id is out of range, or a node appears in no file or in
        several.
    """
    meta = read_metadata(in_dir)
    name = check_file_name(graph_name or meta.graph_name, "graph_name")
    folder = Path(parmetis_dir)
    files = []
    while os.path.lexists(folder / f"p{len(files)}-{name}_nodes.txt"):
        files.append(folder / f"p{len(files)}-{name}_nodes.txt")
    if not files:
        raise GraphpartError(
            f"no ParMETIS output in {folder}: expected p0-{name}_nodes.txt, p1-{name}_nodes.txt, "
            "..."
        )
    T = len(meta.ntypes)
    parts = {t: np.full(meta.num_nodes[t], -1, dtype=np.int64) for t in meta.ntypes}
    seen = {t: np.zeros(meta.num_nodes[t], dtype=np.int64) for t in meta.ntypes}
    left = sum(meta.num_nodes.values())
    for p, path in enumerate(files):
        rows = _read_rows(path, T + 3, left)
        left -= len(rows)
        if rows.size == 0:
            continue
        ntype, typed = rows[:, 1], rows[:, -1]
        if ntype.min() < 0 or ntype.max() >= T:
            raise GraphpartError(
                f"{path}: node type ids must lie in 0..{T - 1} (the metadata's node types "
                f"{meta.ntypes}), got {int(ntype.min())}..{int(ntype.max())}"
            )
        for ti, t in enumerate(meta.ntypes):  # a loop over node types, not nodes
            ids = typed[ntype == ti]
            if len(ids) and (ids.min() < 0 or ids.max() >= meta.num_nodes[t]):
                raise GraphpartError(
                    f"{path}: type-wise ids of {short_repr(t)} must lie in "
                    f"0..{meta.num_nodes[t] - 1}"
                )
            parts[t][ids] = p
            np.add.at(seen[t], ids, 1)
    for t, count in seen.items():
        if np.any(count != 1):
            bad = int(np.flatnonzero(count != 1)[0])
            raise GraphpartError(
                f"ParMETIS output in {folder}: node {bad} of type {short_repr(t)} appears "
                f"{int(count[bad])} "
                "times; every node must appear in exactly one p<i>-*_nodes.txt file"
            )
    return write_assignment(out_dir, parts, len(files), "parmetis")

"""The example graphs that ship with METIS (Debian package ``libmetis-doc``)."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import DatasetNotFoundError, GraphpartError
from ..graph.core import Graph
from ..utils.check import short_repr
from ._cache import cached_graph
from .metis_format import read_metis_graph

__all__ = ["load_metis_graph", "metis_graphs_dir", "METIS_GRAPHS"]

#: Where ``libmetis-doc`` installs the example graphs (``$GRAPHPART_METIS_GRAPHS_DIR`` overrides).
METIS_GRAPHS_DIR = Path("/usr/share/doc/libmetis-dev/examples/graphs")


def metis_graphs_dir() -> Path:
    """The folder of METIS's example graphs: ``$GRAPHPART_METIS_GRAPHS_DIR``, else Debian's.

    Returns
    -------
    pathlib.Path
        The environment variable's value when it is set and non-empty, else
        :data:`METIS_GRAPHS_DIR`; whether the folder exists is not checked.
    """
    return Path(os.environ.get("GRAPHPART_METIS_GRAPHS_DIR") or METIS_GRAPHS_DIR)


#: Example name -> file name.
METIS_GRAPHS = {
    "4elt": "4elt.graph",
    "mdual": "mdual.graph",
    "copter2": "copter2.graph",
    "test.mgraph": "test.mgraph",
}


def load_metis_graph(name: str, path: str | os.PathLike | None = None, cache: bool = True) -> Graph:
    """One of METIS's example graphs: ``"4elt"``, ``"mdual"``, ``"copter2"`` or ``"test.mgraph"``.

    ``4elt``, ``mdual`` and ``copter2`` are finite-element meshes (2-D and 3-D);
    ``test.mgraph`` is a small graph with two vertex weights per node
    (``ndata["weight"]`` of shape ``(n, 2)``), a multi-constraint example.

    Parameters
    ----------
    name : str
        ``"4elt"``, ``"mdual"``, ``"copter2"`` or ``"test.mgraph"`` (the keys of
        :data:`METIS_GRAPHS`).
    path : str or os.PathLike, optional
        The folder holding the files (default: :func:`metis_graphs_dir`, where ``libmetis-doc``
        puts them).
    cache : bool, default True
        Reuse a converted copy from the cache folder while the file is unchanged.

    Returns
    -------
    Graph
        The homogeneous graph :func:`~graphpart.datasets.read_metis_graph` reads from the file
        (both directions of each undirected edge).

    Raises
    ------
    GraphpartError
        ``name`` is not one of the examples.
    DatasetNotFoundError
        The file is not in the folder.

    Examples
    --------
    >>> g = load_metis_graph("4elt")  # doctest: +SKIP
    >>> g.num_nodes()  # doctest: +SKIP
    7434
    """
    if name not in METIS_GRAPHS:
        raise GraphpartError(
            f"unknown METIS example {short_repr(name)}; expected one of {list(METIS_GRAPHS)}"
        )
    folder = metis_graphs_dir() if path is None else Path(path)
    file = folder / METIS_GRAPHS[name]
    if not file.is_file():
        raise DatasetNotFoundError(
            f"METIS example graph {file} not found. Install the Debian package 'libmetis-doc' "
            "(apt-get install libmetis-doc), or pass path= to a folder holding "
            f"{METIS_GRAPHS[name]}."
        )
    return cached_graph(f"metis-{name}", [file], lambda: read_metis_graph(file), cache=cache)

"""Real graphs loaded offline, and generators for scale; :func:`load` takes any by name.

Its modules, one idea each:

- ``_cache``: the converted-dataset cache
- ``synthetic``: NodeTask: the labels, features and masks a generated graph carries
- ``_text``: vectorised tokenising of line files
- ``classics``: load_karate_club, load_les_miserables, load_davis_southern_women (networkx)
- ``dcsbm``: dcsbm: degree-corrected SBM, communities with power-law degrees, drawn in blocks
- ``meshes``: load_metis_graph: METIS's example meshes 4elt, mdual, ... (libmetis-doc)
- ``metis_format``: read_metis_graph, write_metis_graph: the METIS graph file format (.graph)
- ``optional``: which datasets come from Debian packages and whether they are here
- ``peer``: peer_partitions: partitions DGL, PyG and GLT wrote themselves (peer_made/)
- ``rmat``: rmat: a Graph500-style R-MAT generator, vectorised over edges
- ``sbm``: sbm: stochastic block model with planted blocks, drawn block pair by block pair
- ``trimesh``: triangle_mesh: a 2-D triangle mesh with coordinates (finite-element-like)
- ``wordnet``: load_wordnet: WordNet 3.0 synsets and pointers, heterogeneous (wordnet-base)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from ..errors import GraphpartError
from ..graph.core import Graph
from ..utils.check import short_repr
from ._cache import cache_dir
from .classics import load_davis_southern_women, load_karate_club, load_les_miserables
from .dcsbm import dcsbm
from .meshes import METIS_GRAPHS, load_metis_graph
from .metis_format import read_metis_graph, write_metis_graph
from .optional import DEBIAN_PACKAGES, missing_package
from .peer import peer_partitions
from .rmat import rmat
from .sbm import sbm
from .synthetic import NodeTask, attach_node_data
from .trimesh import triangle_mesh
from .wordnet import load_wordnet

__all__ = [
    "peer_partitions",
    "missing_package",
    "DEBIAN_PACKAGES",
    "load",
    "names",
    "load_karate_club",
    "load_les_miserables",
    "load_davis_southern_women",
    "load_metis_graph",
    "read_metis_graph",
    "write_metis_graph",
    "load_wordnet",
    "rmat",
    "sbm",
    "dcsbm",
    "triangle_mesh",
    "attach_node_data",
    "NodeTask",
    "cache_dir",
]

_LOADERS: dict[str, Callable[..., Graph]] = {
    "karate_club": load_karate_club,
    "les_miserables": load_les_miserables,
    "davis_southern_women": load_davis_southern_women,
    "wordnet": load_wordnet,
    "rmat": rmat,
    "sbm": sbm,
    "dcsbm": dcsbm,
    "triangle_mesh": triangle_mesh,
    **{name: (lambda n: lambda **kw: load_metis_graph(n, **kw))(name) for name in METIS_GRAPHS},
}


def names() -> list[str]:
    """Names :func:`load` accepts.

    Returns
    -------
    list of str
        The datasets and generators: ``karate_club``, ``les_miserables``,
        ``davis_southern_women``, ``wordnet``, ``rmat``, ``sbm``, ``triangle_mesh`` and the METIS
        examples (``4elt``, ``mdual``, ``copter2``, ``test.mgraph``).

    Examples
    --------
    >>> "karate_club" in names() and "4elt" in names()
    True
    """
    return list(_LOADERS)


def load(name: str, **kwargs) -> Graph:
    """Load a dataset or run a generator by name; ``kwargs`` go to its function.

    Parameters
    ----------
    name : str
        One of :func:`names`.
    **kwargs
        Keyword arguments of that loader or generator (e.g. ``seed`` of :func:`sbm`; ``path``
        and ``cache`` of :func:`load_metis_graph`), checked against its signature first.

    Returns
    -------
    Graph
        What the function returns.

    Raises
    ------
    GraphpartError
        ``name`` is unknown, or ``kwargs`` do not fit the function's signature.

    Examples
    --------
    >>> load("karate_club").num_nodes()
    34
    >>> load("sbm", block_sizes=[10, 10], seed=0).num_nodes()
    20
    """
    try:
        loader = _LOADERS[name]
    except KeyError:
        raise GraphpartError(
            f"unknown dataset {short_repr(name)}; expected one of {names()}"
        ) from None
    target = load_metis_graph if name in METIS_GRAPHS else loader
    try:
        inspect.signature(target).bind(*(["name"] if name in METIS_GRAPHS else []), **kwargs)
    except TypeError as exc:
        raise GraphpartError(
            f"bad arguments for dataset {short_repr(name)}: {exc}; its signature is "
            f"{inspect.signature(target)}"
        ) from None
    return loader(**kwargs)

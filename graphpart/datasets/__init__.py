"""Real graphs loaded offline, and generators for scale.

=============================  ==================================================================
``load_karate_club``           Zachary's karate club (networkx), with club labels
``load_les_miserables``        Les Misérables co-appearances (networkx), weighted
``load_davis_southern_women``  women and events, heterogeneous (networkx)
``load_metis_graph``           METIS example meshes ``4elt``, ``mdual``, ... (``libmetis-doc``)
``load_wordnet``               WordNet 3.0 synsets and pointers, heterogeneous (``wordnet-base``)
``rmat``                       Graph500-style R-MAT generator
``sbm``                        stochastic block model with planted blocks
``dcsbm``                      degree-corrected SBM: communities with power-law degrees
``triangle_mesh``              a 2-D triangle mesh with coordinates (finite-element-like)
=============================  ==================================================================

:func:`load` takes any of them by name.

Its modules, one idea each:

- ``_cache``: the converted-dataset cache
- ``_synthetic``: NodeTask: the labels, features and masks a generated graph carries
- ``_text``: vectorised tokenising of line files
- ``classics``: small teaching graphs from networkx (karate club, Les Misérables, Davis)
- ``dcsbm``: degree-corrected SBM: communities with power-law degrees, drawn in blocks
- ``meshes``: METIS's example graphs (Debian libmetis-doc)
- ``metis_format``: reader and writer for the METIS graph file format (``.graph``)
- ``optional``: which datasets come from Debian packages and whether they are here
- ``peer``: partitions DGL, PyG and GLT wrote themselves, shipped in peer_made/
- ``rmat``: Graph500-style R-MAT generator, vectorised over edges
- ``sbm``: stochastic block model with planted blocks, drawn block pair by block pair
- ``trimesh``: triangle_mesh, a 2-D mesh with coordinates
- ``wordnet``: WordNet 3.0 as a heterograph of synsets (Debian wordnet-base)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from ..errors import GraphpartError
from ..graph.core import Graph
from ..utils.check import short_repr
from ._cache import cache_dir
from ._synthetic import NodeTask, attach_node_data
from .classics import load_davis_southern_women, load_karate_club, load_les_miserables
from .dcsbm import dcsbm
from .meshes import METIS_GRAPHS, load_metis_graph
from .metis_format import read_metis_graph, write_metis_graph
from .optional import DEBIAN_PACKAGES, missing_package
from .peer import peer_partitions
from .rmat import rmat
from .sbm import sbm
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

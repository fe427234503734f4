"""The graph: :class:`Graph` (homogeneous or heterogeneous, with node and edge data), its
conversions, and its ``.npz`` file.

- :mod:`~graphpart.graph.core` -- :class:`Graph`, the reserved data names (:data:`NID`, ...)
- :mod:`~graphpart.graph.schema` -- node and edge type names and ids
- :mod:`~graphpart.graph.data` -- length-checked ``{name: tensor}`` stores
- :mod:`~graphpart.graph.build` -- parsing ``{etype: (src, dst)}`` input
- :mod:`~graphpart.graph.convert` -- networkx and scipy conversions; a Graph to and from its
  homogeneous form (``convert.to_homogeneous``; the id rule itself is
  :mod:`graphpart.homogeneous`)
- :mod:`~graphpart.graph.npz` -- :func:`save_graph` / :func:`load_graph`, never unpickling
"""

from __future__ import annotations

from .convert import from_networkx, from_scipy, to_networkx
from .core import EID, ETYPE, NID, NTYPE, Graph, check_graph
from .npz import load_graph, save_graph

__all__ = [
    "Graph",
    "check_graph",
    "NID",
    "EID",
    "NTYPE",
    "ETYPE",
    "from_networkx",
    "to_networkx",
    "from_scipy",
    "save_graph",
    "load_graph",
]

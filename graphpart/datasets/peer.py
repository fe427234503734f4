"""Partitions written by DGL, PyG and GLT themselves, shipped with graphpart (``peer_made/``)."""

from __future__ import annotations

from pathlib import Path

from ..errors import GraphpartError
from ..utils.check import short_repr

__all__ = ["peer_partitions", "PEER_GRAPHS"]

PEER_GRAPHS = ("karate", "hetero3")
PEERS = ("dgl", "pyg", "glt")
_ROOT = Path(__file__).parent / "peer_made"


def peer_partitions(graph: str = "karate", peer: str = "dgl") -> Path:
    """The path of a small partitioning written by a real peer library, to open with graphpart.

    ``graph`` is ``"karate"`` (Zachary's karate club, 2 parts) or ``"hetero3"`` (3 node types,
    4 edge types); ``peer`` is ``"dgl"`` (DGL 2.1's ``partition_graph``: ``.dgl`` and GraphBolt
    files; the config file is returned), ``"pyg"`` or ``"glt"`` (their folders). How they were
    made: ``peer_made/README.md``.

    Parameters
    ----------
    graph : str, default "karate"
        ``"karate"`` or ``"hetero3"``.
    peer : str, default "dgl"
        ``"dgl"``, ``"pyg"`` or ``"glt"``: the library that wrote the partitions.

    Returns
    -------
    pathlib.Path
        For ``"dgl"`` the partition config ``<graph>.json``, else the partition folder; both
        inside the installed package.

    Raises
    ------
    GraphpartError
        ``graph`` or ``peer`` is not one of those names.

    Examples
    --------
    >>> import graphpart as gp
    >>> path = peer_partitions("karate", "dgl")
    >>> g, nfeat, efeat, book, name, ntypes, etypes = gp.load_partition(path, 0)
    >>> name, g.num_nodes(), sorted(nfeat)
    ('karate', 23, ['_N/feat', '_N/label', '_N/train_mask'])
    """
    if graph not in PEER_GRAPHS or peer not in PEERS:
        raise GraphpartError(
            f"peer_partitions takes graph in {PEER_GRAPHS} and peer in {PEERS}, "
            f"got {short_repr(graph)}, {short_repr(peer)}"
        )
    return _ROOT / graph / peer / f"{graph}.json" if peer == "dgl" else _ROOT / graph / peer

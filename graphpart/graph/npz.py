"""Save and load a :class:`~graphpart.Graph` as one ``.npz`` file, never unpickling."""

from __future__ import annotations

import json
import os
import zipfile

import numpy as np
import torch

from ..errors import FormatError
from ..fs.atomic import atomic_write
from ..utils.check import short_repr
from .core import Graph
from .schema import Schema

__all__ = ["save_graph", "load_graph"]

_FORMAT = "graphpart-graph-npz"
_VERSION = 1


def save_graph(g: Graph, path: str | os.PathLike) -> None:
    """Write ``g`` (structure, data and node names) to ``path`` atomically.

    Parameters
    ----------
    g : Graph
        The graph; its data tensors are copied to the CPU.
    path : str or os.PathLike
        The file to write (uncompressed ``.npz``, written whatever the suffix); an existing
        file is replaced, missing folders are created.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "g.npz"
    >>> save_graph(Graph.from_edges([0], [1], ndata={"x": torch.ones(2)}), p)
    >>> load_graph(p).ndata["x"]
    tensor([1., 1.])
    """
    arrays: dict[str, np.ndarray] = {}
    meta = {
        "format": _FORMAT,
        "version": _VERSION,
        "ntypes": g.ntypes,
        "etypes": [list(e) for e in g.canonical_etypes],
        "num_nodes": [g.num_nodes(t) for t in g.ntypes],
        "ndata": [list(g.node_data(t)) for t in g.ntypes],
        "edata": [list(g.edge_data(e)) for e in g.canonical_etypes],
        "names": [g.node_names(t) is not None for t in g.ntypes],
    }
    for i, t in enumerate(g.ntypes):
        for k, v in g.node_data(t).items():
            arrays[f"n{i}/{k}"] = v.detach().cpu().numpy()
        names = g.node_names(t)
        if names is not None:
            arrays[f"names{i}"] = names
    for i, e in enumerate(g.canonical_etypes):
        s, d = g.edges(e)
        arrays[f"e{i}/src"], arrays[f"e{i}/dst"] = s.numpy(), d.numpy()
        for k, v in g.edge_data(e).items():
            arrays[f"ed{i}/{k}"] = v.detach().cpu().numpy()
    arrays["__meta__"] = np.array(json.dumps(meta))
    with atomic_write(path) as f:
        np.savez(f, **arrays)


def load_graph(path: str | os.PathLike) -> Graph:
    """Read a graph written by :func:`save_graph` (``allow_pickle=False``).

    Parameters
    ----------
    path : str or os.PathLike
        A file written by :func:`save_graph`.

    Returns
    -------
    Graph
        The graph, with its data and node names, its ids and data lengths validated as by
        :meth:`Graph.from_typed_edges`.

    Raises
    ------
    FormatError
        If the file cannot be read, is not a graphpart graph file of this version, or holds
        an invalid graph.
    """
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["__meta__"]))
            if not isinstance(meta, dict):
                raise FormatError(
                    f"{path} is not a {_FORMAT} v{_VERSION} file (its __meta__ is "
                    f"{type(meta).__name__}, not an object)"
                )
            if meta.get("format") != _FORMAT or meta.get("version") != _VERSION:
                raise FormatError(
                    f"{path} is not a {_FORMAT} v{_VERSION} file (found "
                    f"{short_repr(meta.get('format'))} "
                    f"v{short_repr(meta.get('version'))})"
                )
            schema = Schema.build(meta["ntypes"], meta["etypes"])
            edges = [
                (torch.from_numpy(z[f"e{i}/src"]), torch.from_numpy(z[f"e{i}/dst"]))
                for i in range(len(schema.canonical_etypes))
            ]
            ndata = {
                t: {k: torch.from_numpy(z[f"n{i}/{k}"]) for k in meta["ndata"][i]}
                for i, t in enumerate(schema.ntypes)
            }
            edata = {
                e: {k: torch.from_numpy(z[f"ed{i}/{k}"]) for k in meta["edata"][i]}
                for i, e in enumerate(schema.canonical_etypes)
            }
            # Through the public builder, so ids and data lengths are validated.
            g = Graph.from_typed_edges(
                dict(zip(schema.canonical_etypes, edges)),
                num_nodes=dict(zip(schema.ntypes, meta["num_nodes"])),
                ndata=ndata,
                edata=edata,
            )
            for i, t in enumerate(schema.ntypes):
                if meta["names"][i]:
                    g.set_node_names(z[f"names{i}"], t)
    except FormatError:
        raise
    except (
        KeyError,
        IndexError,
        TypeError,
        ValueError,
        OSError,
        EOFError,
        zipfile.BadZipFile,
    ) as exc:
        # Anything else a damaged or foreign file can raise while being read.
        raise FormatError(f"cannot read graph file {path}: {short_repr(exc)}") from None
    return g

"""Open partitions wherever they came from: graphpart, DGL (``.dgl`` or GraphBolt files), PyG, GLT.

:func:`open_partitions` looks at a path and returns a :class:`PartitionSource`: a config (what
``read_config`` gives for a graphpart/DGL config, built for the others) and one method,
:meth:`~PartitionSource.load`, that gives each partition as graphpart's ``PartitionData``. Every
reader of partitions on disk (``load_partition``, ``metrics_from_disk``, ``graphpart inspect``,
``open_partitioning`` for the figures and widgets) goes through it, so all of them accept every
format, and the user is told which one was read (a log line, and ``PartitionSource.format``).

=========== ======================================================================
path        format
=========== ======================================================================
``*.json``  a partition config: graphpart's (``graph.pt``) or DGL's (``graph.dgl``)
folder      PyG (``META.json``), GLT (``META``), or a folder with one config
=========== ======================================================================
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from ..errors import FormatError, GraphpartError
from ..fs.atomic import restore_output
from ..graph.core import Graph
from ..graph.schema import parse_etype
from ..index import part_ranges
from ..interop.glt import is_glt_folder, read_glt
from ..interop.graphbolt import load_graphbolt
from ..interop.pyg_read import is_pyg_folder, read_pyg
from ..partitioning.book import RangePartitionBook
from ..utils.check import check_part_id, describe_exception, short_repr
from .config import read_config
from .files import read_feats_file, read_graph_file, sniff
from .make_config import config_of

__all__ = ["PartitionSource", "open_partitions", "detect_format", "FORMAT_NAMES"]

logger = logging.getLogger(__name__)

FORMAT_NAMES = {
    "graphpart": "graphpart (torch files)",
    "dgl": "DGL (.dgl or GraphBolt files)",
    "pyg": "PyG (torch_geometric.distributed)",
    "glt": "GraphLearn-for-PyTorch",
}


def _check_feats(
    feats: dict, bounds: np.ndarray, types: list[str], part_id: int, path: object
) -> None:
    for key, value in feats.items():
        t, _, name = key.rpartition("/")
        if t not in types or not isinstance(value, torch.Tensor):
            raise FormatError(
                f"{path}: entry {short_repr(key)} is not '<type>/<name>' -> tensor over types "
                f"{types}"
            )
        i = types.index(t)
        expected = int(bounds[part_id, i, 1] - bounds[part_id, i, 0])
        if value.dim() == 0 or value.shape[0] != expected:
            raise FormatError(
                f"{path}: {short_repr(key)} has {tuple(value.shape)} rows but partition {part_id} "
                f"owns {expected} of type {short_repr(t)}"
            )


def _check_graph(g: Graph, path: object, cfg: dict, part_id: int) -> Graph:
    try:
        ids, inner = g.ndata["_ID"], g.ndata["inner_node"].bool()
        eids, inner_e = g.edata["_ID"], g.edata["inner_edge"].bool()
    except (KeyError, TypeError, GraphpartError) as exc:
        raise FormatError(f"{path} is not a partition graph ({describe_exception(exc)})") from None
    start, end = (int(x) for x in part_ranges(cfg.node_bounds)[part_id])
    k = end - start
    if (
        int(inner.sum()) != k
        or not torch.equal(ids[:k], torch.arange(start, end))
        or bool(inner[k:].any())
    ):
        raise FormatError(
            f"{path}: the inner nodes are not the range [{start}, {end}) the config gives "
            f"partition {part_id}"
        )
    es, ee = (int(x) for x in part_ranges(cfg.edge_bounds)[part_id])
    owned = eids[inner_e]
    if (
        int(inner_e.sum()) > ee - es
        or (len(owned) and (int(owned.min()) < es or int(owned.max()) >= ee))
        or (len(eids) and (int(eids.min()) < 0 or int(eids.max()) >= cfg.num_edges))
    ):
        raise FormatError(
            f"{path}: edge ids do not match the config's edge_map for partition {part_id}"
        )
    return g


def _graphbolt_graph(path: Path, cfg: dict, part_id: int) -> Graph:
    """A partition's local graph from GraphBolt's file alone (DGL keeps ``_ID`` on nodes always and
    on edges with ``store_eids``); ``part_id``, ``inner_*`` and node ``_TYPE`` come from the
    book."""
    gb = load_graphbolt(path)
    if "_ID" not in gb.node_attributes or "_ID" not in gb.edge_attributes:
        raise FormatError(
            f"{path} lacks node or edge _ID attributes: graphpart needs the edge ids DGL "
            f"stores with dgl_partition_to_graphbolt(..., store_eids=True)"
        )
    src, dst = gb.coo()
    nid = gb.node_attributes["_ID"].to(torch.int64)
    book = cfg.book(part_id)
    part = book.nid2partid(nid)
    ndata = {
        "_ID": nid,
        "part_id": part,
        "inner_node": gb.node_attributes.get("inner_node", (part == part_id).to(torch.uint8)),
    }
    eid = gb.edge_attributes["_ID"].to(torch.int64)
    edata = {
        "_ID": eid,
        "inner_edge": gb.edge_attributes.get("inner_edge", ndata["inner_node"][dst]),
    }
    if len(cfg.ntypes) > 1 or len(cfg.etypes) > 1:
        ndata["_TYPE"] = book.map_to_per_ntype(nid)[0].to(torch.int32)
        edata["_TYPE"] = (
            gb.type_per_edge if gb.type_per_edge is not None else book.map_to_per_etype(eid)[0]
        ).to(torch.int32)
    return Graph.from_edges(src, dst, num_nodes=gb.num_nodes, ndata=ndata, edata=edata)


@dataclass
class PartitionSource:
    """Partitions on disk in any format graphpart reads.

    Made by :func:`open_partitions`, not by hand.

    Attributes
    ----------
    path : pathlib.Path
        The config file (graphpart, DGL), or the partition folder (PyG, GLT).
    format : {"graphpart", "dgl", "pyg", "glt"}
        The format found (``"dgl"`` covers GraphBolt files too); :data:`FORMAT_NAMES` words it.
    config : PartitionConfig
        The checked config (:func:`~graphpart.storage.config.read_config`), or one built from
        the blocks of a PyG or GLT folder (:func:`~graphpart.storage.make_config.config_of`).
    """

    path: Path
    format: str
    config: dict
    _loader: object = None

    @property
    def num_parts(self) -> int:
        """The number of partitions."""
        return int(self.config.num_parts)

    def book(self, part_id: int) -> RangePartitionBook:
        """The partition book, as partition ``part_id`` sees it.

        Parameters
        ----------
        part_id : int
            The partition, in ``[0, num_parts)``.

        Returns
        -------
        RangePartitionBook
        """
        return self.config.book(check_part_id(part_id, self.num_parts))

    def load(
        self,
        part_id: int,
        load_feats: bool = True,
        load_nodes: bool = True,
        load_edges: bool = True,
        load_graph: bool = True,
    ):
        """``(graph, node_feats, edge_feats)`` of one partition (``None`` for what is not
        loaded).

        Parameters
        ----------
        part_id : int
            The partition, in ``[0, num_parts)``.
        load_feats : bool, default True
            Read features at all; if False, neither feature dict is read.
        load_nodes, load_edges : bool, default True
            Read the node / edge features (with ``load_feats``).
        load_graph : bool, default True
            Read the local graph. Honoured for graphpart and DGL configs only: a PyG or GLT
            partition's graph is always built.

        Returns
        -------
        graph : Graph or None
            The local graph, inner nodes first, checked against the config's node and edge
            ranges; ``None`` when not loaded.
        node_feats : dict of str to torch.Tensor or None
            ``{"<ntype>/<name>": rows}`` of the nodes the partition owns (from graphpart and
            DGL files: checked to hold one row per owned node of the type).
        edge_feats : dict of str to torch.Tensor or None
            ``{"<src:rel:dst>/<name>": rows}`` of the edges the partition owns, checked
            likewise.
        """
        part_id = check_part_id(part_id, self.num_parts)
        cfg = self.config
        if self._loader is None:  # a graphpart or DGL config
            files = cfg.part_files(part_id)
            graph = None
            if load_graph and "part_graph" in files:
                graph = _check_graph(
                    read_graph_file(files["part_graph"]), files["part_graph"], cfg, part_id
                )
            elif load_graph:
                gb = files["part_graph_graphbolt"]
                try:
                    graph = _check_graph(_graphbolt_graph(gb, cfg, part_id), gb, cfg, part_id)
                except FormatError:
                    raise
                except GraphpartError as exc:  # ids the book refuses: name the file
                    raise FormatError(f"{gb}: {exc}") from None
            feats = []
            for flag, key, bounds, types in (
                (load_nodes, "node_feats", cfg.node_bounds, cfg.ntypes),
                (load_edges, "edge_feats", cfg.edge_bounds, cfg.etypes),
            ):
                f = read_feats_file(files[key]) if load_feats and flag else None
                if f is not None:
                    _check_feats(f, bounds, types, part_id, files[key])
                feats.append(f)
            return graph, feats[0], feats[1]
        view, loader = self._loader
        fp = loader(part_id)
        graph = _check_graph(view.local_graph(part_id, fp), self.path, cfg, part_id)
        nf = view.node_feats(part_id, fp) if load_feats and load_nodes else None
        ef = view.edge_feats(part_id, fp) if load_feats and load_edges else None
        return graph, nf, ef

    @property
    def etypes(self) -> list[tuple[str, str, str]]:
        """The canonical edge types ``(src, rel, dst)``, in type-id order."""
        return [parse_etype(e) for e in self.config.etypes]


def detect_format(path: str | os.PathLike) -> str:
    """Which format is at ``path``: ``"graphpart"``, ``"dgl"``, ``"pyg"`` or ``"glt"``.

    The config is read and checked as :func:`open_partitions` does, without its log line.

    Parameters
    ----------
    path : str or os.PathLike
        A partition config, a folder holding one config, or a PyG or GLT partition folder.

    Returns
    -------
    str
        ``"graphpart"``, ``"dgl"`` (``.dgl`` or GraphBolt files), ``"pyg"`` or ``"glt"``.

    Examples
    --------
    >>> import tempfile, graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> out = tempfile.mkdtemp()
    >>> gp.partition_graph(load_karate_club(), "karate", 2, out, seed=0, format="dgl")
    >>> detect_format(f"{out}/karate.json"), detect_format(out)
    ('dgl', 'dgl')
    """
    return open_partitions(path, _quiet=True).format


def _config_path(path: Path) -> Path:
    if path.is_file():
        return path
    configs = sorted(p for p in path.glob("*.json") if p.name != "META.json")
    if len(configs) != 1:
        raise FormatError(
            f"{path} holds {len(configs)} partition configs (*.json) and no PyG META.json or "
            f"GLT META; give the config file itself, or a folder of PyG or GLT partitions"
        )
    return configs[0]


def open_partitions(path: str | os.PathLike, _quiet: bool = False) -> PartitionSource:
    """The partitions at ``path`` (a config file or a folder), in whichever format they are.

    A folder is read as PyG (``META.json``) or GLT (``META``) partitions, else as the folder of
    its one partition config. A config is DGL's when partition 0's graph file is DGL's binary
    format or GraphBolt's alone, graphpart's otherwise. The format found is logged at INFO.

    Parameters
    ----------
    path : str or os.PathLike
        A partition config (``<graph_name>.json``), a folder holding exactly one ``*.json``
        config, or a PyG or GLT partition folder.

    Returns
    -------
    PartitionSource
        The format, the checked config and a loader of each partition.

    Raises
    ------
    FormatError
        If nothing is at ``path``, a folder holds no single config, or the config is invalid.
    """
    path = Path(path)
    try:
        found = path.exists() or (restore_output(path) and path.exists())
    except (OSError, ValueError) as exc:  # a name too long, a NUL byte
        raise FormatError(
            f"no partitions at {short_repr(str(path), 120)} ({describe_exception(exc, 80)})"
        ) from None
    if not found:
        raise FormatError(
            f"no partitions at {path}: it does not exist (expected a partition config "
            f"<out_path>/<graph_name>.json, or a PyG / GLT partition folder)"
        )
    if is_pyg_folder(path) or is_glt_folder(path):
        fmt = "pyg" if is_pyg_folder(path) else "glt"
        view, loader = (read_pyg if fmt == "pyg" else read_glt)(path)
        cfg = config_of(
            path.name if path.name.isidentifier() else "graph",
            view.source,
            1,
            view.node_bounds,
            view.edge_bounds,
            list(view.ntypes),
            [":".join(e) for e in view.etypes],
        )
        source = PartitionSource(path, fmt, cfg, (view, loader))
    else:
        config = _config_path(path)
        cfg = read_config(config)
        files = cfg.part_files(0)
        fmt = (
            "dgl"
            if "part_graph" not in files or sniff(files["part_graph"]) == "dgl-graph"
            else "graphpart"
        )
        source = PartitionSource(config, fmt, cfg)
    if not _quiet:
        logger.info("reading %s partitions from %s", FORMAT_NAMES[source.format], path)
    return source

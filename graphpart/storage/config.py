"""The partition config JSON (``<graph_name>.json``) read back and validated, as a typed
:class:`PartitionConfig` (:mod:`~graphpart.storage.make_config` writes it).

The config names the graph, the partition count, the HALO hops, the node and edge ranges of
every partition (``node_map``/``edge_map``, DGL's keys), the types, each partition's files, and
(graphpart only) the balance setting with each partition's load of every balance constraint,
so that partitions on disk report the balance they were made for.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import FormatError, GraphpartError
from ..fs.atomic import restore_output
from ..fs.untrusted import check_regular_file, read_json
from ..index import stack_ranges
from ..partitioning.book import RangePartitionBook
from ..utils.check import check_part_id, describe_exception, short_repr
from .files import part_file_names

__all__ = ["PartitionConfig", "check_graph_name", "read_config", "part_files"]

_NAME = re.compile(r"[A-Za-z0-9_]+")


def check_graph_name(name: object) -> str:
    """``name`` if it is letters, digits and underscores only (it becomes a file name).

    Parameters
    ----------
    name : object
        The graph name to check; anything but a non-empty str of ``[A-Za-z0-9_]`` is refused.

    Returns
    -------
    str
        ``name``, unchanged.

    Raises
    ------
    GraphpartError
        If ``name`` is not such a string.

    Examples
    --------
    >>> check_graph_name("ogbn_arxiv")
    'ogbn_arxiv'
    >>> check_graph_name("../x")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: graph_name must be letters, digits and underscores only, got
    '../x'
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise GraphpartError(
            f"graph_name must be letters, digits and underscores only, got {short_repr(name)}"
        )
    return name


#: Counts in a config (nodes, edges, parts, hops) lie below this: they size arrays.
MAX_COUNT = 1 << 62


@dataclass(frozen=True, eq=False)
class PartitionConfig:
    """A partition config, validated: what :func:`read_config` returns (the file stays DGL's
    JSON; this is the checked view of it).

    Parameters
    ----------
    path : pathlib.Path or None
        The config file (``None``: partitions known by their blocks alone, a PyG or GLT folder).
    graph_name : str
    num_parts : int
        Partitions (machines), at least 1.
    halo_hops : int
        HALO hops the partitions hold.
    num_nodes, num_edges : int
        Of the whole graph.
    ntypes, etypes : list of str
        Node types and canonical edge types (``"src:rel:dst"``), in type-id order.
    node_bounds, edge_bounds : numpy.ndarray
        ``(num_parts, num_types, 2)`` ``[start, end)`` blocks of new homogeneous ids, checked
        to tile ``[0, num_nodes)`` / ``[0, num_edges)`` in order.
    part_method : str or None
        What made the partitions, when recorded.
    num_trainers_per_machine : int
        Trainers per machine (1 when not recorded).
    balance_loads : dict of str to numpy.ndarray
        Each balance constraint's load per partition (graphpart's balance record; empty
        without one).
    trainer_loads : dict of str to numpy.ndarray
        The same per trainer.
    balanced_classes : list of str or None
        The balance classes ``balance_ntypes`` made, when recorded.
    out_edges : bool
        (A property.) Whether partitions copy the edges leaving them (``"out_edges"``).
    raw : dict
        The JSON object as read (DGL's keys, the ``part-<i>`` entries).

    Examples
    --------
    >>> import tempfile
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> out = tempfile.mkdtemp()
    >>> gp.partition_graph(load_karate_club(), "k", 2, out, seed=0)
    >>> cfg = read_config(f"{out}/k.json")
    >>> cfg.num_parts, cfg.ntypes, cfg.node_bounds[:, 0].tolist()
    (2, ['_N'], [[0, 17], [17, 34]])
    >>> sorted(cfg.part_files(1))
    ['edge_feats', 'node_feats', 'part_graph']
    """

    path: Path | None
    graph_name: str
    num_parts: int
    halo_hops: int
    num_nodes: int
    num_edges: int
    ntypes: list[str]
    etypes: list[str]
    node_bounds: np.ndarray
    edge_bounds: np.ndarray
    part_method: str | None = None
    num_trainers_per_machine: int = 1
    balance_loads: dict[str, np.ndarray] = field(default_factory=dict)
    trainer_loads: dict[str, np.ndarray] = field(default_factory=dict)
    balanced_classes: list[str] | None = None
    raw: dict = field(default_factory=dict, repr=False)

    @property
    def out_edges(self) -> bool:
        """Whether each partition copies the edges leaving its nodes (with HALO hops): as
        :func:`graphpart.partition_graph` does, unless the config says otherwise (dispatch
        stores each edge once by default, ``"out_edges": false``)."""
        return self.halo_hops > 0 and self.raw.get("out_edges", True) is not False

    def part_files(self, part_id: int) -> dict[str, Path]:
        """The files of partition ``part_id``, resolved and checked to lie inside the config's
        folder (see :func:`part_files`).

        Parameters
        ----------
        part_id : int

        Returns
        -------
        dict of str to pathlib.Path
            ``{"part_graph": ..., "node_feats": ..., "edge_feats": ...}`` (and
            ``part_graph_graphbolt`` where the config names one).
        """
        if self.path is None:
            raise GraphpartError("these partitions have no config file to name their files")
        return part_files(self.raw, part_id, self.path)

    def book(self, part_id: int) -> RangePartitionBook:
        """The partition book, as partition ``part_id`` sees it.

        Parameters
        ----------
        part_id : int

        Returns
        -------
        RangePartitionBook
        """
        return RangePartitionBook.from_bounds(
            check_part_id(part_id, self.num_parts),
            self.node_bounds,
            self.edge_bounds,
            self.ntypes,
            self.etypes,
        )


def _fail(path: Path, msg: str) -> FormatError:
    return FormatError(f"partition config {path} is invalid: {msg}")


def _bounds(
    cfg: dict, key: str, types: list[str], total: int, num_parts: int, path: Path
) -> np.ndarray:
    """The ``[start, end)`` blocks of ``cfg[key]`` as (parts, types, 2), checked to tile ``[0,
    total)``."""
    mapping = cfg[key]
    if not isinstance(mapping, dict) or sorted(mapping) != sorted(types):
        raise _fail(
            path, f"{key} must map each of {types[:10]} to ranges, got {short_repr(mapping)}"
        )
    try:
        b = stack_ranges(mapping, types, num_parts)
    except (ValueError, TypeError, OverflowError) as exc:
        raise _fail(path, f"{key} ranges are not integer pairs ({exc})") from None
    if b.shape != (num_parts, len(types), 2):
        raise _fail(
            path,
            f"{key} must hold one [start, end) pair per partition and type "
            f"(shape {(num_parts, len(types), 2)}), got shape {b.shape}",
        )
    flat = b.reshape(-1, 2)
    ends = np.concatenate([[0], flat[:-1, 1]])
    if (
        np.any(flat[:, 0] != ends)
        or np.any(flat[:, 1] < flat[:, 0])
        or (flat[-1, 1] if len(flat) else 0) != total
    ):
        raise _fail(path, f"{key} ranges must be sorted, contiguous and cover [0, {total})")
    return b


def _types(cfg: dict, key: str, path: Path) -> list[str]:
    ids = cfg[key]
    if (
        not isinstance(ids, dict)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in ids.values())
        or sorted(ids.values()) != list(range(len(ids)))
    ):
        raise _fail(
            path,
            f"{key} must map names to the ids 0..{len(ids) - 1 if isinstance(ids, dict) else '?'}",
        )
    return sorted(ids, key=ids.get)


def part_files(cfg: dict, part_id: int, path: Path) -> dict[str, Path]:
    """The files of partition ``part_id``, resolved and checked to lie inside the config's folder.

    A config may give GraphBolt's ``part_graph_graphbolt`` in place of (or beside) ``part_graph``.

    Parameters
    ----------
    cfg : dict
        The config's JSON object (:attr:`PartitionConfig.raw`).
    part_id : int
    path : pathlib.Path
        The config file (entries are relative to its folder).

    Returns
    -------
    dict of str to pathlib.Path
        Each file key and its checked regular file.
    """
    check_part_id(part_id, cfg["num_parts"])
    entry = cfg.get(f"part-{part_id}")
    if not isinstance(entry, dict):
        raise _fail(path, f"it has no 'part-{part_id}' entry")
    root = path.parent.resolve()
    out = {}
    keys = list(part_file_names("graphpart"))
    if "part_graph" not in entry and "part_graph_graphbolt" in entry:  # GraphBolt files only
        keys[keys.index("part_graph")] = "part_graph_graphbolt"
    elif "part_graph_graphbolt" in entry:
        keys.append("part_graph_graphbolt")
    for key in keys:
        rel = entry.get(key)
        if not isinstance(rel, str):
            raise _fail(path, f"'part-{part_id}' has no {key!r} path")
        try:
            full = (root / rel).resolve()
        except (OSError, ValueError, RuntimeError) as exc:  # a NUL byte, a link loop
            raise _fail(
                path, f"'part-{part_id}' {key} path {short_repr(rel)} ({describe_exception(exc)})"
            ) from None
        if root not in full.parents:
            raise _fail(
                path, f"'part-{part_id}' {key} path {short_repr(rel)} points outside {root}"
            )
        out[key] = check_regular_file(full, f"partition {part_id} of {path}: its {key} file")
    return out


def read_config(config_path: str | os.PathLike) -> PartitionConfig:
    """Read and validate a partition config (graphpart's or DGL's ``<graph_name>.json``).

    Every count is checked before it sizes anything, the node and edge blocks must tile the ids
    in order, the types must agree, and graphpart's balance record must hold one load per
    partition (and per trainer).

    Parameters
    ----------
    config_path : str or os.PathLike
        The config file.

    Returns
    -------
    PartitionConfig
        The checked config.

    Raises
    ------
    FormatError
        What is missing or invalid, in one line.
    """
    path = Path(config_path)
    if not path.exists() and not (restore_output(path) and path.exists()):
        raise FormatError(
            f"partition config {path} does not exist (expected <out_path>/<graph_name>.json)"
        )
    cfg = read_json(path, "partition config")
    if not isinstance(cfg, dict):
        raise _fail(path, f"expected a JSON object, got {type(cfg).__name__}")
    required = [
        "graph_name",
        "num_parts",
        "halo_hops",
        "num_nodes",
        "num_edges",
        "node_map",
        "edge_map",
        "ntypes",
        "etypes",
    ]
    missing = [k for k in required if k not in cfg]
    if missing:
        raise _fail(path, f"missing keys {missing}")
    if not isinstance(cfg.get("out_edges", False), bool):
        raise _fail(path, f"out_edges must be true or false, got {short_repr(cfg['out_edges'])}")
    for key in ("num_parts", "halo_hops", "num_nodes", "num_edges"):
        if (
            not isinstance(cfg[key], int)
            or isinstance(cfg[key], bool)
            or not (1 if key == "num_parts" else 0) <= cfg[key] < MAX_COUNT
        ):
            raise _fail(
                path,
                f"{key} must be an int in [0, 2^62) (num_parts >= 1), got {short_repr(cfg[key])}",
            )
    ntypes, etypes = _types(cfg, "ntypes", path), _types(cfg, "etypes", path)
    for e in etypes:
        parts = e.split(":")
        if len(parts) != 3 or parts[0] not in ntypes or parts[2] not in ntypes:
            raise _fail(path, f"edge type {e!r} is not 'src:rel:dst' over the node types {ntypes}")
    k = cfg["num_parts"]
    trainers = cfg.get("num_trainers_per_machine", 1)
    if not isinstance(trainers, int) or isinstance(trainers, bool) or not 1 <= trainers <= 1024:
        raise _fail(
            path,
            f"num_trainers_per_machine must be an int in [1, 1024], got {short_repr(trainers)}",
        )
    method = cfg.get("part_method")
    record = cfg.get("balance")
    classes = record.get("ntypes") if isinstance(record, dict) else None
    if classes is not None and not (
        isinstance(classes, list)
        and len(classes) <= 4096
        and all(isinstance(c, str) for c in classes)
    ):
        raise _fail(
            path, f"balance ntypes must be a list of class names, got {short_repr(classes)}"
        )
    return PartitionConfig(
        path=path,
        graph_name=_graph_name(cfg["graph_name"], path),
        num_parts=k,
        halo_hops=cfg["halo_hops"],
        num_nodes=cfg["num_nodes"],
        num_edges=cfg["num_edges"],
        ntypes=ntypes,
        etypes=etypes,
        node_bounds=_bounds(cfg, "node_map", ntypes, cfg["num_nodes"], k, path),
        edge_bounds=_bounds(cfg, "edge_map", etypes, cfg["num_edges"], k, path),
        part_method=method if isinstance(method, str) else None,
        num_trainers_per_machine=trainers,
        balance_loads=_balance_loads(cfg, path),
        trainer_loads=_trainer_loads(cfg, path),
        balanced_classes=classes,
        raw=cfg,
    )


def _graph_name(name: object, path: Path) -> str:
    if not isinstance(name, str) or not 0 < len(name) <= 255:
        raise _fail(path, f"graph_name must be a non-empty string, got {short_repr(name)}")
    return name


#: Names a per-trainer load may have (besides ``class <label>``).
_TRAINER_LOADS = ("nodes", "in-degree", "train nodes", "val nodes", "test nodes")


def _trainer_loads(cfg: dict, path: Path) -> dict[str, np.ndarray]:
    """The per-trainer loads of the balance record (empty without them), checked: one
    non-negative int per trainer (``num_parts * num_trainers_per_machine``)."""
    record = cfg.get("balance")
    loads = record.get("trainer_loads") if isinstance(record, dict) else None
    if loads is None:
        return {}
    t = cfg.get("num_trainers_per_machine", 1)
    k = cfg["num_parts"] * (t if isinstance(t, int) and not isinstance(t, bool) else 1)
    return _loads(loads, k, _TRAINER_LOADS, "trainer_loads", "trainer", path)


def _balance_loads(cfg: dict, path: Path) -> dict[str, np.ndarray]:
    """The per-partition loads of the balance record (empty without one), checked."""
    record = cfg.get("balance")
    if record is None:
        return {}
    loads = record.get("loads") if isinstance(record, dict) else None
    return _loads(loads, cfg["num_parts"], ("in-degree",), "loads", "partition", path)


def _loads(
    loads: object, k: int, names: tuple[str, ...], key: str, per: str, path: Path
) -> dict[str, np.ndarray]:
    """``{name: [k non-negative ints]}`` of a balance record, names ``class <label>`` or one of
    ``names``, checked before anything is sized by it."""
    if not isinstance(loads, dict) or len(loads) > 4096:
        raise _fail(path, f"balance {key} must be {{constraint: [one load per {per}]}}")
    out = {}
    for name, values in loads.items():
        if not isinstance(name, str) or not (name.startswith("class ") or name in names):
            raise _fail(
                path,
                f"balance {key} names are 'class <label>' or one of {list(names)}, got "
                f"{short_repr(name)}",
            )
        ok = (
            isinstance(values, list)
            and len(values) == k
            and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1 << 62 for v in values
            )
        )
        if not ok:
            raise _fail(
                path,
                f"balance {key} {short_repr(name)} must be {k} non-negative ints, one per {per}",
            )
        out[name] = np.asarray(values, dtype=np.int64)
    return out

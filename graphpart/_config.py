"""The partition config JSON (``<graph_name>.json``): build it and validate what is read back."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np

from .errors import FormatError, GraphpartError

__all__ = ["check_graph_name", "read_config", "part_files", "PART_FILES", "FORMAT_VERSION"]

FORMAT_VERSION = 1
#: Files of one partition, under ``part<i>/``: config key -> file name.
PART_FILES = {"part_graph": "graph.pt", "node_feats": "node_feats.pt", "edge_feats": "edge_feats.pt"}
_NAME = re.compile(r"[A-Za-z0-9_]+")


def check_graph_name(name: object) -> str:
    """``name`` if it is letters, digits and underscores only (it becomes a file name).

    Examples
    --------
    >>> check_graph_name("ogbn_arxiv")
    'ogbn_arxiv'
    >>> check_graph_name("../x")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: graph_name must be letters, digits and underscores only, got '../x'
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise GraphpartError(f"graph_name must be letters, digits and underscores only, got {name!r}")
    return name


def _fail(path: Path, msg: str) -> FormatError:
    return FormatError(f"partition config {path} is invalid: {msg}")


def _bounds(cfg: dict, key: str, types: list[str], total: int, num_parts: int, path: Path) -> np.ndarray:
    """The ``[start, end)`` blocks of ``cfg[key]`` as (parts, types, 2), checked to tile ``[0, total)``."""
    mapping = cfg[key]
    if not isinstance(mapping, dict) or sorted(mapping) != sorted(types):
        raise _fail(path, f"{key} must map each of {types} to ranges, got keys {list(mapping)[:10]}")
    try:
        b = np.stack([np.asarray(mapping[t], dtype=np.int64) for t in types], axis=1)
    except (ValueError, TypeError) as exc:
        raise _fail(path, f"{key} ranges are not integer pairs ({exc})") from None
    if b.shape != (num_parts, len(types), 2):
        raise _fail(path, f"{key} must hold one [start, end) pair per partition and type "
                          f"(shape {(num_parts, len(types), 2)}), got shape {b.shape}")
    flat = b.reshape(-1, 2)
    ends = np.concatenate([[0], flat[:-1, 1]])
    if np.any(flat[:, 0] != ends) or np.any(flat[:, 1] < flat[:, 0]) or (len(flat) and flat[-1, 1] != total):
        raise _fail(path, f"{key} ranges must be sorted, contiguous and cover [0, {total})")
    return b


def _types(cfg: dict, key: str, path: Path) -> list[str]:
    ids = cfg[key]
    if not isinstance(ids, dict) or sorted(ids.values()) != list(range(len(ids))):
        raise _fail(path, f"{key} must map names to the ids 0..{len(ids) - 1 if isinstance(ids, dict) else '?'}")
    return sorted(ids, key=ids.get)


def part_files(cfg: dict, part_id: int, path: Path) -> dict[str, Path]:
    """The files of partition ``part_id``, resolved and checked to lie inside the config's folder.

    A config may give GraphBolt's ``part_graph_graphbolt`` in place of (or beside) ``part_graph``.
    """
    if not isinstance(part_id, (int, np.integer)) or isinstance(part_id, bool) or not 0 <= part_id < cfg["num_parts"]:
        raise GraphpartError(f"part_id must be an int in [0, {cfg['num_parts']}), got {part_id!r}")
    entry = cfg.get(f"part-{part_id}")
    if not isinstance(entry, dict):
        raise _fail(path, f"it has no 'part-{part_id}' entry")
    root = path.parent.resolve()
    out = {}
    keys = list(PART_FILES)
    if "part_graph" not in entry and "part_graph_graphbolt" in entry:  # GraphBolt files only
        keys[keys.index("part_graph")] = "part_graph_graphbolt"
    elif "part_graph_graphbolt" in entry:
        keys.append("part_graph_graphbolt")
    for key in keys:
        rel = entry.get(key)
        if not isinstance(rel, str):
            raise _fail(path, f"'part-{part_id}' has no {key!r} path")
        full = (root / rel).resolve()
        if root not in full.parents:
            raise _fail(path, f"'part-{part_id}' {key} path {rel!r} points outside {root}")
        if not full.is_file():
            raise FormatError(f"partition {part_id} of {path} is missing its {key} file {full}")
        out[key] = full
    return out


def read_config(config_path: str | os.PathLike) -> dict:
    """Read and validate a partition config; adds ``_node_bounds`` / ``_edge_bounds`` arrays."""
    path = Path(config_path)
    if not path.is_file():
        raise FormatError(f"partition config {path} does not exist (expected <out_path>/<graph_name>.json)")
    try:
        cfg = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise _fail(path, f"not JSON ({exc})") from None
    if not isinstance(cfg, dict):
        raise _fail(path, f"expected a JSON object, got {type(cfg).__name__}")
    required = ["graph_name", "num_parts", "halo_hops", "num_nodes", "num_edges", "node_map", "edge_map",
                "ntypes", "etypes"]
    missing = [k for k in required if k not in cfg]
    if missing:
        raise _fail(path, f"missing keys {missing}")
    for key in ("num_parts", "halo_hops", "num_nodes", "num_edges"):
        if not isinstance(cfg[key], int) or isinstance(cfg[key], bool) or cfg[key] < (1 if key == "num_parts" else 0):
            raise _fail(path, f"{key} must be a non-negative int (num_parts >= 1), got {cfg[key]!r}")
    ntypes, etypes = _types(cfg, "ntypes", path), _types(cfg, "etypes", path)
    for e in etypes:
        parts = e.split(":")
        if len(parts) != 3 or parts[0] not in ntypes or parts[2] not in ntypes:
            raise _fail(path, f"edge type {e!r} is not 'src:rel:dst' over the node types {ntypes}")
    k = cfg["num_parts"]
    cfg["_node_bounds"] = _bounds(cfg, "node_map", ntypes, cfg["num_nodes"], k, path)
    cfg["_edge_bounds"] = _bounds(cfg, "edge_map", etypes, cfg["num_edges"], k, path)
    cfg["_ntypes"], cfg["_etypes"] = ntypes, etypes
    return cfg

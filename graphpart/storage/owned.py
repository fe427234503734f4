"""What of a folder graphpart wrote, before an output replaces it: the whole tree is vetted.

A partition output holds its configs (``<graph_name>.json`` with ``"format": "graphpart"``), the
part folders they name (``part<i>``, holding only the files of :data:`~.files.PART_FILES`, each
of the kind its name says), and dispatch's merged id maps and edge chunks' counts
(``orig_nids/``, ``orig_eids/``, ``edge_counts/``: ``.npy`` files). Anything else, at any depth,
and every symlink, is the user's: the output is refused and what is in the way is named.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..errors import FormatError, GraphpartError
from ..fs.outpath import check_output_path, foreign_entries, refuse_foreign
from ..fs.untrusted import read_json
from ..interop.graphbolt import load_graphbolt
from ..interop.safe_load import load_torch
from .files import PART_FILES, sniff

__all__ = ["OutputTarget", "check_partition_output"]

#: What a mapping file (``graphpart partition --mapping-out``) holds.
MAPPING_KEYS = ("orig_nids", "orig_eids")

#: Top-level folders an output holds besides its configs and part folders (dispatch's merged id
#: maps, and its record of the edge chunks' counts for ``verify``).
EXTRA_OUTPUTS = ("orig_nids", "orig_eids", "edge_counts")
_PART = re.compile(r"part[0-9]{1,9}")


def _config_of_ours(p: Path) -> dict | None:
    """The JSON of ``p`` if graphpart wrote it (``"format": "graphpart"``), else ``None``."""
    try:
        cfg = read_json(p, "partition config")
    except FormatError:
        return None
    return cfg if isinstance(cfg, dict) and cfg.get("format") == "graphpart" else None


def _part_folders(cfg: dict) -> set[str]:
    """The part folders a config names: ``part<i>`` for each of its ``part-<i>`` entries whose
    files all lie there under graphpart's names (an entry naming anything else names nothing)."""
    folders = set()
    for key, entry in cfg.items():
        if not (key.startswith("part-") and isinstance(entry, dict)):
            continue
        paths = [PurePosixPath(v) for v in entry.values() if isinstance(v, str)]
        heads = {p.parts[0] for p in paths if len(p.parts) == 2 and p.name in PART_FILES}
        if len(heads) == 1 and len(paths) == len(entry) and _PART.fullmatch(next(iter(heads))):
            if all(len(p.parts) == 2 and p.name in PART_FILES for p in paths):
                folders |= heads
    return folders


def _is_npy(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(6) == b"\x93NUMPY"
    except OSError:
        return False


#: What each torch file of a part folder holds when graphpart wrote it.
_GRAPH_KEYS = {"num_nodes", "src", "dst", "ndata", "edata"}


def _holds_ours(path: Path) -> bool:
    """Whether a torch file of a part folder holds what graphpart writes under its name: a
    graph's arrays (``graph.pt``), ``"<type>/<name>"`` tensors (features), ``{type: tensor}``
    (original ids), or GraphBolt's graph; a user's own torch file under such a name is not."""
    name = path.name
    if PART_FILES.get(name) != "torch":
        return True  # DGL's binary files: the magic number sniff checked says what they are
    try:
        if name == "fused_csc_sampling_graph.pt":
            load_graphbolt(path)
            return True
        held = load_torch(path, name)  # weights only, memory-mapped: the pickle alone is read
    except FormatError:
        return False
    if not isinstance(held, dict):
        return False
    if name == "graph.pt":
        return _GRAPH_KEYS <= set(held)
    if name in ("node_feats.pt", "edge_feats.pt"):
        return all(isinstance(k, str) and "/" in k for k in held)
    return all(isinstance(k, str) for k in held)  # original ids per type


@dataclass(frozen=True)
class OutputTarget:
    """An output folder :func:`check_partition_output` has checked: what the writers take, so a
    path is checked once, before any work, and passed on. Only :func:`check_partition_output`
    makes one (a target built by hand would skip the check that keeps other files safe).

    Attributes
    ----------
    path : pathlib.Path
        The folder, new or holding an earlier graphpart output only.
    """

    path: Path
    checked_by: object = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.checked_by is not _CHECKED:
            raise GraphpartError(
                "an OutputTarget comes from graphpart.storage.check_partition_output(path), which "
                "checks that the folder holds nothing but an earlier graphpart output; pass "
                "the path itself instead"
            )


_CHECKED = object()  # what check_partition_output signs its OutputTargets with


def check_partition_output(
    out: str | os.PathLike | OutputTarget,
    what: str = "out_path",
    keep: Iterable[str | os.PathLike | None] = (),
) -> OutputTarget:
    """Refuse to replace a folder unless it holds an earlier graphpart output and nothing else.

    ``partition_graph`` and ``dispatch`` replace their output folder whole; a folder that also
    holds anything graphpart did not write, at any depth (a training script beside the config,
    notes inside ``part0/``, a folder a config's entries point at), is refused, naming it. A
    path the system refuses, or one under a file, is refused too (``check_output_path``).

    Parameters
    ----------
    out : str, os.PathLike or OutputTarget
        The output folder; an :class:`OutputTarget` was checked already and comes back as is.
    what : str, default "out_path"
        How error messages name the path (the CLI says ``--out-path``).
    keep : iterable of paths
        Inputs and other outputs the folder must not be, nor hold.

    Returns
    -------
    OutputTarget
        The checked folder, for the writer.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.storage import partition_graph
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> partition_graph(load_karate_club(), "k", 2, d / "out", seed=0)
    >>> _ = (d / "out" / "part0" / "notes.txt").write_text("mine")
    >>> check_partition_output(d / "out")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: out_path ... did not write ('part0/notes.txt'); ...
    """
    if isinstance(out, OutputTarget):
        return out
    out = check_output_path(out, what, keep=keep)
    if not out.exists():
        return OutputTarget(out, _CHECKED)
    if not out.is_dir():
        raise GraphpartError(f"{what} {out} exists and is not a folder")
    top = sorted(out.iterdir())
    configs = {p.name: _config_of_ours(p) for p in top if p.suffix == ".json" and p.is_file()}
    configs = {name: cfg for name, cfg in configs.items() if cfg is not None}
    if top and not configs:
        raise GraphpartError(
            f"{what} {out} is not empty and holds no graphpart partitions; "
            "partition_graph replaces its out_path, so give a new or empty folder"
        )
    parts = set().union(*(_part_folders(cfg) for cfg in configs.values()))

    def ours(rel: PurePosixPath, path: Path) -> bool:
        head, depth = rel.parts[0], len(rel.parts)
        if depth == 1:
            if head in configs:
                return True
            return path.is_dir() and (head in parts or head in EXTRA_OUTPUTS)
        if depth == 2 and head in parts and rel.name in PART_FILES and path.is_file():
            return sniff(path) == PART_FILES[rel.name] and _holds_ours(path)
        return depth == 2 and head in EXTRA_OUTPUTS and rel.suffix == ".npy" and _is_npy(path)

    refuse_foreign(out, foreign_entries(out, ours, what), what)
    return OutputTarget(out, _CHECKED)


def check_mapping_out(path: str | os.PathLike) -> Path:
    """``path`` if a mapping file may be written there: new, or an earlier mapping file of
    graphpart's (a weights-only torch file holding ``orig_nids`` and ``orig_eids`` only).
    Anything else there, a symlink included, is the user's and refused.

    Parameters
    ----------
    path : str or os.PathLike
        Where ``graphpart partition --mapping-out`` will write; error messages call it
        ``--mapping-out``.

    Returns
    -------
    pathlib.Path
        ``path``, checked by :func:`~graphpart.fs.outpath.check_output_path` as a file.

    Raises
    ------
    GraphpartError
        If the path is refused, or something other than an earlier mapping file is there.
    """
    path = check_output_path(path, "--mapping-out", kind="file")
    if not os.path.lexists(path):
        return path
    try:
        if path.is_symlink():
            raise FormatError("a symlink")
        held = load_torch(path, "--mapping-out")
    except FormatError:
        held = None
    if not (isinstance(held, dict) and sorted(held) == sorted(MAPPING_KEYS)):
        raise GraphpartError(
            f"--mapping-out {path} exists and is not a mapping graphpart wrote (a torch file of "
            "orig_nids and orig_eids); it would be replaced, so give a new file"
        )
    return path

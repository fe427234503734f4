"""``dispatch --resume``: what of a killed run's work the next run keeps, and only once checked.

A killed run's state is an input from the past, so none of it is taken on its word:

- Phase 1 always runs again. Its pieces are work files, cheaper to redo than to vouch for, and
  its tasks fingerprint the chunk files they read (:func:`~graphpart.fs.digest.file_digest`), so
  the run knows the key of its inputs -- the metadata's and the assignment's bytes, every
  chunk's bytes and the options -- without a pass of its own.
- A partition task, once its files are written, writes a marker beside them: that key, the
  partition's counts, and every file's size and SHA-256, flushed to disk before it is renamed
  into place.
- A resumed run keeps a finished partition only if its marker has that shape and its folder
  holds exactly those files with those digests (checked before phase 1, which then writes no
  pieces for it), and if the marker's key is this run's (known once phase 1 has run: a
  partition made from other inputs or options is redone, its pieces written then). Everything
  else the killed run left is removed, and one log line says what was kept and why the rest
  was not.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from pathlib import Path

import numpy as np

from .. import __version__
from ..errors import GraphpartError
from ..fs.atomic import atomic_write
from ..fs.digest import file_digest, folder_digests
from ..fs.untrusted import read_json
from ..utils.check import short_repr
from ._assemble import build_part, drop_pieces
from ._dask import run_tasks

__all__ = ["DONE", "assignment_digest", "build_and_mark", "inputs_key", "kept_parts"]

logger = logging.getLogger(__name__)

#: A partition folder's marker while a run is under way: its task finished (removed at the end).
DONE = ".graphpart-part-done.json"
STATS = ("nodes", "halo_nodes", "edges")
_HEX = frozenset("0123456789abcdef")


def build_and_mark(key: str, *args) -> dict[str, int]:
    """:func:`build_part`, then the marker saying the partition is whole (what ``--resume``
    keeps), then its pieces deleted. A task Dask reruns after its marker was written returns the
    marker's counts."""
    plan, p, folder, rows = args[0], args[1], args[2], args[4]
    try:
        marker = check_marker(folder, p)
        if marker["key"] == key:
            return marker["stats"]
    except GraphpartError:
        pass
    stats = build_part(*args)
    files = folder_digests(folder, skip=(DONE,))
    with atomic_write(folder / DONE, "w") as f:  # flushed: a crash leaves it whole or absent
        json.dump({"key": key, "part": p, "stats": stats, "files": files}, f)
    drop_pieces(plan, p, rows)
    return stats


def assignment_digest(parts: dict, partitions_dir) -> str:
    """The SHA-256 of an assignment as read (every type's parts, in type order) and of its
    metadata file: what :func:`inputs_key` keys it by, with no second pass over its files."""
    h = hashlib.sha256()
    for t in sorted(parts):
        a = np.asarray(parts[t])
        # the narrowest type that holds its part ids: a byte a node below 256 parts
        top = int(a.max()) if a.size else 0
        a = np.ascontiguousarray(a, dtype=np.min_scalar_type(max(top, 0)) if top >= 0 else a.dtype)
        h.update(json.dumps([t, len(a), a.dtype.str]).encode())
        h.update(memoryview(a).cast("B"))
    meta = Path(partitions_dir) / "partition_meta.json"
    h.update(file_digest(meta).encode() if meta.is_file() else b"-")
    return h.hexdigest()


def inputs_key(meta, assignment: str, chunk_digests: list[str], options: list) -> str:
    """What a finished partition must have been made from: the metadata's bytes, the assignment
    (:func:`assignment_digest`), the chunk files' digests (as phase 1 read them, in its order),
    the options and graphpart's version."""
    h = hashlib.sha256(file_digest(meta.path).encode())
    h.update(assignment.encode())
    h.update(json.dumps([chunk_digests, options, __version__]).encode())
    return h.hexdigest()


def _is_digest(x: object) -> bool:
    return isinstance(x, str) and len(x) == 64 and set(x) <= _HEX


def _is_count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def check_marker(folder: Path, p: int) -> dict:
    """Partition ``p``'s marker, once its shape is checked, it names ``p``, and every file it
    names is in the folder with its size and digest, and nothing else is; else a
    :class:`GraphpartError` saying why."""
    m = read_json(folder / DONE, "dispatch's done-marker", limit=2**20)
    files = m.get("files") if isinstance(m, dict) else None
    stats = m.get("stats") if isinstance(m, dict) else None
    if not (
        isinstance(m, dict)
        and set(m) == {"key", "part", "stats", "files"}
        and _is_digest(m["key"])
        and m["part"] == p
        and not isinstance(m["part"], bool)
        and isinstance(stats, dict)
        and set(stats) == set(STATS)
        and all(_is_count(v) for v in stats.values())
        and isinstance(files, dict)
        and all(
            isinstance(v, list) and len(v) == 2 and _is_count(v[0]) and _is_digest(v[1])
            for v in files.values()
        )
    ):
        raise GraphpartError(f"{folder / DONE} is not a marker dispatch wrote")
    found = folder_digests(folder, skip=(DONE,))
    if found != files:
        changed = sorted(set(found) ^ set(files)) or [k for k in files if found[k] != files[k]]
        raise GraphpartError(
            f"{folder}: {short_repr(changed[0])} is not the file its marker recorded (missing, "
            "extra, or changed)"
        )
    return m


def _verify_marked(folder: Path, p: int) -> dict | str:
    """A task: partition ``p``'s marker, or why it is not kept."""
    try:
        return check_marker(folder, p)
    except GraphpartError as e:
        return str(e)


def kept_parts(client, tmp: Path, num_parts: int, progress: bool) -> dict[int, dict]:
    """The partitions a killed run finished that check (their markers, by partition), on the
    cluster; everything else in ``tmp`` is removed, and a log line says why."""
    left = list(tmp.iterdir())
    if not left:
        logger.info("dispatch --resume: no killed run's work to take over")
        return {}
    marked = [p for p in range(num_parts) if os.path.lexists(tmp / f"part{p}" / DONE)]
    args = [(tmp / f"part{p}", p) for p in marked]
    checked = run_tasks(client, _verify_marked, args, progress, "check-kept")
    kept = {p: m for p, m in zip(marked, checked) if isinstance(m, dict)}
    refused = [m for m in checked if isinstance(m, str)]
    keep = {f"part{p}" for p in kept}
    for child in left:
        if child.name not in keep:
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
    logger.warning(
        "dispatch --resume: kept %d of %d partitions the killed run finished (their files "
        "checked)%s",
        len(kept),
        num_parts,
        f"; redoing {len(refused)}, first because {refused[0]}" if refused else "",
    )
    return kept

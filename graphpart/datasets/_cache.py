"""On-disk cache of converted datasets, keyed by the source files' size and mtime."""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from ..errors import FormatError
from ..graph.core import Graph
from ..graph.npz import load_graph, save_graph

__all__ = ["cache_dir", "cached_graph"]

log = logging.getLogger(__name__)

#: Bump when a loader's output changes, so older cache files are not reused.
CACHE_VERSION = 1


def cache_dir() -> Path:
    """``$GRAPHPART_CACHE_DIR``, else ``$XDG_CACHE_HOME/graphpart``, else ``~/.cache/graphpart``.

    Returns
    -------
    pathlib.Path
        The folder converted datasets are cached in (it may not exist yet).
    """
    if os.environ.get("GRAPHPART_CACHE_DIR"):
        return Path(os.environ["GRAPHPART_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "graphpart"


def _fingerprint(name: str, sources: Sequence[Path]) -> str:
    h = hashlib.sha256(f"{name}|v{CACHE_VERSION}".encode())
    for p in sources:
        st = p.stat()
        h.update(f"|{p.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode())
    return h.hexdigest()[:16]


def cached_graph(
    name: str, sources: Sequence[Path], build: Callable[[], Graph], cache: bool = True
) -> Graph:
    """Load ``name`` from the cache if its sources are unchanged, else build and store it.

    A cache that cannot be read is rebuilt; one that cannot be written is skipped
    (both logged), so the cache never stops a load.
    """
    if not cache:
        return build()
    path = cache_dir() / f"{name}-{_fingerprint(name, sources)}.npz"
    if path.exists():
        try:
            return load_graph(path)
        except FormatError as exc:
            log.warning("ignoring unreadable cache file %s: %s", path, exc)
    g = build()
    try:
        save_graph(g, path)
    except OSError as exc:
        log.warning("could not write cache file %s: %s", path, exc)
    return g

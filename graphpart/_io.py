"""Atomic output: write to a temporary sibling, then rename into place."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["atomic_write", "atomic_dir"]


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "wb", fsync: bool = True) -> Iterator:
    """Open a temporary sibling of ``path`` for writing; rename it over ``path`` on success.

    A failure (or a kill) leaves any earlier ``path`` untouched and no partial file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_write(p, "w") as f:
    ...     _ = f.write("hello")
    >>> p.read_text()
    'hello'
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)  # reopened by name, so the file object says which file it is
    try:
        with open(tmp, mode) as f:
            yield f
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@functools.lru_cache(maxsize=1)
def _renameat2():
    name = ctypes.util.find_library("c")
    try:
        fn = ctypes.CDLL(name, use_errno=True).renameat2
    except (OSError, AttributeError, TypeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


def _exchange(a: Path, b: Path) -> bool:
    """Swap two existing paths in one atomic step (Linux ``renameat2``); False if unsupported."""
    fn = _renameat2()
    if fn is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    return fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


@contextlib.contextmanager
def atomic_dir(path: str | os.PathLike) -> Iterator[Path]:
    """Build a directory in a temporary sibling; move it to ``path`` only on success.

    An existing ``path`` is swapped out in one atomic step where the system
    allows (``renameat2``), else by two renames; either way a failure or a kill
    while building leaves the earlier ``path`` as it was.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp()) / "out"
    >>> with atomic_dir(root) as tmp:
    ...     _ = (tmp / "a.txt").write_text("1")
    >>> sorted(p.name for p in root.iterdir())
    ['a.txt']
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        yield tmp
        if not path.exists():
            os.rename(tmp, path)
            return
        if not _exchange(tmp, path):
            old = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent))
            os.rename(path, old / "x")
            os.rename(tmp, path)
            tmp = old
        shutil.rmtree(tmp, ignore_errors=True)  # now holds the earlier output
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise

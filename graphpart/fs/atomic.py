"""Atomic output: write to a temporary sibling, then rename into place.

:func:`atomic_dir` builds a folder ``path`` in a work folder beside it, ``.<name>.<random>.tmp``,
marked with its owner (:mod:`graphpart.fs.owner`): ``new/`` is the folder being built. Then

1. no ``path`` yet: ``new`` is renamed to ``path``;
2. else ``new`` and ``path`` are swapped in one step (Linux ``renameat2`` RENAME_EXCHANGE);
3. where that is not available (NFS, other systems): ``path`` is renamed to ``old/`` in the work
   folder, then ``new`` to ``path``.

Then the work folder, holding the earlier output, is removed. At every instant the earlier
output is at ``path`` or at ``.<name>.*.tmp/old``, until the new one is at ``path``. A run killed
between the two renames of step 3 leaves ``path`` missing: the next :func:`atomic_dir` on it, and
:func:`restore_output` (which readers call when a path is missing), put ``old`` back first. Work
folders whose owner has ended are removed by the next :func:`atomic_dir` on the same path; a
folder without graphpart's marker, or whose owner may still live, is never touched.

:func:`work_dir` gives a scratch folder for work on a path (sort buckets, Dask's spill space)
under the same name pattern and marker: a killed run's is removed by the next
:func:`work_dir` or :func:`atomic_dir` on that path (:func:`remove_ended`).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import glob
import logging
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..errors import GraphpartError
from .outpath import output_folder
from .owner import Claim, owner_gone, read_owner

__all__ = ["atomic_write", "atomic_dir", "foreign_part", "restore_output"]

logger = logging.getLogger(__name__)
NEW, OLD = "new", "old"


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "wb", fsync: bool = True) -> Iterator:
    """Open a temporary sibling of ``path`` for writing; rename it over ``path`` on success.

    A failure (or a kill) leaves any earlier ``path`` untouched and no partial file.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; missing parent folders are created.
    mode : str, default "wb"
        The :func:`open` mode of the temporary file (``"w"`` for text).
    fsync : bool, default True
        Flush the file to disk (``os.fsync``) before renaming it over ``path``.

    Yields
    ------
    file object
        The open temporary file, ``.<name>.<random>.tmp`` in ``path``'s folder. It is renamed
        to ``path`` when the ``with`` block ends without an exception, else removed.

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
    tmp = new_file(path.parent, f".{path.name}.", ".tmp")
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


def new_file(folder: Path, prefix: str, suffix: str) -> Path:
    """Create a new empty file ``<prefix><random><suffix>`` in ``folder`` with the mode the
    user's umask gives (``0666 & ~umask``, as :func:`open` does), never ``tempfile``'s 0600: a
    file graphpart writes must be readable by whom the user's other files are (trainers running
    as another user read the partitions). The one place graphpart makes a temporary file.

    Parameters
    ----------
    folder : pathlib.Path
        An existing folder.
    prefix, suffix : str
        The start and end of the file's name.

    Returns
    -------
    pathlib.Path
        The new file (closed).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = new_file(pathlib.Path(tempfile.mkdtemp()), ".a.", ".tmp")
    >>> p.name.startswith(".a.") and p.stat().st_size == 0
    True
    """
    for _ in range(100):
        name = folder / f"{prefix}{secrets.token_hex(6)}{suffix}"
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(fd)  # reopened by name, so the file object says which file it is
        return name
    raise FileExistsError(f"no free temporary name in {folder}")  # pragma: no cover


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


def _works(path: Path) -> list[tuple[Path, dict]]:
    """The work folders of atomic_dir runs on ``path`` (name pattern, this user's, marker), with
    markers."""
    prefix = f".{path.name}."
    try:
        with os.scandir(path.parent) as it:
            names = [
                e.name
                for e in it
                if e.name.startswith(prefix)
                and e.name.endswith(".tmp")
                and e.is_dir(follow_symlinks=False)
                and e.stat(follow_symlinks=False).st_uid == os.geteuid()
            ]
    except OSError:
        return []
    found = [(path.parent / n, read_owner(path.parent / n)) for n in names]
    return [(w, info) for w, info in found if info is not None and info["target"] == path.name]


def foreign_part(root: Path) -> str | None:
    """What in the tree ``root`` graphpart cannot have made, or ``None`` when every part of it is
    a plain folder, or a plain file with one name, of this user's: a symbolic link anywhere (a
    resumed run would follow it out of the output), another user's entry, a special file, or a
    file with a second name elsewhere.

    Parameters
    ----------
    root : pathlib.Path
        A work folder (or any folder) to vouch for.

    Returns
    -------
    str or None
        ``"<path> is <what>"`` for the first such entry found, else ``None``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> (root / "a").mkdir(); (root / "a" / "f").write_text("1")
    1
    >>> foreign_part(root) is None
    True
    >>> (root / "a" / "l").symlink_to("/")
    >>> foreign_part(root).endswith("a/l is a symbolic link")
    True
    """
    uid, stack = os.geteuid(), [str(root)]
    while stack:
        p = stack.pop()
        try:
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                return f"{p} is a symbolic link"
            if st.st_uid != uid:
                return f"{p} is another user's (uid {st.st_uid})"
            if stat.S_ISDIR(st.st_mode):
                with os.scandir(p) as it:
                    stack.extend(e.path for e in it)
            elif not stat.S_ISREG(st.st_mode):
                return f"{p} is not a plain file or folder"
            elif st.st_nlink != 1:
                return f"{p} is a file with {st.st_nlink} names"
        except OSError as e:
            return f"{p} cannot be read ({e.strerror})"
    return None


def _mtime(p: Path) -> float:
    try:
        return p.stat().st_mtime
    except OSError:
        return 0.0


def _recover(path: Path, clean: bool) -> bool:
    """Put back an earlier output that a killed run left in its work folder while ``path`` is
    missing; with ``clean``, remove work folders whose owner has ended. True if restored."""
    gone = [w for w, info in _works(path) if owner_gone(w, info)]
    restored = False
    for w in sorted(gone, key=lambda w: _mtime(w / OLD), reverse=True):
        if os.path.lexists(path) or not (w / OLD).is_dir():
            continue
        why = foreign_part(w)
        if why is not None:  # not what a killed run of ours left: left alone
            logger.warning("not restoring %s from %s: %s", path, w, why)
            continue
        try:
            os.rename(w / OLD, path)
        except OSError:  # another process got there first
            continue
        restored = True
        logger.warning("restored %s: a run killed while replacing it had moved it to %s", path, w)
    if not os.path.lexists(path):
        legacy = [
            p for p in path.parent.glob(f".{glob.escape(path.name)}.*.old") if (p / "x").exists()
        ]
        if legacy:
            logger.warning(
                "%s is missing; %s may hold its earlier output (left by an older graphpart, "
                "unmarked, so left alone)",
                path,
                legacy[0] / "x",
            )
    if clean:
        for w in gone:
            if os.path.lexists(path) or not (w / OLD).exists():
                shutil.rmtree(w, ignore_errors=True)
    return restored


def restore_output(path: str | os.PathLike) -> bool:
    """Put back the output folder ``path`` (or the folder holding the file ``path``) if it is
    missing because a run of :func:`atomic_dir` was killed between its two renames; True if it
    did. Readers call it when a path is missing; a live run's folders are never touched.

    Parameters
    ----------
    path : str or os.PathLike
        An output folder, or a file in one: ``path`` is put back if it is missing, else its
        folder if that is missing too. Nothing is done while ``path`` exists.

    Returns
    -------
    bool
        True if an earlier output was moved back into place.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> restore_output(root / "out" / "graph.json")
    False
    """
    path = Path(path)
    for p in (path, path.parent):
        if os.path.lexists(p):
            return False
        if os.path.isdir(p.parent) and _recover(p, clean=False):
            return True
    return False


def _adopt(path: Path, new: Path) -> bool:
    """Move the folder a killed run on ``path`` was building into ``new``: the newest work folder
    whose owner has ended and that holds a ``new`` folder. True if one was taken; a
    :class:`GraphpartError` if that folder holds anything graphpart cannot have made
    (:func:`foreign_part`): it is then left as it is."""
    gone = [w for w, info in _works(path) if owner_gone(w, info) and (w / NEW).is_dir()]
    for w in sorted(gone, key=lambda w: _mtime(w / NEW), reverse=True):
        why = foreign_part(w)
        if why is not None:
            raise GraphpartError(
                f"will not resume from {w}: {why}, not what a killed graphpart run leaves; "
                "remove it by hand, or run without --resume"
            )
        try:
            os.rename(w / NEW, new)
        except OSError:  # another process got there first
            continue
        logger.info("resuming in %s: the work a killed run left in %s", new, w)
        return True
    return False


def _claimed(path: Path) -> tuple[Path, Claim]:
    """A new work folder beside ``path`` (``.<name>.<random>.tmp``, mode 0700), marked as this
    process's; nothing is left behind if marking fails."""
    work = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        return work, Claim(work, path.name)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


@contextlib.contextmanager
def atomic_dir(path: str | os.PathLike, resume: bool = False) -> Iterator[Path]:
    """Build a directory in a temporary sibling; move it to ``path`` only on success.

    An existing ``path`` is swapped out in one atomic step where the system allows
    (``renameat2``), else by two renames; a failure or a kill while building leaves the
    earlier ``path`` as it was, and a kill between the two renames leaves it in the work
    folder, from where the next run (or :func:`restore_output`) puts it back. Work folders of
    ended runs on ``path`` are removed first (the module docstring has the whole protocol);
    with ``resume``, the folder the newest of them was building is taken over first and yielded
    with what it holds (the caller decides what of it to keep).

    Parameters
    ----------
    path : str or os.PathLike
        The output folder. A symlink to a folder is followed once (see :func:`output_folder`);
        the current folder, or one holding it, is refused with a :class:`GraphpartError`.
        Missing parent folders are created.
    resume : bool, default False
        Start from the folder that the newest ended run on ``path`` left half-built, if any,
        instead of an empty one.

    Yields
    ------
    pathlib.Path
        The folder to fill, ``new/`` in the work folder beside ``path``. It replaces ``path``
        when the ``with`` block ends without an exception, else it is removed.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp()) / "out"
    >>> with atomic_dir(root) as tmp:
    ...     _ = (tmp / "a.txt").write_text("1")
    >>> sorted(p.name for p in root.iterdir()), sorted(p.name for p in root.parent.iterdir())
    (['a.txt'], ['out'])
    """
    path = output_folder(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _recover(path, clean=False)
    work, claim = _claimed(path)
    new = work / NEW
    try:
        if not (resume and _adopt(path, new)):
            new.mkdir()  # the user's umask, as any folder they make (the work folder is 0700)
        _recover(path, clean=True)
        yield new
        if not os.path.lexists(path):
            os.rename(new, path)
        elif not _exchange(new, path):
            os.rename(path, work / OLD)  # killed here: the next run puts OLD back
            os.rename(new, path)
    except BaseException:
        if not os.path.lexists(path) and (work / OLD).exists():
            with contextlib.suppress(OSError):  # else kept below, for the next run to restore
                os.rename(work / OLD, path)
        raise
    finally:
        claim.release()
        if os.path.lexists(path) or not (work / OLD).exists():
            shutil.rmtree(work, ignore_errors=True)  # holds the earlier output, if any


def remove_ended(path: str | os.PathLike) -> int:
    """Remove the scratch folders of ended runs on ``path`` (:func:`work_dir`'s, and any
    :func:`atomic_dir` work folder holding neither an earlier output nor a half-built one):
    graphpart's marker and an owner gone (:mod:`graphpart.fs.owner`), else left alone.

    Parameters
    ----------
    path : str or os.PathLike
        The output (or scratch name) whose ``.<name>.*.tmp`` siblings are swept.

    Returns
    -------
    int
        How many folders were removed.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> remove_ended(pathlib.Path(tempfile.mkdtemp()) / "out")
    0
    """
    path = Path(path)
    removed = 0
    for w, info in _works(path):
        if os.path.lexists(w / NEW) or os.path.lexists(w / OLD) or not owner_gone(w, info):
            continue
        shutil.rmtree(w, ignore_errors=True)
        removed += 1
        logger.info("removed %s: the scratch of a run on %s that was killed", w, path.name)
    return removed


@contextlib.contextmanager
def work_dir(path: str | os.PathLike) -> Iterator[Path]:
    """A scratch folder for work on ``path`` (sort buckets, Dask's spill space), removed at the
    end, and by a later run on ``path`` when a kill left it (:func:`remove_ended`, called
    first): ``.<name>.<random>.tmp`` beside ``path``, marked with its owner as
    :func:`atomic_dir`'s work folders are, so the next :func:`atomic_dir` on ``path`` removes it
    too.

    Parameters
    ----------
    path : str or os.PathLike
        The output the scratch serves, or a name in a scratch place (``<tmp>/graphpart-dask``);
        its folder is created if missing.

    Yields
    ------
    pathlib.Path
        The empty scratch folder (mode 0700).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "out"
    >>> with work_dir(out) as w:
    ...     w.name.startswith(".out.") and w.is_dir()
    True
    >>> w.exists()
    False
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_ended(path)
    work, claim = _claimed(path)
    try:
        yield work
    finally:
        claim.release()
        shutil.rmtree(work, ignore_errors=True)

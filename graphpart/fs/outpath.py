"""Output paths, checked before any work: what the system refuses, paths under a file, an
output that would replace an input."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

from ..errors import GraphpartError
from ..utils.check import short_repr

__all__ = ["check_output_path", "refuse_foreign", "foreign_entries"]


#: What atomic_dir / atomic_write add to a name for its temporary sibling: "." + ".XXXXXXXX.tmp".
TEMP_EXTRA = 14


def _inside(a: Path, b: Path) -> bool:
    return a == b or b in a.parents


def output_folder(path: str | os.PathLike, what: str = "output folder") -> Path:
    """Where an output folder named ``path`` is really written: the absolute path with ``..``
    and ``.`` resolved, and a symlink to a folder followed once (the output goes into the link's
    target and the link stays). The current folder, or one that holds it, is refused: replacing
    it would leave the shell in a deleted folder.

    Parameters
    ----------
    path : str or os.PathLike
        The output folder asked for; it need not exist.
    what : str, default "output folder"
        How error messages name ``path`` (an option name such as ``"--out-dir"``).

    Returns
    -------
    pathlib.Path
        The absolute path written to.

    Raises
    ------
    GraphpartError
        If ``path`` is a symlink to nothing, or is (or holds) the current folder.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp()).resolve()
    >>> (d / "real").mkdir(); (d / "link").symlink_to(d / "real")
    >>> output_folder(d / "link") == d / "real", output_folder(d / "a" / "b" / "..") == d / "a"
    (True, True)
    """
    full = Path(os.path.abspath(path))
    if full.is_symlink() and full.is_dir():
        full = Path(os.path.realpath(full))
    elif full.is_symlink() and not full.exists():  # writing would replace the user's link
        raise GraphpartError(
            f"{what} {short_repr(os.fspath(path))} is a symbolic link to "
            f"{short_repr(os.readlink(full))}, which does not exist: create that folder, or give "
            "another path"
        )
    cwd = Path(os.path.realpath(os.getcwd()))
    real = Path(os.path.realpath(full))
    if real == cwd or real in cwd.parents:
        raise GraphpartError(
            f"{what} {short_repr(os.fspath(path))} is the current folder or holds it, and an "
            "output folder is replaced whole: give a new folder (e.g. ./partitions)"
        )
    return full


def check_output_path(
    path: str | os.PathLike,
    what: str = "output path",
    kind: str = "folder",
    keep: Iterable[str | os.PathLike | None] = (),
) -> Path:
    """``path`` as a :class:`~pathlib.Path` if a ``kind`` (``"folder"`` or ``"file"``) can be
    written there, else a :class:`GraphpartError` naming ``what``: checked before any work.

    Refused: a NUL byte or an empty path; a name longer than the system allows (with room for
    the temporary sibling graphpart writes first); a path under a file; a folder that exists
    as a file, or a file that exists as a folder; a parent graphpart cannot write in; and a
    path that is, or holds, one of ``keep`` (inputs, other outputs: writing ``path`` replaces
    what is there).

    Parameters
    ----------
    path : str or os.PathLike
        The output path to check; it need not exist.
    what : str, default "output path"
        How error messages name ``path`` (an option name such as ``"--out-path"``).
    kind : {"folder", "file"}, default "folder"
        What will be written at ``path``. A folder is also checked with
        :func:`output_folder` (the current folder is refused).
    keep : iterable of str, os.PathLike or None, default ()
        Paths that writing ``path`` must not replace; ``None`` entries are skipped.

    Returns
    -------
    pathlib.Path
        ``path`` as given (not made absolute).

    Raises
    ------
    GraphpartError
        If anything listed above is refused.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "notes.txt").write_text("mine")
    >>> check_output_path(d / "out" / "parts").name
    'parts'
    >>> check_output_path(d / "notes.txt" / "parts", "--out-path")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: --out-path ... is under ...notes.txt, which is a file, ...
    """
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if "\0" in text or not text:
        raise GraphpartError(
            f"{what} must be a non-empty path without NUL bytes, got {short_repr(text)}"
        )
    full = Path(os.path.abspath(text))
    try:
        os.fsencode(full)
    except UnicodeEncodeError:
        raise GraphpartError(
            f"{what} {short_repr(text)} cannot be encoded as a file name"
        ) from None
    deepest = Path(full.anchor)
    for p in [*reversed(full.parents), full]:
        try:
            st = os.stat(p)
        except OSError as exc:
            if exc.errno in (errno.ENOENT, errno.ENAMETOOLONG):  # created later; too long: below
                break
            raise GraphpartError(
                f"{what} {text}: the system refuses {p} ({exc.strerror})"
            ) from None
        if p != full and not stat.S_ISDIR(st.st_mode):
            raise GraphpartError(f"{what} {text} is under {p}, which is a file, not a folder")
        if p != full:
            deepest = p
    try:
        name_max = os.pathconf(deepest, "PC_NAME_MAX")
        path_max = os.pathconf(deepest, "PC_PATH_MAX")
    except (OSError, ValueError, AttributeError):
        name_max, path_max = 255, 4096
    names = [len(os.fsencode(part)) for part in full.parts[1:]] or [0]
    if max(names[:-1], default=0) > name_max or names[-1] + TEMP_EXTRA > name_max:
        raise GraphpartError(
            f"{what} has a name too long for this system ({name_max} bytes at most, "
            f"{name_max - TEMP_EXTRA} for the last, which gets a temporary sibling): "
            f"{short_repr(text)}"
        )
    if len(os.fsencode(full)) + TEMP_EXTRA >= path_max:
        raise GraphpartError(
            f"{what} is too long for this system (under {path_max - TEMP_EXTRA} bytes): "
            f"{short_repr(text)}"
        )
    if kind == "folder":
        output_folder(full, what)  # the current folder: refused
    if full.exists():
        if kind == "folder" and not full.is_dir():
            raise GraphpartError(f"{what} {text} exists and is not a folder")
        if kind == "file" and full.is_dir():
            raise GraphpartError(f"{what} {text} is a folder; give a file name")
    if not os.access(deepest, os.W_OK | os.X_OK):
        raise GraphpartError(f"{what} {text}: cannot write in {deepest}")
    real = Path(os.path.realpath(full))
    for k in keep:
        if k is not None and _inside(Path(os.path.realpath(k)), real):
            rel = "is" if Path(os.path.realpath(k)) == real else "holds"
            raise GraphpartError(
                f"{what} {text} {rel} {k}, which writing {what} would replace; write elsewhere"
            )
    return Path(text)


def check_replaceable(
    out: str | os.PathLike, what: str, marker: str, ours: Callable[[Path], bool]
) -> Path:
    """Refuse to replace the folder ``out`` unless it is empty, or holds an earlier output of
    the same step (its ``marker`` file) and nothing else (every entry passes ``ours``, none is
    a symlink). The files in the way are named.

    Parameters
    ----------
    out : str or os.PathLike
        The output folder, first checked with :func:`check_output_path`.
    what : str
        How error messages name ``out``.
    marker : str
        The name of the file an earlier output of this step always holds.
    ours : callable
        ``ours(entry)`` is True for an entry (a :class:`~pathlib.Path` directly in ``out``)
        this step writes.

    Returns
    -------
    pathlib.Path
        ``out`` as :func:`check_output_path` returns it.

    Raises
    ------
    GraphpartError
        If ``out`` is not empty and lacks ``marker``, or holds other entries.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "partition_meta.json").write_text("{}"); _ = (d / "train.py").write_text("")
    >>> check_replaceable(d, "--out-dir", "partition_meta.json", lambda p: p.suffix == ".json")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: --out-dir ... holds files graphpart did not write ('train.py...
    """
    out = check_output_path(out, what)
    if not out.exists():
        return out
    entries = sorted(out.iterdir())
    if entries and not (out / marker).is_file():
        raise GraphpartError(
            f"{what} {out} is not empty and holds no earlier output of this step (no {marker}); "
            "it is replaced whole, so give a new or empty folder"
        )
    refuse_foreign(out, [p.name for p in entries if p.is_symlink() or not ours(p)], what)
    return out


def refuse_foreign(out: Path, foreign: list[str], what: str) -> None:
    """A :class:`GraphpartError` naming (the first few of) ``foreign``, the entries of ``out``
    graphpart did not write, if there are any.

    Parameters
    ----------
    out : pathlib.Path
        The folder, as named in the message.
    foreign : list of str
        The names found; an empty list raises nothing. The first five are named, the rest
        counted.
    what : str
        How the message names ``out``.

    Raises
    ------
    GraphpartError
        If ``foreign`` is not empty.
    """
    if foreign:
        shown = ", ".join(repr(name) for name in foreign[:5])
        more = f" and {len(foreign) - 5} more" if len(foreign) > 5 else ""
        raise GraphpartError(
            f"{what} {out} holds files graphpart did not write ({shown}{more}); it is replaced "
            "whole, so move them out or give a new folder"
        )


#: Entries an earlier output may hold before it is taken for something else (bounded time).
MAX_ENTRIES = 200_000


def foreign_entries(
    root: Path, ours: Callable[[PurePosixPath, Path], bool], what: str, limit: int = 20
) -> list[str]:
    """The entries under the folder ``root``, at any depth, that graphpart did not write: those
    ``ours(relative path, path)`` refuses, and every symlink (never followed). A folder refused
    is named, not entered. At most ``limit`` are returned; a tree of more than
    :data:`MAX_ENTRIES` entries is refused outright.

    Parameters
    ----------
    root : pathlib.Path
        The folder to walk.
    ours : callable
        ``ours(rel, path)`` is True for an entry graphpart writes: ``rel`` is its
        :class:`~pathlib.PurePosixPath` relative to ``root``, ``path`` its full
        :class:`~pathlib.Path`. Folders it accepts are entered.
    what : str
        How error messages name ``root``.
    limit : int, default 20
        The most entries returned; the walk stops once this many are found.

    Returns
    -------
    list of str
        Relative POSIX paths of the foreign entries, sorted; empty if there are none.

    Raises
    ------
    GraphpartError
        If a folder cannot be listed, or the tree holds more than :data:`MAX_ENTRIES` entries.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "part0").mkdir(); _ = (d / "part0" / "graph.pt").write_bytes(b"")
    >>> _ = (d / "part0" / "notes.txt").write_text("mine")
    >>> foreign_entries(d, lambda rel, p: rel.name in ("part0", "graph.pt"), "--out-path")
    ['part0/notes.txt']
    """
    found, seen, stack = [], 0, [(root, PurePosixPath())]
    while stack and len(found) < limit:
        folder, rel = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            raise GraphpartError(f"{what} {root}: cannot list {folder} ({exc.strerror})") from None
        seen += len(entries)
        if seen > MAX_ENTRIES:
            raise GraphpartError(
                f"{what} {root} holds more than {MAX_ENTRIES:,} files: not an output of graphpart; "
                "give a new folder"
            )
        for e in entries:
            sub = rel / e.name
            if e.is_symlink() or not ours(sub, Path(e.path)):
                found.append(sub.as_posix())
            elif e.is_dir(follow_symlinks=False):
                stack.append((Path(e.path), sub))
    return sorted(found[:limit])

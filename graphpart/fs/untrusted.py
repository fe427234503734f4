"""Opening files that came from elsewhere: the checks made before a byte is read.

Every reader of a foreign or user-supplied file (configs, PyG/GLT/DGL partitions, chunked
metadata) opens it through :func:`check_regular_file` or :func:`read_json`, so that

- a FIFO, a device or a folder in place of a file is refused instead of blocking the reader;
- a symlink is refused where the caller asks (partition folders hold no links out of them);
- a path the system refuses (a NUL byte, too long, a link loop) is a :class:`FormatError`;
- a JSON document is bounded in size and nesting and holds no ``NaN``/``Infinity``.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from ..errors import FormatError
from ..utils.check import describe_exception

__all__ = ["check_regular_file", "read_json"]

#: The largest JSON document read. Configs of very large graphs stay far below (a config holds
#: ranges per partition and type; a chunked metadata.json a path per chunk); parsed JSON takes up
#: to ~30x its bytes (a 60 MB bomb of empty lists took 1.8 GB), so the bound is a memory bound.
JSON_LIMIT = 16 * 2**20


def check_regular_file(path: str | os.PathLike, what: str, links: bool = True) -> Path:
    """``path`` if it names a regular file (through a symlink only when ``links``).

    Parameters
    ----------
    path : str or os.PathLike
        The file to check.
    what : str
        How error messages name the file (``"PyG node map"``).
    links : bool, default True
        Follow a symlink to check its target; if False, a symlink is refused.

    Returns
    -------
    pathlib.Path
        ``path`` as a :class:`~pathlib.Path`.

    Raises
    ------
    FormatError
        If ``path`` is missing, cannot be examined (a link loop, a NUL byte, a name too long),
        is a refused symlink, or is a folder, FIFO, device or socket.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> os.mkfifo(os.path.join(d, "pipe"))
    >>> check_regular_file(os.path.join(d, "pipe"), "PyG node map")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    graphpart.errors.FormatError: PyG node map: .../pipe is a FIFO, not a regular file
    """
    path = Path(path)
    link = False
    try:
        info = path.lstat()
        link = stat.S_ISLNK(info.st_mode)
        if link and links:
            info = path.stat()
    except FileNotFoundError:
        raise FormatError(f"{what} {path} is missing") from None
    except (OSError, ValueError) as exc:  # a link loop, a NUL byte, a name too long
        raise FormatError(f"{what}: cannot open {path} ({describe_exception(exc)})") from None
    if link and not links:
        raise FormatError(f"{what}: {path} is a symbolic link (expected a regular file)")
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a folder"
            if stat.S_ISDIR(info.st_mode)
            else "a FIFO"
            if stat.S_ISFIFO(info.st_mode)
            else "a device or socket"
        )
        raise FormatError(f"{what}: {path} is {kind}, not a regular file")
    return path


def check_folder_tree(root: str | os.PathLike, what: str, limit: int = 1_000_000) -> None:
    """Refuse a folder that holds anything but real folders and regular files (a symlink could
    lead out of it, a FIFO would block the reader), or more than ``limit`` entries.

    Parameters
    ----------
    root : str or os.PathLike
        The folder to walk, at any depth; symlinks are not followed.
    what : str
        How error messages name the folder.
    limit : int, default 1_000_000
        The most entries (files and folders, at all depths) accepted.

    Raises
    ------
    FormatError
        On the first symlink or special file found, or once more than ``limit`` entries are
        counted.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> os.symlink("/etc", os.path.join(d, "part_0"))
    >>> check_folder_tree(d, "PyG partition folder")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    graphpart.errors.FormatError: PyG partition folder: .../part_0 is a symbolic link; ...
    """
    count = 0
    for top, dirs, files in os.walk(root, followlinks=False):
        count += len(dirs) + len(files)
        if count > limit:
            raise FormatError(f"{what}: {root} holds more than {limit:,} entries; refused")
        for name in dirs + files:
            p = os.path.join(top, name)
            mode = os.lstat(p).st_mode
            if stat.S_ISLNK(mode):
                raise FormatError(
                    f"{what}: {p} is a symbolic link; a partition folder holds only its own "
                    "folders and regular files"
                )
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                raise FormatError(f"{what}: {p} is not a regular file or folder")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def read_json(path: str | os.PathLike, what: str, limit: int = JSON_LIMIT) -> object:
    """The JSON document at ``path``, or a :class:`FormatError` saying why it is not one.

    Parameters
    ----------
    path : str or os.PathLike
        The file; it must be a regular file (see :func:`check_regular_file`, symlinks
        followed).
    what : str
        How error messages name the file.
    limit : int, default JSON_LIMIT (16 MiB)
        The largest file size read, in bytes.

    Returns
    -------
    object
        The parsed document: a dict, list, str, int, float, bool or None.

    Raises
    ------
    FormatError
        If the file is not a regular file, is larger than ``limit``, cannot be read, is not
        valid JSON (``NaN`` and ``Infinity`` included) or is nested too deeply to parse.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "deep.json")
    >>> _ = open(p, "w").write("[" * 100_000 + "]" * 100_000)
    >>> read_json(p, "config")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    graphpart.errors.FormatError: config: .../deep.json is not a JSON document (nested too deeply)
    """
    path = check_regular_file(path, what)
    size = path.stat().st_size
    if size > limit:
        raise FormatError(
            f"{what}: {path} holds {size:,} bytes; a JSON document here is at most {limit:,}"
        )
    try:
        return json.loads(path.read_bytes(), parse_constant=_no_constant)
    except RecursionError:
        reason = "nested too deeply"
    except (ValueError, UnicodeDecodeError) as exc:
        reason = describe_exception(exc)
    except OSError as exc:
        raise FormatError(f"{what}: cannot read {path} ({describe_exception(exc)})") from None
    raise FormatError(f"{what}: {path} is not a JSON document ({reason})")

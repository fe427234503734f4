"""Content fingerprints: what a file holds, whatever its name, size or times say.

``dispatch --resume`` keys the work a killed run left by these (a file replaced by another of the
same size with its times kept, by ``cp -p`` or ``tar``, has another digest), and checks every file
of a finished partition against the digest written when it was whole.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

__all__ = ["file_digest"]

_BLOCK = 2**20


def file_digest(path: str | os.PathLike) -> str:
    """The SHA-256 of a file's bytes, as 64 hexadecimal digits (read in 1 MiB blocks: bounded
    memory whatever the size).

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    str
        The digest, lower-case hexadecimal.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = p.write_text("abc")
    >>> file_digest(p)[:16]
    'ba7816bf8f01cfea'
    """
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            h.update(block)
    return h.hexdigest()


def folder_digests(folder: str | os.PathLike, skip: tuple[str, ...] = ()) -> dict[str, list]:
    """``{relative path: [size, SHA-256]}`` of every regular file under ``folder``, but those
    named in ``skip``; anything else (a link, a FIFO) is named with size -1, so that it never
    matches a file's record.

    Parameters
    ----------
    folder : str or os.PathLike
        The folder, walked without following links.
    skip : tuple of str, default ()
        Relative paths left out.

    Returns
    -------
    dict of str to list
        ``[size, digest]`` per relative path (POSIX separators), sorted.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.txt").write_text("abc")
    >>> (d / "b").mkdir(); _ = (d / "b" / "c.txt").write_text("")
    >>> {k: v[0] for k, v in folder_digests(d).items()}
    {'a.txt': 3, 'b/c.txt': 0}
    """
    root = Path(folder)
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        mode = path.lstat().st_mode
        if rel in skip or stat.S_ISDIR(mode):
            continue
        out[rel] = [path.lstat().st_size, file_digest(path)] if stat.S_ISREG(mode) else [-1, ""]
    return out

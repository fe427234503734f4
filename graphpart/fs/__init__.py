"""Safe file-system work: every output is written atomically and checked before any work, and
every file from elsewhere is opened as hostile.

- :mod:`~graphpart.fs.atomic` -- atomic writes of files and folders, :func:`restore_output`
- :mod:`~graphpart.fs.owner` -- the owner marker of a work folder, and whether its owner is gone
- :mod:`~graphpart.fs.outpath` -- output paths checked before any work; what may be replaced
- :mod:`~graphpart.fs.digest` -- content fingerprints of files and folders
- :mod:`~graphpart.fs.untrusted` -- opening files from elsewhere: regular files, bounded JSON
"""

from __future__ import annotations

from .atomic import atomic_dir, atomic_write, restore_output
from .digest import file_digest, folder_digests
from .outpath import check_output_path, check_replaceable, output_folder
from .untrusted import check_folder_tree, check_regular_file, read_json

__all__ = [
    "atomic_write",
    "atomic_dir",
    "restore_output",
    "file_digest",
    "folder_digests",
    "check_output_path",
    "check_replaceable",
    "output_folder",
    "check_regular_file",
    "check_folder_tree",
    "read_json",
]

"""What of a chunked graph folder or an assignment folder graphpart wrote, before a new one
replaces it: the whole tree is vetted, by name and by what each file is.

A chunked graph folder of graphpart's holds ``metadata.json`` whose every chunk spec carries
graphpart's ``counts`` (DGL's own writer has none), the folders ``edges/``, ``node_data/`` and
``edge_data/``, and in them exactly the chunk files the metadata lists, each of its format (a
``.npy`` header, parquet's magic, or text). An assignment folder holds ``partition_meta.json``
marked as graphpart's and ``<ntype>.txt`` files of integers. Anything else, at any depth, and
every symlink, is the user's: the output is refused, naming what is in the way.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from ..errors import FormatError, GraphpartError
from ..fs.outpath import check_output_path, foreign_entries, refuse_foreign
from ..fs.untrusted import read_json

__all__ = [
    "check_chunked_out",
    "check_assignment_out",
    "is_chunk_file",
    "is_integer_text",
    "WRITTEN_BY",
    "SUBFOLDERS",
]

#: The mark graphpart leaves in the JSON of its assignment folders.
WRITTEN_BY = "graphpart"
#: The folders of a chunked graph.
SUBFOLDERS = ("edges", "node_data", "edge_data")
_MAGIC = {"numpy": b"\x93NUMPY", "parquet": b"PAR1"}
_DIGITS = set(b"0123456789 \n\r-")
#: What graphpart's CSV chunks are made of: numbers (signs, exponents), true / false, nan / inf,
#: and any one-character delimiter of printable punctuation or white space.
_CSV_BYTES = set(b"0123456789.+-eE truefalsnaiTRUEFALSNI\t\n\r,;:|")


def _head(path: Path, size: int = 4096) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(size)
    except OSError:
        return b"\0"


def is_chunk_file(path: Path, fmt: str) -> bool:
    """Whether the file at ``path`` looks like a chunk of format ``fmt`` (its first bytes)."""
    head = _head(path)
    if fmt in _MAGIC:
        return head.startswith(_MAGIC[fmt])
    return set(head) <= _CSV_BYTES  # csv: the numbers (and true / false, nan, inf) it writes


def is_integer_text(path: Path) -> bool:
    """Whether the file at ``path`` starts as text of integers (what graphpart writes for
    assignments and ParMETIS input): digits, signs, spaces and newlines."""
    return set(_head(path)) <= _DIGITS


def _listed(meta: object) -> dict[str, str] | None:
    """``{relative path: format}`` of every chunk file a graphpart ``metadata.json`` lists, or
    ``None`` when the metadata is not graphpart's (a spec without ``counts``) or names files
    outside the three folders."""
    if not isinstance(meta, dict):
        return None
    specs = list(meta.get("edges", {}).values()) if isinstance(meta.get("edges"), dict) else []
    for key in ("node_data", "edge_data"):
        fields = meta.get(key, {})
        if not isinstance(fields, dict):
            return None
        for per_type in fields.values():
            if not isinstance(per_type, dict):
                return None
            specs += list(per_type.values())
    if not isinstance(meta.get("edges"), dict):
        return None
    out: dict[str, str] = {}
    for spec in specs:
        if not (isinstance(spec, dict) and "counts" in spec and isinstance(spec.get("data"), list)):
            return None
        fmt = spec.get("format", {}).get("name") if isinstance(spec.get("format"), dict) else None
        for rel in spec["data"]:
            p = PurePosixPath(rel) if isinstance(rel, str) else None
            if p is None or len(p.parts) != 2 or p.parts[0] not in SUBFOLDERS or ".." in p.parts:
                return None
            out[str(p)] = fmt
    return out


#: What :func:`_earlier` gives for a folder that is new or empty.
_NEW = object()


def _earlier(out: str | os.PathLike, what: str, marker: str) -> tuple[Path, object]:
    """``out`` checked as an output path, and the JSON of its ``marker`` file (``None`` when
    that is missing or not JSON; :data:`_NEW` when the folder is new or empty)."""
    out = check_output_path(out, what)
    if not out.exists() or (out.is_dir() and not any(out.iterdir())):
        return out, _NEW
    if not out.is_dir():
        raise GraphpartError(f"{what} {out} exists and is not a folder")
    try:
        return out, read_json(out / marker, f"{what} {marker}")
    except FormatError:
        return out, None


def check_chunked_out(out: str | os.PathLike, what: str = "chunked graph folder") -> Path:
    """``out`` if a chunked graph may be written there: new, empty, or an earlier chunked graph
    of graphpart's and nothing else, at any depth (see the module's description)."""
    out, meta = _earlier(out, what, "metadata.json")
    if meta is _NEW:
        return out
    listed = _listed(meta)
    if listed is None:
        raise GraphpartError(
            f"{what} {out} is not empty and holds no chunked graph graphpart wrote (its "
            "metadata.json, with counts on every chunk); it is replaced whole, so give a new or "
            "empty folder"
        )

    def ours(rel: PurePosixPath, path: Path) -> bool:
        if len(rel.parts) == 1:
            return rel.name == "metadata.json" or (rel.name in SUBFOLDERS and path.is_dir())
        fmt = listed.get(str(rel), "")
        return fmt != "" and path.is_file() and is_chunk_file(path, fmt)

    refuse_foreign(out, foreign_entries(out, ours, what), what)
    return out


def check_assignment_out(out: str | os.PathLike, marker: str) -> Path:
    """``out`` if an assignment may be written there: new, empty, or an earlier assignment of
    graphpart's (``marker``, its JSON, says so and names the node types) holding only the
    ``<ntype>.txt`` files of those types, of integers."""
    what = "assignment folder"
    out, meta = _earlier(out, what, marker)
    if meta is _NEW:
        return out
    if not (isinstance(meta, dict) and meta.get("written_by") == WRITTEN_BY):
        raise GraphpartError(
            f"{what} {out} is not empty and holds no assignment graphpart wrote (its {marker}); "
            "it is replaced whole, so give a new or empty folder"
        )

    ntypes = meta.get("ntypes")
    names = {f"{t}.txt" for t in ntypes if isinstance(t, str)} if isinstance(ntypes, list) else ()

    def ours(rel: PurePosixPath, path: Path) -> bool:
        if len(rel.parts) != 1 or not path.is_file():
            return False
        if rel.name == marker:
            return True
        return rel.name in names and is_integer_text(path)

    refuse_foreign(out, foreign_entries(out, ours, what), what)
    return out

"""WordNet 3.0 as a heterogeneous graph of synsets, read from the Debian ``wordnet-base`` files.

Node types are synset kinds (``noun``, ``verb``, ``adjective``,
``adjective_satellite``, ``adverb``); edge types are WordNet pointer kinds
(``hypernym``, ``hyponym``, meronyms, ``antonym``, ``derivation``, ...), one
canonical edge type per (source kind, pointer, target kind). Lexical pointers,
which join words, become edges between the words' synsets; repeated edges of
one type between the same two synsets are kept once.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import torch

from ..errors import DatasetNotFoundError, FormatError
from ..graph.core import Graph
from ..index import unique_int
from ._cache import cached_graph
from ._text import tokenize_lines

__all__ = ["load_wordnet", "wordnet_dir"]

#: Where Debian's ``wordnet-base`` puts the database (``$GRAPHPART_WORDNET_DIR`` overrides).
WORDNET_DIR = Path("/usr/share/wordnet")


def wordnet_dir() -> Path:
    """The WordNet database folder: ``$GRAPHPART_WORDNET_DIR``, else Debian's.

    Returns
    -------
    pathlib.Path
        The environment variable's value when it is set and non-empty, else
        :data:`WORDNET_DIR`; whether the folder exists is not checked.
    """
    return Path(os.environ.get("GRAPHPART_WORDNET_DIR") or WORDNET_DIR)


_FILES = ("noun", "verb", "adj", "adv")
#: Synset type letter -> node type.
NODE_TYPES = {
    b"n": "noun",
    b"v": "verb",
    b"a": "adjective",
    b"s": "adjective_satellite",
    b"r": "adverb",
}
_NTYPE_ORDER = sorted(NODE_TYPES.values())
#: The data file holding synsets of each pointer ``pos`` letter.
_POS_FILE = {b"n": 0, b"v": 1, b"a": 2, b"s": 2, b"r": 3}
#: WordNet pointer symbol -> relation name.
POINTERS = {
    b"!": "antonym",
    b"@": "hypernym",
    b"@i": "instance_hypernym",
    b"~": "hyponym",
    b"~i": "instance_hyponym",
    b"#m": "member_holonym",
    b"#s": "substance_holonym",
    b"#p": "part_holonym",
    b"%m": "member_meronym",
    b"%s": "substance_meronym",
    b"%p": "part_meronym",
    b"=": "attribute",
    b"+": "derivation",
    b";c": "domain_topic",
    b"-c": "member_of_domain_topic",
    b";r": "domain_region",
    b"-r": "member_of_domain_region",
    b";u": "domain_usage",
    b"-u": "member_of_domain_usage",
    b"*": "entailment",
    b">": "cause",
    b"^": "also_see",
    b"$": "verb_group",
    b"&": "similar_to",
    b"<": "participle",
    b"\\": "pertainym",
}


def _data_files(path: Path) -> list[Path]:
    files = [path / f"data.{f}" for f in _FILES]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise DatasetNotFoundError(
            f"WordNet data files not found: {', '.join(missing)}. Install the Debian package "
            "'wordnet-base' (apt-get install wordnet-base), or pass path= to a folder holding "
            "data.noun, data.verb, data.adj and data.adv (WordNet 3.0 database format)."
        )
    return files


class _Synsets:
    """The parsed synset lines of one ``data.*`` file."""

    def __init__(self, path: Path):
        lines = tokenize_lines(path.read_bytes(), comment=b" ", cut=b"|")
        keep = ~lines.skipped & (lines.counts > 0)
        start, count = lines.starts[keep], lines.counts[keep]
        try:
            if (count < 6).any():
                raise ValueError("a synset line has fewer than 6 fields")
            self.offset = lines.ints(start)
            self.lexfile = lines.ints(start + 1)
            self.kind = lines.text(start + 2)
            wcnt = lines.ints(start + 3, base=16)
            self.lemma = lines.text(start + 4)
            pcnt_at = start + 4 + 2 * wcnt
            if (pcnt_at >= start + count).any():
                raise ValueError("word count runs past the end of a line")
            pcnt = lines.ints(pcnt_at)
            if (pcnt_at + 4 * pcnt >= start + count).any():
                raise ValueError("pointer count runs past the end of a line")
            self.num_words = wcnt
            self.ptr_line = np.repeat(np.arange(len(start)), pcnt)
            k = np.arange(len(self.ptr_line)) - np.repeat(np.cumsum(pcnt) - pcnt, pcnt)
            base = pcnt_at[self.ptr_line] + 1 + 4 * k
            self.ptr_symbol = lines.text(base)
            self.ptr_offset = lines.ints(base + 1)
            self.ptr_pos = lines.text(base + 2)
        except (ValueError, IndexError) as exc:
            raise FormatError(f"{path}: not a WordNet data file ({exc})") from None
        unknown = set(np.unique(self.kind).tolist()) - set(NODE_TYPES)
        if unknown:
            raise FormatError(f"{path}: unknown synset types {sorted(unknown)}")
        if (np.diff(self.offset) <= 0).any():
            raise FormatError(f"{path}: synset offsets are not increasing")


def _lookup(
    files: list[_Synsets], pos: np.ndarray, offset: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """Global synset index of pointer targets given by (pos letter, byte offset)."""
    unknown = set(np.unique(pos).tolist()) - set(_POS_FILE)
    if unknown:
        raise FormatError(f"WordNet pointers name unknown parts of speech {sorted(unknown)}")
    file_of = np.zeros(len(pos), dtype=np.int64)
    for letter, f in _POS_FILE.items():
        file_of[pos == letter] = f
    out = np.empty(len(pos), dtype=np.int64)
    for f, syn in enumerate(files):
        sel = file_of == f
        i = np.searchsorted(syn.offset, offset[sel])
        i = np.minimum(i, max(len(syn.offset) - 1, 0))
        bad = syn.offset[i] != offset[sel] if len(syn.offset) else np.ones(len(i), bool)
        if bad.any():
            raise FormatError(
                f"a WordNet pointer targets synset {int(offset[sel][bad][0]):08d}, "
                f"missing from data.{_FILES[f]}"
            )
        out[sel] = starts[f] + i
    return out


def _build(path: Path) -> Graph:
    files = [_Synsets(p) for p in _data_files(path)]
    sizes = np.array([len(s.offset) for s in files])
    starts = np.cumsum(sizes) - sizes
    kind = np.concatenate([s.kind for s in files])
    ntype_id = np.zeros(len(kind), dtype=np.int64)
    for letter, name in NODE_TYPES.items():
        ntype_id[kind == letter] = _NTYPE_ORDER.index(name)
    local = np.empty(len(kind), dtype=np.int64)
    for t in range(len(_NTYPE_ORDER)):
        sel = ntype_id == t
        local[sel] = np.arange(int(sel.sum()))
    src = np.concatenate([starts[f] + s.ptr_line for f, s in enumerate(files)])
    dst = _lookup(
        files,
        np.concatenate([s.ptr_pos for s in files]),
        np.concatenate([s.ptr_offset for s in files]),
        starts,
    )
    symbols, rel = np.unique(np.concatenate([s.ptr_symbol for s in files]), return_inverse=True)
    unknown = [s for s in symbols.tolist() if s not in POINTERS]
    if unknown:
        raise FormatError(f"unknown WordNet pointer symbols {unknown}")
    rel_names = [POINTERS[s] for s in symbols.tolist()]
    n_types, n_rel = len(_NTYPE_ORDER), len(rel_names)
    group = (ntype_id[src] * n_rel + rel) * n_types + ntype_id[dst]
    edges = {}
    for gkey in unique_int(group):
        sel = group == gkey
        st, r, dt = gkey // (n_rel * n_types), (gkey // n_types) % n_rel, gkey % n_types
        pair = unique_int(local[src[sel]] * len(kind) + local[dst[sel]])
        etype = (_NTYPE_ORDER[st], rel_names[r], _NTYPE_ORDER[dt])
        edges[etype] = (pair // len(kind), pair % len(kind))
    counts = np.bincount(ntype_id, minlength=n_types)
    lexfile = np.concatenate([s.lexfile for s in files])
    words = np.concatenate([s.num_words for s in files])
    offsets = np.concatenate([s.offset for s in files])
    names = np.char.add(
        np.char.add(np.concatenate([s.lemma for s in files]).astype(str), "."),
        np.char.add(np.char.add(kind.astype(str), "."), np.char.zfill(offsets.astype(str), 8)),
    )
    ndata, order = {}, {}
    for t, name in enumerate(_NTYPE_ORDER):
        order[name] = np.flatnonzero(ntype_id == t)  # already in local-id order
        ndata[name] = {
            "lex_filenum": torch.from_numpy(lexfile[order[name]]),
            "num_words": torch.from_numpy(words[order[name]]),
            "offset": torch.from_numpy(offsets[order[name]]),
        }
    g = Graph.from_typed_edges(
        edges, num_nodes=dict(zip(_NTYPE_ORDER, counts.tolist())), ndata=ndata
    )
    for name in _NTYPE_ORDER:
        g.set_node_names(names[order[name]], name)
    return g


def load_wordnet(path: str | os.PathLike | None = None, cache: bool = True) -> Graph:
    """WordNet 3.0 synsets and pointers as a heterogeneous graph.

    Parameters
    ----------
    path : path, optional
        Folder with ``data.noun``, ``data.verb``, ``data.adj``, ``data.adv``;
        defaults to ``/usr/share/wordnet`` (Debian package ``wordnet-base``).
    cache : bool
        Keep the converted graph under the cache folder (see
        :func:`graphpart.datasets.cache_dir`) and reuse it while the files are unchanged.

    Returns
    -------
    Graph
        About 118K synsets in 5 node types. Node data: ``lex_filenum`` (the
        lexicographer file, a 45-class semantic category), ``num_words`` and
        ``offset`` (the synset's byte offset, WordNet's own id). Node names are
        ``lemma.kind.offset``.

    Examples
    --------
    >>> g = load_wordnet()  # doctest: +SKIP
    >>> g.num_nodes("noun")  # doctest: +SKIP
    82115
    """
    folder = wordnet_dir() if path is None else Path(path)
    files = _data_files(folder)
    return cached_graph("wordnet", files, lambda: _build(folder), cache=cache)

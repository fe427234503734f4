"""WordNet: a hand-written miniature database (always) and the real one (with wordnet-base)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from graphpart import DatasetNotFoundError, FormatError
from graphpart.datasets import cache_dir, load_wordnet

from ..helpers import assert_same_graph, edge_multiset

LICENSE = "  1 This software and database is being provided to you, the LICENSEE, by  \n"
MINI = {
    "noun": "00000100 03 n 02 dog 0 domestic_dog 0 002 @ 00000200 n 0000 + 00000500 v 0101 "
    "| a canid  \n"
    "00000200 03 n 01 animal 0 001 ~ 00000100 n 0000 | a living organism  \n",
    "verb": "00000500 29 v 01 bark 0 001 + 00000100 n 0101 01 + 02 00 | make barking sounds  \n",
    "adj": "00000700 00 a 01 quick 0 002 & 00000800 s 0000 ! 00000900 a 0101 | fast  \n"
    "00000800 00 s 01 speedy 0 001 & 00000700 a 0000 | fast  \n"
    '00000900 00 a 01 slow 0 001 ! 00000700 a 0101 | not fast; "a | in a gloss"  \n',
    "adv": "00001000 02 r 01 quickly 0 001 \\ 00000700 a 0101 | with speed  \n",
}


@pytest.fixture
def mini(tmp_path):
    for name, body in MINI.items():
        (tmp_path / f"data.{name}").write_text(LICENSE + body)
    return tmp_path


def test_mini_node_types_and_counts(mini):
    g = load_wordnet(mini, cache=False)
    assert g.ntypes == ["adjective", "adjective_satellite", "adverb", "noun", "verb"]
    counts = {t: g.num_nodes(t) for t in g.ntypes}
    assert counts == {"adjective": 2, "adjective_satellite": 1, "adverb": 1, "noun": 2, "verb": 1}
    assert list(g.node_names("noun")) == ["dog.n.00000100", "animal.n.00000200"]
    assert g.node_data("noun")["num_words"].tolist() == [2, 1]
    assert g.node_data("verb")["lex_filenum"].tolist() == [29]


def test_mini_edges(mini):
    g = load_wordnet(mini, cache=False)
    assert edge_multiset(g, ("noun", "hypernym", "noun")) == [(0, 1)]
    assert edge_multiset(g, ("noun", "hyponym", "noun")) == [(1, 0)]
    assert edge_multiset(g, ("noun", "derivation", "verb")) == [(0, 0)]
    assert edge_multiset(g, ("verb", "derivation", "noun")) == [(0, 0)]
    assert edge_multiset(g, ("adjective", "similar_to", "adjective_satellite")) == [(0, 0)]
    assert edge_multiset(g, ("adjective", "antonym", "adjective")) == [(0, 1), (1, 0)]
    assert edge_multiset(g, ("adverb", "pertainym", "adjective")) == [(0, 0)]
    assert g.num_edges() == 9


def test_mini_cache_round_trip(mini):
    fresh = load_wordnet(mini, cache=False)
    load_wordnet(mini)
    assert any(p.name.startswith("wordnet-") for p in cache_dir().iterdir())
    assert_same_graph(fresh, load_wordnet(mini))


def test_cache_refreshes_when_files_change(mini):
    load_wordnet(mini)
    (mini / "data.adv").write_text(LICENSE)  # remove the adverb
    g = load_wordnet(mini)
    assert g.num_nodes("adverb") == 0


def test_corrupt_cache_is_rebuilt(mini):
    load_wordnet(mini)
    for p in cache_dir().glob("wordnet-*.npz"):
        p.write_bytes(b"garbage")
    assert load_wordnet(mini).num_nodes() == 7


def test_missing_files_name_the_package(tmp_path):
    with pytest.raises(DatasetNotFoundError, match="wordnet-base.*data.noun"):
        load_wordnet(tmp_path)


@pytest.mark.parametrize(
    "file, bad, match",
    [
        (
            "noun",
            "00000100 03 n 01 dog 0 001 @ 00000999 n 0000 | x\n",
            "synset 00000999, missing from data.noun",
        ),
        (
            "noun",
            "00000100 03 n 01 dog 0 001 ?? 00000100 n 0000 | x\n",
            "unknown WordNet pointer symbols",
        ),
        ("noun", "00000100 03 q 01 dog 0 000 | x\n", "unknown synset types"),
        ("noun", "00000100 03 n 05 dog 0 000 | x\n", "not a WordNet data file"),
        ("noun", "00000100 03 n 01 dog 0 009 @ 00000200 n 0000 | x\n", "not a WordNet data file"),
        ("verb", "00000500 29 v 01 bark 0 001 + 00000100 x 0101 | x\n", "unknown parts of speech"),
    ],
)
def test_malformed_database(mini, file, bad, match):
    (mini / f"data.{file}").write_text(LICENSE + bad)
    with pytest.raises(FormatError, match=match):
        load_wordnet(mini, cache=False)


# ------------------------------------------------------------------ the real database


@pytest.fixture(scope="module")
def wordnet():
    return load_wordnet()


@pytest.mark.needs_dataset("wordnet")
class TestRealWordNet:
    def test_synset_counts(self, wordnet):
        counts = {t: wordnet.num_nodes(t) for t in wordnet.ntypes}
        assert counts == {
            "adjective": 7463,
            "adjective_satellite": 10693,
            "adverb": 3621,
            "noun": 82115,
            "verb": 13767,
        }
        assert wordnet.num_nodes() == 117659

    def test_edges(self, wordnet):
        assert 300_000 < wordnet.num_edges() < 400_000
        assert len(wordnet.canonical_etypes) > 50
        # inverse pointers come in pairs
        assert wordnet.num_edges(("noun", "hypernym", "noun")) == wordnet.num_edges(
            ("noun", "hyponym", "noun")
        )
        assert wordnet.num_edges(("noun", "part_meronym", "noun")) == wordnet.num_edges(
            ("noun", "part_holonym", "noun")
        )

    def test_dog_is_a_canine(self, wordnet):
        names = wordnet.node_names("noun")
        dog = int(np.flatnonzero(names == "dog.n.02084071")[0])
        s, d = wordnet.edges(("noun", "hypernym", "noun"))
        parents = sorted(names[d[s == dog].numpy()])
        assert parents == ["canine.n.02083346", "domestic_animal.n.01317541"]

    def test_homogeneous_view(self, wordnet):
        h = wordnet.to_homogeneous()
        assert h.num_nodes() == 117659 and h.num_edges() == wordnet.num_edges()
        assert torch.bincount(h.ndata["_TYPE"]).tolist() == [7463, 10693, 3621, 82115, 13767]

    def test_cache_matches_fresh_parse(self, wordnet):
        assert_same_graph(load_wordnet(cache=False), load_wordnet())

"""Graph <-> .npz: round trip, atomic writes, no unpickling, clear errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings

from graphpart import FormatError, Graph
from graphpart.fs.atomic import atomic_write
from graphpart.graph.npz import load_graph, save_graph

from .helpers import assert_same_graph
from .strategies import typed_graphs


@settings(max_examples=25, deadline=None)
@given(typed_graphs())
def test_round_trip(tmp_path_factory, g):
    p = tmp_path_factory.mktemp("npz") / "g.npz"
    for t in g.ntypes:
        g.set_node_names([f"{t}-{i}" for i in range(g.num_nodes(t))], t)
    save_graph(g, p)
    assert_same_graph(g, load_graph(p))


def test_object_arrays_are_never_unpickled(tmp_path):
    p = tmp_path / "evil.npz"
    np.savez(p, __meta__=np.array([object()], dtype=object))
    with pytest.raises(FormatError, match="cannot read graph file"):
        load_graph(p)


def test_not_a_graph_file(tmp_path):
    p = tmp_path / "other.npz"
    np.savez(p, __meta__=np.array('{"format": "something-else", "version": 1}'))
    with pytest.raises(FormatError, match="is not a graphpart-graph-npz v1 file"):
        load_graph(p)
    (tmp_path / "junk.npz").write_bytes(b"junk")
    with pytest.raises(FormatError):
        load_graph(tmp_path / "junk.npz")


def test_tampered_ids_are_rejected(tmp_path):
    p = tmp_path / "g.npz"
    save_graph(Graph.from_edges([0], [1]), p)
    with np.load(p) as z:
        arrays = dict(z)
    arrays["e0/dst"] = np.array([9])
    np.savez(p, **arrays)
    with pytest.raises(Exception, match=r"within \[0, 2\)"):
        load_graph(p)


def test_atomic_write_leaves_earlier_file_on_failure(tmp_path):
    p = tmp_path / "out.txt"
    p.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_write(p, "w") as f:
            f.write("half")
            raise RuntimeError("killed")
    assert p.read_text() == "old"
    assert [q.name for q in tmp_path.iterdir()] == ["out.txt"]


def test_save_graph_leaves_no_temporary(tmp_path):
    save_graph(Graph.from_edges([0], [1], ndata={"x": torch.ones(2)}), tmp_path / "g.npz")
    assert [q.name for q in tmp_path.iterdir()] == ["g.npz"]

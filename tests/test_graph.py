"""Graph construction, structure queries, data checks and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart import DataShapeError, Graph, GraphpartError, IDRangeError, UnknownTypeError


@pytest.mark.parametrize(
    "src, dst",
    [
        ([0, 1, 2], [1, 2, 0]),
        (np.array([0, 1, 2], dtype=np.int32), np.array([1, 2, 0], dtype=np.uint16)),
        (torch.tensor([0, 1, 2], dtype=torch.int32), torch.tensor([1, 2, 0])),
        (torch.tensor([0, 1, 2]), np.array([1, 2, 0])),
        ((0, 1, 2), range(1, 4)),
    ],
    ids=["lists", "numpy", "torch", "mixed", "tuple-range"],
)
def test_from_edges_accepts_every_id_kind(src, dst):
    g = Graph.from_edges(src, dst, num_nodes=4)
    s, d = g.edges()
    assert s.dtype == torch.int64 and d.dtype == torch.int64
    assert s.tolist() == [0, 1, 2]
    assert d.tolist() == list(np.asarray(dst).tolist())


def test_reserved_names():
    assert (gp.NID, gp.EID, gp.NTYPE, gp.ETYPE) == ("_ID", "_ID", "_TYPE", "_TYPE")


def test_num_nodes_inferred_from_largest_id():
    g = Graph.from_edges([0, 5], [2, 1])
    assert g.num_nodes() == 6


def test_empty_graph():
    g = Graph.from_edges([], [])
    assert (g.num_nodes(), g.num_edges()) == (0, 0)
    assert g.in_degrees().tolist() == []
    assert g.is_homogeneous


def test_isolated_nodes_kept():
    g = Graph.from_edges([0], [1], num_nodes=5)
    assert g.out_degrees().tolist() == [1, 0, 0, 0, 0]
    assert g.in_degrees().tolist() == [0, 1, 0, 0, 0]


def test_degrees_count_multi_edges_and_loops():
    g = Graph.from_edges([0, 0, 1, 2], [1, 1, 1, 2])
    assert g.in_degrees().tolist() == [0, 3, 1]
    assert g.out_degrees().tolist() == [2, 1, 1]
    assert g.in_degrees([1, 2]).tolist() == [3, 1]


def test_homogeneous_default_type_names():
    g = Graph.from_edges([0], [1])
    assert g.ntypes == ["_N"]
    assert g.canonical_etypes == [("_N", "_E", "_N")]


def test_hetero_types_are_sorted_and_string_etypes_accepted():
    g = Graph.from_typed_edges(
        {"user:follows:user": ([0], [1]), ("game", "rev", "user"): ([0], [0])},
        num_nodes={"user": 2, "game": 1},
    )
    assert g.ntypes == ["game", "user"]
    assert g.canonical_etypes == [("game", "rev", "user"), ("user", "follows", "user")]
    assert not g.is_homogeneous
    assert g.num_nodes() == 3 and g.num_edges() == 2


def test_hetero_type_with_no_edges_and_empty_type():
    g = Graph.from_typed_edges(
        {("a", "r", "b"): ([0], [0])}, num_nodes={"a": 1, "b": 1, "c": 0, "d": 3}
    )
    assert g.ntypes == ["a", "b", "c", "d"]
    assert g.num_nodes("c") == 0 and g.num_nodes("d") == 3


def test_single_type_hetero_is_homogeneous():
    g = Graph.from_typed_edges({("n", "e", "n"): ([0], [1])})
    assert g.is_homogeneous
    assert g.ndata is g.node_data("n")


def test_edges_by_relation_name_and_canonical():
    g = Graph.from_typed_edges({("a", "r", "b"): ([0], [1]), ("b", "s", "a"): ([1], [0])})
    assert g.edges("r")[1].tolist() == [1]
    assert g.edges("b:s:a")[0].tolist() == [1]
    assert g.edges(("a", "r", "b"))[0].tolist() == [0]
    assert g.num_edges("s") == 1


def test_hetero_degrees_per_etype():
    g = Graph.from_typed_edges(
        {("a", "r", "b"): ([0, 1, 1], [0, 0, 2])}, num_nodes={"a": 3, "b": 3}
    )
    assert g.in_degrees(etype="r").tolist() == [2, 0, 1]
    assert g.out_degrees(etype="r").tolist() == [1, 2, 0]


def test_hetero_requires_etype_when_ambiguous():
    g = Graph.from_typed_edges({("a", "r", "b"): ([0], [0]), ("b", "s", "a"): ([0], [0])})
    with pytest.raises(GraphpartError, match="needs etype"):
        g.edges()
    with pytest.raises(GraphpartError, match="needs etype"):
        g.in_degrees()


def test_ambiguous_relation_name():
    g = Graph.from_typed_edges({("a", "r", "b"): ([0], [0]), ("b", "r", "a"): ([0], [0])})
    with pytest.raises(UnknownTypeError, match="ambiguous.*a:r:b"):
        g.edges("r")


def test_unknown_types_name_the_valid_ones():
    g = Graph.from_typed_edges({("a", "r", "b"): ([0], [0])})
    with pytest.raises(UnknownTypeError, match=r"unknown node type 'z'.*\['a', 'b'\]"):
        g.num_nodes("z")
    with pytest.raises(UnknownTypeError, match=r"unknown edge type 'q'.*a:r:b"):
        g.num_edges("q")


# ------------------------------------------------------------------ data


def test_ndata_edata_homogeneous():
    g = Graph.from_edges([0, 1], [1, 2], ndata={"x": np.zeros((3, 4))}, edata={"w": [1.0, 2.0]})
    assert g.ndata["x"].shape == (3, 4)
    assert isinstance(g.edata["w"], torch.Tensor)
    g.ndata["y"] = torch.arange(3)
    assert set(g.ndata) == {"x", "y"}


def test_ndata_edata_heterogeneous_layout():
    g = Graph.from_typed_edges(
        {("a", "r", "b"): ([0], [1])},
        num_nodes={"a": 2, "b": 2},
        ndata={"a": {"x": torch.ones(2)}},
        edata={"a:r:b": {"w": torch.ones(1)}},
    )
    assert set(g.ndata) == {"a", "b"}
    assert g.ndata["a"]["x"].tolist() == [1.0, 1.0]
    assert g.edata[("a", "r", "b")]["w"].tolist() == [1.0]
    g.ndata["b"]["y"] = [5, 6]
    assert g.node_data("b")["y"].tolist() == [5, 6]
    with pytest.raises(TypeError):
        g.ndata["c"] = {}  # the per-type mapping itself is read-only


@pytest.mark.parametrize("where", ["ndata", "edata"])
def test_data_length_checked_at_construction(where):
    kwargs = {where: {"bad": torch.zeros(7)}}
    with pytest.raises(DataShapeError, match="must have .* rows .* got shape \\(7,\\)"):
        Graph.from_edges([0, 1], [1, 2], **kwargs)


def test_data_length_checked_on_assignment():
    g = Graph.from_typed_edges({("a", "r", "b"): ([0], [1])}, num_nodes={"a": 2, "b": 2})
    with pytest.raises(DataShapeError, match="data 'x' of node type 'a' must have 2 rows"):
        g.ndata["a"]["x"] = torch.zeros(3)
    with pytest.raises(DataShapeError, match="edge type 'a:r:b' must have 1 rows"):
        g.edata[("a", "r", "b")]["w"] = torch.zeros(2)
    with pytest.raises(DataShapeError):
        g.ndata["a"]["s"] = torch.tensor(1.0)  # a scalar has no rows


def test_data_for_unknown_type_rejected():
    with pytest.raises(UnknownTypeError, match="unknown node type 'zz'"):
        Graph.from_typed_edges({("a", "r", "a"): ([0], [0])}, ndata={"zz": {"x": [1]}})
    with pytest.raises(UnknownTypeError, match="unknown edge type"):
        Graph.from_typed_edges({("a", "r", "a"): ([0], [0])}, edata={"a:q:a": {"x": [1]}})


def test_missing_data_key_message():
    g = Graph.from_edges([0], [1], ndata={"x": [1, 2]})
    with pytest.raises(KeyError, match="no data named 'y'.*\\['x'\\]"):
        g.ndata["y"]


def test_node_names():
    g = Graph.from_edges([0], [1])
    assert g.node_names() is None
    g.set_node_names(["a", "b"])
    assert list(g.node_names()) == ["a", "b"]
    with pytest.raises(GraphpartError, match="must be 2 strings"):
        g.set_node_names(["a"])


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "src, dst, match",
    [
        ([0.0, 1.0], [1, 2], "must hold integers"),
        ([True, False], [1, 2], "must hold integers"),
        ([[0, 1]], [[1, 2]], "one-dimensional"),
        ([0, 1, 2], [1, 2], "same length, got 3 and 2"),
        (["a"], ["b"], "must hold integers"),
    ],
)
def test_bad_id_arrays(src, dst, match):
    with pytest.raises(GraphpartError, match=match):
        Graph.from_edges(src, dst)


def test_float_torch_ids_rejected():
    with pytest.raises(
        GraphpartError, match="must hold integers, got Tensor of dtype torch.float32"
    ):
        Graph.from_edges(torch.tensor([0.0]), torch.tensor([1.0]))


def test_negative_ids_rejected():
    with pytest.raises(IDRangeError, match=r"within \[0, 3\), got -1"):
        Graph.from_edges([-1, 0], [1, 2])


def test_ids_beyond_num_nodes_rejected():
    with pytest.raises(IDRangeError, match=r"destination ids .* within \[0, 2\), got 5"):
        Graph.from_edges([0, 1], [1, 5], num_nodes=2)


def test_hetero_ids_checked_against_their_own_type():
    with pytest.raises(
        IDRangeError, match=r"source ids of 'a:r:b' \(node type 'a'\).*\[0, 1\), got 1"
    ):
        Graph.from_typed_edges({("a", "r", "b"): ([1], [0])}, num_nodes={"a": 1, "b": 5})


@pytest.mark.parametrize("n", [-1, 2.5, "3", True])
def test_bad_num_nodes(n):
    with pytest.raises(GraphpartError, match="num_nodes must be a non-negative integer"):
        Graph.from_edges([0], [1], num_nodes=n)


@pytest.mark.parametrize("key", ["a:b", ("a", "r"), "a::b", 5, ("a", "r", "b", "c")])
def test_bad_canonical_etype(key):
    with pytest.raises(GraphpartError, match="canonical edge type"):
        Graph.from_typed_edges({key: ([0], [0])})


def test_bad_edges_container():
    with pytest.raises(GraphpartError, match="must be a dict"):
        Graph.from_typed_edges([([0], [1])])
    with pytest.raises(GraphpartError, match="must be a pair"):
        Graph.from_typed_edges({("a", "r", "a"): [0, 1, 2]})
    with pytest.raises(GraphpartError, match="num_nodes must be a dict"):
        Graph.from_typed_edges({("a", "r", "a"): ([0], [0])}, num_nodes=3)


def test_same_etype_twice_rejected():
    with pytest.raises(GraphpartError, match="given twice"):
        Graph.from_typed_edges({("a", "r", "a"): ([0], [0]), "a:r:a": ([0], [0])})


def test_errors_are_value_errors():
    assert issubclass(GraphpartError, ValueError)
    for cls in (
        UnknownTypeError,
        IDRangeError,
        DataShapeError,
        gp.FormatError,
        gp.DatasetNotFoundError,
    ):
        assert issubclass(cls, GraphpartError)


def test_repr_summarises_long_schemas():
    edges = {("a", f"r{i}", "a"): ([0], [0]) for i in range(10)}
    assert "in 10 edge types" in repr(Graph.from_typed_edges(edges))

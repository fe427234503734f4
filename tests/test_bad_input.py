"""Bad input anywhere in the foundation raises GraphpartError, never a raw library error."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import torch

import graphpart as gp
from graphpart import FormatError, Graph, GraphpartError, IDConverter
from graphpart.datasets import (
    NodeTask,
    attach_node_data,
    cache_dir,
    load,
    rmat,
    sbm,
    write_metis_graph,
)
from graphpart.datasets._cache import cached_graph
from graphpart.graph.convert import from_homogeneous


def test_ragged_ids():
    with pytest.raises(GraphpartError, match="not a regular array"):
        Graph.from_edges([[0, 1], [2]], [0, 1])


def test_graph_owns_its_ids():
    s = torch.tensor([0, 1])
    g = Graph.from_edges(s, s)
    s[0] = 100
    assert g.edges()[0].tolist() == [0, 1]
    a = np.array([0, 1])
    g = Graph.from_edges(a, a)
    a[0] = 100
    assert g.edges()[0].tolist() == [0, 1]


def test_from_scipy_not_2d():
    with pytest.raises(GraphpartError, match="square"):
        Graph.from_scipy(sp.coo_array(np.array([1, 0, 2])))


def test_from_homogeneous_float_or_2d_type_ids():
    h = Graph.from_edges([0], [1], ndata={gp.NTYPE: [0.7, 0.2]}, edata={gp.ETYPE: [0]})
    with pytest.raises(GraphpartError, match="must hold integers"):
        from_homogeneous(h, ["a"], [("a", "r", "a")])
    h = Graph.from_edges([0], [1], ndata={gp.NTYPE: [[0], [0]]}, edata={gp.ETYPE: [0]})
    with pytest.raises(GraphpartError, match="one-dimensional"):
        from_homogeneous(h, ["a"], [("a", "r", "a")])


def test_idconverter_scalars_of_every_kind():
    conv = IDConverter(["a", "b"], [2, 3], [], [])
    assert conv.nid_het2hom(np.int64(1), 0) == 2
    assert conv.nid_het2hom(torch.tensor(1), np.int32(2)) == 4
    with pytest.raises(GraphpartError, match="must hold integers"):
        conv.nid_het2hom("a", torch.tensor(1.7))
    with pytest.raises(GraphpartError, match="must hold integers"):
        conv.nid_hom2het(np.array(2.9))


@pytest.mark.parametrize("meta", [None, 5])
def test_metadata_of_wrong_kind(meta):
    with pytest.raises(GraphpartError, match="dict or a path"):
        IDConverter.from_metadata(meta)


def test_metadata_directory_and_binary(tmp_path):
    with pytest.raises(FormatError, match="metadata file: .* is a folder, not a regular file"):
        IDConverter.from_metadata(tmp_path)
    p = tmp_path / "m.json"
    p.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(FormatError, match="not a JSON document"):
        IDConverter.from_metadata(p)


def test_missing_data_names():
    g = Graph.from_edges([0], [1])
    with pytest.raises(GraphpartError, match="no data named 'nope'"):
        write_metis_graph(g, "/tmp/never.graph", edge_weight="nope")
    with pytest.raises(GraphpartError, match="no data named 'nope'"):
        g.to_networkx(node_attrs=["nope"])


def test_metis_writer_empty_graph_with_weights(tmp_path):
    g = Graph.from_edges([], [], num_nodes=0, ndata={"w": torch.zeros(0, dtype=torch.long)})
    write_metis_graph(g, tmp_path / "e.graph", node_weight="w")
    assert (tmp_path / "e.graph").read_text() == "0 0 010 1\n"


def test_metis_reader_rejects_asymmetric_weights(tmp_path):
    p = tmp_path / "w.graph"
    p.write_text("2 1 001\n2 5\n1 9\n")
    with pytest.raises(FormatError, match="another edge weight"):
        gp.datasets.read_metis_graph(p)


def test_damaged_cache_is_rebuilt(tmp_path):
    builds = []

    def build():
        builds.append(1)
        return Graph.from_edges([0], [1])

    src = tmp_path / "source.txt"
    src.write_text("x")
    cached_graph("probe", [src], build)
    for p in cache_dir().glob("probe-*.npz"):
        p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2])
    assert cached_graph("probe", [src], build).num_edges() == 1
    assert len(builds) == 2


def test_attach_node_data_checks():
    with pytest.raises(GraphpartError, match="homogeneous graph"):
        attach_node_data(gp.datasets.load_davis_southern_women(), 0, NodeTask(num_classes=2))
    g = attach_node_data(Graph.from_edges([0], [1]), 0, NodeTask(num_classes=2))  # an int seed
    assert "label" in g.ndata


def test_generator_arguments():
    with pytest.raises(GraphpartError, match="block_sizes must be a list"):
        sbm(100)
    with pytest.raises(GraphpartError, match="p_in must be a probability"):
        sbm([3, 3], p_in=None)
    with pytest.raises(GraphpartError, match="a \\+ b \\+ c <= 1"):
        rmat(3, a=float("nan"))


def test_load_with_unknown_argument():
    with pytest.raises(GraphpartError, match="bad arguments for dataset 'karate_club'"):
        load("karate_club", foo=1)


def test_small_hostile_inputs_get_one_line_errors(tmp_path):
    """Found by the docstring review: each gave a bare Python error."""
    import json

    import numpy as np

    import graphpart as gp
    from graphpart.datasets import read_metis_graph
    from graphpart.graph import load_graph

    path = tmp_path / "g.npz"
    np.savez(path, __meta__=np.array(json.dumps([1])))
    with pytest.raises(gp.FormatError, match="not an object"):
        load_graph(path)
    with pytest.raises(gp.GraphpartError, match="node type names"):
        gp.Graph.from_typed_edges({("a", "r", "a"): ([0], [1])}, num_nodes={1: 3})
    metis = tmp_path / "g.graph"
    metis.write_text("2 1 010 -1\n2\n1\n")
    with pytest.raises(gp.FormatError, match="ncon must be at least 1"):
        read_metis_graph(metis)


def test_write_metis_graph_refuses_bool_weights_in_one_line(tmp_path):
    g = Graph.from_edges([0, 1], [1, 2], num_nodes=3)
    g.edata["w"] = torch.tensor([True, False])
    with pytest.raises(GraphpartError, match="must be integers for METIS, got dtype bool"):
        write_metis_graph(g, tmp_path / "g.graph", edge_weight="w")

"""ParMETIS interchange: input files checked line by line against the reference's format; output
read back."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart.chunked import read_assignment, write_chunked
from graphpart.chunked.parmetis import export_parmetis, import_parmetis


@pytest.fixture
def small(tmp_path):
    """Two node types (3 'a', 4 'b'), with a self-loop and a duplicate edge to drop."""
    edges = {
        ("a", "to", "b"): (torch.tensor([0, 1, 1, 2]), torch.tensor([3, 0, 0, 2])),
        ("b", "self", "b"): (torch.tensor([1, 2, 3]), torch.tensor([1, 3, 0])),
    }
    g = gp.Graph.from_typed_edges(edges, num_nodes={"a": 3, "b": 4})
    write_chunked(g, tmp_path / "g", 2, graph_name="toy")
    return tmp_path / "g"


def test_export_follows_the_reference_format(small, tmp_path):
    out = export_parmetis(small, tmp_path / "pm")
    assert sorted(p.name for p in out.iterdir()) == [
        "toy_edges.txt",
        "toy_nodes.txt",
        "toy_stats.txt",
    ]
    # <node_type_id> <one weight per node type> <type_wise_node_id>, rows in homogeneous id order
    assert (out / "toy_nodes.txt").read_text().splitlines() == [
        "0 1 0 0",
        "0 1 0 1",
        "0 1 0 2",
        "1 0 1 0",
        "1 0 1 1",
        "1 0 1 2",
        "1 0 1 3",
    ]
    # <src> <dst> (homogeneous) <type_wise_edge_id> <edge_type_id>; b1->b1 (self-loop) and the
    # second a1->b0 dropped
    assert (out / "toy_edges.txt").read_text().splitlines() == [
        "0 6 0 0",
        "1 3 1 0",
        "2 5 3 0",
        "5 6 1 1",
        "6 3 2 1",
    ]
    assert (out / "toy_stats.txt").read_text().split() == ["7", "5", "2"]


def test_export_of_a_homogeneous_graph_has_one_weight(tmp_path):
    g = gp.datasets.load_karate_club()
    write_chunked(g, tmp_path / "k", 3)
    out = export_parmetis(tmp_path / "k", tmp_path / "pm", graph_name="karate")
    rows = [line.split() for line in (out / "karate_nodes.txt").read_text().splitlines()]
    assert len(rows) == 34 and all(
        r[:2] == ["0", "1"] and int(r[2]) == i for i, r in enumerate(rows)
    )
    edges = np.loadtxt(out / "karate_edges.txt", dtype=np.int64)
    s, d = g.edges()
    assert np.array_equal(edges[:, 0], s.numpy()) and np.array_equal(
        edges[:, 2], np.arange(g.num_edges())
    )


def _write_parmetis_output(folder, name, parts_by_type, ntypes, num_parts):
    """Files as pm_dglpart writes them: per partition, nodes renumbered contiguously, types
    contiguous."""
    folder.mkdir()
    new = 0
    for p in range(num_parts):
        lines = []
        for ti, t in enumerate(ntypes):
            for typed in np.flatnonzero(parts_by_type[t] == p):
                weights = " ".join("1" if j == ti else "0" for j in range(len(ntypes)))
                lines.append(f"{new} {ti} {weights} {typed}")
                new += 1
        (folder / f"p{p}-{name}_nodes.txt").write_text("".join(x + "\n" for x in lines))


def test_import_reads_parmetis_output(small, tmp_path):
    want = {"a": np.array([1, 0, 1]), "b": np.array([0, 0, 1, 1])}
    _write_parmetis_output(tmp_path / "pmout", "toy", want, ["a", "b"], 2)
    out = import_parmetis(tmp_path / "pmout", small, tmp_path / "asg")
    got, k = read_assignment(out, small)
    assert k == 2 and all(np.array_equal(got[t], want[t]) for t in want)
    assert '"algo_name": "parmetis"' in (out / "partition_meta.json").read_text()


def test_import_refuses_a_node_missing_or_twice(small, tmp_path):
    want = {"a": np.array([1, 0, 1]), "b": np.array([0, 0, 1, 1])}
    _write_parmetis_output(tmp_path / "pmout", "toy", want, ["a", "b"], 2)
    f = tmp_path / "pmout" / "p1-toy_nodes.txt"
    f.write_text(f.read_text().replace("1 0 1 2\n", "1 0 1 1\n"))  # node b2 gone, b1 twice
    with pytest.raises(gp.GraphpartError, match="node 1 of type 'b' appears 2 times"):
        import_parmetis(tmp_path / "pmout", small, tmp_path / "asg")
    assert not (tmp_path / "asg").exists()


def test_import_without_output_files(small, tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(gp.GraphpartError, match="expected p0-toy_nodes.txt"):
        import_parmetis(tmp_path / "empty", small, tmp_path / "asg")


def test_import_checks_type_ids(small, tmp_path):
    (tmp_path / "pmout").mkdir()
    (tmp_path / "pmout" / "p0-toy_nodes.txt").write_text("0 5 1 0 0\n")
    with pytest.raises(gp.GraphpartError, match=r"node type ids must lie in 0..1"):
        import_parmetis(tmp_path / "pmout", small, tmp_path / "asg")


@pytest.mark.parametrize("name", ["../../X", "a/b", ".."])
def test_a_graph_name_cannot_write_outside_the_folder(tmp_path, name):
    from graphpart.chunked import write_chunked
    from graphpart.chunked.parmetis import export_parmetis
    from graphpart.datasets import load_karate_club

    write_chunked(load_karate_club(), tmp_path / "ch", 2, graph_name="karate")
    (tmp_path / "out").mkdir()
    with pytest.raises(gp.GraphpartError, match="graph_name must be a plain name"):
        export_parmetis(tmp_path / "ch", tmp_path / "out" / "pm", graph_name=name)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ch", "out"]


def _output(tmp_path, small):
    want = {"a": np.array([1, 0, 1]), "b": np.array([0, 0, 1, 1])}
    _write_parmetis_output(tmp_path / "pmout", "toy", want, ["a", "b"], 2)
    return tmp_path / "pmout" / "p1-toy_nodes.txt"


def test_import_refuses_a_linked_output_file_without_quoting_its_target(small, tmp_path):
    f = _output(tmp_path, small)
    secret = tmp_path / "secret"
    secret.write_text("s3cr3t:x:0:0:s3cr3t:/s3cr3t:/bin/bash\n")
    f.unlink()
    f.symlink_to(secret)
    with pytest.raises(gp.GraphpartError, match="is a symbolic link") as e:
        import_parmetis(tmp_path / "pmout", small, tmp_path / "asg")
    assert "s3cr3t" not in str(e.value)


def test_import_refuses_rows_that_are_not_integers_without_quoting_them(small, tmp_path):
    f = _output(tmp_path, small)
    f.write_text("3 1 0 1 0\ns3cr3t:x:0 0 1 0 1\n")
    with pytest.raises(gp.GraphpartError, match="ParMETIS rows of 5 integers") as e:
        import_parmetis(tmp_path / "pmout", small, tmp_path / "asg")
    assert "s3cr3t" not in str(e.value)


def test_import_refuses_a_file_larger_than_the_nodes_can_take_before_parsing(
    small, tmp_path, monkeypatch
):
    """7 nodes of 5 integers take at most ~800 bytes: a large file is refused by its size."""
    from graphpart.chunked import parmetis

    f = _output(tmp_path, small).with_name("p0-toy_nodes.txt")
    f.write_text("0 0 1 0 0\n" * 100_000)
    monkeypatch.setattr(parmetis, "text_columns", None)  # parsing would fail: it never starts
    with pytest.raises(gp.GraphpartError, match=r"is 1,000,000 bytes, more than 7 rows"):
        import_parmetis(tmp_path / "pmout", small, tmp_path / "asg")


def test_import_never_reads_more_rows_than_nodes(small, tmp_path, monkeypatch):
    from graphpart.chunked import _files, parmetis

    f = _output(tmp_path, small)
    monkeypatch.setattr(parmetis, "_VALUE_BYTES", 10**6)  # past the size check
    monkeypatch.setattr(_files, "TEXT_BLOCK", 4096)
    f.write_text("0 0 1 0 0\n" * 100_000)
    with pytest.raises(gp.GraphpartError, match=r"holds at least \d+ rows, more than the 4"):
        import_parmetis(tmp_path / "pmout", small, tmp_path / "asg")


def test_import_refuses_rows_of_another_width(small, tmp_path):
    f = _output(tmp_path, small)
    f.write_text("3 1 0 1 0 7\n")
    with pytest.raises(gp.GraphpartError, match="6 values, more than the 5"):
        import_parmetis(tmp_path / "pmout", small, tmp_path / "asg")

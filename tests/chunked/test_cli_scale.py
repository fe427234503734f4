"""The pipeline's commands for graphs beyond memory: chunk in blocks, assign's balance flags,
plan."""

from __future__ import annotations

import json

import numpy as np
import pytest

from graphpart.chunked import load_chunked
from graphpart.cli import main
from graphpart.datasets import rmat


def _chunk_rmat10(out) -> None:
    assert (
        main(
            [
                "chunk",
                "--dataset",
                "rmat",
                "--dataset-arg",
                "scale=10",
                "--num-chunks",
                "2",
                "--out-dir",
                str(out),
            ]
        )
        == 0
    )


def test_chunk_rmat_is_written_in_blocks_and_equals_the_dataset(tmp_path, capsys):
    args = ["--dataset", "rmat", "--dataset-arg", "scale=9", "--dataset-arg", "seed=4"]
    assert main(["chunk", *args, "--num-chunks", "3", "--out-dir", str(tmp_path / "c")]) == 0
    g = load_chunked(tmp_path / "c")
    want = rmat(9, seed=4)
    assert [x.tolist() for x in g.edges()] == [x.tolist() for x in want.edges()]


def test_chunk_rmat_refuses_an_unknown_argument_in_one_line(tmp_path, capsys):
    args = ["--dataset", "rmat", "--dataset-arg", "scael=9"]
    assert main(["chunk", *args, "--num-chunks", "3", "--out-dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rmat takes no argument 'scael'" in err


def test_chunk_an_edge_list_file(tmp_path, capsys):
    (tmp_path / "e.txt").write_text("# SNAP\n0\t1\n1\t2\n2\t0\n")
    rc = main(
        [
            "chunk",
            "--edges",
            str(tmp_path / "e.txt"),
            "--num-chunks",
            "2",
            "--num-nodes",
            "5",
            "--out-dir",
            str(tmp_path / "c"),
        ]
    )
    assert rc == 0
    g = load_chunked(tmp_path / "c")
    assert g.num_nodes() == 5 and g.edges()[0].tolist() == [0, 1, 2]
    rc = main(
        [
            "chunk",
            "--edges",
            str(tmp_path / "nothere.txt"),
            "--num-chunks",
            "2",
            "--out-dir",
            str(tmp_path / "d"),
        ]
    )
    assert rc == 2 and "nothere.txt" in capsys.readouterr().err


@pytest.mark.parametrize("flag, edges", [("--balance-edges", True), ("--no-balance-edges", False)])
def test_assign_streaming_takes_the_edge_balance_flags(flag, edges, tmp_path):
    _chunk_rmat10(tmp_path / "c")
    rc = main(
        [
            "assign",
            "--in-dir",
            str(tmp_path / "c"),
            "--out-dir",
            str(tmp_path / "a"),
            "--num-parts",
            "4",
            "--algorithm",
            "ldg",
            flag,
            "--passes",
            "2",
        ]
    )
    assert rc == 0
    meta = json.loads((tmp_path / "a" / "partition_meta.json").read_text())
    assert meta["balance"]["edges"] is edges
    assert sum(meta["loads"]["nodes"]) == 1024 and len(meta["loads"]["in-degree"]) == 4


def test_passes_apply_to_streaming_only(tmp_path, capsys):
    main(
        ["chunk", "--dataset", "karate_club", "--num-chunks", "1", "--out-dir", str(tmp_path / "c")]
    )
    rc = main(
        [
            "assign",
            "--in-dir",
            str(tmp_path / "c"),
            "--out-dir",
            str(tmp_path / "a"),
            "--num-parts",
            "2",
            "--algorithm",
            "metis",
            "--passes",
            "3",
        ]
    )
    assert (
        rc == 2 and "stream options apply to fennel and ldg, not metis" in capsys.readouterr().err
    )


def test_plan_prints_each_step_from_the_metadata_and_an_assignment(tmp_path, capsys):
    _chunk_rmat10(tmp_path / "c")
    capsys.readouterr()
    args = ["plan", "--in-dir", str(tmp_path / "c"), "--num-parts", "4", "--algorithm", "fennel"]
    assert main(args) == 0
    out = capsys.readouterr().out
    for step in (
        "assign fennel (driver)",
        "assign fennel (streams)",
        "dispatch (driver)",
        "dispatch phase 1",
        "dispatch phase 2",
        "verify",
    ):
        assert step in out
    assert "out of core" in out and "free now" in out
    plan_dgl = ["plan", "--in-dir", str(tmp_path / "c"), "--num-parts", "4", "--format", "dgl"]
    assert main(plan_dgl) == 0
    assert "a balanced partition" in capsys.readouterr().out  # DGL's files are built in memory
    main(
        [
            "assign",
            "--in-dir",
            str(tmp_path / "c"),
            "--out-dir",
            str(tmp_path / "a"),
            "--num-parts",
            "4",
            "--algorithm",
            "fennel",
            "--no-balance-edges",
        ]
    )
    capsys.readouterr()
    rc = main(
        [
            "plan",
            "--in-dir",
            str(tmp_path / "c"),
            "--num-parts",
            "4",
            "--partitions-dir",
            str(tmp_path / "a"),
            "--format",
            "dgl",
        ]
    )
    assert rc == 0
    loads = json.loads((tmp_path / "a" / "partition_meta.json").read_text())["loads"]
    top = int(np.argmax(loads["in-degree"]))
    assert f"partition {top}: {loads['nodes'][top]:,} nodes" in capsys.readouterr().out
    # another part count than the assignment's is refused, not silently replaced (issue 61)
    other = ["plan", "--in-dir", str(tmp_path / "c"), "--num-parts", "3"]
    assert main([*other, "--partitions-dir", str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err
    assert "--num-parts 3, but the assignment" in err and "has 4 parts" in err


def test_plan_of_metis_on_a_graph_too_big_says_it_does_not_fit(tmp_path, capsys, monkeypatch):
    from graphpart.utils import memory

    _chunk_rmat10(tmp_path / "c")
    monkeypatch.setattr(memory, "available_memory", lambda: 200 << 20)
    capsys.readouterr()
    assert (
        main(["plan", "--in-dir", str(tmp_path / "c"), "--num-parts", "4", "--algorithm", "metis"])
        == 0
    )
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("assign metis"))
    assert line.endswith("<- does not fit")


def test_chunk_sbm_is_written_in_blocks_and_equals_the_dataset(tmp_path):
    args = ["--dataset", "sbm", "--dataset-arg", "block_sizes=[30,20]", "--dataset-arg", "seed=1"]
    assert main(["chunk", *args, "--num-chunks", "2", "--out-dir", str(tmp_path / "c")]) == 0
    from graphpart.datasets import sbm

    got, want = load_chunked(tmp_path / "c"), sbm([30, 20], seed=1)
    assert [x.tolist() for x in got.edges()] == [x.tolist() for x in want.edges()]


def test_dask_warnings_stay_off_the_terminal():
    import logging

    from graphpart.cli.main import quiet_dask as _quiet_dask

    def record(name, level):
        return logging.LogRecord(name, level, "", 0, "Worker process still alive", None, None)

    assert not _quiet_dask(record("distributed.nanny", logging.WARNING))
    assert _quiet_dask(record("distributed.nanny", logging.ERROR))
    assert _quiet_dask(record("graphpart.chunked.stream", logging.WARNING))


def test_plan_of_metis_with_max_edges_names_the_coarse_route_and_its_sample(tmp_path, capsys):
    _chunk_rmat10(tmp_path / "c")
    capsys.readouterr()
    base = ["plan", "--in-dir", str(tmp_path / "c"), "--num-parts", "4", "--algorithm", "metis"]
    assert main(base) == 0
    full = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("assign metis"))
    assert main([*base, "--metis-max-edges", "1000"]) == 0
    out = capsys.readouterr().out
    sample = next(x for x in out.splitlines() if x.startswith("assign metis"))
    assert "coarsened to 1,000 edges" in out and "a sample of 1,000" in " ".join(out.split())
    assert "300 E" in full
    assert "300 E" not in sample


def test_assign_max_edges_with_another_algorithm_is_one_line(tmp_path, capsys):
    _chunk_rmat10(tmp_path / "c")
    capsys.readouterr()
    rc = main(["assign", "--in-dir", str(tmp_path / "c"), "--out-dir", str(tmp_path / "a"),
               "--num-parts", "2", "--algorithm", "fennel",
               "--metis-max-edges", "100"])  # fmt: skip
    assert rc == 2 and "metis_max_edges applies to metis, not fennel" in capsys.readouterr().err
    # the plan of that assign checks its flags by the same rule (issue 61)
    rc = main(["plan", "--in-dir", str(tmp_path / "c"), "--num-parts", "2",
               "--algorithm", "fennel", "--metis-max-edges", "100"])  # fmt: skip
    assert rc == 2 and "metis_max_edges applies to metis, not fennel" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--workers", "-3"], "workers must be"),
        (["--workers", "0"], "workers must be"),
        (["--metis-max-edges", "-5"], "must be an integer >= 1, got -5"),
        (["--algorithm", "random", "--metis-max-edges", "9"], "applies to metis, not random"),
        (["--num-parts", str(10**12)], "num_parts must be between 1 and the graph's 1,024 nodes"),
    ],
)
def test_plan_refuses_what_the_steps_refuse(tmp_path, capsys, flags, message):
    _chunk_rmat10(tmp_path / "c")
    capsys.readouterr()
    args = ["plan", "--in-dir", str(tmp_path / "c"), "--num-parts", "4", *flags]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "text, flags",
    [("0 1\n", ["--num-nodes", str(2**62)]), ("0 100000000000\n", [])],
    ids=["--num-nodes 2**62", "sparse ids up to 1e11"],
)
def test_chunk_refuses_a_node_count_the_next_step_would_refuse(tmp_path, capsys, text, flags):
    # both once exited 0, having written a graph every later step refuses
    (tmp_path / "e.txt").write_text(text)
    args = ["chunk", "--edges", str(tmp_path / "e.txt"), "--num-chunks", "1", *flags]
    assert main([*args, "--out-dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert "the pipeline holds 8 bytes per node" in err and err.count("\n") == 1
    assert not (tmp_path / "c").exists()

"""The graphpart command: partition and inspect."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import graphpart as gp
import graphpart.storage
from graphpart.cli import main


def test_partition_then_inspect(tmp_path, capsys):
    rc = main(
        [
            "partition",
            "--dataset",
            "karate_club",
            "--graph-name",
            "karate",
            "--num-parts",
            "2",
            "--out-path",
            str(tmp_path / "out"),
            "--seed",
            "0",
            "--num-hops",
            "2",
            "--quiet",
            "--mapping-out",
            str(tmp_path / "map.pt"),
        ]
    )
    assert rc == 0
    out = capsys.readouterr().out
    assert "wrote" in out and "edge cut" in out
    data = gp.load_partition(tmp_path / "out" / "karate.json", 1)
    assert data.graph_name == "karate"
    mapping = torch.load(tmp_path / "map.pt", weights_only=True)
    assert sorted(mapping["orig_nids"].tolist()) == list(range(34))
    assert main(["inspect", str(tmp_path / "out" / "karate.json"), "--json"]) == 0
    metrics = json.loads(capsys.readouterr().out)
    assert metrics["num_parts"] == 2 and metrics["edge_cut"] > 0


def test_dataset_args_and_balance(tmp_path, capsys):
    rc = main(
        [
            "partition",
            "--dataset",
            "rmat",
            "--dataset-arg",
            "scale=10",
            "--dataset-arg",
            "seed=1",
            "--dataset-arg",
            "train_frac=0.2",
            "--graph-name",
            "r",
            "--num-parts",
            "3",
            "--out-path",
            str(tmp_path),
            "--balance-ntypes",
            "train_mask",
            "--balance-edges",
            "--quiet",
        ]
    )
    assert rc == 0
    assert "balance in-degree" in capsys.readouterr().out


def test_errors_exit_2_with_message(tmp_path, capsys):
    rc = main(
        [
            "partition",
            "--dataset",
            "karate_club",
            "--graph-name",
            "a b",
            "--num-parts",
            "2",
            "--out-path",
            str(tmp_path / "o"),
            "--quiet",
        ]
    )
    assert rc == 2
    assert "graph_name must be letters" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
    assert main(["inspect", str(tmp_path / "none.json")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_console_script_is_installed(tmp_path):
    exe = shutil.which("graphpart", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip(
            "the graphpart console script is not installed in this environment (run make install)"
        )
    res = subprocess.run([exe, "inspect", str(tmp_path / "x.json")], capture_output=True, text=True)
    assert res.returncode == 2 and "does not exist" in res.stderr


def test_chunk_writes_a_chunked_graph(tmp_path, capsys):
    from graphpart.chunked import load_chunked
    from graphpart.datasets import load_karate_club

    out = tmp_path / "karate"
    assert (
        main(
            [
                "chunk",
                "--dataset",
                "karate_club",
                "--out-dir",
                str(out),
                "--num-chunks",
                "3",
                "--edge-format",
                "parquet",
            ]
        )
        == 0
    )
    assert str(out / "metadata.json") in capsys.readouterr().out
    g = load_chunked(out)
    assert g.num_edges() == 156 and bool(
        (g.ndata["label"] == load_karate_club().ndata["label"]).all()
    )


def test_chunk_reports_bad_input_with_exit_status_2(tmp_path, capsys):
    assert (
        main(
            [
                "chunk",
                "--dataset",
                "karate_club",
                "--out-dir",
                str(tmp_path / "k"),
                "--num-chunks",
                "0",
            ]
        )
        == 2
    )
    assert "num_chunks" in capsys.readouterr().err and not (tmp_path / "k").exists()


def test_assign_writes_assignment_files(tmp_path, capsys):
    chunks, parts = tmp_path / "karate", tmp_path / "parts"
    assert (
        main(["chunk", "--dataset", "karate_club", "--out-dir", str(chunks), "--num-chunks", "2"])
        == 0
    )
    assert (
        main(
            [
                "assign",
                "--in-dir",
                str(chunks),
                "--out-dir",
                str(parts),
                "--num-parts",
                "2",
                "--algorithm",
                "metis",
                "--seed",
                "0",
            ]
        )
        == 0
    )
    lines = (parts / "_N.txt").read_text().split()
    expect = gp.partition(gp.datasets.load_karate_club(), 2, seed=0).node_part
    assert [int(x) for x in lines] == expect.tolist()


def test_the_whole_chunked_pipeline_from_the_command_line(tmp_path, capsys):
    chunks, parts, out = tmp_path / "karate", tmp_path / "parts", tmp_path / "out"
    assert (
        main(["chunk", "--dataset", "karate_club", "--out-dir", str(chunks), "--num-chunks", "3"])
        == 0
    )
    assert (
        main(
            [
                "assign",
                "--in-dir",
                str(chunks),
                "--out-dir",
                str(parts),
                "--num-parts",
                "2",
                "--algorithm",
                "fennel",
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "dispatch",
                "--in-dir",
                str(chunks),
                "--partitions-dir",
                str(parts),
                "--out-dir",
                str(out),
                "--num-hops",
                "1",
                "--save-orig-nids",
                "--workers",
                "1",
            ]
        )
        == 0
    )
    config = out / "karate.json"
    assert (out / "orig_nids" / "_N.npy").exists() and (out / "part1" / "orig_nids.pt").exists()
    assert main(["verify", str(config), "--chunked-dir", str(chunks)]) == 0
    assert "OK" in capsys.readouterr().out
    g, nfeat, *_ = gp.load_partition(config, 0)
    assert sorted(nfeat) == ["_N/label"]
    from graphpart.interop.dgl_tensors import load_tensors, save_tensors

    data = {k: v.clone() for k, v in load_tensors(out / "part0" / "node_feat.dgl").items()}
    data["_N/label"][:] = data["_N/label"] + 1  # tamper with a feature
    save_tensors(out / "part0" / "node_feat.dgl", data)
    assert main(["verify", str(config), "--chunked-dir", str(chunks)]) == 1
    assert "node feature '_N/label' differs" in capsys.readouterr().out


def test_dispatch_reports_bad_input_with_exit_status_2(tmp_path, capsys):
    chunks = tmp_path / "karate"
    assert (
        main(["chunk", "--dataset", "karate_club", "--out-dir", str(chunks), "--num-chunks", "2"])
        == 0
    )
    assert (
        main(
            [
                "dispatch",
                "--in-dir",
                str(chunks),
                "--partitions-dir",
                str(tmp_path / "none"),
                "--out-dir",
                str(tmp_path / "out"),
            ]
        )
        == 2
    )
    assert "assignment file" in capsys.readouterr().err and not (tmp_path / "out").exists()


def test_parmetis_export_and_import(tmp_path, capsys):
    chunks, pm = tmp_path / "karate", tmp_path / "pm"
    assert (
        main(["chunk", "--dataset", "karate_club", "--out-dir", str(chunks), "--num-chunks", "2"])
        == 0
    )
    assert main(["parmetis-export", "--in-dir", str(chunks), "--out-dir", str(pm)]) == 0
    assert (pm / "karate_stats.txt").read_text().split() == ["34", "156", "1"]
    out = tmp_path / "pmout"
    out.mkdir()
    for p, ids in enumerate((range(0, 20), range(20, 34))):  # ParMETIS's per-partition node files
        (out / f"p{p}-karate_nodes.txt").write_text("".join(f"{i} 0 1 {i}\n" for i in ids))
    assert (
        main(
            [
                "parmetis-import",
                "--parmetis-dir",
                str(out),
                "--in-dir",
                str(chunks),
                "--out-dir",
                str(tmp_path / "asg"),
            ]
        )
        == 0
    )
    assert (tmp_path / "asg" / "_N.txt").read_text().split() == ["0"] * 20 + ["1"] * 14


def test_partition_in_dgls_format_and_inspect_any_format(tmp_path, capsys):
    from graphpart.datasets import peer_partitions

    rc = main(
        [
            "partition",
            "--dataset",
            "karate_club",
            "--graph-name",
            "karate",
            "--num-parts",
            "2",
            "--out-path",
            str(tmp_path / "out"),
            "--format",
            "dgl",
            "--seed",
            "0",
            "--quiet",
        ]
    )
    assert rc == 0 and (tmp_path / "out" / "part0" / "graph.dgl").exists()
    capsys.readouterr()
    assert main(["inspect", str(tmp_path / "out" / "karate.json")]) == 0
    assert capsys.readouterr().out.startswith("format: DGL (.dgl or GraphBolt files)\n")
    for peer, name in (("pyg", "PyG"), ("glt", "GraphLearn-for-PyTorch"), ("dgl", "DGL")):
        assert main(["inspect", str(peer_partitions("karate", peer)), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["format"] == peer and out["num_nodes"] == 34
    with pytest.raises(SystemExit):  # argparse refuses a format it does not write
        main(
            [
                "partition",
                "--dataset",
                "karate_club",
                "--graph-name",
                "k",
                "--num-parts",
                "2",
                "--out-path",
                str(tmp_path / "x"),
                "--format",
                "pyg",
            ]
        )


def _partition_into(out: Path, *extra: str) -> int:
    args = ["partition", "--dataset", "karate_club", "--graph-name", "k", "--num-parts", "2"]
    return main([*extra, *args, "--out-path", str(out), "--quiet"])


def _disk_full(*args, **kwargs):
    raise OSError(28, "No space left on device")


def test_an_os_error_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(gp.storage, "save_partitions", _disk_full)
    assert _partition_into(tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert err.startswith("graphpart: error: OSError: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert f"(writing {tmp_path / 'out'}: free some space there" in err  # the system names none


def test_debug_shows_the_traceback(tmp_path, monkeypatch):
    monkeypatch.setattr(gp.storage, "save_partitions", _disk_full)
    with pytest.raises(OSError):
        _partition_into(tmp_path / "out", "--debug")


def test_error_messages_cannot_drive_the_terminal(tmp_path, capsys):
    hostile = tmp_path / "a\x1b[2J\nb.json"  # an ANSI sequence and a line break in a path
    assert main(["inspect", str(hostile)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and err.count("\n") == 1 and "\\x1b[2J" in err


def test_inspect_of_a_path_too_long_for_the_system_is_one_short_line(capsys):
    assert main(["inspect", "x/" * 2600 + "a.json"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("graphpart: error: no partitions at 'x/x/") and len(err) < 500, err
    assert "File name too long" in err

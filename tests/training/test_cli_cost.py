"""``graphpart cost``: the per-trainer table of a partitioning on disk."""

from __future__ import annotations

import json

import pytest

from graphpart.cli import main
from graphpart.datasets import peer_partitions

DGL_KARATE = str(peer_partitions("karate", "dgl"))


def test_cost_prints_the_per_trainer_table_of_dgl_written_partitions(capsys):
    rc = main(
        ["cost", DGL_KARATE, "--fanouts", "5,5", "--batch-size", "4", "--trainers-per-machine", "2"]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert out.startswith("4 trainers\ntrainer  machine  steps  seeds")
    assert "epoch: " in out and "why: trainer " in out


def test_cost_json_carries_the_model_and_every_trainer(capsys):
    rc = main(["cost", DGL_KARATE, "--fanouts", "3", "--network-gbit-s", "1", "--json"])
    got = json.loads(capsys.readouterr().out)
    assert rc == 0 and got["model"]["network_gbit_s"] == 1.0
    assert len(got["trainers"]["seeds"]) == 2 and got["epoch_s"] > 0
    assert set(got["breakdown_s"]) == {"sampling", "fetch", "compute"}


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--fanouts", "5,x"], "--fanouts must be integers separated by commas"),
        (["--fanouts", "0"], "each fanout must be a positive int or -1"),
        (["--fanouts", "5", "--train", "nope"], "no node data named 'nope' to train on"),
        (["--fanouts", "5", "--gpu-tflops", "0"], "gpu_tflops must be positive"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(capsys, extra, message):
    rc = main(["cost", DGL_KARATE, *extra])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and message in err

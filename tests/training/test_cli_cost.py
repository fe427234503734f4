"""``graphpart cost``: the per-trainer table of a partitioning on disk."""

from __future__ import annotations

import json
import re

import pytest
import torch

from graphpart.cli import main
from graphpart.datasets import peer_partitions

DGL_KARATE = str(peer_partitions("karate", "dgl"))


def test_cost_prints_the_per_trainer_table_of_dgl_written_partitions(capsys):
    flags = ["--fanouts", "5,5", "--batch-size", "4", "--num-trainers-per-machine", "2"]
    rc = main(["cost", DGL_KARATE, *flags])
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
        (["--fanouts", "0"], "each fanout must be a positive int64 or -1"),
        (["--fanouts", "5", "--train", "nope"], "no node data named 'nope' to train on"),
        (["--fanouts", "5", "--gpu-tflops", "0"], "gpu_tflops must be a finite number > 0"),
        # sizes past an int64, or past what a replay can keep, are refused before they size
        # anything (they were tracebacks, or a hang for 10**8 trainers)
        (["--fanouts", str(10**23)], "each fanout must be a positive int64 or -1"),
        (["--fanouts", "5", "--batch-size", str(10**20)], "batch_size must be at most"),
        (["--fanouts", "5", "--feat-dim", str(10**20)], "feat_dim must be at most 2147483648"),
        (["--fanouts", "5", "--hidden", str(10**400)], "hidden must be a finite number"),
        (
            ["--fanouts", "5", "--num-trainers-per-machine", str(10**8)],
            "num_trainers_per_machine must be at most 1024",
        ),
        (["--fanouts", "5", "--epochs", str(10**11)], "at most 262,144: ask for fewer"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(capsys, extra, message):
    rc = main(["cost", DGL_KARATE, *extra])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and message in err


@pytest.mark.parametrize(
    "argv",
    [
        ["cost", DGL_KARATE],  # --fanouts missing
        ["cost", DGL_KARATE, "--fanouts", "5", "--hidden", "1e400"],  # not an int
        ["partition", "--graph", "g", "--graph-name", "g", "--num-parts", "x", "--out-path", "o"],
    ],
)
def test_a_usage_error_is_one_line_and_exit_status_2(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and "--help)" in err, err


def test_a_replay_never_sizes_its_counts_by_a_huge_request():
    """10**8 trainers per machine, or epochs past what fits, fail at once (no hang, no GBs)."""
    import graphpart as gp
    from graphpart.datasets import load_karate_club
    from graphpart.training import replay_epochs

    p = gp.partition(load_karate_club(), 2, seed=0)
    with pytest.raises(gp.GraphpartError, match="at most 1024"):
        replay_epochs(p, fanouts=[5], num_trainers_per_machine=10**8, train=None)
    with pytest.raises(gp.GraphpartError, match="at most 1024"):
        gp.partition(load_karate_club(), 2, num_trainers_per_machine=10**8)
    with pytest.raises(gp.GraphpartError, match="trainer-epochs and mini-batches; at most"):
        replay_epochs(p, fanouts=[5] * 3, epochs=10**9, train=None)


def test_a_files_trainer_id_cannot_ask_for_millions_of_trainers():
    """``trainer_id`` node data read from files sets the default trainers per machine; a hostile
    value (10**12) is refused, where it once sized a list of that many trainers."""
    import torch

    import graphpart as gp
    from graphpart.datasets import load_karate_club
    from graphpart.training import replay_epochs

    g = load_karate_club()
    g.ndata["trainer_id"] = torch.full((g.num_nodes(),), 10**12)
    p = gp.partition(g, 2, seed=0)
    with pytest.raises(gp.GraphpartError, match="from the files' trainer_id"):
        replay_epochs(p, fanouts=[5], train=None)


@pytest.mark.parametrize(
    "tid, message",
    [
        (lambda n: torch.zeros((n, 3), dtype=torch.int64), "must be one-dimensional"),
        (lambda n: torch.full((n,), float("nan")), "must hold integers"),
        (lambda n: torch.full((n,), -1), "trainer_id must be non-negative"),
    ],
)
def test_a_files_trainer_id_must_be_one_non_negative_int_per_node(tid, message):
    """Once a traceback (2-D) or a silent cast of NaN into garbage trainer ids."""
    import graphpart as gp
    from graphpart.datasets import load_karate_club
    from graphpart.training import replay_epochs

    g = load_karate_club()
    g.ndata["trainer_id"] = tid(g.num_nodes())
    p = gp.partition(g, 2, seed=0)
    with pytest.raises(gp.GraphpartError, match=message):
        replay_epochs(p, fanouts=[3], train=None, by_trainer_id=True, num_trainers_per_machine=2)


#: A rate too small for finite times: refused at the door (check_rate's range), or once the
#: times are summed.
REFUSED = "too small for finite times|must be a finite number|must lie between"


def test_rates_too_small_for_finite_times_are_refused(capsys):
    """--gpu-tflops 1e-320 once printed "epoch_s": Infinity (invalid JSON) and NaN ratios."""
    rc = main(["cost", DGL_KARATE, "--fanouts", "5", "--gpu-tflops", "1e-320", "--json"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and re.search(REFUSED, err)


def test_rates_whose_steps_are_finite_but_whose_totals_are_not_are_refused(capsys):
    """--network-gbit-s 1e-312: each step finite, the trainers' sums Infinity (invalid JSON)."""
    rc = main(["cost", DGL_KARATE, "--fanouts", "5", "--network-gbit-s", "1e-312", "--json"])
    out, err = capsys.readouterr()
    assert rc == 2 and "Infinity" not in out and re.search(REFUSED, err)


def test_a_fanout_list_starting_with_minus_one_is_taken_as_written(capsys):
    """``--fanouts -1,5`` (all neighbours, then 5) was an argparse error; only ``=`` worked."""
    assert main(["cost", DGL_KARATE, "--fanouts", "-1,5", "--json"]) == 0
    spaced = json.loads(capsys.readouterr().out)
    assert main(["cost", DGL_KARATE, "--fanouts=-1,5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == spaced

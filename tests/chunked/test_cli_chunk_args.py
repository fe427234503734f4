"""`graphpart chunk --dataset rmat|dcsbm|sbm` without a required generator argument is one line
and exit status 2, not a TypeError traceback (issue 61)."""

from __future__ import annotations

import pytest

from graphpart.cli import main


@pytest.mark.parametrize("dataset, needed", [("rmat", "scale"), ("dcsbm", "scale"),
                                              ("sbm", "block_sizes")])  # fmt: skip
def test_a_missing_generator_argument_is_one_line(dataset, needed, tmp_path, capsys):
    rc = main(["chunk", "--dataset", dataset, "--out-dir", str(tmp_path / "c"),
               "--num-chunks", "2"])  # fmt: skip
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1, err
    assert f"missing a required argument: '{needed}'" in err and "--dataset-arg" in err
    assert not (tmp_path / "c").exists()

"""ClusterOptions: the Dask settings of assign and dispatch, declared and checked once."""

from __future__ import annotations

import pytest

from graphpart import GraphpartError
from graphpart.chunked import ClusterOptions, assign, dispatch


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("workers", 0, "workers"),
        ("threads_per_worker", -1, "threads_per_worker"),
        ("memory_limit", "lots", "memory_limit must be a size"),
        ("memory_limit", "10MB", "below what a Dask worker needs"),
        ("memory_limit", "100PB", "more than this machine has"),
        ("scheduler", 8786, "scheduler must be an address"),
        ("processes", "no", "processes must be True or False"),
    ],
)
def test_a_bad_setting_is_refused_where_it_is_declared(field, value, message):
    with pytest.raises(GraphpartError, match=message):
        ClusterOptions(**{field: value})


def test_assign_refuses_a_bad_setting_before_reading_anything(tmp_path):
    # the chunked folder does not exist: the settings are checked first
    with pytest.raises(GraphpartError, match="memory_limit must be a size"):
        assign(tmp_path / "chunks", tmp_path / "parts", 2, "random", memory_limit="lots")


def test_dispatch_refuses_an_unknown_setting_before_reading_anything(tmp_path):
    with pytest.raises(GraphpartError, match=r"unknown cluster option 'worker' \(did you mean"):
        dispatch(tmp_path / "chunks", tmp_path / "parts", tmp_path / "out", worker=1)


def test_keywords_replace_the_fields_of_the_object():
    base = ClusterOptions(workers=4, memory_limit="6GB")
    opts = ClusterOptions.of(base, workers=1)
    assert (opts.workers, opts.memory_limit) == (1, "6GB")


def test_assign_names_the_nearest_option_for_a_typo(tmp_path):
    with pytest.raises(GraphpartError, match=r"unknown assign option 'worker' \(did you mean work"):
        assign(tmp_path / "chunks", tmp_path / "parts", 2, "fennel", worker=1)
    with pytest.raises(
        GraphpartError, match=r"unknown assign option 'pases' \(did you mean passes"
    ):
        assign(tmp_path / "chunks", tmp_path / "parts", 2, "fennel", pases=3)


def test_a_scheduler_and_a_client_together_are_refused():
    with pytest.raises(GraphpartError, match="not both"):
        ClusterOptions(scheduler="tcp://127.0.0.1:8786", client=object())
    with pytest.raises(GraphpartError, match="client must be a distributed.Client"):
        ClusterOptions(client="tcp://127.0.0.1:8786")

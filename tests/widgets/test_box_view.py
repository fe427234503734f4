"""BoxView: a thin view over FeatureBox; stepping streams batches, state syncs both ways."""

from __future__ import annotations

import pytest

import graphpart as gp
from graphpart.features import DeviceGroup, FeatureBox, replay_box
from graphpart.widgets import BoxView

TRACES = {0: [[0, 1, 6], [2, 3]], 1: [[2, 3, 7]], 2: [[0, 5]], 3: [[4]]}


def _box():
    return FeatureBox(8, 0.5, [DeviceGroup(0, [0, 1]), DeviceGroup(1, [2, 3])], row_bytes=10)


def test_stepping_streams_each_gpu_s_next_batch_and_ends():
    view = BoxView(_box(), TRACES)
    assert view.batches == 0 and all(g["rows"] == 0 for g in view.gpus)
    view.step()
    assert view.batches == 1 and [g["rows"] for g in view.gpus] == [3, 3, 2, 1]
    view.step(5)
    assert view.done and view.batches == 2 and "every trace done" in view.title
    # what the view shows is what a replay of the same traces counts
    want = replay_box(TRACES, _box()).per_gpu()
    assert [g["hit_rate"] for g in view.gpus] == want["hit_rate"].tolist()
    # GPU 0 read rows 2 and 3 from GPU 1; no other GPU read from a peer
    assert {(x["a"], x["b"]): x["bytes"] for x in view.links} == {(0, 1): 20, (2, 3): 0}


def test_the_browser_s_step_button_and_a_click_reach_python():
    view = BoxView(_box(), TRACES)
    view.step_requests += 1  # what the Step button sends
    assert view.batches == 1
    view.selected = 2  # what clicking GPU 2 sends
    assert view.detail.startswith("GPU 2 (group 1): 2 rows, hit rate 50%: 1 from its own shard")
    assert "0 from GPU 3, 1 from the host" in view.detail
    view.selected = -1
    assert view.detail == ""


def test_a_trace_for_a_gpu_outside_the_box_is_refused():
    with pytest.raises(gp.GraphpartError, match="GPU 9 is in no device group"):
        BoxView(_box(), {9: [[0]]})

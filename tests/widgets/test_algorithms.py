"""StreamingSteps without a browser: the step slider shows that step's decision and scores."""

from __future__ import annotations

from graphpart import datasets
from graphpart.widgets import StreamingSteps


def test_a_step_shows_its_node_its_partition_and_every_score():
    view = StreamingSteps(datasets.load_karate_club(), 3)
    first = view.picture.value
    view.step.value = 10
    s, v = view.steps, int(view.steps.order[9])
    assert f"Step 10: node {v}</b> goes to <b>part {s.choice[9]}" in view.why.value
    assert view.why.value.count("<td>part ") == 3
    assert view.picture.value != first
    view.step.value = 34
    loads = [int((s.assignment == q).sum()) for q in range(3)]
    assert "Loads after this step: " + ", ".join(map(str, loads)) in view.why.value


def test_the_multilevel_view_walks_coarsen_partition_project_refine():
    from graphpart.widgets import MultilevelView

    view = MultilevelView(datasets.load_karate_club(), 2)
    kinds = [k for k, _ in view.stages]
    top = len(view.steps.levels) - 1
    assert kinds[: top + 2] == ["coarsen"] * (top + 1) + ["partition"]
    assert kinds[top + 2 :] == ["project", "refine"] * top
    pictures = set()
    for stage in (1, 2, top + 2, len(view.stages)):
        view.stage.value = stage
        pictures.add(view.picture.value)
    assert len(pictures) == 4
    s = view.steps
    assert f"cut {s.levels[0].cut(s.projected[0])} -> {s.levels[0].cut(s.refined[0])}" in (
        view.why.value
    )

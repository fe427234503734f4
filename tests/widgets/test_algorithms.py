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


def test_a_tie_is_called_a_tie_and_broken_as_the_partitioner_breaks_it():
    """Step 1: no neighbour placed, every partition empty: all score 0 (an audit read "the
    highest score" there); part 0, the lowest-numbered, takes it."""
    view = StreamingSteps(datasets.load_karate_club(), 3)
    assert view.steps.choice[0] == 0
    assert (
        "the lowest-numbered of the lightest tied for the highest score (part 0, part 1, "
        "part 2)" in view.why.value
    )
    clear = [t for t in range(34) if len(set(view.steps.score[t])) == 3]
    view.step.value = clear[0] + 1
    assert "the highest score." in view.why.value


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

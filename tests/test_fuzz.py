"""Mutation fuzzing of partitions written by DGL (``.dgl`` and GraphBolt), PyG, GLT and graphpart
(``tests/fuzzing.py``): every mutated folder loads or is refused with a one-line GraphpartError,
within 2 s and 200 MB per case. Seeded: the same cases every run; ``make fuzz`` runs thousands."""

from __future__ import annotations

import os

import pytest

from .fuzzing import TARGET_NAMES, Fuzzer

#: Cases per target in ``make test`` (about 4 ms each).
CASES = 300
#: Type swaps per target in ``make test`` (spread over every field and kind).
SWAPS = 130
#: Seeds past ``CASES`` that once broke the promise (found by ``make fuzz``), run every time.
REGRESSIONS = {
    "karate-pyg": [171, 179, 186, 508],
    "hetero3-pyg": [987, 1423],
    "hetero3-dgl": [1181],
    "hetero3-glt": [546],
}


@pytest.fixture(scope="module")
def fuzzer(tmp_path_factory):
    with Fuzzer(tmp_path_factory.mktemp("fuzz")) as f:
        yield f


@pytest.mark.parametrize("target", TARGET_NAMES)
def test_every_mutation_loads_or_is_one_clear_error(fuzzer, target):
    seeds = [*range(CASES), *REGRESSIONS.get(target, [])]
    outcomes = [fuzzer.run(target, seed) for seed in seeds]
    broken = [f"{o.case}: {o.message}" for o in outcomes if o.result == "broken"]
    assert not broken, "\n".join(broken[:20])
    # the mutations reach past the first check: some cases still load, most are refused
    results = {o.result for o in outcomes}
    assert results == {"load", "error"}, results


def test_the_oracle_catches_what_it_guards_against(tmp_path):
    """A reader that raises anything but a GraphpartError, hangs or takes gigabytes is judged
    broken (the fuzz test above would fail)."""
    from . import fuzzing

    assert fuzzing._judge("c", "error", "two\nlines", 0.1, 1).result == "broken"
    assert fuzzing._judge("c", "error", "\x1b[31m", 0.1, 1).result == "broken"
    assert fuzzing._judge("c", "load", "", 3.0, 1).result == "broken"
    assert fuzzing._judge("c", "load", "", 0.1, 300).result == "broken"
    assert fuzzing._judge("c", "error", "fine", 0.1, 1).result == "error"


@pytest.fixture(scope="module")
def swaps(tmp_path_factory):
    """The type-swap cases of every target (built here too, to count them)."""
    from .fuzzing import load_everything, make_targets, swap_cases

    targets = make_targets(tmp_path_factory.mktemp("swaps"))
    for t in targets:  # unswapped, every target loads: a reader refusing all would pass below
        load_everything(t.root / t.open_path, t.graph)
    return {t.name: swap_cases(t) for t in targets}


@pytest.mark.parametrize("target", TARGET_NAMES)
def test_every_field_of_every_object_tree_swapped_for_another_type_loads_or_is_one_clear_error(
    fuzzer, swaps, target
):
    cases = swaps[target]
    if not cases:
        pytest.skip(f"{target} keeps no object tree (binary formats only)")
    # every field with a spread of kinds here (every kind: GRAPHPART_FUZZ_ALL=1, as make fuzz)
    step = 1 if os.environ.get("GRAPHPART_FUZZ_ALL") else max(1, len(cases) // SWAPS)
    picked = range(0, len(cases), step)
    outcomes = [fuzzer.run(target, i, swap=True) for i in picked]
    broken = [f"{o.case}: {o.message}" for o in outcomes if o.result == "broken"]
    assert not broken, f"{len(broken)} of {len(picked)}:\n" + "\n".join(broken[:25])

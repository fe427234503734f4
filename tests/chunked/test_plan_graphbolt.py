"""The plan of GraphBolt's out-of-core writer: HALO nodes as assign estimates them, the disk of
each edge stored once, and the estimate itself."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from graphpart.chunked import assign, plan_pipeline, read_assignment, read_metadata, write_chunked
from graphpart.chunked.assign import assignment_halo, part_loads
from graphpart.datasets import rmat


@pytest.fixture(scope="module")
def assigned(tmp_path_factory):
    w = tmp_path_factory.mktemp("plan")
    write_chunked(rmat(12, seed=3), w / "c", 4)
    assign(w / "c", w / "a", 4, "fennel")
    return w, read_metadata(w / "c")


def _exact_halo(meta, part, k):
    from graphpart.chunked.stream import homogeneous_chunks

    pairs = set()
    for _, _, s, d in homogeneous_chunks(meta):
        cut = part[s] != part[d]
        pairs |= set(zip(part[d][cut].tolist(), s[cut].tolist()))
    return np.bincount([p for p, _ in pairs], minlength=k)


def test_assign_records_each_parts_halo_nodes_within_a_few_percent(assigned):
    w, meta = assigned
    parts, k = read_assignment(w / "a", meta)
    exact = _exact_halo(meta, parts["_N"], k)
    recorded = assignment_halo(w / "a", k, meta)
    assert recorded is not None and np.all(np.abs(recorded - exact) <= 0.05 * exact + 3)
    assert part_loads(meta, parts["_N"], k)[2] == recorded.tolist()


@pytest.mark.parametrize("bad", [[-1, 0, 0, 0], [1, 2], [10**12] * 4, "x"])
def test_a_halo_record_out_of_range_is_ignored(assigned, bad, tmp_path):
    import shutil

    w, meta = assigned
    shutil.copytree(w / "a", tmp_path / "a")
    pm = tmp_path / "a" / "partition_meta.json"
    record = json.loads(pm.read_text())
    record["loads"]["halo"] = bad
    pm.write_text(json.dumps(record))
    assert assignment_halo(tmp_path / "a", 4, meta) is None


def test_the_plan_sizes_local_nodes_from_the_halo_and_each_edge_once(assigned):
    w, meta = assigned
    k = 4
    halo = assignment_halo(w / "a", k, meta)
    once = {s.step: s for s in plan_pipeline(meta, k, halo=halo, leaving=10_000)}
    both = {s.step: s for s in plan_pipeline(meta, k, halo=halo, leaving=10_000, out_edges=True)}
    blind = {s.step: s for s in plan_pipeline(meta, k, leaving=10_000)}
    assert once["dispatch phase 2"].disk < both["dispatch phase 2"].disk
    assert once["dispatch phase 2"].disk < blind["dispatch phase 2"].disk  # no HALO estimate
    assert once["dispatch phase 2"].memory <= blind["dispatch phase 2"].memory
    assert "L = " in once["dispatch phase 2"].formula and "P = " in once["dispatch phase 2"].formula
    assert once["verify"].memory > plan_pipeline(meta, k, format="graphpart")[-1].memory


def test_the_plans_legend_names_the_symbols_its_formulas_use_and_where_sizes_come_from(assigned):
    """An audit found the legend explaining n_p and e_p, used by no formula, and calling the
    assignment's own sizes bounds."""
    from graphpart.chunked import format_plan

    w, meta = assigned
    blind = format_plan(meta, 4, "fennel", out_dir=w)
    table, legend = blind.split("\nB: ", 1)
    legend = " ".join(legend.split())  # wrapped to the plan's width
    for sym in ("N", "C", "L", "P", "n_p"):
        assert (f" {sym} " in f" {legend} ") == bool(re.search(rf"\b{sym}\b", table)), sym
    assert legend.endswith("(bounds, before the assignment is known)")
    loads = part_loads(meta, read_assignment(w / "a", meta)[0]["_N"], 4)
    known = format_plan(meta, 4, "fennel", out_dir=w, loads=loads)
    assert " ".join(known.split()).endswith("(from the assignment's sizes)")


def test_the_plan_keeps_to_its_width_and_its_notes_stay_under_their_formula(assigned):
    """An audit saw the plan's long lines wrapped by the notebook, mid-formula."""
    from graphpart.chunked import format_plan
    from graphpart.chunked.plan import FORMULA_COLUMN, WIDTH

    w, meta = assigned
    plan = format_plan(meta, 4, "fennel", out_dir=w, workers=2)
    lines = plan.splitlines()
    assert max(len(x) for x in lines if not x.startswith("free now")) <= WIDTH
    notes = [x for x in lines if x.startswith(" " * FORMULA_COLUMN + "(")]
    assert notes and lines.index(notes[0]) > 0
    assert lines[2].index("formula") == FORMULA_COLUMN  # the column header sits over them

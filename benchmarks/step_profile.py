"""Where a chunked step's time goes: the wall and CPU time of each of its phases.

Runs one ``graphpart`` command in this process, with the pipeline's task runners timed: every
``Runner.map`` and ``run_tasks`` call is a phase named by its label (``fennel-pass-1``,
``shuffle-edges``, ``verify-chunks``, ...); what the driver does between them is
``driver``. For each phase: its calls, wall seconds, and the CPU seconds of every process of
the step (this one, Dask's nannies and workers) over those seconds, so ``cores`` says how many
of the machine's cores the phase kept busy (2.0: both, on this machine).

Usage::

    .venv/bin/python benchmarks/step_profile.py assign --in-dir C --out-dir A --num-parts 16

The table goes to stderr after the command's own output, one JSON object per line prefixed
``profile``, then one ``profile-total`` line; ``benchmarks/pipeline_steps.py --profile`` runs
every step this way and keeps them.
"""

from __future__ import annotations

import functools
import importlib
import json
import os
import resource
import sys
import threading
import time

import psutil

_STATE = threading.local()


class _Clock:
    """CPU seconds of this process and its descendants since each was first seen (what a process
    spent before, its start, goes to no phase: the step's total, from ``getrusage``, has it)."""

    def __init__(self) -> None:
        self.me = psutil.Process()
        self.last: dict[int, float] = {}  # pid -> CPU at the last reading
        self.spent = 0.0  # attributed CPU so far
        self.kids: list[psutil.Process] = []
        self.listed = 0.0

    def cpu(self) -> float:
        if time.monotonic() - self.listed > 2:  # listing descendants scans /proc: not every call
            try:
                self.kids = self.me.children(recursive=True)
            except psutil.Error:
                self.kids = []
            self.listed = time.monotonic()
        for p in [self.me, *self.kids]:
            try:
                t = p.cpu_times()
            except psutil.Error:
                continue
            now = t.user + t.system
            before = self.last.get(p.pid)
            if before is not None:
                self.spent += now - before
            self.last[p.pid] = now
        return self.spent


def _total_cpu() -> float:
    """CPU seconds of this process and every descendant it (or they) waited for."""
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


CLOCK = _Clock()
PHASES: dict[str, list[float]] = {}  # label -> [calls, wall, cpu]


def _timed(fn, label_of):
    @functools.wraps(fn)
    def run(*args, **kwargs):
        if getattr(_STATE, "inside", False):  # a runner called by a timed runner: counted there
            return fn(*args, **kwargs)
        _STATE.inside = True
        wall, cpu = time.perf_counter(), CLOCK.cpu()
        try:
            return fn(*args, **kwargs)
        finally:
            _STATE.inside = False
            row = PHASES.setdefault(label_of(*args, **kwargs), [0, 0.0, 0.0])
            row[0] += 1
            row[1] += time.perf_counter() - wall
            row[2] += CLOCK.cpu() - cpu

    return run


def instrument() -> None:
    dask = importlib.import_module("graphpart.chunked._dask")
    mapped = _timed(dask.Runner.map, lambda self, fn, args, what, *a, **k: what)
    dask.Runner.map = mapped
    timed = _timed(dask.run_tasks, lambda client, fn, args, progress, what, *a, **k: what)
    for name in list(sys.modules):
        mod = sys.modules[name]
        if name.startswith("graphpart.chunked") and getattr(mod, "run_tasks", None) is not None:
            mod.run_tasks = timed


def main(argv: list[str]) -> int:
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    from graphpart.cli.main import main as cli

    importlib.import_module("graphpart.chunked.dispatch")  # every user of run_tasks imported
    importlib.import_module("graphpart.chunked.verify")
    importlib.import_module("graphpart.chunked._random_assign")
    instrument()
    wall, cpu = time.perf_counter(), _total_cpu()
    try:
        rc = cli(argv)
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
    wall, cpu = time.perf_counter() - wall, _total_cpu() - cpu
    timed_wall = sum(r[1] for r in PHASES.values())
    timed_cpu = sum(r[2] for r in PHASES.values())
    rows = [("driver", [1, wall - timed_wall, cpu - timed_cpu]), *PHASES.items()]
    for name, (calls, w, c) in rows:
        line = {"phase": name, "calls": calls, "wall_s": round(w, 1), "cpu_s": round(c, 1)}
        line["cores"] = round(c / w, 2) if w > 0 else 0.0
        print("profile " + json.dumps(line), file=sys.stderr)
    total = {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "cores": round(cpu / wall, 2)}
    print("profile-total " + json.dumps(total), file=sys.stderr, flush=True)
    return int(rc or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The package's structure: import circles, layers, private names (read from the code with ast)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "graphpart"


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> list[tuple[str, list[str]]]:
    """``(imported module, names)`` for every import in ``path``, inside functions too."""
    me = _module(path)
    pkg = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            names = [a.name for a in node.names]
            subs = [f"{base}.{n}" for n in names if f"{base}.{n}" in modules]
            out += [(s, []) for s in subs]
            out.append((base, [n for n in names if f"{base}.{n}" not in modules]))
    return out


def _graph() -> tuple[dict[str, set[str]], dict[str, list[tuple[str, list[str]]]]]:
    files = {p: _module(p) for p in ROOT.rglob("*.py")}
    modules = set(files.values())
    edges, raw = {}, {}
    for path, me in files.items():
        raw[me] = _imports(path, modules)
        targets = set()
        for mod, _ in raw[me]:
            while mod and mod not in modules:
                mod = mod.rpartition(".")[0]
            if mod and mod != me and not me.startswith(mod + "."):
                targets.add(mod)
        edges[me] = targets
    faces = {
        _module(p) for p in files if p.name == "__init__.py"
    }  # re-exporting faces tie all together
    return {m: t - faces for m, t in edges.items() if m not in faces}, raw


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.add(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        comps.append(comp)
            elif w not in index:
                index[w] = low[w] = counter[0]
                counter[0] += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(graph.get(w, ())))))
            elif w in on:
                low[v] = min(low[v], index[w])
    return comps


def test_the_only_import_circle_is_graph_and_convert():
    assert _circles(_graph()[0]) in ([], [{"graphpart.graph", "graphpart.convert"}])


def test_the_circle_finder_finds_a_planted_circle():
    graph, _ = _graph()
    graph = {**graph, "graphpart.measures": graph["graphpart.measures"] | {"graphpart.metrics"}}
    assert any({"graphpart.measures", "graphpart.metrics"} <= c for c in _circles(graph))


def test_interop_holds_foreign_layouts_only():
    """interop/ never reaches up into graphpart's own format or the views."""
    graph, _ = _graph()
    above = (
        "graphpart.storage",
        "graphpart.metrics",
        "graphpart.viz",
        "graphpart.widgets",
        "graphpart.chunked",
        "graphpart.cli",
    )
    bad = {
        m: sorted(t for t in ts if t.startswith(above))
        for m, ts in graph.items()
        if m.startswith("graphpart.interop")
    }
    assert not {m: t for m, t in bad.items() if t}


@pytest.mark.parametrize(
    "low",
    ["graphpart.partitioning", "graphpart.measures", "graphpart.index", "graphpart.homogeneous"],
)
def test_lower_layers_do_not_import_storage_or_views(low):
    graph, _ = _graph()
    up = (
        "graphpart.storage",
        "graphpart.metrics",
        "graphpart.viz",
        "graphpart.widgets",
        "graphpart.chunked",
        "graphpart.interop",
        "graphpart.sweep",
        "graphpart.structure",
    )
    bad = {
        m: sorted(t for t in ts if t.startswith(up)) for m, ts in graph.items() if m.startswith(low)
    }
    assert not {m: t for m, t in bad.items() if t}


def test_no_private_name_is_imported_across_modules():
    _, raw = _graph()
    found = [
        f"{me}: {mod}.{name}"
        for me, imports in raw.items()
        for mod, names in imports
        for name in names
        if name.startswith("_") and not name.startswith("__") and mod.startswith("graphpart")
    ]
    assert not found

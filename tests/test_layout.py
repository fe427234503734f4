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
    """Module -> the modules it imports. A name imported from a package's ``__init__`` counts as
    an import of the submodule the package re-exports it from, so a circle or a layer break is
    seen through the package face too; the faces keep their own imports (lazy ones included)."""
    files = {p: _module(p) for p in ROOT.rglob("*.py")}
    modules = set(files.values())
    raw = {me: _imports(path, modules) for path, me in files.items()}
    faces = {_module(p) for p in files if p.name == "__init__.py"}
    exports = {  # face -> {name it re-exports: the submodule it comes from}
        face: {n: mod for mod, names in raw[face] for n in names if mod.startswith(face + ".")}
        for face in faces
    }
    edges = {}
    for me, imports in raw.items():
        targets = set()
        for mod, names in imports:
            while mod and mod not in modules:
                mod = mod.rpartition(".")[0]
            if not mod:
                continue
            found = [exports[mod].get(n, mod) for n in names] if mod in faces and names else [mod]
            targets |= {t for t in found if t != me and not me.startswith(t + ".")}
        edges[me] = targets
    return edges, raw


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


def test_the_only_import_circle_is_graph_and_convert_inside_the_graph_package():
    assert _circles(_graph()[0]) in ([], [{"graphpart.graph.core", "graphpart.graph.convert"}])


def test_the_circle_finder_finds_a_planted_circle():
    graph, _ = _graph()
    summary = "graphpart.partitioning.summary"
    graph = {**graph, summary: graph[summary] | {"graphpart.metrics.disk"}}
    assert any({summary, "graphpart.metrics.disk"} <= c for c in _circles(graph))


#: Layers from the bottom up: a module may import its own layer and those below, never above.
LAYERS = [
    ("graphpart.errors", "graphpart.typing", "graphpart.utils", "graphpart.palette"),
    ("graphpart.index", "graphpart.homogeneous", "graphpart.fs"),
    ("graphpart.graph", "graphpart.ids", "graphpart.sampling", "graphpart.features"),
    # the partitioner reports its metrics
    ("graphpart.datasets",),
    ("graphpart.partitioning",),
    ("graphpart.interop",),
    ("graphpart.storage",),
    ("graphpart.chunked",),  # the pipeline ends in storage; views of it (widgets) read it
    ("graphpart.metrics",),
    ("graphpart.lookup", "graphpart.sweep", "graphpart.training", "graphpart.recommend"),
    ("graphpart.viz",),
    ("graphpart.views",),  # the WebGL views' data: above the figures, whose layout it shares
    ("graphpart.widgets",),
    ("graphpart.cli",),
]


def _rank(module: str) -> int | None:
    for rank, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def _breaks(graph: dict[str, set[str]]) -> list[str]:
    out = []
    for me, targets in graph.items():
        mine = _rank(me)
        for t in targets:
            theirs = _rank(t)
            if mine is not None and theirs is not None and theirs > mine:
                out.append(f"{me} -> {t}")
    return sorted(out)


def test_no_module_imports_a_layer_above_its_own():
    assert _breaks(_graph()[0]) == []


@pytest.mark.parametrize(
    "me, target",
    [
        ("graphpart.index", "graphpart.partitioning.summary"),
        ("graphpart.partitioning.summary", "graphpart.metrics.disk"),
        ("graphpart.interop.pyg", "graphpart.storage.sources"),
        ("graphpart.partitioning.halo", "graphpart.storage"),
    ],
)
def test_the_layer_check_finds_a_planted_break(me, target):
    graph, _ = _graph()
    assert _breaks({**graph, me: graph[me] | {target}}) == [f"{me} -> {target}"]


def test_a_name_imported_from_a_package_face_counts_as_its_submodule():
    graph, _ = _graph()
    # storage/write.py imports partition from graphpart.partitioning.core; the partition
    # command imports save_partitions through the storage package: both edges point at the
    # defining module
    assert "graphpart.partitioning.core" in graph["graphpart.storage.write"]
    assert "graphpart.storage.write" in graph["graphpart.cli.partition"]


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


def test_the_root_shows_the_architecture():
    """At most 15 root modules, none private: helpers live in the package of their family."""
    modules = sorted(p.name for p in ROOT.glob("*.py"))
    assert len(modules) <= 15, modules
    assert [m for m in modules if m.startswith("_") and m != "__init__.py"] == []


#: The longest a module may grow (lines): past it, a module holds more than one idea. The rule the
#: code keeps (DEVELOPERS.md states it); ``chunked/plan.py`` is the longest today.
MAX_MODULE_LINES = 800


def test_no_module_is_longer_than_the_rule():
    long = {
        str(p.relative_to(ROOT)): n
        for p in ROOT.rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}, f"split these modules (one idea each): {long}"


def test_every_package_face_names_each_of_its_modules():
    """A newcomer reads a package's ``__init__`` docstring and finds every module in it."""
    import ast

    missing = []
    for face in ROOT.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(face.read_text(encoding="utf-8"))) or ""
        for module in face.parent.glob("*.py"):
            if module.name != "__init__.py" and module.stem not in doc:
                missing.append(f"{face.parent.name}/{module.name}")
    assert missing == []

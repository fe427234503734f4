"""Every public function and class has numpydoc sections: Parameters (a class: Parameters or
Attributes) when it takes arguments, Returns (or Yields) when it returns a value.

Public: the names in ``__all__`` of every module whose dotted path has no private part,
defined in graphpart. ``python tools/check_docstrings.py [PACKAGE_PREFIX]`` lists what lacks a
section; ``tests/test_docstrings.py`` runs the same check.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import sys
import textwrap

SECTIONS = {
    "Parameters": ("Parameters",),
    "Attributes": ("Attributes",),
    "Returns": ("Returns", "Yields"),
}


def _has(doc: str, names: tuple[str, ...]) -> bool:
    lines = [ln.strip() for ln in doc.splitlines()]
    return any(a in names and set(b) == {"-"} and len(b) >= 3 for a, b in zip(lines, lines[1:]))


def _returns_value(fn) -> bool:
    """Whether ``fn`` returns (or yields) something: its annotation, else its source."""
    ann = inspect.signature(fn).return_annotation
    if ann is not inspect.Signature.empty:
        return ann not in (None, "None", "NoReturn", "typing.NoReturn")
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    body = tree.body[0]
    for node in ast.walk(body):
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, ast.Return) and node.value is not None:
            if not (isinstance(node.value, ast.Constant) and node.value.value is None):
                return True
    return False


def _takes_arguments(fn) -> bool:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    return any(p.name not in ("self", "cls") for p in params)


def _documented(doc: str) -> set[str]:
    """Parameter names a numpydoc Parameters section lists (``a, b : int`` lists two)."""
    lines = doc.splitlines()
    names: set[str] = set()
    inside = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if i + 1 < len(lines) and set(lines[i + 1].strip()) == {"-"} and stripped:
            inside = stripped in ("Parameters", "Other Parameters")
            continue
        if inside and line and not line.startswith((" ", "\t")) and not set(stripped) == {"-"}:
            head = stripped.split(" : ")[0]
            names |= {n.strip().lstrip("*") for n in head.split(",")}
    return names


def _undocumented(fn, doc: str) -> list[str]:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    listed = _documented(doc)
    return [
        p.name
        for p in params
        if p.name not in ("self", "cls") and not p.name.startswith("_") and p.name not in listed
    ]


def problems(prefix: str = "graphpart") -> list[str]:
    import graphpart

    out = []
    seen: set[int] = set()
    names = [graphpart.__name__] + [
        m.name for m in pkgutil.walk_packages(graphpart.__path__, "graphpart.")
    ]
    for name in sorted(names):
        if not name.startswith(prefix) or any(p.startswith("_") for p in name.split(".")):
            continue
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr, None)
            home = getattr(obj, "__module__", None) or ""
            private_home = any(p.startswith("_") for p in home.split("."))
            if home != name and not (private_home and home.startswith(name + ".")):
                continue  # re-exported: checked where it is defined (or at its public face)
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            doc = inspect.getdoc(obj) or ""
            where = f"{name}.{attr}"
            if inspect.isclass(obj):
                init = (
                    obj.__init__
                    if "__init__" in vars(obj) or hasattr(obj, "__dataclass_fields__")
                    else None
                )
                if (
                    init is not None
                    and _takes_arguments(init)
                    and not (_has(doc, SECTIONS["Parameters"]) or _has(doc, SECTIONS["Attributes"]))
                ):
                    out.append(f"{where}: no Parameters (or Attributes) section")
            elif inspect.isfunction(obj):
                if _takes_arguments(obj) and not _has(doc, SECTIONS["Parameters"]):
                    out.append(f"{where}: no Parameters section")
                elif missing := _undocumented(obj, doc):
                    out.append(f"{where}: Parameters lacks {', '.join(missing)}")
                if _returns_value(obj) and not _has(doc, SECTIONS["Returns"]):
                    out.append(f"{where}: no Returns section")
    return out


if __name__ == "__main__":
    found = problems(*sys.argv[1:2])
    print("\n".join(found))
    print(f"{len(found)} missing", file=sys.stderr)

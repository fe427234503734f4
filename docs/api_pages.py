"""Write the API reference's pages: one per public package, and through autosummary one per
public function and class, each at the shortest public path that exports it
(``graphpart.partition``, ``graphpart.storage.open_partitions``, ...)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import shutil
from pathlib import Path

import graphpart


def public_modules() -> list[str]:
    """Every module of graphpart whose dotted path has no private part."""
    names = [graphpart.__name__] + [
        m.name for m in pkgutil.walk_packages(graphpart.__path__, "graphpart.")
    ]
    return sorted(n for n in names if not any(p.startswith("_") for p in n.split(".")))


def canonical_names() -> dict[str, list[str]]:
    """Module -> the public functions and classes documented under it."""
    paths: dict[int, list[str]] = {}
    objects = {}
    for name in public_modules():
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr, None)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if not getattr(obj, "__module__", "").startswith("graphpart"):
                continue
            paths.setdefault(id(obj), []).append(f"{name}.{attr}")
            objects[id(obj)] = obj
    modules = set(public_modules())
    out: dict[str, list[str]] = {}
    for key, found in paths.items():
        # a function named like its module (chunked.assign) is documented in that module
        best = min(
            (p for p in found if p not in modules) or found, key=lambda p: (p.count("."), len(p))
        )
        module, _, attr = best.rpartition(".")
        out.setdefault(module, []).append(attr)
    return out


def write(folder: Path) -> None:
    """(Re)write ``folder``: index.rst and one page per public module with names of its own."""
    if folder.exists():
        shutil.rmtree(folder)  # generated/ too: stubs of names that moved
    folder.mkdir()
    names = canonical_names()
    pages = [m for m in public_modules() if m in names or m.count(".") <= 1]
    for module in pages:
        title = f"``{module}``"
        lines = [title, "=" * len(title), "", f".. automodule:: {module}", "   :no-members:", ""]
        own = sorted(names.get(module, []), key=str.lower)
        if own:
            lines += [
                ".. autosummary::",
                "   :toctree: generated",
                "   :nosignatures:",
                "",
                *[f"   {attr}" for attr in own],
                "",
            ]
        (folder / f"{module}.rst").write_text("\n".join(lines), encoding="utf-8")
    index = [
        "API reference",
        "=============",
        "",
        "Every public function and class has its page, at the shortest path that exports it;",
        "each package's page says what its modules do.",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
        *[f"   {m}" for m in pages],
        "",
    ]
    (folder / "index.rst").write_text("\n".join(index), encoding="utf-8")

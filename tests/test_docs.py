"""The documentation: every public name documented with numpydoc sections and given its page,
every tutorial listed, and the site checker catching what it must (``make docs`` builds the
site itself, with warnings as errors, and runs the checker on it: a CI step)."""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


check_docstrings = _load(ROOT / "tools" / "check_docstrings.py")
api_pages = _load(ROOT / "docs" / "api_pages.py")
check_site = _load(ROOT / "docs" / "check_site.py")


def test_every_public_function_and_class_has_numpydoc_sections():
    assert check_docstrings.problems() == []


def test_the_docstring_checker_finds_a_missing_section(monkeypatch):
    import graphpart.index as index

    def undocumented(x: int) -> int:
        """Twice ``x``."""
        return 2 * x

    undocumented.__module__ = "graphpart.index"
    monkeypatch.setattr(index, "undocumented", undocumented, raising=False)
    monkeypatch.setattr(index, "__all__", [*index.__all__, "undocumented"])
    assert check_docstrings.problems("graphpart.index") == [
        "graphpart.index.undocumented: no Parameters section",
        "graphpart.index.undocumented: no Returns section",
    ]


def test_the_docstring_checker_finds_an_undocumented_parameter(monkeypatch):
    import graphpart.index as index

    def half(x: int, y: int) -> int:
        """Sum.

        Parameters
        ----------
        x : int
            One.

        Returns
        -------
        int
        """
        return x + y

    half.__module__ = "graphpart.index"
    monkeypatch.setattr(index, "half", half, raising=False)
    monkeypatch.setattr(index, "__all__", [*index.__all__, "half"])
    assert check_docstrings.problems("graphpart.index") == [
        "graphpart.index.half: Parameters lacks y"
    ]


def test_every_public_function_and_class_gets_one_page():
    pages = api_pages.canonical_names()
    documented = [f"{m}.{a}" for m, names in pages.items() for a in names]
    assert len(documented) == len(set(documented))
    objects = {}
    for path in documented:
        module, _, attr = path.rpartition(".")
        objects.setdefault(id(getattr(importlib.import_module(module), attr)), []).append(path)
    assert all(len(paths) == 1 for paths in objects.values())
    for name in api_pages.public_modules():
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr)
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__.startswith(
                "graphpart"
            ):
                assert id(obj) in objects, f"{name}.{attr} has no page"
    # the names users call first are documented where they call them
    assert "partition" in pages["graphpart"] and "PartitionOptions" in pages["graphpart"]


def test_the_site_lists_every_tutorial():
    listed = re.findall(r"^tutorials/(\S+)$", (ROOT / "docs" / "index.md").read_text(), re.M)
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
    assert listed == notebooks


def _site(tmp_path: Path, body: str) -> Path:
    (tmp_path / "other.html").write_text('<html><body><h2 id="here">x</h2></body></html>')
    (tmp_path / "index.html").write_text(f"<html><head></head><body>{body}</body></html>")
    return tmp_path


def test_the_site_checker_passes_a_sound_site(tmp_path):
    site = _site(tmp_path, '<a href="other.html#here">x</a><a href="https://dgl.ai">DGL</a>')
    assert check_site.problems(site) == []


@pytest.mark.parametrize(
    "body, problem",
    [
        ('<a href="missing.html">x</a>', "missing file"),
        ('<a href="other.html#gone">x</a>', "missing anchor"),
        ('<a href="#nowhere">x</a>', "missing anchor"),
        ('<script src="https://cdn.example.org/require.js"></script>', "another host"),
        ('<link rel="stylesheet" href="//fonts.example.org/a.css">', "another host"),
        ('<img src="pics/plot.png">', "missing file"),
    ],
)
def test_the_site_checker_finds_a_planted_fault(tmp_path, body, problem):
    found = check_site.problems(_site(tmp_path, body))
    assert len(found) == 1 and problem in found[0]

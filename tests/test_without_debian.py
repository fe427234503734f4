"""`make test` on a machine without the Debian datasets: everything that needs them skips, naming
the package.

The suite runs again in a subprocess with ``$GRAPHPART_METIS_GRAPHS_DIR`` and
``$GRAPHPART_WORDNET_DIR``
pointing at an empty folder: the whole suite must collect, and every test file and library module
that mentions a Debian dataset must pass or skip. A new test that loads 4elt or WordNet without
``@pytest.mark.needs_dataset`` (or a doctest that does) fails here, on every machine.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MENTIONS = re.compile(
    r"load_wordnet|load_metis_graph|needs_dataset|[\"'](4elt|mdual|copter2|test\.mgraph|wordnet)[\"']"
)
# Notebooks fall back to generated graphs on their own, and run in test_notebooks.py.
SKIP_FILES = {"test_without_debian.py", "test_notebooks.py", "test_browser.py", "conftest.py"}


def _hidden_env(tmp_path: Path) -> dict:
    empty = tmp_path / "no-debian"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(
        GRAPHPART_METIS_GRAPHS_DIR=str(empty),
        GRAPHPART_WORDNET_DIR=str(empty),
        GRAPHPART_CACHE_DIR=str(tmp_path / "cache"),
    )
    return env


def _files_mentioning_debian_data() -> list[str]:
    files = []
    for folder in ("tests", "graphpart"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name in SKIP_FILES or "peer" in path.parts:
                continue
            if MENTIONS.search(path.read_text()):
                files.append(str(path.relative_to(ROOT)))
    return files


def test_the_suite_collects_without_debian_data(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=_hidden_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


def test_tests_and_doctests_using_debian_data_skip_without_it(tmp_path):
    files = _files_mentioning_debian_data()
    assert "tests/datasets/test_meshes.py" in files and "graphpart/datasets/meshes.py" in files
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", *files],
        cwd=ROOT,
        env=_hidden_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "install the Debian package 'libmetis-doc'" in proc.stdout
    assert "install the Debian package 'wordnet-base'" in proc.stdout

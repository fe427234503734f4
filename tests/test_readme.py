"""Every Python snippet in the README runs as written, in order, in a fresh interpreter."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def snippets() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", README.read_text(), flags=re.M | re.S)


def test_the_readme_has_snippets():
    assert len(snippets()) >= 4


@pytest.mark.needs_dataset("wordnet")
def test_readme_snippets_run_in_order(tmp_path):
    code = "import matplotlib\nmatplotlib.use('Agg')\n" + "\n".join(snippets())
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert (tmp_path / "parts" / "karate.json").is_file()  # the partition_graph snippet wrote here

"""Shared fixtures: an isolated dataset cache and skip helpers for Debian-provided data."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# CI runs the same examples every time (a red CI must be reproducible); locally
# hypothesis explores new ones on each run.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Point the dataset cache at a temporary folder for the whole run."""
    mp = pytest.MonkeyPatch()
    mp.setenv("GRAPHPART_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    yield
    mp.undo()

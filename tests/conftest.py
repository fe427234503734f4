"""Shared fixtures: an isolated dataset cache and skip helpers for Debian-provided data."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Point the dataset cache at a temporary folder for the whole run."""
    mp = pytest.MonkeyPatch()
    mp.setenv("GRAPHPART_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    yield
    mp.undo()

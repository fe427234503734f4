"""Shared fixtures: an isolated dataset cache, karate partitioned in 3, and the one marker for
data from Debian packages.

``@pytest.mark.needs_dataset("4elt", ...)`` skips a test, naming the Debian package to install,
when a dataset's files are not on this machine (``graphpart.datasets.missing_package``; the
folders follow ``$GRAPHPART_METIS_GRAPHS_DIR`` / ``$GRAPHPART_WORDNET_DIR``).
"""

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


@pytest.fixture(scope="module")
def karate3():
    """The karate club in 3 METIS partitions with 2 hops of HALO (one per test module)."""
    import graphpart as gp
    from graphpart.datasets import load_karate_club

    return gp.partition(load_karate_club(), 3, num_hops=2, seed=0)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "needs_dataset(*names): skip unless these datasets' Debian packages "
        "are installed (the reason names the package)",
    )


def pytest_runtest_setup(item):
    from graphpart.datasets import missing_package

    for marker in item.iter_markers("needs_dataset"):
        for name in marker.args:
            package = missing_package(name)
            if package:
                pytest.skip(
                    f"dataset {name!r} missing: install the Debian package '{package}' "
                    f"(apt-get install {package})"
                )

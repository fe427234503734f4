"""Repository-wide pytest setup (doctests in graphpart/ and tests/): figures render off-screen,
and the figures a test or doctest opened through pyplot are closed after it."""

import sys

import matplotlib
import pytest

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")

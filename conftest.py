"""Repository-wide pytest setup (doctests in graphpart/ and tests/): figures render off-screen."""

import matplotlib

matplotlib.use("Agg")

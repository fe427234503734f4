"""Shared by both sides of partition_vs_dgl.py (plain Python: each runs in its own environment)."""

import time


def time_calls(owner, name):
    """Replace ``owner.name`` by a wrapper that adds its run time to the returned one-item list."""
    total = [0.0]
    original = getattr(owner, name)

    def timed(*args, **kwargs):
        t = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            total[0] += time.perf_counter() - t

    setattr(owner, name, timed)
    return total

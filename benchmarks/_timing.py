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


def constraint_balance(node_part, train_mask, dst, num_parts):
    """max/mean over parts of each balance constraint DGL's balance_ntypes=train_mask +
    balance_edges sets: train and other node counts, and the in-degree of each (numpy arrays in)."""
    import numpy as np

    node_part = np.asarray(node_part)
    train = np.asarray(train_mask).astype(bool)
    indeg = np.bincount(np.asarray(dst), minlength=len(node_part))
    out = {}
    for name, mask in (("train", train), ("other", ~train)):
        for what, weight in (("nodes", None), ("in-degree", indeg)):
            loads = np.bincount(
                node_part[mask],
                weights=None if weight is None else weight[mask],
                minlength=num_parts,
            )
            out[f"{name} {what}"] = round(float(loads.max() / loads.mean()), 3)
    return out


def best_of(fn, repeat: int) -> float:
    """The fastest of ``repeat`` calls of ``fn``, in seconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)

"""Edge cut against load imbalance over a sweep of partition settings."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import GraphpartError
from ._style import get_axes

__all__ = ["plot_tradeoff"]

_METHOD_MARKERS = {"metis": "o", "random": "X"}


def _pareto(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the points no other point beats on both axes, sorted by x."""
    order = np.lexsort((y, x))
    best, keep = np.inf, []
    for i in order:  # one pass over the settings (a handful), not over the graph
        if y[i] < best:
            keep.append(i)
            best = y[i]
    return np.array(keep, dtype=np.int64)


def plot_tradeoff(results: Sequence, *, imbalance: str = "max", ax=None, annotate: bool = True):
    """Each setting of a :func:`graphpart.sweep.sweep` as a point: imbalance (x) vs edge cut (y).

    Parameters
    ----------
    results : list of SweepResult
    imbalance : str
        ``"max"`` (the worst max/mean over the balanced quantities) or one quantity's
        name, e.g. ``"train nodes"`` or ``"edges"``.
    annotate : bool
        Label each point with its setting.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.sweep import grid, sweep
    >>> ax = plot_tradeoff(sweep(load_karate_club(), grid(method=["random", "metis"], num_parts=2)))
    >>> ax.get_xlabel()
    'imbalance: worst max/mean'
    """
    if not results:
        raise GraphpartError("plot_tradeoff needs at least one sweep result, got none")
    if imbalance == "max":
        x = np.array([r.max_imbalance for r in results])
    else:
        missing = [r.setting.label for r in results if imbalance not in r.imbalance]
        if missing:
            raise GraphpartError(
                f"imbalance {imbalance!r} is not measured for {missing}; "
                f"available: {sorted(results[0].imbalance)}"
            )
        x = np.array([r.imbalance[imbalance] for r in results])
    y = np.array([100 * r.edge_cut_fraction for r in results])
    ax = get_axes(ax, (7.5, 4.8))
    from matplotlib import colormaps

    balances = list(dict.fromkeys((r.setting.balance, r.setting.balance_edges) for r in results))
    colors = colormaps["tab10"](np.arange(len(balances)) % 10)
    for b, color in zip(balances, colors):
        for method, marker in _METHOD_MARKERS.items():
            sel = [
                i
                for i, r in enumerate(results)
                if (r.setting.balance, r.setting.balance_edges) == b and r.setting.method == method
            ]
            if sel:
                label = f"{method}, balance {b[0]}" + (" + edges" if b[1] else "")
                ax.scatter(
                    x[sel],
                    y[sel],
                    s=70,
                    marker=marker,
                    color=color,
                    edgecolors="black",
                    linewidths=0.5,
                    label=label,
                    zorder=3,
                )
    front = _pareto(x, y)
    ax.plot(x[front], y[front], color="grey", ls="--", lw=1, zorder=2, label="best trade-offs")
    if annotate and len(results) <= 24:
        span_x, span_y = max(np.ptp(x), 1e-9), max(np.ptp(y), 1e-9)
        for i, r in enumerate(results):  # stack the labels of points that nearly coincide
            near = np.sum(
                (np.abs(x[:i] - x[i]) < 0.15 * span_x) & (np.abs(y[:i] - y[i]) < 0.04 * span_y)
            )
            right = x[i] > x.min() + 0.6 * span_x  # labels of right-hand points go left
            ax.annotate(
                r.setting.label,
                (x[i], y[i]),
                textcoords="offset points",
                xytext=(-6 if right else 6, 3 + 10 * near),
                ha="right" if right else "left",
                fontsize=7,
            )
    ax.set_xlabel(
        "imbalance: worst max/mean"
        if imbalance == "max"
        else f"imbalance of {imbalance} (max/mean)"
    )
    ax.set_ylabel("edge cut (% of edges)")
    ax.set_title("Edge cut vs load imbalance (lower left is better)", fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)
    ax.margins(x=0.15, y=0.12)
    return ax

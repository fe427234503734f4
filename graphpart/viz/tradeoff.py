"""Edge cut against load imbalance over a sweep of partition settings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ..utils.check import short_repr
from ..utils.units import sig3
from ._style import balance_colors, balance_key, get_axes, place_labels

if TYPE_CHECKING:  # pragma: no cover
    from ..sweep import SweepResult

__all__ = ["plot_tradeoff"]

_METHOD_MARKERS = {"metis": "o", "random": "X", "given": "s"}


def _pareto(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the points no other point beats on both axes, sorted by x."""
    order = np.lexsort((y, x))
    best, keep = np.inf, []
    for i in order:  # one pass over the settings (a handful), not over the graph
        if y[i] < best:
            keep.append(i)
            best = y[i]
    return np.array(keep, dtype=np.int64)


def plot_tradeoff(
    results: Sequence[SweepResult], *, imbalance: str = "max", ax=None, annotate: bool = True
):
    """Each setting of a :func:`graphpart.sweep.sweep` as a point: imbalance (x) vs edge cut (y).

    Parameters
    ----------
    results : list of SweepResult
        At least one.
    imbalance : str
        ``"max"`` (the worst max/mean over the balanced quantities), one quantity's
        name, e.g. ``"train nodes"`` or ``"edges"``, or ``"epoch"``: the estimated epoch
        time of a sweep run with a training setup (cut vs epoch: what the trade-off costs).
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).
    annotate : bool
        Label each point with its setting (only with at most 24 results).

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Raises
    ------
    GraphpartError
        When ``results`` is empty, ``imbalance="epoch"`` and a result has no epoch estimate,
        or ``imbalance`` names a quantity some result did not measure.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.sweep import grid, sweep
    >>> settings = grid(part_method=["random", "metis"], num_parts=2)
    >>> ax = plot_tradeoff(sweep(load_karate_club(), settings))
    >>> ax.get_xlabel()
    'imbalance: worst max/mean'
    """
    if not results:
        raise GraphpartError("plot_tradeoff needs at least one sweep result, got none")
    if imbalance == "max":
        x = np.array([r.max_imbalance for r in results])
    elif imbalance == "epoch":
        if any(r.epoch is None for r in results):
            raise GraphpartError(
                "an epoch axis needs sweep(..., training=TrainingSetup(...)): some results have "
                "no epoch estimate"
            )
        x = np.array([r.epoch_s for r in results])
        unit = "ms" if x.max() < 1 else "s"
        x = x * 1e3 if unit == "ms" else x
    else:
        missing = [r.setting.label for r in results if imbalance not in r.imbalance]
        if missing:
            raise GraphpartError(
                f"imbalance {short_repr(imbalance)} is not measured for {missing}; "
                f"available: {sorted(results[0].imbalance)}"
            )
        x = np.array([r.imbalance[imbalance] for r in results])
    y = np.array([100 * r.edge_cut_fraction for r in results])
    ax = get_axes(ax, (10, 5))
    colors = balance_colors([r.setting for r in results])
    for key, color in colors.items():
        for method, marker in _METHOD_MARKERS.items():
            sel = [
                i
                for i, r in enumerate(results)
                if balance_key(r.setting) == key and r.setting.method == method
            ]
            if sel:
                ax.scatter(
                    x[sel],
                    y[sel],
                    s=70,
                    marker=marker,
                    color=color,
                    edgecolors="black",
                    linewidths=0.5,
                    label=f"{method}, {_key_label(key)}",
                    zorder=3,
                )
    front = _pareto(x, y)
    ax.plot(x[front], y[front], color="grey", ls="--", lw=1, zorder=2, label="best trade-offs")
    ax.margins(x=0.15, y=0.12)
    if imbalance == "epoch":
        ax.set_xlabel(f"estimated epoch ({unit}), {_model_label(results[0].epoch.model)}")
        ax.set_title("Edge cut vs estimated epoch time (lower left is better)", fontsize=10)
    else:
        ax.set_xlabel(
            "imbalance: worst max/mean"
            if imbalance == "max"
            else f"imbalance of {imbalance} (max/mean)"
        )
        ax.set_title("Edge cut vs load imbalance (lower left is better)", fontsize=10)
    ax.set_ylabel("edge cut (% of edges)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)
    # placed last: the labels are placed in pixels, which the legend and titles move
    if annotate and len(results) <= 24:
        place_labels(ax, x, y, [r.setting.label for r in results], lines=[(x[front], y[front])])
    return ax


def _model_label(model) -> str:
    return f"{sig3(model.network_gbit_s)} Gb/s network"


def _key_label(key: tuple) -> str:
    balance, edges, ufactor = key
    text = "no balance_ntypes" if balance == "none" else f"balance {balance}"
    if edges:
        text += " + edges"
    if ufactor is not None:
        text += f", tol {ufactor / 10:g}%"
    return text

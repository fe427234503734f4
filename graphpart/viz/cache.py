"""Feature-cache figures: hit rate as lookups happen, hit rate vs cache size, bytes moved,
locality."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ..palette import LOCALITY_COLORS, POLICY_COLORS
from ..utils.units import byte_unit, fmt_bytes
from ._style import fmt_count, get_axes

if TYPE_CHECKING:  # pragma: no cover
    from ..features.partition import PartitionAccess
    from ..features.simulate import CacheRun, HitRateTable
    from ..features.store import LookupStats

__all__ = [
    "plot_hit_rate_trace",
    "plot_hit_rate_curve",
    "plot_bytes_per_epoch",
    "plot_partition_access",
]


def policy_color(name: str) -> str:
    """The colour of a cache policy or ordering in every cache figure.

    Parameters
    ----------
    name : str
        A policy or ordering name: ``"lru"``, ``"in-degree"``, ``"belady"``, ...

    Returns
    -------
    str
        Its colour as ``"#rrggbb"``; pink (``"#e377c2"``) for a name that has none.
    """
    return POLICY_COLORS.get(name, "#e377c2")


def policy_style(name: str, kind: str | None = None) -> dict:
    """Line style of a policy: oracles black and dotted, dynamic caches dashed, static orderings
    solid.

    Parameters
    ----------
    name : str
        The policy's name; it picks the colour (:func:`policy_color`) and, for ``"belady"``,
        a dotted rather than dash-dotted oracle line.
    kind : {"static", "dynamic", "oracle"} or None, default None
        The policy's kind (as in ``HitRateTable.kinds``). ``None``: ``"oracle"`` for
        ``"oracle"`` and ``"belady"``, ``"dynamic"`` for ``"lru"``, ``"fifo"``, ``"clock"`` and
        ``"sieve"``, else ``"static"``.

    Returns
    -------
    dict
        ``color``, ``linestyle`` and ``linewidth``, keyword arguments of ``Axes.plot``.
    """
    kind = kind or (
        "oracle"
        if name in ("oracle", "belady")
        else "dynamic"
        if name in ("lru", "fifo", "clock", "sieve")
        else "static"
    )
    ls = {"oracle": ":" if name == "belady" else "-.", "dynamic": "--"}.get(kind, "-")
    return {
        "color": policy_color(name),
        "linestyle": ls,
        "linewidth": 2.2 if kind == "oracle" else 1.8,
    }


def _series(run) -> tuple[str, np.ndarray, np.ndarray]:
    """``(label, lookups, hits)`` per batch from a CacheRun or a Feature's LookupStats."""
    if hasattr(run, "policy"):
        return run.policy, np.asarray(run.lookups), np.asarray(run.hits)
    if hasattr(run, "rows"):
        return "feature", np.asarray(run.rows), np.asarray(run.hits)
    raise GraphpartError(f"expected CacheRun or LookupStats objects, got {type(run).__name__}")


def plot_hit_rate_trace(
    runs: CacheRun | LookupStats | Sequence[CacheRun | LookupStats],
    *,
    ax=None,
    per_batch: bool = True,
    running: bool = True,
    labels: Sequence[str] | None = None,
    title: str | None = None,
):
    """Hit rate batch after batch: per batch (thin) and over all batches so far (bold), one line per
    run.

    Parameters
    ----------
    runs : CacheRun, LookupStats, or list or tuple of them
        A :class:`~graphpart.features.CacheRun` counts lookups and hits per batch, a
        :class:`~graphpart.features.LookupStats` (a ``Feature``'s) per lookup.
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).
    per_batch : bool, default True
        Draw each batch's own hit rate (thin, faint).
    running : bool, default True
        Draw the hit rate over all batches so far (bold; its legend gives the final value).
    labels : sequence of str, optional
        One legend label per run (default: each run's policy, ``"feature"`` for LookupStats).
    title : str, optional
        The axes' title (default: one that says what the thin and bold lines are).

    Returns
    -------
    matplotlib Axes
        The axes drawn on.
    """
    ax = get_axes(ax, (7.5, 4.0))
    runs = list(runs) if isinstance(runs, (list, tuple)) else [runs]
    longest = 0
    for i, run in enumerate(runs):
        name, lookups, hits = _series(run)
        label = labels[i] if labels else name
        x = np.arange(1, len(lookups) + 1)
        longest = max(longest, len(x))
        style = policy_style(name)
        # lines drawn first are wider: two policies with the same rates both stay in sight
        style["linewidth"] += 2.0 * (len(runs) - 1 - i) / max(len(runs) - 1, 1)
        one = {"marker": "o", "markersize": 5} if len(x) == 1 else {}  # a line of one point
        if per_batch and len(x):
            ax.plot(
                x, hits / np.maximum(lookups, 1), color=style["color"], alpha=0.3, linewidth=0.8
            )
        if running and len(x):
            run_rate = np.cumsum(hits) / np.maximum(np.cumsum(lookups), 1)
            ax.plot(x, run_rate, label=f"{label}: {run_rate[-1]:.1%}", **style, **one)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))  # batches are counted
    if longest:
        ax.set_xlim(0.5, longest + 0.5)  # not matplotlib's 0.945-1.055 around a single batch
    ax.set_xlabel("mini-batch")
    ax.set_ylabel("hit rate")
    ax.set_ylim(0, 1.02)
    ax.yaxis.set_major_formatter(_pct())
    ax.grid(alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8, loc="best", title="running hit rate", title_fontsize=8)
    ax.set_title(
        title or "Hit rate as features are looked up (thin: each batch; bold: so far)", fontsize=10
    )
    return ax


def plot_hit_rate_curve(table: HitRateTable, *, ax=None, reference: dict | None = None):
    """Hit rate vs cache ratio for every policy of a :class:`~graphpart.features.HitRateTable`.

    ``reference`` adds published points, ``{label: (ratio, hit_rate)}``, as crosses.

    Parameters
    ----------
    table : HitRateTable
        One line per policy, styled by its kind (:func:`policy_style`).
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).
    reference : dict of str to (float, float), optional
        Points to compare with: ``{label: (cache ratio, hit rate)}``, each a labelled cross.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.
    """
    ax = get_axes(ax, (7.0, 4.2))
    x = np.asarray(table.ratios)
    for name, rates in table.rates.items():
        ax.plot(
            x,
            rates,
            marker="o",
            markersize=4,
            label=name,
            **policy_style(name, table.kinds.get(name)),
        )
    for label, (rx, ry) in (reference or {}).items():
        ax.scatter([rx], [ry], marker="x", s=60, color="#444", zorder=5)
        ax.annotate(
            label, (rx, ry), textcoords="offset points", xytext=(5, -10), fontsize=7, color="#444"
        )
    if len(x) <= 8:
        ax.set_xticks(x)
    ax.set_xlabel("cache ratio (share of all rows cached)")
    ax.set_ylabel("hit rate")
    ax.set_ylim(0, 1.02)
    from matplotlib.ticker import PercentFormatter

    # ticks at whole percents read "2%", not "2.0%" (close ticks ran into each other)
    whole = len(x) <= 8 and np.allclose(x * 100, np.round(x * 100))
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0 if whole else None))
    ax.yaxis.set_major_formatter(_pct())
    ax.grid(alpha=0.3)
    # beside the axes: inside, it covered the ends of the lowest curves (an audit)
    ax.legend(
        fontsize=8,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        title="solid: static\ndashed: dynamic\nblack: oracles",
        title_fontsize=7,
    )
    ax.set_title("Hit rate vs cache size", fontsize=10)
    return ax


def plot_bytes_per_epoch(
    runs: Sequence[CacheRun], row_bytes: int, *, ax=None, total_lookups: int | None = None
):
    """Bytes copied from host memory per epoch (one row per miss), one bar per run; a grey bar for
    no cache.

    Parameters
    ----------
    runs : sequence of CacheRun
        One bar per run: its misses per epoch times ``row_bytes``, averaged over its epochs.
    row_bytes : int
        Bytes of one feature row.
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).
    total_lookups : int, optional
        Lookups per epoch, for the grey "no cache" bar (every lookup copied). Default: the
        first run's lookups divided by its number of epochs; ``0`` leaves the bar out.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.
    """
    ax = get_axes(ax, (7.0, 3.8))
    names, values = [], []
    if total_lookups is None and runs:
        total_lookups = int(np.asarray(runs[0].lookups).sum()) / max(
            1, int(np.max(runs[0].epochs)) + 1
        )
    if total_lookups:
        names.append("no cache")
        values.append(total_lookups * row_bytes)
    for run in runs:
        names.append(run.policy)
        values.append(float(np.mean(run.bytes_per_epoch(row_bytes))))
    colors = (
        ["#cccccc"] + [policy_color(n) for n in names[1:]]
        if total_lookups
        else [policy_color(n) for n in names]
    )
    unit, size = byte_unit(max(values, default=0.0))
    bars = ax.bar(np.arange(len(names)), np.asarray(values) / size, color=colors)
    for b, v in zip(bars, values):
        ax.annotate(
            fmt_bytes(v),
            (b.get_x() + b.get_width() / 2, b.get_height()),
            ha="center",
            va="bottom",
            fontsize=7,
        )
    ax.set_xticks(np.arange(len(names)), names, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(f"{unit} from host per epoch")
    ax.set_title(f"Host-to-GPU traffic per epoch ({fmt_count(row_bytes)} B rows)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    return ax


def plot_partition_access(accesses: Sequence[PartitionAccess], *, ax=None, normalize: bool = True):
    """Per trainer partition: lookups served locally (inner rows, HALO copies' rows where the
    access's rule keeps them), by the remote cache, or fetched from the owner.

    Parameters
    ----------
    accesses : sequence of PartitionAccess
        One stacked bar per trainer, e.g. from :func:`~graphpart.features.access_by_partition`.
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).
    normalize : bool, default True
        Each bar as shares of its trainer's lookups; ``False``: lookup counts.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.
    """
    ax = get_axes(ax, (7.0, 3.8))
    parts = [a.part_id for a in accesses]
    from ..features.partition import SERVED_BY  # the locality table's column names

    keys = ("local_inner", "local_halo", "remote_cached", "remote_fetched")
    cols = {k: (c, label) for k, c, label in zip(keys, LOCALITY_COLORS, SERVED_BY)}
    data = {k: [] for k in cols}
    for a in accesses:
        t = a.totals
        row = {k: t[k] for k in keys}
        total = sum(row.values()) if normalize else 1
        for k in cols:
            data[k].append(row[k] / max(total, 1))
    bottom = np.zeros(len(parts))
    for k, (color, label) in cols.items():
        v = np.asarray(data[k], dtype=float)
        ax.bar(np.arange(len(parts)), v, bottom=bottom, color=color, label=label)
        bottom += v
    ax.set_xticks(np.arange(len(parts)), [f"part {p}" for p in parts], fontsize=8)
    ax.set_ylabel("share of lookups" if normalize else "lookups")
    if normalize:
        ax.yaxis.set_major_formatter(_pct())
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    rules = sorted({a.rule for a in accesses})
    ax.set_title(
        f"Where each trainer's feature lookups are served ({', '.join(rules)}'s rule)", fontsize=10
    )
    return ax


def _pct():
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=0)

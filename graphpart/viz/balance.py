"""Load balance: every balanced quantity per partition, relative to its mean."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ..metrics.disk import metrics_from_disk
from ..utils.check import short_repr
from ._style import get_axes

if TYPE_CHECKING:  # pragma: no cover
    from ..partitioning.core import Partitioning
    from ..partitioning.summary import PartitionMetrics

__all__ = ["plot_balance"]

#: What a balance figure's bars stand for: machines (partitions), or every trainer.
LEVELS = ("machine", "trainer")


def _metrics(p_or_metrics):
    if isinstance(p_or_metrics, (str, os.PathLike)):  # partitions on disk, in any format
        return metrics_from_disk(p_or_metrics)
    return p_or_metrics.metrics if hasattr(p_or_metrics, "shuffle") else p_or_metrics


def balance_quantities(m: PartitionMetrics, level: str = "machine") -> dict[str, np.ndarray]:
    """Per-partition loads a balance plot shows, by name, from a ``PartitionMetrics``.

    Nodes (and nodes of each type), each METIS balance constraint, owned edges,
    HALO nodes and train / val / test nodes. With ``level="trainer"``, per trainer (several per
    machine): nodes, each balance class, each split and in-degree.

    Parameters
    ----------
    m : PartitionMetrics
        The metrics of a partitioning (``Partitioning.metrics``, or those of partitions on disk).
    level : {"machine", "trainer"}, default "machine"
        One load per partition, or one per trainer (machine-major).

    Returns
    -------
    dict of str to ndarray
        Each quantity's name (``"nodes"``, ``"edges"``, ``"balance class 1"``, ...) to its loads,
        in the order a balance plot draws them. Only quantities that apply are present: HALO
        and split nodes when there are some, per-type nodes on a heterograph.

    Raises
    ------
    GraphpartError
        When ``level`` is unknown, or is ``"trainer"`` for metrics with no trainer loads (one
        trainer per machine).
    """
    if level not in LEVELS:
        raise GraphpartError(f"level must be one of {list(LEVELS)}, got {short_repr(level)}")
    if level == "trainer":
        if not m.trainer_loads:
            raise GraphpartError(
                "these partitions have one trainer per machine (or keep no trainer loads): the "
                "machine level says it all"
            )
        return {
            (f"balance {k}" if k.startswith("class ") else k): np.asarray(v)
            for k, v in m.trainer_loads.items()
        }
    out: dict[str, np.ndarray] = {"nodes": m.inner_nodes}
    if len(m.ntypes) > 1:
        out.update({f"{t} nodes": m.inner_by_type[:, i] for i, t in enumerate(m.ntypes)})
    out.update(
        {
            f"balance class {k[6:]}": np.asarray(v)
            for k, v in m.constraints.items()
            if k.startswith("class ") and k[6:] not in m.ntypes
        }
    )  # a whole type is already shown
    out["edges"] = m.owned_edges
    if m.halo_nodes.sum() > 0:
        out["HALO nodes"] = m.halo_nodes
    out.update({f"{k.replace('_mask', '')} nodes": v for k, v in m.splits.items() if v.sum() > 0})
    return out


def plot_balance(
    p: Partitioning | PartitionMetrics | str | os.PathLike,
    *,
    ax=None,
    quantities: list[str] | None = None,
    normalize: bool = True,
    level: str = "machine",
):
    """Grouped bars: for each partition, each quantity's load divided by its mean.

    A perfectly balanced quantity has every bar at 1 (the dashed mean line);
    the legend gives each quantity's max/mean imbalance, the figure METIS's
    tolerance is measured against.

    Parameters
    ----------
    p : Partitioning, PartitionMetrics or path
        A partitioning, its metrics, or the path of partitions on disk (any format
        :func:`~graphpart.metrics.disk.metrics_from_disk` reads).
    ax : matplotlib Axes, optional
        Where to draw (default: new axes on a new figure).
    quantities : list of str, optional
        Names from :func:`balance_quantities` (default: all).
    normalize : bool
        Divide by the mean (default); ``False`` draws raw counts on a log scale.
    level : {"machine", "trainer"}
        Bars per partition (machine), or per trainer (``machine.trainer`` under each bar) when
        several trainers share a machine.

    Returns
    -------
    matplotlib Axes
        The axes drawn on.

    Raises
    ------
    GraphpartError
        When a name in ``quantities`` is not one of :func:`balance_quantities`, or for
        ``level`` as there.

    Examples
    --------
    >>> from graphpart import partition
    >>> from graphpart.datasets import load_karate_club
    >>> ax = plot_balance(partition(load_karate_club(), 3, seed=0))
    >>> [t.get_text().split(" (")[0] for t in ax.get_legend().get_texts()][:3]
    ['mean', 'nodes', 'edges']
    """
    m = _metrics(p)
    available = balance_quantities(m, level)
    names = list(available) if quantities is None else list(quantities)
    unknown = [q for q in names if q not in available]
    if unknown:
        raise GraphpartError(f"unknown balance quantities {unknown}; available: {list(available)}")
    from matplotlib import colormaps

    k = len(next(iter(available.values()))) if available else m.num_parts
    ax = get_axes(ax, (max(6.0, 0.9 * k + 3), 4.2))
    width = 0.8 / max(len(names), 1)
    colors = colormaps["Dark2"](np.arange(len(names)) % 8)
    x = np.arange(k)
    line = ax.axhline(1.0 if normalize else np.nan, color="black", ls="--", lw=1, label="mean")
    handles = [line] if normalize else []
    worst = 1.0
    for i, name in enumerate(names):
        v = np.asarray(available[name], dtype=float)
        mean = v.mean() if len(v) else 0.0
        ratio = v.max() / mean if mean > 0 else 1.0
        worst = max(worst, ratio)
        y = v / mean if (normalize and mean > 0) else v
        bars = ax.bar(
            x - 0.4 + width * (i + 0.5),
            y,
            width,
            color=colors[i],
            label=f"{name} (max/mean {ratio:.3f})",
        )
        handles.append(bars)
        if not normalize:
            ax.axhline(mean, color=colors[i], ls="--", lw=0.8)
    per = k // max(m.num_parts, 1)
    if level == "trainer":  # machine.trainer, a line between machines
        ax.set_xticks(x, [f"{i // per}.{i % per}" for i in x])
        for b in range(per, k, per):
            ax.axvline(b - 0.5, color="0.6", lw=0.8)
    else:
        ax.set_xticks(x, [str(i) for i in x])
    ax.set_xlabel("trainer (machine.trainer)" if level == "trainer" else "partition")
    if normalize:
        ax.set_ylabel(f"load / mean over {'trainers' if level == 'trainer' else 'partitions'}")
        top = max(1.15, worst * 1.08)
        ax.set_ylim(0, top)
    else:
        ax.set_yscale("log")
        ax.set_ylabel("count (dashed: mean)")
    # below the bars, across the panel's width: panels side by side keep it readable
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.16),
        ncol=2,
        frameon=False,
        fontsize=9,
    )
    over = f"{k} trainers on {m.num_parts} machines" if level == "trainer" else f"{k} partitions"
    ax.set_title(f"Load balance over {over}: worst max/mean {worst:.3f}", fontsize=10)
    return ax

"""A box of GPUs as a figure: for each setting (a replica per GPU, a replica per group, ...) every
GPU's reads split by place -- its own shard, its group's peers over NVLink, host memory over
PCIe -- with the hit rate and the time the link model gives. GLT's two figures, on our data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ..palette import PLACE_COLORS
from ..utils.units import fmt_bytes

if TYPE_CHECKING:  # pragma: no cover
    from ..features.box import BoxRun

__all__ = ["plot_box"]


def plot_box(runs: Sequence[BoxRun], *, normalize: bool = True):
    """One panel per setting: a stacked bar per GPU of the rows (or bytes) it read from its own
    shard, from its group's peers, from the host.

    Parameters
    ----------
    runs : sequence of BoxRun
        From :func:`~graphpart.features.replay_box`, one per setting (its ``label`` titles the
        panel).
    normalize : bool, default True
        Each bar as shares of the GPU's reads; ``False``: bytes.

    Returns
    -------
    matplotlib Figure
        The figure, one axes per run, sharing the y axis.

    Examples
    --------
    >>> from graphpart.features import DeviceGroup, FeatureBox, replay_box
    >>> box = FeatureBox(8, 0.5, [DeviceGroup(0, [0, 1])])
    >>> run = replay_box({0: [[0, 1, 5]], 1: [[2, 3]]}, box)
    >>> fig = plot_box([run]); len(fig.axes)
    1
    """
    import matplotlib.pyplot as plt

    runs = list(runs)
    if not runs or not all(hasattr(r, "per_gpu") for r in runs):
        raise GraphpartError("plot_box draws BoxRun objects (features.replay_box), one per setting")
    fig, axes = plt.subplots(
        1, len(runs), figsize=(3.4 * len(runs) + 1.6, 3.4), sharey=True, squeeze=False
    )
    for ax, run in zip(axes[0], runs):
        d = run.per_gpu()
        if not d:
            ax.set_title(f"{run.label}: no lookups", fontsize=9)
            continue
        kind = "rows" if normalize else "bytes"
        parts = [d[f"own_{kind}"], d[f"peer_{kind}"], d[f"host_{kind}"]]
        total = np.maximum(sum(parts), 1) if normalize else 1
        bottom = np.zeros(len(d["device"]))
        x = np.arange(len(d["device"]))
        for (label, color), v in zip(PLACE_COLORS.items(), parts):
            h = v / total
            ax.bar(x, h, bottom=bottom, color=color, label=label, width=0.75)
            bottom = bottom + h
        ax.set_xticks(x, [f"GPU {g}" for g in d["device"]], fontsize=7, rotation=90)
        ms = d["ms"].max()
        ax.set_title(
            f"{run.label}\nhit rate {d['hit_rate'].mean():.0%}, slowest GPU's reads {ms:.2f} ms",
            fontsize=9,
        )
        if not normalize:
            ax.yaxis.set_major_formatter(lambda v, _: fmt_bytes(v))
    axes[0][0].set_ylabel("share of rows read" if normalize else "bytes read")
    axes[0][-1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig

"""A box of GPUs as a figure: for each setting (a replica per GPU, a replica per group, ...) every
GPU's reads split by place -- its own shard, its group's peers over NVLink, host memory over
PCIe -- with the hit rate and the time the link model gives. GLT's two figures, on our data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..errors import GraphpartError
from ._style import fmt_bytes

if TYPE_CHECKING:  # pragma: no cover
    from ..features.box import BoxRun

__all__ = ["plot_box", "box_view_data"]

#: The colour of each place a row is read from.
PLACE_COLORS = {"own shard": "#2ca02c", "peer GPU (NVLink)": "#4c9be8", "host (PCIe)": "#e45756"}


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


def box_view_data(box, batches: int = 0) -> dict:
    """What a view of ``box`` draws, from its stats so far: every GPU with its group, its hit
    rate and its rows and bytes per place; every GPU-to-GPU link with the bytes it carried (both
    directions summed); the host's link to each GPU.

    Parameters
    ----------
    box : FeatureBox
        The box, with the stats of the lookups so far.
    batches : int, default 0
        Mini-batches streamed so far (named in the title).

    Returns
    -------
    dict
        ``gpus`` (one dict per GPU: ``gpu``, ``group``, ``lookups``, ``rows``, ``hit_rate``,
        ``own``, ``peer``, ``host`` rows, ``own_bytes``, ``peer_bytes``, ``host_bytes``,
        ``ms``), ``links`` (``a``, ``b``, ``bytes``: NVLink pairs of a group), ``groups`` (the
        GPU ranks of each group) and ``title``.

    Examples
    --------
    >>> from graphpart.features import DeviceGroup, FeatureBox
    >>> box = FeatureBox(8, 0.5, [DeviceGroup(0, [0, 1])], row_bytes=4)
    >>> _ = box.lookup([0, 2, 7], 0)
    >>> d = box_view_data(box, 1)
    >>> d["gpus"][0]["hit_rate"], d["links"]
    (0.6666666666666666, [{'a': 0, 'b': 1, 'bytes': 4}])
    """
    gpus = []
    for g in box.groups:
        for d in g.device_list:
            st = box.stats.get(d)
            t = st.totals() if st is not None else None
            gpus.append(
                {
                    "gpu": d,
                    "group": g.group_id,
                    "lookups": t["lookups"] if t else 0,
                    "rows": t["rows"] if t else 0,
                    "hit_rate": t["hit_rate"] if t else 0.0,
                    "own": t["own_rows"] if t else 0,
                    "peer": t["peer_rows"] if t else 0,
                    "host": t["host_rows"] if t else 0,
                    "own_bytes": t["own_bytes"] if t else 0,
                    "peer_bytes": t["peer_bytes"] if t else 0,
                    "host_bytes": t["host_bytes"] if t else 0,
                    "ms": t["ms"] if t else 0.0,
                }
            )
    carried: dict[tuple[int, int], int] = {}
    for g in box.groups:
        devs = g.device_list
        for i, a in enumerate(devs):
            for b in devs[i + 1 :]:
                carried[a, b] = 0
    for d, st in box.stats.items():
        for p, rows in zip(st.peers, st.peer_rows().tolist()):
            key = (min(d, p), max(d, p))
            carried[key] = carried.get(key, 0) + rows * st.row_bytes
    links = [{"a": a, "b": b, "bytes": int(v)} for (a, b), v in carried.items()]
    hot = f"{box.capacity:,} hot rows of {box.num_rows:,}"
    title = f"{len(box.devices)} GPUs in {len(box.groups)} groups, {hot}; {batches} batches"
    return {
        "gpus": gpus,
        "links": links,
        "groups": [list(g.device_list) for g in box.groups],
        "title": title,
    }

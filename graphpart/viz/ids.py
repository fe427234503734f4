"""How the reshuffle renumbers nodes: the homogeneous id line before and after, and the adjacency
matrix in original ids and in new ids (partition-major: inner edges fall in diagonal blocks).

``id_data`` computes the numbers (every node's ids, the edges in both numberings, the blocks);
``plot_id_line`` and ``plot_adjacency`` draw them for papers, ``graphpart.widgets.IdView`` in the
browser.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..homogeneous import HomogeneousGraph, type_offsets
from ..lookup import NodeTable, node_table
from ._style import get_axes, part_colors

__all__ = ["IdData", "id_data", "plot_id_line", "plot_adjacency", "MAX_POINTS"]

#: The most edges an adjacency view draws (a uniform sample above; the figure says so).
MAX_POINTS = 200_000


@dataclass(frozen=True)
class IdData:
    """Every node's ids, the edges in both numberings, and the id blocks.

    ``table`` holds every node's ids (:func:`graphpart.lookup.node_table`, indexed by original
    homogeneous id). ``src``/``dst`` are edges in original homogeneous ids (at most
    :data:`MAX_POINTS`, a uniform sample of ``num_edges``); ``new_src``/``new_dst`` the same edges
    in new ids. ``type_bounds`` is the ``[start, end)`` of each type on the original id line;
    ``blocks`` one ``(start, end, partition, type)`` row per block of the new id line.
    """

    table: NodeTable
    src: np.ndarray
    dst: np.ndarray
    new_src: np.ndarray
    new_dst: np.ndarray
    num_edges: int
    type_bounds: np.ndarray
    blocks: np.ndarray

    @property
    def num_nodes(self) -> int:
        return len(self.table.owner)

    @property
    def part_bounds(self) -> np.ndarray:
        """Where each partition's range of new ids starts (and the last one ends)."""
        starts = [self.blocks[self.blocks[:, 2] == q, 0].min() for q in self._parts]
        return np.asarray([*starts, self.num_nodes], dtype=np.int64)

    @property
    def _parts(self) -> list[int]:
        return sorted(set(self.blocks[:, 2].tolist()))


def id_data(p, max_points: int = MAX_POINTS, seed: int = 0) -> IdData:
    """The numbers behind the id views of partitioning ``p``.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_davis_southern_women
    >>> d = id_data(gp.partition(load_davis_southern_women(), 2, seed=0))
    >>> d.type_bounds.tolist()  # events, then women, on the original id line
    [[0, 14], [14, 32]]
    >>> d.blocks.tolist()  # (start, end, partition, type) on the new id line
    [[0, 7, 0, 0], [7, 16, 0, 1], [16, 23, 1, 0], [23, 32, 1, 1]]
    """
    table = node_table(p)
    h = HomogeneousGraph.of(p.graph)
    src, dst = np.asarray(h.src, dtype=np.int64), np.asarray(h.dst, dtype=np.int64)
    m = len(src)
    if m > max_points:
        keep = np.sort(np.random.default_rng(seed).choice(m, max_points, replace=False))
        src, dst = src[keep], dst[keep]
    offsets = type_offsets([p.graph.num_nodes(t) for t in p.graph.ntypes])
    type_bounds = np.stack([offsets[:-1], offsets[1:]], axis=1)
    rows = []
    for t, ranges in enumerate(p.book.node_map.values()):
        for q, (a, b) in enumerate(np.asarray(ranges, dtype=np.int64).reshape(-1, 2).tolist()):
            if b > a:
                rows.append((a, b, q, t))
    blocks = np.asarray(sorted(rows), dtype=np.int64).reshape(-1, 4)
    new = table.shuffled_id
    return IdData(table, src, dst, new[src], new[dst], m, type_bounds, blocks)


def plot_id_line(p, *, ax=None, arrows: int = 24, seed: int = 0):
    """The homogeneous id line before (types in order) and after the reshuffle (partition-major,
    then by type), with arrows from a sample of nodes' original ids to their new ids.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_davis_southern_women
    >>> ax = plot_id_line(gp.partition(load_davis_southern_women(), 2, seed=0))
    >>> [t.get_text() for t in ax.texts][:3]
    ['event', 'woman', 'part 0 event']
    """
    from matplotlib.patches import Rectangle

    d = p if isinstance(p, IdData) else id_data(p)
    t = d.table
    n = max(d.num_nodes, 1)
    ax = get_axes(ax, (10, 2.8))
    colors = part_colors(int(d.blocks[:, 2].max()) + 1 if len(d.blocks) else 1)
    hatches = ["", "//", "..", "xx", "\\\\", "oo", "++", "--"]
    for k, (a, b) in enumerate(d.type_bounds.tolist()):
        ax.add_patch(
            Rectangle(
                (a, 1.0), b - a, 0.5, facecolor="#dddddd", edgecolor="white", hatch=hatches[k % 8]
            )
        )
        if b > a:
            ax.text((a + b) / 2, 1.25, t.ntypes[k], ha="center", va="center", fontsize=8)
    for a, b, q, k in d.blocks.tolist():
        ax.add_patch(
            Rectangle(
                (a, 0.0),
                b - a,
                0.5,
                facecolor=colors[q],
                edgecolor="white",
                hatch=hatches[k % 8],
                alpha=0.85,
            )
        )
        label = f"part {q}" + (f" {t.ntypes[k]}" if len(t.ntypes) > 1 else "")
        ax.text(
            (a + b) / 2,
            0.25,
            label,
            ha="center",
            va="center",
            fontsize=7,
            rotation=0 if (b - a) / n > 0.08 else 90,
        )
    rng = np.random.default_rng(seed)
    shown = np.sort(rng.choice(d.num_nodes, min(arrows, d.num_nodes), replace=False))
    for node in shown.tolist():  # a few dozen arrows at most
        ax.annotate(
            "",
            xy=(t.shuffled_id[node] + 0.5, 0.52),
            xytext=(node + 0.5, 0.98),
            arrowprops={"arrowstyle": "->", "color": colors[t.owner[node]], "lw": 0.8},
        )
    ax.set_xlim(0, n)
    ax.set_ylim(-0.1, 1.6)
    ax.set_yticks([0.25, 1.25], ["new ids\n(partition-major)", "original ids\n(types in order)"])
    ax.set_xlabel("homogeneous id")
    ax.set_title(
        f"How the reshuffle renumbers {d.num_nodes:,} nodes ({len(shown)} arrows)", fontsize=10
    )
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    return ax


def plot_adjacency(p, *, axes=None, markersize: float | None = None):
    """The adjacency matrix in original ids and in new ids, one dot per edge coloured by the
    partition that owns its destination (which stores the edge). After the reshuffle the inner
    edges fill the diagonal blocks of each partition's id range; the rest are cut edges.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> ax_before, ax_after = plot_adjacency(gp.partition(load_karate_club(), 2, seed=0))
    >>> ax_after.get_title()
    'after: new ids (2 partition blocks)'
    """
    import matplotlib.pyplot as plt

    d = p if isinstance(p, IdData) else id_data(p)
    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(10, 5), layout="constrained")
    n = d.num_nodes
    colors = part_colors(len(d._parts) or 1)
    c = colors[d.table.owner[d.dst]] if len(d.dst) else "k"
    size = markersize or float(np.clip(3000 / max(len(d.src), 1), 0.3, 12))
    sample = "" if len(d.src) == d.num_edges else f" ({len(d.src):,} of {d.num_edges:,} edges)"
    for ax, (x, y), title in (
        (axes[0], (d.dst, d.src), f"before: original ids{sample}"),
        (axes[1], (d.new_dst, d.new_src), f"after: new ids ({len(d._parts)} partition blocks)"),
    ):
        ax.scatter(x, y, s=size, c=c, marker="s", linewidths=0, rasterized=len(x) > 20_000)
        ax.set_xlim(-0.5, n - 0.5)
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_aspect("equal")
        ax.set_xlabel("destination id")
        ax.set_ylabel("source id")
        ax.set_title(title, fontsize=10)
    for a, b in d.type_bounds[1:].tolist():  # type boundaries on the original line
        axes[0].axhline(a - 0.5, color="#999999", lw=0.6)
        axes[0].axvline(a - 0.5, color="#999999", lw=0.6)
    for a in d.part_bounds[1:-1].tolist():  # partition boundaries on the new line
        axes[1].axhline(a - 0.5, color="#333333", lw=0.8, ls="--")
        axes[1].axvline(a - 0.5, color="#333333", lw=0.8, ls="--")
    return axes[0], axes[1]

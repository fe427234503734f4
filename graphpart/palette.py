"""The colours every picture of a partitioning shares: the matplotlib figures
(:mod:`graphpart.viz`), the WebGL views' data (:mod:`graphpart.views`) and the widgets.

A partition has the same colour everywhere it is drawn; cut edges and HALO rings too.
"""

from __future__ import annotations

import numpy as np

__all__ = ["part_colors", "part_hex", "lighter_hex", "halo_ring", "CUT_COLOR"]

#: Cut edges are drawn in this colour (no partition uses it).
CUT_COLOR = "#111111"
#: The ring of a HALO copy by its hop: darkest and thickest for hop 1, lighter and thinner
#: further out (hop 3 and beyond share the last), so the hops of a partition's HALO read apart.
HALO_RINGS = ((1, "#1a1a1a", 3.0), (2, "#8a8a8a", 2.2), (3, "#c4c4c4", 1.6))
#: An inner edge's colour: its partition's, this far towards white.
INNER_EDGE_LIGHTER = 0.6

#: The colour of each place a row is read from.
PLACE_COLORS = {"own shard": "#2ca02c", "peer GPU (NVLink)": "#4c9be8", "host (PCIe)": "#e45756"}

#: One colour per part of a step, the same in every figure and widget.
PHASE_COLORS = {"sampling": "#4c72b0", "fetch": "#dd8452", "compute": "#55a868"}
#: The colour of a class that is the rest ("not train", "none"): grey, the eye goes elsewhere.
OTHER_CLASS_COLOR = "#c8c8c8"
#: A node not in any partition yet (a coarse level of METIS, before it is split).
UNSPLIT_COLOR = "#808080"
#: Class colours, away from the first partitions' (tab10 blue, orange, green, red): the ring
#: says the partition, the fill the class.
CLASS_COLORS = ("#7b3294", "#008080", "#e7298a", "#b8860b", "#1a1a6e", "#8c510a", "#4d9221")
#: Where a looked-up row comes from, and its colour (the locality figure's colours).
SERVED_COLORS = {
    "GPU cache": "#2ca02c",
    "own partition": "#4c9be8",
    "HALO copy": "#a6cee3",
    "remote machine": "#e45756",
    "host memory": "#9e9e9e",
}
#: A trainer's lookups served from its own nodes, its HALO copies, a remote cache, or fetched.
LOCALITY_COLORS = ("#4c9be8", "#a6cee3", "#f6c85f", "#e45756")
#: What a node is to the trainer, and its colour.
READ_COLORS = {
    "its seed": "#7b3294",
    "fetched from another machine": "#e45756",
    "read on its machine": "#4c9be8",
    "not read": "#dcdcdc",
}
#: One colour per cache policy and ordering, the same in every figure.
POLICY_COLORS = {
    "random": "#9e9e9e",
    "in-degree": "#1f77b4",
    "out-degree": "#17becf",
    "presample": "#2ca02c",
    "lru": "#d62728",
    "fifo": "#ff7f0e",
    "clock": "#9467bd",
    "sieve": "#8c564b",
    "oracle": "#111111",
    "belady": "#111111",
    "static": "#1f77b4",
}


def part_colors(k: int) -> np.ndarray:
    """``k`` distinguishable RGBA colours, one per partition.

    Parameters
    ----------
    k : int
        How many partitions.

    Returns
    -------
    numpy.ndarray
        ``(k, 4)`` RGBA rows: tab10 up to 10 (its grey swapped for indigo), tab20 up to 20,
        spread over the turbo colour map above.
    """
    from matplotlib import colormaps

    if k <= 10:  # tab10 with its grey swapped for indigo: grey reads as "no partition"
        colors = colormaps["tab10"](np.arange(k))
        if k > 7:
            colors[7] = (0.224, 0.231, 0.475, 1.0)
        return colors
    if k <= 20:
        return colormaps["tab20"](np.arange(k))
    return colormaps["turbo"](np.linspace(0.05, 0.95, k))


def part_hex(k: int) -> list[str]:
    """The colour of each of ``k`` partitions as ``#rrggbb`` (the figures' colours).

    Parameters
    ----------
    k : int
        The number of partitions.

    Returns
    -------
    list of str
        ``k`` colours, the RGB of :func:`part_colors`.

    Examples
    --------
    >>> part_hex(2)
    ['#1f77b4', '#ff7f0e']
    """
    return [
        "#{:02x}{:02x}{:02x}".format(*(int(round(255 * float(c))) for c in rgba[:3]))
        for rgba in part_colors(k)
    ]


def lighter_hex(colors: list[str], share: float = INNER_EDGE_LIGHTER) -> list[str]:
    """Each ``#rrggbb`` colour moved ``share`` of the way to white (an inner edge's colour).

    Parameters
    ----------
    colors : list of str
        ``#rrggbb`` colours.
    share : float, default INNER_EDGE_LIGHTER
        How far towards white, from 0 (unchanged) to 1 (white).

    Returns
    -------
    list of str
        The lighter colours, as ``#rrggbb``.

    Examples
    --------
    >>> lighter_hex(["#1f77b4", "#000000"], 0.5)
    ['#8fbbda', '#808080']
    """
    out = []
    for c in colors:
        rgb = (int(c[i : i + 2], 16) for i in (1, 3, 5))
        out.append("#" + "".join(f"{round(v + (255 - v) * share):02x}" for v in rgb))
    return out


def halo_ring(hop: int) -> tuple[str, float] | None:
    """The ring colour and width of a HALO copy ``hop`` hops out (``0``: an inner node, none).

    Parameters
    ----------
    hop : int
        The copy's hop (0 for a node the partition owns).

    Returns
    -------
    tuple of (str, float) or None
        ``(colour, width)``, or ``None`` for an inner node.

    Examples
    --------
    >>> halo_ring(0), halo_ring(1), halo_ring(5) == halo_ring(3)
    (None, ('#1a1a1a', 3.0), True)
    """
    if hop <= 0:
        return None
    for h, color, width in HALO_RINGS:
        if hop <= h:
            return color, width
    return HALO_RINGS[-1][1:]

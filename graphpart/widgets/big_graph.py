"""BigGraphView: a whole graph of 100K nodes in WebGL, sent as typed arrays (binary buffers).

ipysigma takes a graph as JSON and builds an object per node and edge in the page (graphology):
at 100K nodes and 500K edges that is tens of MiB of JSON and about a minute before the first
frame. This view sends positions, colours, sizes and links as bytes and hands them to cosmos.gl
(MIT; its source and build in ``js/big_graph/``), whose WebGL renderer draws from typed arrays.
Hover a node for its card (computed in Python on demand), click it to select it (``selected``),
Ctrl + wheel (or the wheel once the view was clicked) to zoom (``zoom``).

The layout is Python's and never moves, so the page finds the node under the mouse itself, from
a grid over the positions, and rings it: a hover draws no WebGL frame (one frame of 100K nodes
takes seconds without a GPU). Frames are drawn only while the view zooms, pans or changes its
highlight.

The arrays travel by message to each view that asks for them, not in the widget's state: a
reloading page restores every live widget's state, and megabytes there slow the restore. The
view's code (cosmos.gl, 0.7 MB) comes once per kernel likewise (:mod:`~.shared_code`).
"""

from __future__ import annotations

import os
from pathlib import Path

import anywidget
import numpy as np
import traitlets

from ..lookup import node_table
from ..palette import part_hex
from ..partitioning import Partitioning
from ..storage.reopen import as_partitioning
from ..views.arrays import graph_arrays
from ..views.graph import node_label
from ._common import CUT_EDGE_HTML, check_height, swatches_html
from .shared_code import shared_code

#: the arrays a view asks for; they are sent as one buffer, array i at ``spans[i]`` (start, bytes)
ARRAYS = ("positions", "colors", "sizes", "owner", "links", "link_colors")


class BigGraphView(anywidget.AnyWidget):
    """The whole graph of a partitioning, drawn by cosmos.gl from typed arrays.

    Parameters
    ----------
    p : Partitioning, str or os.PathLike
        A partitioning (:func:`graphpart.partition`), or the path of partitions on disk, as
        every view takes (a graph is refused: partition it first).
    height : int, default 520
        In pixels.

    Attributes
    ----------
    hovered : int
        The node under the mouse (original homogeneous id), ``-1`` for none.
    selected : int
        The node last clicked, ``-1`` for none.
    card : str
        The card of node ``card_for`` (the page shows it while that node is hovered).
    zoom : float
        The zoom level after the last zoom.
    legend : str
        The line above the drawing (HTML): each partition's colour, the cut edges', and how to
        use the view.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> view = BigGraphView(gp.partition(load_karate_club(), 2, seed=0))
    >>> len(view.positions), len(view.links)  # 34 nodes x 2 float32, 78 pairs x 2 uint32
    (272, 624)
    >>> sent = []  # what a view asking for the arrays gets: one buffer, each array at a span
    >>> view.send = lambda content, buffers: sent.append((content["spans"], len(buffers[0])))
    >>> view._send_arrays(view, {"want": "arrays"}, [])
    >>> sent  # (start, bytes) of each array; starts are multiples of 4
    [([[0, 272], [272, 136], [408, 136], [544, 34], [580, 624], [1204, 312]], 1516)]
    >>> view.hovered = 0
    >>> view.card.startswith("node 0 | part ")
    True
    >>> view.legend.startswith("34 nodes in 2 partitions")
    True
    """

    _esm = Path(__file__).with_name("big_graph.js")
    # not synced: sent by message to each view that asks (see the module's docstring)
    positions = traitlets.Bytes()
    colors = traitlets.Bytes()
    sizes = traitlets.Bytes()
    owner = traitlets.Bytes()
    links = traitlets.Bytes()
    link_colors = traitlets.Bytes()
    height = traitlets.Int(520).tag(sync=True)
    hovered = traitlets.Int(-1).tag(sync=True)
    selected = traitlets.Int(-1).tag(sync=True)
    card = traitlets.Unicode("").tag(sync=True)
    card_for = traitlets.Int(-1).tag(sync=True)
    zoom = traitlets.Float(1.0).tag(sync=True)
    legend = traitlets.Unicode("").tag(sync=True)

    def __init__(self, p: Partitioning | str | os.PathLike, *, height: int = 520) -> None:
        p = as_partitioning(p)  # a Graph is refused here, saying what to pass
        height = check_height(height)
        self.p = p
        self.table = node_table(p)
        a = graph_arrays(p, self.table)
        with shared_code(BigGraphView):
            super().__init__(
                **{name: getattr(a, name).tobytes() for name in ARRAYS},
                height=height,
                legend=_legend(p),
            )
        self.add_class("graphpart-big-graph-view")
        self.on_msg(self._send_arrays)

    def _send_arrays(self, _, content: dict, buffers) -> None:
        if content.get("want") == "arrays":
            # each array starts at a multiple of 4 bytes: the page's float32 / uint32 views of it
            # need no copy
            parts = [getattr(self, name) for name in ARRAYS]
            sizes = np.array([len(b) for b in parts])
            starts = np.concatenate([[0], np.cumsum((sizes + 3) // 4 * 4)[:-1]])
            buffer = b"".join(b + bytes(-len(b) % 4) for b in parts)
            spans = [[int(a), int(n)] for a, n in zip(starts, sizes)]
            self.send({"arrays": list(ARRAYS), "spans": spans}, [buffer])

    @traitlets.observe("hovered")
    def _card(self, change) -> None:
        v = change["new"]
        with self.hold_sync():
            self.card = node_label(self.p, v, self.table) if v >= 0 else ""
            self.card_for = v


def _legend(p: Partitioning, most: int = 16) -> str:
    """The owners' colours (the first ``most``), the cut edges' colour, and what to do."""
    colors = part_hex(p.num_parts)[:most]
    swatches = swatches_html({f"part {q}": c for q, c in enumerate(colors)})
    more = f" and {p.num_parts - most} more" if p.num_parts > most else ""
    return (
        f"{p.graph.num_nodes():,} nodes in {p.num_parts} partitions: {swatches}{more} "
        f"&middot; {CUT_EDGE_HTML} &middot; hover a node for its card, click it to light up its "
        "neighbours, Ctrl + wheel to zoom"
    )

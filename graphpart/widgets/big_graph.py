"""BigGraphView: a whole graph of 100K nodes in WebGL, sent as typed arrays (binary buffers).

ipysigma takes a graph as JSON and builds an object per node and edge in the page (graphology):
at 100K nodes and 500K edges that is tens of MiB of JSON and about a minute before the first
frame. This view sends positions, colours, sizes and links as bytes and hands them to cosmos.gl
(MIT; its source and build in ``js/big_graph/``), whose WebGL renderer draws from typed arrays.
Hover a node for its card (computed in Python on demand), click it to select it (``selected``),
scroll to zoom (``zoom``).
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from ..lookup import node_table
from ..partitioning import Partitioning
from ..views.arrays import graph_arrays
from ..views.graph import node_label
from ._common import check_height


class BigGraphView(anywidget.AnyWidget):
    """The whole graph of a partitioning, drawn by cosmos.gl from typed arrays.

    Parameters
    ----------
    p : Partitioning
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

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> view = BigGraphView(gp.partition(load_karate_club(), 2, seed=0))
    >>> len(view.positions), len(view.links)  # 34 nodes x 2 float32, 78 pairs x 2 uint32
    (272, 624)
    >>> view.hovered = 0
    >>> view.card.startswith("node 0 | part ")
    True
    """

    _esm = Path(__file__).with_name("big_graph.js")
    positions = traitlets.Bytes().tag(sync=True)
    colors = traitlets.Bytes().tag(sync=True)
    sizes = traitlets.Bytes().tag(sync=True)
    owner = traitlets.Bytes().tag(sync=True)
    links = traitlets.Bytes().tag(sync=True)
    link_colors = traitlets.Bytes().tag(sync=True)
    height = traitlets.Int(520).tag(sync=True)
    hovered = traitlets.Int(-1).tag(sync=True)
    selected = traitlets.Int(-1).tag(sync=True)
    card = traitlets.Unicode("").tag(sync=True)
    card_for = traitlets.Int(-1).tag(sync=True)
    zoom = traitlets.Float(1.0).tag(sync=True)

    def __init__(self, p: Partitioning, *, height: int = 520) -> None:
        self.p = p
        self.table = node_table(p)
        a = graph_arrays(p, self.table)
        super().__init__(
            positions=a.positions.tobytes(),
            colors=a.colors.tobytes(),
            sizes=a.sizes.tobytes(),
            owner=a.owner.tobytes(),
            links=a.links.tobytes(),
            link_colors=a.link_colors.tobytes(),
            height=check_height(height),
        )
        self.add_class("graphpart-big-graph-view")

    @traitlets.observe("hovered")
    def _card(self, change) -> None:
        v = change["new"]
        with self.hold_sync():
            self.card = node_label(self.p, v, self.table) if v >= 0 else ""
            self.card_for = v

"""A node's card: every id, owner and HALO copy of the selected node, as HTML, and the selection
state a view keeps (drawn key -> original homogeneous id)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as w

from ..lookup import NodeLocation, NodeTable
from ..views.graph import GraphData

if TYPE_CHECKING:
    from ..partitioning.core import Partitioning

__all__ = ["location_card", "NodeSelection", "drawn_ids"]


def card_table(rows) -> str:
    """``(name, value)`` rows as a card: names left, bold, a gap before each value (a name
    never runs into its value).

    Parameters
    ----------
    rows : iterable of (object, object)
        ``(name, value)`` pairs; each is shown as ``str`` of it, HTML-escaped.

    Returns
    -------
    str
        A ``<table class="graphpart-node-card">`` with one row per pair.

    Examples
    --------
    >>> card_table([("new id", 15)])  # doctest: +ELLIPSIS
    '<table class="graphpart-node-card"><tr><th style=...>new id</th><td>15</td></tr></table>'
    """
    th = "text-align:left;padding:1px 14px 1px 0;white-space:nowrap"
    body = "".join(
        f"<tr><th style='{th}'>{html.escape(str(a))}</th><td>{html.escape(str(b))}</td></tr>"
        for a, b in rows
    )
    return f'<table class="graphpart-node-card">{body}</table>'


def location_card(loc: NodeLocation | None) -> str:
    """An HTML table of one node's ids, owner and HALO copies (empty for ``None``).

    Parameters
    ----------
    loc : NodeLocation or None
        The node, as :func:`graphpart.lookup.locate_node` returns it.

    Returns
    -------
    str
        :func:`card_table` of ``loc.rows()``, or ``""``.

    Examples
    --------
    >>> from graphpart.lookup import NodeLocation
    >>> "HALO copies" in location_card(NodeLocation("_N", 3, 3, 5, 5, 1, 2, ((0, 9, 1),)))
    True
    """
    return "" if loc is None else card_table(loc.rows())


class NodeSelection:
    """The key -> homogeneous id map of the drawn nodes, and the card of the selected one.

    Parameters
    ----------
    p : Partitioning
        The partitioning drawn (kept as ``self.p``).
    table : NodeTable
        ``node_table(p)``: where a selected node's location is read.
    keys : dict of str to int
        Each drawn node's key and original homogeneous id (see :func:`drawn_ids`); views
        replace or update it as they draw.
    """

    def __init__(self, p: Partitioning, table: NodeTable, keys: dict[str, int]) -> None:
        self.p, self.table, self.keys = p, table, keys
        self.card = w.HTML("")
        self.card.add_class("graphpart-selection")
        self.location: NodeLocation | None = None

    def show(self, key: str | None) -> None:
        node = self.keys.get(key) if key is not None else None
        self.location = None if node is None else self.table.location(node)
        self.card.value = location_card(self.location)


def drawn_ids(data: GraphData) -> dict[str, int]:
    """Each drawn node's original homogeneous id (none for a quotient graph's partitions).

    Parameters
    ----------
    data : GraphData
        A view's nodes and edges.

    Returns
    -------
    dict of str to int
        Node key -> its ``"homogeneous id"`` attribute, else its ``"original id"``; nodes with
        neither are left out.
    """
    out = {}
    for k, a in data.nodes.items():
        node = a.get("homogeneous id", a.get("original id"))
        if node is not None:
            out[k] = int(node)
    return out

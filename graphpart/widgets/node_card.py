"""A node's card: every id, owner and HALO copy of the selected node, as HTML, and the selection
state a view keeps (drawn key -> original homogeneous id)."""

from __future__ import annotations

import html

import ipywidgets as w

from ..lookup import NodeLocation, NodeTable
from ..viz.graph_data import GraphData

__all__ = ["location_card", "card_table", "NodeSelection", "drawn_ids"]


def card_table(rows) -> str:
    """``(name, value)`` rows as a card: names left, bold, a gap before each value (a name
    never runs into its value).

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

    Examples
    --------
    >>> from graphpart.lookup import NodeLocation
    >>> "HALO copies" in location_card(NodeLocation("_N", 3, 3, 5, 5, 1, 2, ((0, 9, 1),)))
    True
    """
    return "" if loc is None else card_table(loc.rows())


class NodeSelection:
    """The key -> homogeneous id map of the drawn nodes, and the card of the selected one."""

    def __init__(self, p, table: NodeTable, keys: dict[str, int]) -> None:
        self.p, self.table, self.keys = p, table, keys
        self.card = w.HTML("")
        self.card.add_class("graphpart-selection")
        self.location: NodeLocation | None = None

    def show(self, key: str | None) -> None:
        node = self.keys.get(key) if key is not None else None
        self.location = None if node is None else self.table.location(node)
        self.card.value = location_card(self.location)


def drawn_ids(data: GraphData) -> dict[str, int]:
    """Each drawn node's original homogeneous id (none for a quotient graph's partitions)."""
    out = {}
    for k, a in data.nodes.items():
        node = a.get("homogeneous id", a.get("original id"))
        if node is not None:
            out[k] = int(node)
    return out

"""The feature cache's graph in :class:`~graphpart.widgets.CacheSimulator`: the latest
mini-batch's sample, every node coloured by where its row was served, hover for why (drawn by
:class:`~graphpart.widgets.PartitionGraph` from
:func:`graphpart.views.cache.batch_view_data`)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as w

from ..views.cache import batch_view_data
from ._common import discard
from .graph_view import PartitionGraph

if TYPE_CHECKING:
    from ..partitioning.core import Partitioning

__all__ = ["BatchGraph"]


class BatchGraph:
    """A policy to colour by, and the graph of the session's latest batch for it: drawn after
    every Step, and when play pauses (a new drawing per batch would outrun the browser).

    Parameters
    ----------
    p : Partitioning
        The partitioning the sessions given to :meth:`update` run on.
    height : int, default 420
        The drawing's height in pixels, 250 to 4000 (checked when the first batch is drawn).

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.features import LookupSession
    >>> from graphpart.sampling import Topology
    >>> g = load_karate_club()
    >>> p = gp.partition(g, 2, num_hops=1, seed=0)
    >>> s = LookupSession(Topology.from_graph(g), [3, 2], policies=["in-degree", "lru"],
    ...                   batch_size=4, partitioning=p, part_id=1, seed=0)
    >>> bg = BatchGraph(p)
    >>> bg.update(s)
    >>> bg.view is None  # nothing looked up yet
    True
    >>> _ = s.step(); bg.update(s)
    >>> bg.policy.value, bg.view.title.startswith("trainer of part 1, batch 1")
    ('in-degree', True)
    >>> bg.policy.value = "lru"
    >>> "by where lru served" in bg.view.title
    True
    """

    def __init__(self, p: Partitioning, height: int = 420) -> None:
        self.p, self.height = p, height
        self.view: PartitionGraph | None = None
        self.session = None
        self.policy = w.Dropdown(
            options=[],
            description="graph shows",
            style={"description_width": "100px"},
            layout=w.Layout(width="270px"),
        )
        self._quiet = False  # new options: one drawing after, not one per change
        self.policy.observe(lambda _: self._quiet or self._draw(), names="value")
        self.note = w.HTML(
            "<span style='font-size:11px;color:#555'>The graph of the latest batch appears "
            "after the first Step: each of its nodes coloured by where its feature row came "
            "from; hover one for why it was (not) cached.</span>"
        )
        self.widget = w.VBox([self.policy, self.note], layout=w.Layout(width="100%"))
        self.widget.add_class("graphpart-cache-graph")

    def update(self, session) -> None:
        """Follow ``session`` (its policies become the choices) and draw its latest batch."""
        self.session = session
        if session is None:  # the controls are wrong: no graph
            self._draw()
            return
        options = list(session.caches)
        if list(self.policy.options) != options:
            first = next((o for o in options if o != "random"), options[0])  # random: a baseline
            keep = self.policy.value if self.policy.value in options else first
            self._quiet = True
            try:
                self.policy.options = options
                self.policy.value = keep
            finally:
                self._quiet = False
        self._draw()

    def _draw(self) -> None:
        s = self.session
        if s is None or s.last is None or self.policy.value not in s.caches:
            self.widget.children = [self.policy, self.note]
            if self.view is not None:  # a fresh session: nothing looked up yet
                discard(self.view)
                self.view = None
            return
        data = batch_view_data(self.p, s, self.policy.value)
        if self.view is None:
            self.view = PartitionGraph(self.p, data=data, height=self.height, panel=False)
        else:
            self.view.draw(data)
        self.note.value = (
            "<span style='font-size:11px;color:#555'>Seeds on the inner circle, each hop a ring "
            "further out; a node's colour says where its feature row came from. Hover a node "
            f"for why {html.escape(str(self.policy.value))} held it or not.</span>"
        )
        self.widget.children = [self.policy, self.note, self.view]

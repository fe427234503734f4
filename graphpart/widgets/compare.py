"""``PartitioningComparison``: several partitionings of one graph, the same figure for each, side by
side."""

from __future__ import annotations

import html

import numpy as np

from ..errors import GraphpartError
from ..metrics import compare_metrics
from ..storage.reopen import as_partitioning
from ..viz import plot_balance, plot_cut_matrix, plot_halo_growth
from ._common import html_table, image, render
from .graph_view import PartitionGraph, frame_of

__all__ = ["PartitioningComparison", "FIGURES"]

# : Figure name -> how to draw it for one partitioning (no layout: comparable across files whose ids
# differ).
FIGURES = {
    "balance": lambda p, ax: plot_balance(p, ax=ax),
    "cut matrix": lambda p, ax: plot_cut_matrix(p, ax=ax),
    "HALO growth": lambda p, ax: plot_halo_growth(p, max_hops=2, ax=ax),
}


class PartitioningComparison:
    """The same graph drawn for each partitioning, side by side in linked WebGL views, then the
    same figure for each and a table of their metrics.

    The views share one layout and one camera (pan or zoom one, all follow); selecting a node in
    one selects it in all, and the card under each view gives its owner, local and new ids in
    that partitioning. Nodes are keyed by original id, which every format keeps.

    Each source is a :class:`~graphpart.Partitioning` or partitions on disk in any format graphpart
    reads (a DGL or graphpart config, a PyG or GLT folder): e.g. what DGL wrote for your training
    run beside what graphpart would write. All must partition the same graph.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> g = load_karate_club()
    >>> cmp = PartitioningComparison({"metis": gp.partition(g, 2, seed=0),
    ...                               "random": gp.partition(g, 2, part_method="random", seed=0)})
    >>> cmp.controls["figure"].value = "cut matrix"
    >>> cmp.shown, len(cmp.images)
    ('cut matrix', 2)
    >>> cmp.graphs[0].selected = "33"
    >>> [v.location.owner for v in cmp.graphs] == [int(p.node_part[33]) for p in
    ...                                            cmp.partitionings.values()]
    True
    """

    def __init__(self, sources: dict, *, figure: str = "balance", height: int = 380) -> None:
        import uuid

        import ipywidgets as w

        if not isinstance(sources, dict) or len(sources) < 2:
            raise GraphpartError(
                f"PartitioningComparison takes a dict of at least two labelled partitionings, "
                f"got {type(sources).__name__} of "
                f"{len(sources) if hasattr(sources, '__len__') else '?'}"
            )
        self.partitionings = {label: as_partitioning(src) for label, src in sources.items()}
        self.table = compare_metrics({k: p.metrics for k, p in self.partitionings.items()})
        self.controls = {
            "figure": w.ToggleButtons(options=list(FIGURES), value=figure, description="figure")
        }
        self.images = [image("graphpart-compare-figure") for _ in self.partitionings]
        titles = [w.HTML(f"<b>{html.escape(str(k))}</b>") for k in self.partitionings]
        self.metrics_html = w.HTML(html_table(self.table))
        key = f"graphpart-{uuid.uuid4().hex[:8]}"
        first = next(iter(self.partitionings.values()))
        frame, edges = frame_of(first), _edge_codes(first)
        #: Whether each source numbers the nodes as the first does: DGL's files keep no original
        #: ids (they are in DGL's shuffled ids), so such a view is drawn alone, not linked
        self.linked = [np.array_equal(_edge_codes(p), edges) for p in self.partitionings.values()]
        self.graphs = [
            PartitionGraph(
                p,
                sync_key=key if same else None,
                height=height,
                panel=False,
                frame=frame if same else None,
            )
            for p, same in zip(self.partitionings.values(), self.linked)
        ]
        for i, view in enumerate(self.graphs):
            if self.linked[i]:
                view.on_select(lambda key, i=i: self._select(i, key))
        for t, same in zip(titles, self.linked):
            if not same:
                t.value += (
                    " <i>(in the files' own ids: not the same numbering as the first, so not "
                    "linked; pass the original-id mapping to compare node by node)</i>"
                )
        flex = w.Layout(flex="1 1 0", min_width="0")
        captions = w.HBox([w.Box([t], layout=flex) for t in titles])
        # sigma widgets directly in the row (inside another box they see no width, see graph_view)
        graphs = w.HBox([v.sigma for v in self.graphs], layout=w.Layout(width="100%"))
        cards = w.HBox([w.Box([v.card], layout=flex) for v in self.graphs])
        self._graph_row = graphs
        self.controls["figure"].observe(lambda change: self._draw(), names="value")
        row = w.HBox([w.Box([i], layout=flex) for i in self.images])
        self.widget = w.VBox(
            [captions, graphs, cards, self.controls["figure"], row, self.metrics_html]
        )
        self.widget.add_class("graphpart-compare")
        self.shown = None
        self._draw()

    def _select(self, origin: int, key: str | None) -> None:
        """A node selected in view ``origin``: select it in the others (drawn again, camera
        kept); each card shows where that partitioning put it."""
        for i, view in enumerate(self.graphs):
            if i != origin and self.linked[i] and view.selected != key:
                view.redraw(key)
        self._graph_row.children = [v.sigma for v in self.graphs]

    def _draw(self) -> None:
        name = self.controls["figure"].value
        for img, p in zip(self.images, self.partitionings.values()):
            img.value = render(lambda ax, p=p: FIGURES[name](p, ax), (7.0, 3.8))
        self.shown = name

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def _edge_codes(p) -> np.ndarray:
    """The graph's undirected edge set as sorted codes (equal for the same graph, same ids)."""
    from ..homogeneous import HomogeneousGraph

    h = HomogeneousGraph.of(p.graph)
    src, dst = np.asarray(h.src, dtype=np.int64), np.asarray(h.dst, dtype=np.int64)
    n = max(h.num_nodes, 1)
    return np.unique(np.minimum(src, dst) * n + np.maximum(src, dst))

"""``PartitioningComparison``: several partitionings of one graph, the same figure for each, side by
side."""

from __future__ import annotations

import html

import numpy as np

from ..errors import GraphpartError
from ..metrics.disk import compare_metrics
from ..storage.reopen import as_partitioning
from ..utils.check import short_repr
from ..viz import plot_balance, plot_cut_matrix, plot_halo_growth
from ._common import check_choice, check_height, discard, html_table, image, render
from .graph_view import PartitionGraph, linked_row
from .partition_views import CAMERA
from .webgl_budget import UNIT_CLASS, Freezer

__all__ = ["PartitioningComparison"]

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

    Parameters
    ----------
    sources : dict of str to Partitioning or path
        At least two sources, keyed by a non-empty label (the title of each column). The first
        is the reference: a source whose nodes are numbered otherwise is drawn alone, not
        linked.
    figure : {"balance", "cut matrix", "HALO growth"}, default "balance"
        The figure shown first under the views (a control switches it).
    height : int, default 380
        The views' height in pixels, 250 to 4000.

    Raises
    ------
    GraphpartError
        If ``sources`` is not a dict of two or more, a label is not a non-empty string, a
        source cannot be opened, or ``figure`` or ``height`` is invalid.

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
    >>> cmp.select("33")
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
        if not all(isinstance(label, str) and label for label in sources):
            raise GraphpartError(
                "PartitioningComparison labels must be non-empty strings, got "
                f"{short_repr(list(sources), 80)}"
            )
        figure = check_choice(figure, "figure", list(FIGURES))
        height = check_height(height)
        self.partitionings = {label: as_partitioning(src) for label, src in sources.items()}
        self.table = compare_metrics({k: p.metrics for k, p in self.partitionings.items()})
        self.controls = {
            "figure": w.ToggleButtons(
                options=list(FIGURES),
                value=figure,
                description="figure",
                style={"button_width": "auto"},  # no label cut short
            )
        }
        self.images = [image("graphpart-compare-figure") for _ in self.partitionings]
        titles = [w.HTML(f"<b>{html.escape(str(k))}</b>") for k in self.partitionings]
        self.metrics_html = w.HTML(html_table(self.table))
        key = f"graphpart-{uuid.uuid4().hex[:8]}"
        first = next(iter(self.partitionings.values()))
        edges = _edge_codes(first)
        #: Whether each source numbers the nodes as the first does: DGL's files keep no original
        #: ids (they are in DGL's shuffled ids), so such a view is drawn alone, not linked
        self.linked = [np.array_equal(_edge_codes(p), edges) for p in self.partitionings.values()]
        self._view_args = (key, height)
        self._selected: str | None = None
        self.graphs = self._views(None, None)
        # the row holds one seat in the page's WebGL budget (its views hold none of their own)
        self._freezer = Freezer(
            lambda: [(v.data, frozenset()) for v in self.graphs],
            self._release,
            self._wake,
            self._show_frozen,
            height,
            len(self.graphs),
        )
        for t, same in zip(titles, self.linked):
            if not same:
                t.value += (
                    " <i>(drawn in the files' partition-major ids, which number the nodes "
                    "differently from the first view: not linked)</i>"
                )
        flex = w.Layout(flex="1 1 0", min_width="0")
        captions = w.HBox([w.Box([t], layout=flex) for t in titles])
        self._graph_row = linked_row(self.graphs)
        graphs = self._freezer.drawing(self._graph_row, [v.sigma for v in self.graphs])
        cards = w.HBox([w.Box([v.card], layout=flex) for v in self.graphs])
        cards.add_class("graphpart-compare-cards")
        self._layout = (captions, cards)
        self.controls["figure"].observe(lambda change: self._draw(), names="value")
        # the figures two to a row (four side by side were thumbnails), each under its label
        cols = 2 if len(self.images) > 2 else len(self.images)
        row = w.GridBox(
            [
                w.VBox([w.HTML(f"<b>{html.escape(str(k))}</b>"), img])
                for k, img in zip(self.partitionings, self.images)
            ],
            layout=w.Layout(grid_template_columns=f"repeat({cols}, minmax(0, 1fr))", width="100%"),
        )
        # the seat first: ipywidgets renders a box's children again from the first that changed
        self.widget = w.VBox(
            [self._freezer.budget, captions, graphs, cards, self.controls["figure"], row,
             self.metrics_html]
        )  # fmt: skip
        self.widget.add_class("graphpart-compare")
        self.widget.add_class(UNIT_CLASS)
        self.shown = None
        self._draw()

    def _views(self, selected: str | None, cameras: list | None) -> list[PartitionGraph]:
        """One view per source; the linked ones share ipysigma's camera, hover and selection
        sync (each card then shows where that source put the selected node)."""
        key, height = self._view_args
        return [
            PartitionGraph(
                p,
                sync_key=key if same else None,
                height=height,
                panel=False,
                search=len(self.partitionings) <= 2,  # three or more abreast: too narrow
                others={},  # same nodes in every linked view; the row holds the budget seat
                selected=selected if same else None,
                camera=cameras[i] if cameras else dict(CAMERA),
            )
            for i, (p, same) in enumerate(zip(self.partitionings.values(), self.linked))
        ]

    def select(self, key: str | None) -> None:
        """Select node ``key`` in every linked view from Python (drawn again, cameras kept)."""
        import ipywidgets as w

        cameras = [dict(v.sigma.camera_state) for v in self.graphs]
        old = (self._graph_row, self._layout[1], *self.graphs)
        self._selected = key
        self.graphs = self._views(key, cameras)
        captions, _ = self._layout
        flex = w.Layout(flex="1 1 0", min_width="0")
        cards = w.HBox([w.Box([v.card], layout=flex) for v in self.graphs])
        cards.add_class("graphpart-compare-cards")
        self._graph_row = linked_row(self.graphs)
        self._layout = (captions, cards)
        row = self._freezer.drawing(self._graph_row, [v.sigma for v in self.graphs])
        first = self.widget.children[:2]  # the seat, the captions
        self.widget.children = [*first, row, cards, *self.widget.children[4:]]
        discard(*old)

    def _release(self) -> None:
        """The row frozen: its drawings closed, each out of its view, and the row closed."""
        for v in self.graphs:
            v.release()
        self._graph_row.close()

    def _wake(self) -> None:
        """The page granted contexts: the row made for this drawing, or (closed when it froze)
        new views, selection and cameras kept."""
        if any(v.sigma.comm is None for v in self.graphs):
            self.select(self._selected)
        else:
            row = self._freezer.drawing(self._graph_row, [v.sigma for v in self.graphs])
            self.widget.children = [*self.widget.children[:2], row, *self.widget.children[3:]]

    def _show_frozen(self, box) -> None:
        self.widget.children = [*self.widget.children[:2], box, *self.widget.children[3:]]

    @property
    def freezer(self):
        """The views' :class:`~graphpart.widgets.webgl_budget.Freezer`: ``freezer.freeze()``
        shows still pictures of every view."""
        return self._freezer

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

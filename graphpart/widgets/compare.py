"""``PartitioningComparison``: several partitionings of one graph, the same figure for each, side by
side."""

from __future__ import annotations

import html

from ..errors import GraphpartError
from ..metrics import compare_metrics
from ..storage.reopen import as_partitioning
from ..viz import plot_balance, plot_cut_matrix, plot_halo_growth
from ._common import html_table, image, render

__all__ = ["PartitioningComparison", "FIGURES"]

# : Figure name -> how to draw it for one partitioning (no layout: comparable across files whose ids
# differ).
FIGURES = {
    "balance": lambda p, ax: plot_balance(p, ax=ax),
    "cut matrix": lambda p, ax: plot_cut_matrix(p, ax=ax),
    "HALO growth": lambda p, ax: plot_halo_growth(p, max_hops=2, ax=ax),
}


class PartitioningComparison:
    """The same figure for each partitioning, side by side, over a table of their metrics.

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
    """

    def __init__(self, sources: dict, *, figure: str = "balance") -> None:
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
        self.controls["figure"].observe(lambda change: self._draw(), names="value")
        row = w.HBox(
            [
                w.VBox([t, i], layout=w.Layout(flex="1 1 0", min_width="0"))
                for t, i in zip(titles, self.images)
            ]
        )
        self.widget = w.VBox([self.controls["figure"], row, self.metrics_html])
        self.widget.add_class("graphpart-compare")
        self.shown = None
        self._draw()

    def _draw(self) -> None:
        name = self.controls["figure"].value
        for img, p in zip(self.images, self.partitionings.values()):
            img.value = render(lambda ax, p=p: FIGURES[name](p, ax), (7.0, 3.8))
        self.shown = name

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

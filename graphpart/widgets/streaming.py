"""StreamingSteps: a streaming partitioner (Fennel) deciding node by node, step by step."""

from __future__ import annotations

import html

import ipywidgets as w
import numpy as np

from ..graph.core import Graph
from ..partitioning.stream_steps import fennel_steps
from ..viz.stream import plot_stream_step
from ._common import image, render


class StreamingSteps(w.VBox):
    """Fennel reading ``graph`` node by node: step through (or play) its decisions.

    Each step shows the graph with the nodes placed so far, the node being decided, and a table
    of its score in every partition: neighbours already placed there, minus the load penalty
    ``alpha * gamma * load ** (gamma - 1)``; full partitions are out. The highest score wins.

    Parameters
    ----------
    graph : Graph
        A small graph (:data:`graphpart.partitioning.stream_steps.MAX_STEP_NODES` nodes at most).
    num_parts : int, default 2
    **fennel
        ``order``, ``gamma``, ``alpha``, ``slack``: as :func:`graphpart.partitioning.fennel_steps`.

    Attributes
    ----------
    steps : StreamSteps
        Every decision.
    step : ipywidgets.IntSlider
        The step shown (1-based); ``play`` advances it.

    Examples
    --------
    >>> from graphpart import datasets
    >>> view = StreamingSteps(datasets.load_karate_club(), 2)
    >>> view.step.value = 5
    >>> "node 4" in view.why.value
    True
    """

    def __init__(self, graph: Graph, num_parts: int = 2, **fennel) -> None:
        self.graph = graph
        self.steps = fennel_steps(graph, num_parts, **fennel)
        n = len(self.steps.order)
        self.step = w.IntSlider(value=1, min=1, max=max(n, 1), description="step")
        self.play = w.Play(value=1, min=1, max=max(n, 1), interval=700, description="play")
        w.jslink((self.play, "value"), (self.step, "value"))
        self.picture = image("graphpart-stream-picture", width="620px")
        self.why = w.HTML()
        self.why.add_class("graphpart-stream-why")
        self.step.observe(lambda _: self._show(), "value")
        super().__init__([w.HBox([self.play, self.step]), w.HBox([self.picture, self.why])])
        self.add_class("graphpart-streaming-steps")
        self._show()

    def _show(self) -> None:
        s, t = self.steps, self.step.value - 1
        self.picture.value = render(
            lambda ax: plot_stream_step(self.graph, s, t, ax=ax), (6.2, 4.8)
        )
        v, score = int(s.order[t]), s.score[t]
        bold = " style='font-weight:bold'"
        rows = "".join(
            f"<tr{bold if q == s.choice[t] else ''}><td>part {q}</td>"
            f"<td>{s.neighbours[t, q]}</td><td>{s.penalty[t, q]:.2f}</td>"
            f"<td>{'full' if s.full[t, q] else f'{score[q]:.2f}'}</td></tr>"
            for q in range(s.neighbours.shape[1])
        )
        self.why.value = (
            f"<p><b>Step {t + 1}: node {v}</b> goes to <b>part {s.choice[t]}</b>, the highest"
            f" score.</p><table class='graphpart-summary'><tr><th>partition</th>"
            f"<th>neighbours placed</th><th>load penalty</th><th>score</th></tr>{rows}</table>"
            f"<p style='font-size:11px'>score = neighbours placed there - {s.alpha:.3f} x"
            f" {s.gamma:g} x load<sup>{s.gamma - 1:g}</sup>; a partition holding"
            f" {s.capacity} nodes is full. Neighbours pull a node to them; the penalty pushes it"
            f" to lighter partitions. {html.escape(self._so_far(t))}</p>"
        )

    def _so_far(self, t: int) -> str:
        placed = self.steps.placed(t + 1)
        loads = np.bincount(placed[placed >= 0], minlength=self.steps.neighbours.shape[1])
        return "Loads after this step: " + ", ".join(str(int(x)) for x in loads) + "."

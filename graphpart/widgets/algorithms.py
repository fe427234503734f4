"""The partitioners at work, step by step: StreamingSteps (Fennel), MultilevelView (METIS).

Both are a picture and its explanation per step, with a slider and a play button (``_Stepper``).
"""

from __future__ import annotations

import html

import ipywidgets as w
import numpy as np

from ..graph.core import Graph
from ..partitioning.stream_steps import fennel_steps
from ..utils.check import check_option_names
from ..viz.stream import plot_stream_step
from ._common import image, render


class _Stepper(w.VBox):
    """A picture and its explanation per step: a slider (from 1) and a play button."""

    def _stepper(self, count: int, name: str, part: str, root: str, interval: int):
        """The slider of ``count`` steps named ``name``; the picture and explanation carry the
        classes ``graphpart-{part}-picture`` / ``-why``, the whole view ``root``."""
        slider = w.IntSlider(value=1, min=1, max=max(count, 1), description=name)
        self.play = w.Play(value=1, min=1, max=max(count, 1), interval=interval)
        w.jslink((self.play, "value"), (slider, "value"))
        self.picture = image(f"graphpart-{part}-picture", width="560px")
        self.picture.layout.flex = "0 0 auto"  # one size at every step, whatever the text says
        self.why = w.HTML(layout=w.Layout(flex="1 1 260px", min_width="260px"))
        self.why.add_class(f"graphpart-{part}-why")
        slider.observe(lambda _: self._show(), "value")
        # the text beside the picture, or under it where the two do not fit side by side
        row = w.HBox([self.picture, self.why], layout=w.Layout(flex_flow="row wrap"))
        w.VBox.__init__(self, [w.HBox([self.play, slider]), row])
        self.add_class(root)
        return slider

    def _draw(self, draw) -> None:
        self.picture.value = render(draw, (6.2, 4.8))

    def _show(self) -> None:
        raise NotImplementedError


class StreamingSteps(_Stepper):
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
        check_option_names(fennel, ["order", "gamma", "alpha", "slack"], "Fennel option")
        self.steps = fennel_steps(graph, num_parts, **fennel)  # checks graph and num_parts
        self.graph = graph
        n = len(self.steps.order)
        self.step = self._stepper(n, "step", "stream", "graphpart-streaming-steps", 700)
        self._show()

    def _show(self) -> None:
        s, t = self.steps, self.step.value - 1
        self._draw(lambda ax: plot_stream_step(self.graph, s, t, ax=ax))
        v, score = int(s.order[t]), s.score[t]
        bold = " style='font-weight:bold'"
        rows = "".join(
            f"<tr{bold if q == s.choice[t] else ''}><td>part {q}</td>"
            f"<td>{s.neighbours[t, q]}</td><td>{s.penalty[t, q]:.2f}</td>"
            f"<td>{'full' if s.full[t, q] else f'{score[q]:.2f}'}</td></tr>"
            for q in range(s.neighbours.shape[1])
        )
        self.why.value = (
            f"<p><b>Step {t + 1}: node {v}</b> goes to <b>part {s.choice[t]}</b>, "
            f"{self._why_there(t)}</p><table class='graphpart-summary' style='border-spacing:12px "
            f"1px;margin-left:-12px;line-height:1.35'><tr><th>partition</th>"
            f"<th>neighbours placed</th><th>load penalty</th><th>score</th></tr>{rows}</table>"
            f"<p style='font-size:11px;line-height:1.35'>score = neighbours placed there - "
            f"{s.alpha:.3f} x"
            f" {s.gamma:g} x load<sup>{s.gamma - 1:g}</sup>; a partition holding"
            f" {s.capacity} nodes is full. Neighbours pull a node to them; the penalty pushes it"
            f" to lighter partitions. {html.escape(self._so_far(t))}</p>"
        )

    def _why_there(self, t: int) -> str:
        """Why step ``t``'s node went where it did: the highest score, or which tie rule."""
        s = self.steps
        score, placed = s.score[t], s.placed(t)
        tied = np.flatnonzero(score == score.max())
        if len(tied) == 1:
            return "the highest score."
        loads = np.bincount(placed[placed >= 0], minlength=len(score))[tied]
        names = ", ".join(f"part {int(q)}" for q in tied)
        if (loads == loads.min()).sum() == 1:
            return f"the lightest of those tied for the highest score ({names})."
        return f"the lowest-numbered of the lightest tied for the highest score ({names})."

    def _so_far(self, t: int) -> str:
        placed = self.steps.placed(t + 1)
        loads = np.bincount(placed[placed >= 0], minlength=self.steps.neighbours.shape[1])
        return "Loads after this step: " + ", ".join(str(int(x)) for x in loads) + "."


class MultilevelView(_Stepper):
    """METIS's multilevel idea on ``graph``, stage by stage: coarsen, partition, refine.

    The stage slider walks through every level as it is coarsened (heavy-edge matching), the
    coarsest graph partitioned by METIS, then each level uncoarsened (its nodes take their coarse
    node's partition) and refined (boundary nodes move where they cut fewer edges).

    Parameters
    ----------
    graph : Graph
        A small graph.
    num_parts : int, default 2
    **options
        ``coarsest``, ``imbalance``, ``seed``: as :func:`graphpart.partitioning.multilevel_steps`
        (``coarsest`` defaults to 6 here, to show several levels on a small graph).

    Examples
    --------
    >>> from graphpart import datasets
    >>> view = MultilevelView(datasets.load_karate_club(), 2)
    >>> view.stage.value = view.stage.max
    >>> "Refine level 0" in view.why.value
    True
    """

    def __init__(self, graph: Graph, num_parts: int = 2, **options) -> None:
        from ..partitioning.multilevel_steps import multilevel_steps

        check_option_names(options, ["coarsest", "imbalance", "seed"], "multilevel option")
        options.setdefault("coarsest", 6)
        self.steps = steps = multilevel_steps(graph, num_parts, **options)  # checks them all
        self.graph = graph
        top = len(steps.levels) - 1
        self.stages = [("coarsen", i) for i in range(top + 1)] + [("partition", top)]
        for i in range(top - 1, -1, -1):
            self.stages += [("project", i), ("refine", i)]
        n = len(self.stages)
        self.stage = self._stepper(n, "stage", "multilevel", "graphpart-multilevel-steps", 1500)
        self._show()

    def _show(self) -> None:
        from ..viz.stream import plot_multilevel_level

        s = self.steps
        kind, i = self.stages[self.stage.value - 1]
        lv = s.levels[i]
        part = {"coarsen": None, "partition": s.refined[-1] if i == len(s.levels) - 1 else None}
        part = part.get(kind, s.projected[i] if kind == "project" else s.refined[i])
        self._draw(lambda ax: plot_multilevel_level(self.graph, s, i, part, ax=ax))
        total = int(s.levels[0].edge_weight.sum())  # every input edge, each pair once
        if kind == "coarsen" and i == 0:
            text = (
                f"<b>Level 0: the graph</b>, {lv.num_nodes} nodes. METIS will not partition it"
                " directly: it first makes it small."
            )
        elif kind == "coarsen":
            text = (
                f"<b>Coarsen to level {i}</b>: {s.levels[i - 1].num_nodes} -> {lv.num_nodes}"
                " nodes. Each node was merged with the neighbour it shares its heaviest edge"
                " with; a node's area is how many input nodes it stands for, an edge's width how"
                " many input edges it stands for."
            )
        elif kind == "partition":
            text = (
                f"<b>Partition the coarsest graph</b> ({lv.num_nodes} nodes) with METIS into"
                f" {s.num_parts}, balancing node weight: it cuts {lv.cut(part)} of the graph's"
                f" {total} edges. Cheap: the graph is tiny."
            )
        elif kind == "project":
            text = (
                f"<b>Uncoarsen to level {i}</b> ({lv.num_nodes} nodes): each node takes its"
                f" coarse node's partition. Cut {lv.cut(part)} of {total}: the same as the"
                " level above, as the same edges are cut."
            )
        else:
            before = s.projected[i]
            moved = int((before != part).sum())
            text = (
                f"<b>Refine level {i}</b>: {moved} boundary node(s) moved to the partition"
                f" holding more of their edges, within balance: cut {lv.cut(before)} ->"
                f" {lv.cut(part)} of {total}. Finer levels can fix what coarse ones could not"
                " see."
            )
        self.why.value = f"<p>Stage {self.stage.value} of {len(self.stages)}.</p><p>{text}</p>"

"""``CacheSimulator``: stream mini-batches through feature caches and watch hit rates as lookups
happen."""

from __future__ import annotations

import html
import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import torch

from ..errors import GraphpartError
from ..features import STREAM_POLICIES, LookupSession
from ..graph.core import Graph
from ..partitioning.core import Partitioning
from ..sampling import Topology, parse_fanouts
from ..storage.reopen import as_partitioning
from ..utils.check import check_count, short_repr
from ..utils.tensors import flat_ints
from ..viz import plot_hit_rate_trace, plot_partition_access
from ._common import form, image, render, status_widgets, text_html
from .cache_graph import BatchGraph

if TYPE_CHECKING:
    import os

    from ..partitioning.core import Partitioning

__all__ = ["CacheSimulator"]

#: The largest cache (share of all rows) and batch the controls offer.
MAX_RATIO, MAX_BATCH = 0.5, 1 << 20


def _seeds(seeds: object, n: int) -> torch.Tensor:
    """``seeds`` as a bool mask or ids over the ``n`` nodes, checked before use."""
    seeds = flat_ints(seeds, n, "seeds", "a bool mask or node ids")
    if not isinstance(seeds, (np.ndarray, torch.Tensor)):
        raise GraphpartError(f"seeds must be a bool mask or node ids, got {type(seeds).__name__}")
    t = torch.as_tensor(seeds)
    if t.dim() != 1 or t.dtype.is_floating_point:
        raise GraphpartError(
            f"seeds must be a bool mask or node ids, got {t.dtype} {tuple(t.shape)}"
        )
    if t.dtype == torch.bool and len(t) != n:
        raise GraphpartError(f"a seed mask needs one entry per node ({n}), got {len(t)}")
    if t.dtype != torch.bool and len(t) and (int(t.min()) < 0 or int(t.max()) >= n):
        raise GraphpartError(f"seed ids must lie in [0, {n}), got {int(t.min())}..{int(t.max())}")
    return t


def _train_seeds(graph):
    if graph.is_homogeneous and "train_mask" in graph.node_data():
        return graph.node_data()["train_mask"]
    return None


class CacheSimulator:
    """Pick a cache ratio, policies, fanouts, batch size and (with a partitioning) a trainer; play
    or step.

    Every tick samples the next mini-batch(es), looks their nodes up in one
    cache per chosen policy (a :class:`~graphpart.features.LookupSession`), and
    redraws the hit rate per batch and so far. With a partitioning, a second
    plot shows where the trainer's lookups land under DGL's rule (its own rows, or
    fetched from the owner: HALO copies serve sampling, not features), and
    a graph shows the latest batch's sample (:attr:`batch_graph`): every node
    coloured by where its row was served (GPU cache, own partition, remote
    machine), its card saying why the cache held it or not.
    Changing a control starts a fresh session.

    Parameters
    ----------
    source : Graph or Partitioning
    seeds : ids or mask, optional
        Training nodes (default: the graph's ``train_mask`` if any, else every node).
    policies : sequence of str
        The policies chosen at the start, from :data:`~graphpart.features.STREAM_POLICIES`
        (``"random"`` is the baseline a cache must beat).

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> sim = CacheSimulator(load_karate_club())
    >>> sim.controls["batch_size"].value = 4
    >>> sim.controls["policies"].value = ("in-degree", "lru")
    >>> sim.step_button.click(); sim.step_button.click()
    >>> sim.session.num_batches, sorted(sim.session.hit_rates())
    (2, ['in-degree', 'lru'])
    """

    def __init__(
        self,
        source: Partitioning | str | os.PathLike,
        *,
        seeds=None,
        policies: Sequence[str] = ("in-degree", "presample", "lru"),
        fanouts: str = "10,5",
        cache_ratio: float = 0.1,
        batch_size: int = 256,
        seed: int = 0,
    ) -> None:
        import ipywidgets as w

        if not isinstance(source, Graph):  # partitions, on disk in any format graphpart reads
            source = as_partitioning(source)
        self.partitioning = source if isinstance(source, Partitioning) else None
        self.graph = source.graph if self.partitioning is not None else source
        self.topo = Topology.from_graph(self.graph)
        n = self.graph.num_nodes()
        self.seeds = _train_seeds(self.graph) if seeds is None else _seeds(seeds, n)
        self.seed = check_count(seed, "seed", 0, 2**31 - 1)
        if (
            isinstance(cache_ratio, bool)
            or not isinstance(cache_ratio, numbers.Real)
            or not (0.0 <= cache_ratio <= MAX_RATIO)
        ):
            raise GraphpartError(
                f"cache_ratio must be a share of the rows in [0, {MAX_RATIO}], got "
                f"{short_repr(cache_ratio, 40)}"
            )
        batch_size = check_count(batch_size, "batch_size", 1, MAX_BATCH)
        if not isinstance(fanouts, str):
            raise GraphpartError(
                f"fanouts must be text such as '10,5' (the control shows it), got "
                f"{short_repr(fanouts, 40)}"
            )
        parse_fanouts(fanouts)
        if isinstance(policies, str):
            policies = (policies,)
        elif not isinstance(policies, (list, tuple)) or len(policies) > len(STREAM_POLICIES):
            raise GraphpartError(
                f"policies must be one or more of {list(STREAM_POLICIES)}, got "
                f"{short_repr(policies, 80)}"
            )
        policies = tuple(policies)
        bad = [p for p in policies if not isinstance(p, str) or p not in STREAM_POLICIES]
        if bad or not policies:
            raise GraphpartError(
                f"policies must be one or more of {list(STREAM_POLICIES)}, got "
                f"{short_repr(list(policies), 80)}"
            )
        every = "all nodes" if self.seeds is None else "all training nodes"
        parts = [(every, ALL)]  # not None: a Dropdown shows None as no choice (blank)
        if self.partitioning is not None:
            parts += [(f"trainer of part {i}", i) for i in range(self.partitioning.num_parts)]
        field = form("100px", "270px")
        self.controls = {
            "cache_ratio": field(
                w.FloatSlider,
                "cache ratio",
                value=cache_ratio,
                max=MAX_RATIO,
                step=0.01,
                readout_format=".0%",
            ),
            "policies": field(
                w.SelectMultiple,
                "policies",
                options=list(STREAM_POLICIES),
                value=policies,
                rows=len(STREAM_POLICIES),
            ),
            "fanouts": field(w.Text, "fanouts", value=fanouts),
            "batch_size": field(
                w.BoundedIntText,
                "batch size",
                value=batch_size,
                min=1,
                max=MAX_BATCH,
                continuous_update=True,
            ),
            "partition": field(w.Dropdown, "seeds", options=parts, value=ALL),
            "per_tick": field(
                w.IntSlider, "batches/tick", value=1, min=1, max=20, continuous_update=True
            ),
        }
        self.play = w.Play(value=0, min=0, max=10**9, step=1, interval=400, description="play")
        self.step_button = w.Button(description="Step", icon="step-forward")
        self.reset_button = w.Button(description="Reset", icon="refresh")
        self.step_button.on_click(lambda _: self.step())
        self.reset_button.on_click(lambda _: self.reset())
        self.play.observe(self._on_play, names="value")
        for c in self.controls.values():
            if c is not self.controls["per_tick"]:
                c.observe(lambda _: self.reset(), names="value")
        self.status, _ = status_widgets()
        self.plot = image("graphpart-hit-rate")
        self.where = image("graphpart-locality")
        self.batch_graph = BatchGraph(self.partitioning) if self.partitioning else None
        graph = [self.batch_graph.widget] if self.batch_graph else []
        self.play.observe(self._on_pause, names="playing")
        left = w.VBox(
            [
                *self.controls.values(),
                w.HBox([self.play, self.step_button]),
                self.reset_button,
                self.status,
            ],
            layout=w.Layout(width="300px", flex="0 0 300px"),
        )
        self.widget = w.HBox(
            [left, w.VBox([self.plot, self.where, *graph], layout=w.Layout(flex="1 1 auto"))],
            layout=w.Layout(align_items="flex-start"),
        )
        self.widget.add_class("graphpart-cache-simulator")
        self.session: LookupSession | None = None
        self.error: str | None = None
        self._played = 0
        self.reset()

    def reset(self) -> None:
        """Start a fresh session from the controls (nothing looked up yet)."""
        c = self.controls
        self.play.playing = False
        self._played = self.play.value
        part = None if c["partition"].value == ALL else c["partition"].value
        try:
            self.session = LookupSession(
                self.topo,
                parse_fanouts(c["fanouts"].value),
                policies=list(c["policies"].value),
                cache_ratio=c["cache_ratio"].value,
                batch_size=c["batch_size"].value,
                seeds=self.seeds,
                partitioning=self.partitioning if part is not None else None,
                part_id=part,
                seed=self.seed,
            )
            self.error = None
        except GraphpartError as e:
            self.session, self.error = None, str(e)
        self._draw()

    def _on_play(self, change) -> None:
        ticks = change["new"] - self._played
        self._played = change["new"]
        if ticks > 0:
            self.step(ticks * self.controls["per_tick"].value)

    def _on_pause(self, change) -> None:
        if not change["new"] and self.batch_graph is not None:
            self.batch_graph.update(self.session)

    def step(self, n: int | None = None) -> None:
        """Look up ``n`` more mini-batches (default: batches/tick) and redraw."""
        if self.session is None:
            return
        self.session.step(self.controls["per_tick"].value if n is None else n)
        self._draw()

    def _draw(self) -> None:
        s = self.session
        if s is None:
            self.status.value = text_html(
                f"<span style='color:#b00020'>{html.escape(self.error or '')}</span>"
            )
            _show(self.plot, b"")
            _show(self.where, b"")
            if self.batch_graph is not None:
                self.batch_graph.update(None)
            return
        runs = s.runs()
        _show(self.plot, render(lambda ax: _trace(ax, runs, s.num_batches), (7.5, 3.6)))
        # where a trainer's lookups land: once a trainer is chosen and a batch was looked up
        # (before, an empty plot whose axis ran from -4% to 4%)
        acc = s.access() if s.num_batches else None
        _show(
            self.where,
            render(lambda ax: plot_partition_access([acc], ax=ax), (7.5, 2.4)) if acc else b"",
        )
        if self.batch_graph is not None and not self.play.playing:
            self.batch_graph.update(s)  # while playing, when play pauses
        rates = (  # no hit rate before the first lookup (it read "0.0%")
            ", ".join(f"{p} {r:.1%}" for p, r in s.hit_rates().items())
            if sum(s.lookups)
            else "no lookups yet: press play or Step"
        )
        self.status.value = text_html(
            f"batch {s.num_batches} (epoch {s.epoch}), {sum(s.lookups):,} lookups, "
            f"cache {s.capacity:,} rows<br>{html.escape(rates)}"
        )

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


#: The "seeds" choice for all training nodes (no trainer).
ALL = -1


def _trace(ax, runs, num_batches: int) -> None:
    plot_hit_rate_trace(runs, ax=ax)
    if not num_batches:  # an empty plot says what fills it (no batch ticks yet)
        ax.set_xticks([])
        ax.text(
            0.5,
            0.5,
            "press Step or play to look up the first mini-batch",
            transform=ax.transAxes,
            ha="center",
            va="center",
            color="#666",
        )


def _show(img, png: bytes) -> None:
    """Show ``png`` in ``img``, or hide ``img`` while there is nothing to show (an empty Image
    draws a broken-image icon)."""
    img.value = png
    img.layout.display = None if png else "none"

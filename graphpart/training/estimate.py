"""Step and epoch times from an epoch's counts and a :class:`~.model.ClusterModel`.

Training is synchronous: every step waits for the slowest trainer that runs it, so the epoch is
the sum over steps of the slowest trainer's step time (a trainer with fewer steps waits, as under
DDP's ``join``). The breakdown adds up, step by step, the parts of whichever trainer was slowest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import GraphpartError
from ..utils.report import Report
from .counts import EDGE_BYTES, EpochCounts
from .model import ClusterModel

__all__ = ["EpochEstimate", "estimate_epoch", "seconds", "PARTS", "TIE", "is_tie"]

#: The parts of a step, in the order the views stack them.
PARTS = ("sampling", "fetch", "compute")
#: Epoch estimates within this share of the faster one are a tie: the replay samples at random,
#: and another seed moves an estimate by about this much (notebook 08). Every view that names a
#: fastest setting reads ties by this one rule (:func:`is_tie`).
TIE = 0.03


def is_tie(epoch_s: float, fastest_s: float) -> bool:
    """Whether an estimated epoch of ``epoch_s`` ties with the faster ``fastest_s``: at most
    :data:`TIE` longer.

    Parameters
    ----------
    epoch_s : float
        The slower estimate, in seconds.
    fastest_s : float
        The faster one.

    Returns
    -------
    bool
        ``epoch_s <= fastest_s * (1 + TIE)``.

    Examples
    --------
    >>> is_tie(1.025, 1.0), is_tie(1.04, 1.0)
    (True, False)
    """
    return bool(epoch_s <= fastest_s * (1 + TIE))


def _step_parts(c: EpochCounts, m: ClusterModel) -> dict[str, np.ndarray]:
    """Seconds of each part per (epoch, trainer, step); a model whose rates are too small for
    the times to be finite numbers is refused."""
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        parts = _seconds(c, m)
        # each trainer's totals too, in milliseconds as the reports show them: steps each
        # finite could add up past the largest float
        totals = [p.sum(axis=(0, -1)) for p in parts.values()]
        totals.append(np.sum(totals, axis=0))
        finite = all(np.isfinite(1e3 * p).all() for p in [*parts.values(), *totals])
    if not finite:
        raise GraphpartError(
            f"the model's rates are too small for finite times (got {m}); "
            "give rates a real cluster could have"
        )
    return parts


def _seconds(c: EpochCounts, m: ClusterModel) -> dict[str, np.ndarray]:
    net = m.network_bytes_s(c.num_trainers_per_machine)
    lat, rate = m.rpc_latency_us * 1e-6, m.sample_medges_s * 1e6
    L, rb = c.layer, float(c.row_bytes)  # float: rows x bytes may not fit an int64
    asked = L["sample_machines"]
    local = L["edges_local"] / rate
    remote = np.where(
        asked > 0,
        lat
        + L["edges_remote"] / (rate * np.maximum(asked, 1))
        + L["edges_remote"] * EDGE_BYTES / net,
        0.0,
    )
    sampling = np.maximum(local, remote).sum(axis=3)
    S = c.step
    host = np.maximum(
        S["inputs_local"] * rb / (m.gather_gbyte_s * 1e9),
        np.where(S["fetch_machines"] > 0, lat + S["inputs_remote"] * rb / net, 0.0),
    )
    fetch = host + (S["inputs_local"] + S["inputs_remote"]) * rb / (m.pcie_gbyte_s * 1e9)
    layers = len(c.fanouts)
    d_in = np.full(layers, float(m.hidden))
    d_in[-1] = c.feat_dim  # the outermost layer reads the features
    edges = L["edges_local"] + L["edges_remote"]
    flops = 3 * (2 * edges * d_in + 4 * L["dst"] * d_in * m.hidden)
    compute = flops.sum(axis=3) / (m.gpu_tflops * 1e12)
    return {"sampling": sampling, "fetch": fetch, "compute": compute}


@dataclass(frozen=True)
class EpochEstimate:
    """Estimated times of an epoch: per trainer, per step, and the epoch as training sees it.

    Attributes
    ----------
    counts : EpochCounts
    model : ClusterModel
    parts : dict of str to ndarray
        Seconds of ``"sampling"``, ``"fetch"`` and ``"compute"`` per (epoch, trainer, step).
    label : str
        A name for tables and figures.
    """

    counts: EpochCounts
    model: ClusterModel
    parts: dict
    label: str = ""

    @property
    def step_s(self) -> np.ndarray:
        """Seconds per (epoch, trainer, step)."""
        return sum(self.parts[p] for p in PARTS)

    @property
    def epoch_s(self) -> float:
        """The epoch estimate: per step the slowest trainer, summed (mean over epochs)."""
        return float(self.step_s.max(axis=1).sum(axis=1).mean())

    def per_trainer(self, part: str | None = None) -> np.ndarray:
        """Busy seconds per trainer and epoch (one part, or all)."""
        a = self.step_s if part is None else self.parts[part]
        return a.sum(axis=2).mean(axis=0)

    @property
    def breakdown(self) -> dict[str, float]:
        """The epoch split into parts: at each step, the slowest trainer's parts."""
        t = self.step_s
        slow = t.argmax(axis=1)[:, None, :]
        return {
            p: float(np.take_along_axis(self.parts[p], slow, 1).sum(axis=(1, 2)).mean())
            for p in PARTS
        }

    @property
    def straggler(self) -> int:
        """The trainer with the most busy time."""
        return int(np.argmax(self.per_trainer()))

    @property
    def straggler_ratio(self) -> float:
        """Busy time of the slowest trainer over the mean (1.0: perfectly even)."""
        busy = self.per_trainer()
        return float(busy.max() / busy.mean()) if busy.mean() > 0 else 1.0

    def why(self) -> str:
        """One sentence: which trainer is slowest, which part dominates it, and what drives it."""
        c, r = self.counts, self.straggler
        parts = {p: float(self.per_trainer(p)[r]) for p in PARTS}
        top = max(parts, key=parts.get)
        busy = sum(parts.values()) or 1.0
        seeds = c.per_trainer("seeds")[r]
        remote_seeds = seeds - c.per_trainer("seeds_local")[r]
        inputs = c.per_trainer("inputs")[r]
        edges = c.per_trainer("edges_local")[r] + c.per_trainer("edges_remote")[r]
        reason = {
            "sampling": f"{_pct(c.per_trainer('requests_remote')[r], c.per_trainer('dst')[r])} of "
            f"its sampling requests go to other machines",
            "fetch": f"{_pct(c.per_trainer('inputs_remote')[r], inputs)} of its input rows come "
            f"from other machines",
            "compute": f"it computes over {edges:,.0f} sampled edges",
        }[top]
        return (
            f"trainer {r} (machine {r // c.num_trainers_per_machine}) is the slowest: "
            f"{top} is {parts[top] / busy:.0%} of its time; {reason}; "
            f"{_pct(remote_seeds, seeds)} of its {seeds:,.0f} seeds are remote"
        )

    def table(self) -> Report:
        """Per trainer: seeds, remote rows and bytes, and the parts' seconds; the epoch below."""
        c = self.counts
        seeds = c.per_trainer("seeds")
        inputs = np.maximum(c.per_trainer("inputs"), 1)
        cols = {
            "machine": c.machine.tolist(),
            "steps": c.num_steps.tolist(),
            "seeds": seeds.round().astype(int).tolist(),
            "remote seeds %": _pcts(seeds - c.per_trainer("seeds_local"), seeds),
            "remote rows %": _pcts(c.per_trainer("inputs_remote"), inputs),
            "remote MB": [f"{x:.3g}" for x in c.bytes("inputs_remote") / 1e6],
        }
        if c.cache:
            cols["cached %"] = _pcts(c.per_trainer("inputs_cached"), inputs)
        for p in PARTS:
            cols[f"{p} ms"] = [f"{1e3 * x:.3g}" for x in self.per_trainer(p)]
        cols["busy ms"] = [f"{1e3 * x:.3g}" for x in self.per_trainer()]
        b = self.breakdown
        summary = {
            "epoch": f"{seconds(self.epoch_s)} ("
            + ", ".join(f"{p} {seconds(b[p])}" for p in PARTS)
            + ")",
            "straggler": f"{self.straggler_ratio:.2f}x the mean trainer's busy time",
            "why": self.why(),
            "model": ", ".join(f"{k}={v}" for k, v in vars(self.model).items()),
        }
        title = f"{self.label + ': ' if self.label else ''}{c.num_trainers} trainers"
        return Report(title, cols, summary, index="trainer")

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def __repr__(self) -> str:
        return str(self.table())


def _pcts(a: np.ndarray, b: np.ndarray) -> list[str]:
    return [f"{100 * x / y:.1f}" if y else "0.0" for x, y in zip(a, b)]


def seconds(x: float) -> str:
    """A duration at three significant digits in s, ms or us.

    Parameters
    ----------
    x : float
        The duration in seconds.

    Returns
    -------
    str
        ``x`` in seconds from 1 s up, in milliseconds from 1 ms, else in microseconds, at
        three significant digits, trailing zeros kept (``"12.0 s"``, ``"1.30 ms"``,
        ``"2.50 us"``): two figures that read alike are alike to 1%.

    Examples
    --------
    >>> seconds(0.4391), seconds(0.0013), seconds(2.5e-6), seconds(12.0), seconds(0.0)
    ('439 ms', '1.30 ms', '2.50 us', '12.0 s', '0.00 us')
    >>> seconds(0.9996), seconds(0.0009996), seconds(4321.0)  # rounded first, then the unit
    ('1.00 s', '1.00 ms', '4,321 s')
    """
    if not math.isfinite(x):
        return f"{x} s"
    if abs(x) >= 999.5:
        return f"{x:,.0f} s"
    unit, size = next(
        ((u, z) for u, z in (("s", 1.0), ("ms", 1e-3)) if float(f"{abs(x) / z:.3g}") >= 1),
        ("us", 1e-6),
    )
    return f"{x / size:#.3g}".rstrip(".") + f" {unit}"


def _pct(a: float, b: float) -> str:
    return f"{100 * a / b:.0f}%" if b else "0%"


def estimate_epoch(
    counts: EpochCounts, model: ClusterModel | None = None, label: str = ""
) -> EpochEstimate:
    """Times of ``counts`` under ``model`` (default: :class:`ClusterModel`'s published figures).

    Parameters
    ----------
    counts : EpochCounts
        What :func:`~graphpart.training.replay_epochs` counted.
    model : ClusterModel or None, default None
        The hardware rates; ``None`` is ``ClusterModel()``.
    label : str, default ""
        A name for the estimate's tables and figures.

    Returns
    -------
    EpochEstimate
        Seconds of sampling, fetch and compute per (epoch, trainer, step), with the epoch time,
        its breakdown and the straggler.

    Raises
    ------
    GraphpartError
        When ``counts`` is not an :class:`EpochCounts` or ``model`` not a :class:`ClusterModel`,
        or when the model's rates are too small for the times to be finite.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.training import replay_epochs
    >>> p = gp.partition(load_karate_club(), 2, seed=0)
    >>> c = replay_epochs(p, fanouts=[5, 5], batch_size=8, train=None, seed=0)
    >>> est = estimate_epoch(c)
    >>> est.epoch_s > 0, sorted(est.breakdown) == sorted(PARTS), est.straggler_ratio >= 1
    (True, True, True)
    """
    model = ClusterModel() if model is None else model
    if not isinstance(model, ClusterModel) or not isinstance(counts, EpochCounts):
        raise GraphpartError(
            "estimate_epoch takes EpochCounts and a ClusterModel, got "
            f"{type(counts).__name__} and {type(model).__name__}"
        )
    return EpochEstimate(counts, model, _step_parts(counts, model), label)

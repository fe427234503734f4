"""Compare partition settings: run a grid of settings, tabulate edge cut against imbalance.

A :class:`Setting` is one way to partition: a number of parts and the
:class:`~graphpart.PartitionOptions`; :func:`grid` makes every combination of option values,
:func:`sweep` runs several on one graph and returns
:class:`SweepResult` rows that :func:`graphpart.viz.plot_tradeoff` draws and
:func:`sweep_report` tabulates.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace

import numpy as np

from .errors import GraphpartError
from .graph.core import Graph
from .partitioning.assignment import check_num_parts
from .partitioning.core import Partitioning, partition
from .partitioning.options import MetisOptions, PartitionOptions
from .training.estimate import EpochEstimate, seconds
from .training.replay import TrainingSetup
from .utils.check import check_option_names, short_repr
from .utils.report import Report

__all__ = ["Setting", "SweepResult", "balance_sources", "grid", "sweep", "sweep_report"]

log = logging.getLogger(__name__)

#: Node data columns with more distinct values than this are not offered as balance sources.
MAX_BALANCE_CLASSES = 32


def _is_class_column(values) -> bool:
    arr = values.numpy() if hasattr(values, "numpy") else np.asarray(values)
    if arr.ndim != 1 or arr.dtype.kind not in "biu":
        return False
    return len(np.unique(arr)) <= MAX_BALANCE_CLASSES


def balance_sources(g: Graph) -> list[str]:
    """What a sweep can balance: ``"none"`` (node counts, and each node type of a heterograph,
    as DGL does), then the class-like node data a ``balance_ntypes`` field name can give.

    A node data column qualifies when it is one-dimensional, bool or int, with at
    most :data:`MAX_BALANCE_CLASSES` distinct values (masks, labels).

    Parameters
    ----------
    g : Graph
        The graph whose node data is read (every node type).

    Returns
    -------
    list of str
        ``"none"``, then each qualifying column name once, in the order the node types and
        their data list them.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> balance_sources(load_karate_club())
    ['none', 'label']
    """
    names: list[str] = []
    for t in g.ntypes:
        for name, values in g.node_data(t).items():
            if name not in names and _is_class_column(values):
                names.append(name)
    return ["none", *names]


@dataclass(frozen=True)
class Setting:
    """One way to partition a graph: a number of parts, the options, and a label.

    Attributes
    ----------
    num_parts : int, default 4
        The number of partitions.
    options : PartitionOptions, default PartitionOptions()
        How to partition (:class:`~graphpart.PartitionOptions`, the one declaration of every
        partition option). A random split ignores balance and METIS options, so they are
        dropped (one setting, one label); an unset seed is 0, so a sweep repeats.
    label : str, default ""
        The setting's name in tables and plots; ``""`` names it from the options, e.g.
        ``"metis k=4 bal=train_mask +edges tol=1%"``.

    Examples
    --------
    >>> from graphpart import PartitionOptions
    >>> Setting(4, PartitionOptions(balance_ntypes="train_mask", balance_edges=True)).label
    'metis k=4 bal=train_mask +edges'
    """

    num_parts: int = 4
    options: PartitionOptions = field(default_factory=PartitionOptions)
    label: str = ""

    def __post_init__(self) -> None:
        check_num_parts(self.num_parts)
        opts = self.options
        if not isinstance(opts, PartitionOptions):
            raise GraphpartError(f"options must be a PartitionOptions, got {short_repr(opts)}")
        if isinstance(opts.part_method, str) and opts.part_method == "random":
            opts = replace(opts, balance_ntypes=None, balance_edges=False, metis_options=None)
        if opts.seed is None:
            opts = replace(opts, seed=0)
        object.__setattr__(self, "options", opts)
        if not isinstance(self.label, str):
            raise GraphpartError(f"label must be a str, got {short_repr(self.label)}")
        if not self.label:
            object.__setattr__(self, "label", _label(self))

    @property
    def method(self) -> str:
        """``"metis"``, ``"random"``, or ``"given"`` for an assignment passed as ``part_method``."""
        method = self.options.part_method
        return method if isinstance(method, str) else "given"

    @property
    def balance(self) -> str:
        """What ``balance_ntypes`` balances: ``"none"``, its field name(s), or ``"given"``."""
        balance = self.options.balance_ntypes
        if isinstance(balance, (list, tuple)) and all(isinstance(b, str) for b in balance):
            return ",".join(balance)
        return "none" if balance is None else balance if isinstance(balance, str) else "given"

    def run(self, g: Graph) -> Partitioning:
        """Partition ``g`` with this setting.

        Parameters
        ----------
        g : Graph
            The graph to partition.

        Returns
        -------
        Partitioning
            ``partition(g, self.num_parts, self.options)``.
        """
        return partition(g, self.num_parts, self.options)


def _label(setting: Setting) -> str:
    """``"<method> k=<parts>"``, then what is balanced and METIS's tolerance, when set."""
    bits = [setting.method, f"k={setting.num_parts}"]
    if setting.balance != "none":
        bits.append(f"bal={setting.balance}")
    if setting.options.balance_edges:
        bits.append("+edges")
    ufactor = getattr(setting.options.metis_options, "ufactor", None)
    if ufactor is not None:
        bits.append(f"tol={ufactor / 10:g}%")
    if setting.options.num_trainers_per_machine > 1:
        bits.append(f"trainers={setting.options.num_trainers_per_machine}")
    return " ".join(bits)


def grid(options: PartitionOptions | None = None, **values: object) -> list[Setting]:
    """Every combination of the given partition options, as :class:`Setting` objects.

    Parameters
    ----------
    options : PartitionOptions or None, default None
        What every setting shares; the keywords replace its fields.
    **values
        ``num_parts``, :class:`~graphpart.PartitionOptions` fields, or
        :class:`~graphpart.MetisOptions` fields (``ufactor``, ``niter``, ...), each to a list or
        tuple of values to vary, or a single value every setting shares.

    Returns
    -------
    list of Setting
        The cartesian product, in the order of the keywords (the last varies fastest), with
        duplicates dropped (random settings differing only in balance are one).

    Raises
    ------
    GraphpartError
        When a keyword names no option (with the nearest name), or a combination is not a valid
        setting.

    Examples
    --------
    A random split ignores balance settings, so it appears once:

    >>> settings = grid(part_method=["random", "metis"], num_parts=2, balance_edges=[False, True])
    >>> [s.label for s in settings]
    ['random k=2', 'metis k=2', 'metis k=2 +edges']
    """
    own = [f.name for f in fields(PartitionOptions)]
    metis = [f.name for f in fields(MetisOptions) if f.name not in own]
    check_option_names(values, ["num_parts", *own, *metis], "setting option")
    base = options if options is not None else PartitionOptions()
    keys = list(values)
    lists = [v if isinstance(v, (list, tuple)) else [v] for v in values.values()]
    out = []
    for combo in itertools.product(*lists):
        chosen = dict(zip(keys, combo))
        num_parts = chosen.pop("num_parts", 4)
        tuned = {k: chosen.pop(k) for k in metis if k in chosen}
        if tuned:
            chosen["metis_options"] = replace(
                chosen.get("metis_options", base.metis_options) or MetisOptions(), **tuned
            )
        out.append(Setting(num_parts, PartitionOptions.of(base, **chosen)))
    return list(dict.fromkeys(out))  # random settings that differ only in balance are one


def _comparable(metrics) -> dict[str, float]:
    """Balance entries every setting shares (per-class entries depend on the setting), and with
    several trainers per machine the trainers' (``trainer nodes``, ...)."""
    both = {**metrics.balance, **{f"trainer {k}": v for k, v in metrics.trainer_balance.items()}}
    return {k: v for k, v in both.items() if "class " not in k and not k.endswith("in-degree")}


@dataclass(frozen=True)
class SweepResult:
    """The outcome of one :class:`Setting`.

    Attributes
    ----------
    setting : Setting
        The setting that was run.
    edge_cut : int
        Edges whose endpoints lie in different partitions (0 when the metrics have none).
    edge_cut_fraction : float
        ``edge_cut`` over the edge count.
    imbalance : dict of str to float
        max / mean over partitions of each quantity every setting balances (nodes, edges,
        nodes of each type, splits); per-class and in-degree entries are left out.
    seconds : float
        Wall-clock seconds to partition and compute the metrics.
    partitioning : Partitioning
        The partitioning itself (not shown in the repr, not compared).
    epoch : EpochEstimate or None
        The estimated epoch (:mod:`graphpart.training`), when ``sweep`` was given a training
        setup.
    """

    setting: Setting
    edge_cut: int
    edge_cut_fraction: float
    imbalance: dict[str, float]
    seconds: float
    partitioning: Partitioning = field(repr=False, compare=False)
    #: The estimated epoch (:mod:`graphpart.training`), when ``sweep`` was given a training setup.
    epoch: EpochEstimate | None = field(default=None, repr=False, compare=False)

    @property
    def epoch_s(self) -> float | None:
        """Estimated seconds per epoch, or ``None`` without a training setup."""
        return None if self.epoch is None else self.epoch.epoch_s

    @property
    def max_imbalance(self) -> float:
        """The worst max/mean over the balanced quantities."""
        return max(self.imbalance.values(), default=1.0)


def sweep(
    g: Graph,
    settings: Iterable[Setting],
    progress: Callable[[int, int, Setting], None] | None = None,
    training: TrainingSetup | None = None,
) -> list[SweepResult]:
    """Run every setting on ``g``; ``progress(i, total, setting)`` is called before each.

    With a :class:`~graphpart.training.TrainingSetup`, every partitioning's epoch is also
    replayed and timed (``SweepResult.epoch``): cut and balance against the estimated epoch.

    Parameters
    ----------
    g : Graph
        The graph every setting partitions.
    settings : iterable of Setting
        The settings to run, in order (e.g. from :func:`grid`).
    progress : callable or None, default None
        Called as ``progress(i, total, setting)`` before setting ``i`` (from 0) runs.
    training : TrainingSetup or None, default None
        When given, each partitioning's epoch is estimated with
        :meth:`TrainingSetup.estimate`, labelled with the setting's label.

    Returns
    -------
    list of SweepResult
        One per setting, in the order of ``settings``.

    Raises
    ------
    GraphpartError
        When an item of ``settings`` is not a :class:`Setting`, or a setting cannot partition
        ``g``.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.training import TrainingSetup
    >>> setup = TrainingSetup(fanouts=(5,), batch_size=8, train=None)
    >>> settings = grid(part_method=["random", "metis"], num_parts=2)
    >>> res = sweep(load_karate_club(), settings, training=setup)
    >>> [r.epoch_s > 0 for r in res]
    [True, True]
    """
    settings = list(settings)
    for s in settings:
        if not isinstance(s, Setting):
            raise GraphpartError(
                f"settings must be graphpart.sweep.Setting objects, got {type(s).__name__}"
            )
    out = []
    for i, s in enumerate(settings):
        if progress is not None:
            progress(i, len(settings), s)
        t0 = time.perf_counter()
        p = s.run(g)
        m = p.metrics
        seconds = time.perf_counter() - t0
        log.info(
            "sweep %d/%d %s: cut %s in %.2fs", i + 1, len(settings), s.label, m.edge_cut, seconds
        )
        out.append(
            SweepResult(
                s,
                int(m.edge_cut or 0),
                float(m.edge_cut_fraction or 0.0),
                _comparable(m),
                seconds,
                p,
                None if training is None else training.estimate(p, label=s.label),
            )
        )
    return out


def sweep_report(results: Sequence[SweepResult]) -> Report:
    """A table: one row per setting, the edge cut and every max/mean imbalance.

    Parameters
    ----------
    results : sequence of SweepResult
        What :func:`sweep` returned.

    Returns
    -------
    Report
        Columns ``setting``, ``edge cut``, ``cut %``, one ``<quantity> max/mean`` per imbalance
        key of any result (NaN where a result lacks it), ``epoch (est.)`` and ``straggler``
        when any result has an epoch estimate, and ``seconds``.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> settings = grid(part_method=["random", "metis"], num_parts=2)
    >>> r = sweep_report(sweep(load_karate_club(), settings))
    >>> r.columns["setting"]
    ['random k=2', 'metis k=2']
    """
    keys: list[str] = []
    for r in results:
        keys += [k for k in r.imbalance if k not in keys]
    cols: dict[str, list] = {
        "setting": [r.setting.label for r in results],
        "edge cut": [r.edge_cut for r in results],
        "cut %": [round(100 * r.edge_cut_fraction, 2) for r in results],
    }
    for k in keys:  # "-" where a setting has no such quantity (trainers' with one a machine)
        cols[f"{k} max/mean"] = [
            "-" if r.imbalance.get(k) is None else round(r.imbalance[k], 3) for r in results
        ]
    if any(r.epoch is not None for r in results):
        cols["epoch (est.)"] = [seconds(r.epoch_s) if r.epoch else "" for r in results]
        cols["straggler"] = [f"{r.epoch.straggler_ratio:.2f}x" if r.epoch else "" for r in results]
    cols["partitioned in"] = [seconds(r.seconds) for r in results]  # wall clock, this machine
    return Report(f"{len(results)} settings", cols, {}, index="#")

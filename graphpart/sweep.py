"""Compare partition settings: run a grid of settings, tabulate edge cut against imbalance.

A :class:`Setting` names one way to partition (method, parts, what to balance,
METIS tolerance, ...); :func:`sweep` runs several on one graph and returns
:class:`SweepResult` rows that :func:`graphpart.viz.plot_tradeoff` draws and
:func:`sweep_report` tabulates.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from .errors import GraphpartError
from .graph.core import Graph
from .partitioning.assignment import check_num_parts
from .partitioning.core import Partitioning, partition
from .partitioning.fields import field_balance
from .partitioning.metis import MetisOptions
from .partitioning.options import PartitionOptions
from .training.estimate import EpochEstimate, seconds
from .training.setup import TrainingSetup
from .utils.check import check_count, short_repr
from .utils.report import Report

__all__ = [
    "Setting",
    "SweepResult",
    "balance_sources",
    "balance_source",
    "grid",
    "sweep",
    "sweep_report",
]

log = logging.getLogger(__name__)

#: Node data columns with more distinct values than this are not offered as balance sources.
MAX_BALANCE_CLASSES = 32


def _is_class_column(values) -> bool:
    arr = values.numpy() if hasattr(values, "numpy") else np.asarray(values)
    if arr.ndim != 1 or arr.dtype.kind not in "biu":
        return False
    return len(np.unique(arr)) <= MAX_BALANCE_CLASSES


def balance_sources(g: Graph) -> list[str]:
    """What ``balance_ntypes`` can be built from: ``"none"``, ``"ntype"`` and class-like node data.

    A node data column qualifies when it is one-dimensional, bool or int, with at
    most 32 distinct values (masks, labels).

    Parameters
    ----------
    g : Graph
        The graph whose node data is read (every node type).

    Returns
    -------
    list of str
        ``"none"``, ``"ntype"``, then each qualifying column name once, in the order the node
        types and their data list them.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> balance_sources(load_karate_club())
    ['none', 'ntype', 'label']
    """
    names: list[str] = []
    for t in g.ntypes:
        for name, values in g.node_data(t).items():
            if name not in names and _is_class_column(values):
                names.append(name)
    return ["none", "ntype", *names]


def balance_source(g: Graph, source: str | None) -> object:
    """The ``balance_ntypes`` argument of :func:`graphpart.partition` for a named source.

    ``"none"`` balances only node counts (and, on a heterograph, each node type,
    as DGL does); ``"ntype"`` balances each node type; a node data name balances
    each of its values (per node type on a heterograph).

    Parameters
    ----------
    g : Graph
        The graph the source is read from.
    source : str or None
        ``"none"`` (or ``None``), ``"ntype"``, or a name :func:`balance_sources` lists.

    Returns
    -------
    ndarray, Tensor, dict of str to Tensor, or None
        ``None`` for ``"none"``, and for ``"ntype"`` on a heterograph; for ``"ntype"`` on a
        homogeneous graph, zeros (one class) of length ``g.num_nodes()``; for a node data
        column, the column itself (homogeneous) or ``{ntype: column}`` for the node types that
        have it.

    Raises
    ------
    GraphpartError
        When no node type has the column, or it is not a bool/int column with at most
        :data:`MAX_BALANCE_CLASSES` distinct values.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> g = load_karate_club()
    >>> balance_source(g, "none") is None, balance_source(g, "label").shape
    (True, torch.Size([34]))
    """
    if source is None or source == "none":
        return None
    if source == "ntype":
        if g.is_homogeneous:
            return np.zeros(g.num_nodes(), dtype=np.int64)
        return None  # a heterograph balances each node type by default
    value = field_balance(g, source)
    if source not in balance_sources(g):
        raise GraphpartError(
            f"node data {short_repr(source)} is not a bool/int column with at most "
            f"{MAX_BALANCE_CLASSES} distinct values; choose one of {balance_sources(g)}"
        )
    return value


@dataclass(frozen=True)
class Setting:
    """One way to partition a graph.

    Attributes
    ----------
    num_parts : int
    method : {"metis", "random"}
    balance : str
        A :func:`balance_sources` name: ``"none"``, ``"ntype"`` or a node data column.
    balance_edges : bool
    ufactor : int or None
        METIS imbalance tolerance in thousandths (30 allows 3% over the mean);
        ``None`` keeps METIS's default.
    num_hops : int
    seed : int
    options : PartitionOptions
        What every setting of a grid shares (trainers per machine, METIS's edge sample, its
        refinement, ...); the fields above replace theirs.
    """

    num_parts: int = 4
    method: str = "metis"
    balance: str = "none"
    balance_edges: bool = False
    ufactor: int | None = None
    num_hops: int = 1
    seed: int = 0
    options: PartitionOptions = field(default_factory=PartitionOptions)

    def __post_init__(self) -> None:
        if not isinstance(self.options, PartitionOptions):
            raise GraphpartError(
                f"options must be a PartitionOptions, got {short_repr(self.options)}"
            )
        own = [  # a setting's own fields: options may not set them too (one would be lost)
            name
            for name, default in OWN_FIELDS.items()
            if getattr(self.options, name) is not default
            and not (
                isinstance(default, (bool, int, str)) and getattr(self.options, name) == default
            )
        ]
        ufactor = getattr(self.options.metis_options, "ufactor", None)
        if own or ufactor is not None:
            names = own + (["metis_options.ufactor"] if ufactor is not None else [])
            raise GraphpartError(
                f"options sets {', '.join(names)}, which a Setting holds itself (method, "
                "balance, balance_edges, ufactor, num_hops, seed): give them to the Setting"
            )
        check_num_parts(self.num_parts)
        object.__setattr__(self, "num_hops", check_count(self.num_hops, "num_hops"))
        object.__setattr__(self, "seed", check_count(self.seed, "seed"))
        if not isinstance(self.balance, str):
            raise GraphpartError(
                f"balance must be 'none', 'ntype' or a node data field name, got "
                f"{short_repr(self.balance)}"
            )
        if self.ufactor is not None:
            object.__setattr__(self, "ufactor", check_count(self.ufactor, "ufactor"))
        if self.method not in ("metis", "random"):
            raise GraphpartError(
                f"method must be 'metis' or 'random', got {short_repr(self.method)}"
            )
        if (
            self.method == "random"
        ):  # a random split ignores balance and tolerance: one setting, one label
            for name, value in (("balance", "none"), ("balance_edges", False), ("ufactor", None)):
                object.__setattr__(self, name, value)

    @property
    def label(self) -> str:
        bits = [self.method, f"k={self.num_parts}"]
        if self.balance != "none":
            bits.append(f"bal={self.balance}")
        if self.balance_edges:
            bits.append("+edges")
        if self.ufactor is not None:
            bits.append(f"tol={self.ufactor / 10:g}%")
        return " ".join(bits)

    def partition_options(self, g: Graph) -> PartitionOptions:
        """The :class:`~graphpart.PartitionOptions` this setting partitions ``g`` with.

        Parameters
        ----------
        g : Graph
            The graph (a balance source names one of its fields, or its node types).

        Returns
        -------
        PartitionOptions
            ``options`` with this setting's method, balance, tolerance, hops and seed.
        """
        metis = self.options.metis_options
        if self.ufactor is not None:
            metis = replace(metis or MetisOptions(), ufactor=self.ufactor)
        return PartitionOptions.of(
            self.options,
            part_method=self.method,
            balance_ntypes=_named(g, self.balance),
            balance_edges=self.balance_edges,
            num_hops=self.num_hops,
            seed=self.seed,
            metis_options=metis,
        )

    def run(self, g: Graph) -> Partitioning:
        """Partition ``g`` with this setting.

        Parameters
        ----------
        g : Graph
            The graph to partition.

        Returns
        -------
        Partitioning
            ``partition(g, num_parts, self.partition_options(g))``.
        """
        return partition(g, self.num_parts, self.partition_options(g))


#: The PartitionOptions fields a Setting holds itself (its method, balance, hops and seed), with
#: their defaults.
OWN_FIELDS = {
    "part_method": "metis",
    "balance_ntypes": None,
    "balance_edges": False,
    "num_hops": 1,
    "seed": None,
}


def _is_set(options: PartitionOptions, name: str, default: object) -> bool:
    value = getattr(options, name)
    if default is None:
        return value is not None
    return not (type(value) is type(default) and value == default)


def _named(g: Graph, source: str):
    """What ``partition`` is given for a balance source: a field is passed by name, so its
    classes are named after it (``train`` / ``not train``, not ``True`` / ``False``)."""
    value = balance_source(g, source)
    return source if value is not None and source not in ("none", "ntype") else value


def grid(**values: Sequence) -> list[Setting]:
    """Every combination of the given :class:`Setting` fields.

    Parameters
    ----------
    **values
        :class:`Setting` field names to their values: a list or tuple of values to vary, or a
        single value that every setting shares. Fields not given keep their defaults.

    Returns
    -------
    list of Setting
        The cartesian product, in the order of the keywords (the last varies fastest), with
        duplicates dropped (random settings differing only in balance are one).

    Raises
    ------
    GraphpartError
        When a keyword is not a :class:`Setting` field, or a combination is not a valid
        :class:`Setting`.

    Examples
    --------
    A random split ignores balance settings, so it appears once:

    >>> settings = grid(method=["random", "metis"], num_parts=2, balance_edges=[False, True])
    >>> [s.label for s in settings]
    ['random k=2', 'metis k=2', 'metis k=2 +edges']
    """
    unknown = sorted(set(values) - set(Setting.__dataclass_fields__))
    if unknown:
        raise GraphpartError(
            f"unknown setting fields {unknown}; known: {list(Setting.__dataclass_fields__)}"
        )
    keys = list(values)
    lists = [v if isinstance(v, (list, tuple)) else [v] for v in values.values()]
    out = [Setting(**dict(zip(keys, combo))) for combo in itertools.product(*lists)]
    return list(dict.fromkeys(out))  # random settings that differ only in balance are one


def _comparable(balance: dict[str, float]) -> dict[str, float]:
    """Balance entries every setting shares (per-class entries depend on the setting)."""
    return {k: v for k, v in balance.items() if not k.startswith("class ") and k != "in-degree"}


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
    >>> settings = grid(method=["random", "metis"], num_parts=2)
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
                _comparable(m.balance),
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
    >>> r = sweep_report(sweep(load_karate_club(), grid(method=["random", "metis"], num_parts=2)))
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
    for k in keys:
        cols[f"{k} max/mean"] = [round(r.imbalance.get(k, float("nan")), 3) for r in results]
    if any(r.epoch is not None for r in results):
        cols["epoch (est.)"] = [seconds(r.epoch_s) if r.epoch else "" for r in results]
        cols["straggler"] = [f"{r.epoch.straggler_ratio:.2f}x" if r.epoch else "" for r in results]
    cols["seconds"] = [round(r.seconds, 2) for r in results]
    return Report(f"{len(results)} settings", cols, {}, index="#")

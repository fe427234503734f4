"""Replay the mini-batches of distributed training over a partitioning and count what each
trainer's every step asks of its machine, the other machines and its GPU.

Each trainer gets its seeds as DGL's ``node_split`` gives them (:mod:`.split`), shuffles them every
epoch and samples every batch the way DGL's ``NeighborSampler`` walks a ``DistGraph``: layer by
layer from the seeds, *every* node of the current frontier (the seeds included) draws up to
``fanout`` in-neighbours, and the next frontier is the frontier plus the new neighbours (the
block's source nodes). A frontier node is sampled by the machine that owns it: locally when that
is the trainer's machine, else by a request to its owner. The last frontier is the input nodes,
whose feature rows the trainer gathers: from its GPU cache if it has one and holds the row, else
from its own machine when the machine owns the node, else from the owner (DGL keeps feature rows
of owned nodes only: HALO copies help sampling, never feature fetching).

``fanouts`` go from the seeds outwards, as in graphpart's and PyG's samplers (DGL's
``NeighborSampler`` lists them input layer first: ``NeighborSampler([5, 10, 15])`` is
``fanouts=(15, 10, 5)`` here). Everything is counted with array operations per batch; the Python
loop runs over batches, never over nodes or edges.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import torch

from ..errors import GraphpartError
from ..features.caches import DYNAMIC_POLICIES
from ..features.simulate import capacity_for
from ..sampling.neighbors import check_fanouts
from ..typing import Seed
from ..utils.check import (
    Options,
    check_count,
    check_feat_dim,
    check_flag,
    check_trainers_per_machine,
    short_repr,
)
from ..utils.seeds import check_random_state, check_seed, torch_generator
from ._walk import Walker, fetch_inputs, one_thread, trainer_cache
from .counts import LAYER_FIELDS, STEP_FIELDS, EpochCounts, TrainerReads
from .estimate import EpochEstimate, estimate_epoch
from .model import ClusterModel
from .split import node_split
from .trainset import train_set, trainers_per_machine

if TYPE_CHECKING:
    from ..partitioning.core import Partitioning

__all__ = ["TrainingSetup", "replay_epochs", "CACHE_POLICIES"]

#: GPU cache policies a trainer may run (``None``: no cache).
CACHE_POLICIES = ("in-degree", "out-degree", "random", "presample", *DYNAMIC_POLICIES)

#: The most counts a replay keeps (int64 each: 800 MB).
MAX_COUNTS = 10**8
#: The most trainer-epochs plus mini-batches a replay walks (the Python loop runs once for each:
#: DGL's largest examples, papers100M on 128 trainers, replay in about 10,000).
MAX_STEPS = 2**18
_DTYPE_BYTES = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int8": 1, "uint8": 1}


def row_bytes(feat_dim: int, dtype: str) -> int:
    """Bytes of one feature row.

    Parameters
    ----------
    feat_dim : int
        Values per row (:func:`~graphpart.utils.check.check_feat_dim`).
    dtype : str
        The value type: ``"float16"``, ``"bfloat16"``, ``"float32"``, ``"float64"``, ``"int8"``
        or ``"uint8"``.

    Returns
    -------
    int
        ``feat_dim`` times the bytes of one ``dtype`` value.

    Raises
    ------
    GraphpartError
        When ``dtype`` is not one of those names or ``feat_dim`` is out of range.

    Examples
    --------
    >>> row_bytes(128, "float32")
    512
    """
    if not isinstance(dtype, str) or dtype not in _DTYPE_BYTES:
        raise GraphpartError(
            f"dtype must be one of {sorted(_DTYPE_BYTES)}, got {short_repr(dtype)}"
        )
    return check_feat_dim(feat_dim) * _DTYPE_BYTES[dtype]


@dataclass(frozen=True, eq=False)
class TrainingSetup(Options):
    """How training runs: the sampler, the split, the features, the cache and the cluster -- every
    option of :func:`replay_epochs`, declared and checked once, and the :class:`ClusterModel`
    that prices the counts.

    Attributes
    ----------
    fanouts : sequence of int, default (15, 10, 5)
        Neighbours per node at each layer, from the seeds outwards (``-1``: all).
    batch_size : int, default 1024
        Seeds per mini-batch of each trainer.
    train : str, mask, ids, dict or None, default "train_mask"
        The training nodes (:func:`~graphpart.training.train_set`): a node data field name (one
        setup then fits every partitioning of a graph), or ``None`` for every node.
    num_trainers_per_machine : int or None, default None
        Trainers per machine; ``None``: the partitioning's (for files, what their
        ``trainer_id`` implies).
    force_even : bool, default True
        Even slices of the training ids per machine (DGL's default), or each machine's own
        training nodes (:func:`~graphpart.training.node_split`).
    by_trainer_id : bool, default False
        Deal a machine's slice to its trainers by the partitioner's trainer ids.
    feat_dim : int, default 128
        Values per feature row (0: a graph without features, whose batches fetch no rows).
    dtype : str, default "float32"
        The type of those values (:func:`row_bytes`).
    cache : str or None, default None
        The GPU cache policy of every trainer (one of :data:`CACHE_POLICIES`), or ``None``.
    cache_ratio : float, default 0.0
        The cache's size as a share of all rows, in [0, 1] (0: no cache).
    epochs : int, default 1
        Epochs replayed; each trainer reshuffles its seeds every epoch.
    drop_last : bool, default False
        Skip each trainer's last, smaller batch.
    seed : int, numpy.random.Generator or None, default 0
        Fixes every trainer's shuffles and samples.
    model : ClusterModel, default ClusterModel()
        The hardware rates that turn the counts into seconds.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> setup = TrainingSetup(fanouts=(5, 5), batch_size=8, train=None)
    >>> est = setup.estimate(gp.partition(load_karate_club(), 2, seed=0), label="METIS")
    >>> est.label, est.counts.num_trainers, est.epoch_s > 0
    ('METIS', 2, True)
    >>> TrainingSetup.of(None, epoch=2)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: unknown training option 'epoch' (did you mean epochs?); ...
    """

    option_word = "training option"

    fanouts: Sequence[int] = (15, 10, 5)
    batch_size: int = 1024
    train: object = "train_mask"
    num_trainers_per_machine: int | None = None
    force_even: bool = True
    by_trainer_id: bool = False
    feat_dim: int = 128
    dtype: str = "float32"
    cache: str | None = None
    cache_ratio: float = 0.0
    epochs: int = 1
    drop_last: bool = False
    seed: Seed = 0
    model: ClusterModel = field(default_factory=ClusterModel)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "fanouts", tuple(check_fanouts(self.fanouts)))
        set_(self, "batch_size", check_count(self.batch_size, "batch_size", low=1))
        set_(self, "epochs", check_count(self.epochs, "epochs", low=1))
        row_bytes(self.feat_dim, self.dtype)  # both checked
        set_(self, "feat_dim", int(self.feat_dim))
        if self.cache is not None and self.cache not in CACHE_POLICIES:
            policies = list(CACHE_POLICIES)
            raise GraphpartError(
                f"cache must be None or one of {policies}, got {short_repr(self.cache)}"
            )
        ratio = self.cache_ratio
        if isinstance(ratio, bool) or not isinstance(ratio, numbers.Real) or not 0 <= ratio <= 1:
            raise GraphpartError(f"cache_ratio must be a share in [0, 1], got {short_repr(ratio)}")
        if self.num_trainers_per_machine is not None:
            trainers = check_trainers_per_machine(self.num_trainers_per_machine)
            set_(self, "num_trainers_per_machine", trainers)
        for name in ("force_even", "by_trainer_id", "drop_last"):
            set_(self, name, check_flag(getattr(self, name), name))
        set_(self, "seed", check_seed(self.seed))
        if not isinstance(self.model, ClusterModel):
            raise GraphpartError(
                f"model must be a graphpart.training.ClusterModel, got {short_repr(self.model)}"
            )

    def replay(self, partitioning, record_trainer: int | None = None) -> EpochCounts:
        """The counts of ``partitioning``'s epoch(s) under this setup (and the reads of
        ``record_trainer``, node by node): :func:`replay_epochs`."""
        return replay_epochs(partitioning, self, record_trainer=record_trainer)

    def trainer_reads(self, partitioning, trainer: int) -> TrainerReads:
        """Which rows trainer ``trainer``'s batches read over the replayed epochs, and which it
        fetched from other machines (new ids): the replay of :meth:`replay`, node by node.

        Examples
        --------
        >>> import graphpart as gp
        >>> from graphpart.datasets import load_karate_club
        >>> setup = TrainingSetup(fanouts=(5,), batch_size=8, train=None)
        >>> r = setup.trainer_reads(gp.partition(load_karate_club(), 2, seed=0), 1)
        >>> r.machine, int(r.reads[r.seeds].min()) >= 1
        (1, True)
        """
        return self.replay(partitioning, trainer).reads

    def estimate(self, partitioning, label: str = "") -> EpochEstimate:
        """The epoch estimate of ``partitioning`` under this setup's model."""
        return estimate_epoch(self.replay(partitioning), self.model, label)


def replay_epochs(
    partitioning: Partitioning,
    setup: TrainingSetup | None = None,
    *,
    record_trainer: int | None = None,
    **names: object,
) -> EpochCounts:
    """Count, per trainer and step, the seeds, sampling requests, sampled edges and feature rows
    of ``epochs`` epochs of distributed training over ``partitioning``.

    Parameters
    ----------
    partitioning : Partitioning or path
        :func:`graphpart.partition`'s result, or partitions on disk in any format graphpart
        reads (graphpart, DGL, GraphBolt, PyG, GLT).
    setup : TrainingSetup or None, default None
        How training runs (:class:`TrainingSetup`: fanouts, batch size, training nodes, trainers,
        features, cache, epochs, seed); ``None``: its defaults.
    record_trainer : int, optional
        Also record this trainer's reads node by node (:attr:`EpochCounts.reads`): which rows
        its batches read and which it fetched from other machines (what a view highlights).
    **names
        :class:`TrainingSetup` fields by name (``fanouts=(5, 5)``, ``batch_size=8``, ...); a
        misspelt name is refused with the nearest.

    Returns
    -------
    EpochCounts
        Per (epoch, trainer, step) counts of seeds and input rows (local, remote, cached), and
        per layer the sampling requests and sampled edges; the steps each trainer runs, its
        seeds, and the reads of ``record_trainer`` when asked.

    Raises
    ------
    GraphpartError
        On bad input, and before anything is sized by a request too large to hold: more than
        1024 trainers per machine (also when a file's ``trainer_id`` implies them), a
        ``feat_dim`` over ``2**31``, more than :data:`MAX_COUNTS` counts (epochs x trainers
        x steps x layers), or more than :data:`MAX_STEPS` trainer-epochs and mini-batches.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> p = gp.partition(load_karate_club(), 2, seed=0)
    >>> c = replay_epochs(p, fanouts=[5, 5], batch_size=8, train=None, num_trainers_per_machine=2)
    >>> c.num_trainers, c.num_steps.tolist(), c.per_trainer("seeds").tolist()
    (4, [2, 1, 2, 1], [9, 8, 9, 8])
    """
    from ..storage.reopen import as_partitioning

    ts = TrainingSetup.of(setup, **names)
    p = as_partitioning(partitioning)
    fanouts, batch_size, epochs, cache, feat_dim = (
        ts.fanouts, ts.batch_size, ts.epochs, ts.cache, ts.feat_dim
    )  # fmt: skip
    row = row_bytes(feat_dim, ts.dtype)
    trainers = ts.num_trainers_per_machine or trainers_per_machine(p)
    sh, m = p.shuffle, p.num_parts
    _check_work(m, trainers, epochs, 0)  # before the split builds every trainer's seeds
    n = len(sh.new2old_nid)
    owner = torch.from_numpy(sh.node_part())
    walker = Walker(p, owner, m, fanouts)  # in-neighbours, DGL's default edge direction
    split = node_split(
        train_set(p, ts.train), trainers, force_even=ts.force_even, by_trainer_id=ts.by_trainer_id
    )
    capacity = capacity_for(ts.cache_ratio, n) if cache is not None else 0
    rng = check_random_state(ts.seed)
    steps = np.array(
        [len(x) // batch_size if ts.drop_last else -(-len(x) // batch_size) for x in split]
    )
    _check_work(m, trainers, epochs, int(steps.sum()))
    if record_trainer is not None:
        record_trainer = check_count(record_trainer, "record_trainer", 0, len(split) - 1)
    reads = torch.zeros(n if record_trainer is not None else 0, dtype=torch.int32)
    fetched = torch.zeros_like(reads)
    shape = (epochs, len(split), int(steps.max(initial=0)))
    _check_size(shape, len(fanouts))
    step = {f: np.zeros(shape, np.int64) for f in STEP_FIELDS}
    per_layer = {f: np.zeros((*shape, len(fanouts)), np.int64) for f in LAYER_FIELDS}
    with one_thread():
        for r, seeds_np in enumerate(split):
            me, gen = r // trainers, torch_generator(rng)
            seeds = torch.from_numpy(seeds_np)
            store = trainer_cache(cache, capacity, walker, seeds, me, batch_size, gen)
            for e in range(epochs):
                order = seeds[torch.randperm(len(seeds), generator=gen)]
                for s, batch in enumerate(torch.split(order, batch_size)[: steps[r]]):
                    layers = {f: per_layer[f][e, r, s] for f in LAYER_FIELDS}
                    inputs = walker.walk(batch, me, gen, layers)
                    hit = fetch_inputs(step, (e, r, s), batch, inputs, owner, me, m, store)
                    if r == record_trainer:
                        reads[inputs] += 1
                        fetched[inputs[~hit & (owner[inputs] != me)]] += 1
    return EpochCounts(
        num_machines=m,
        num_trainers_per_machine=trainers,
        fanouts=fanouts,
        batch_size=batch_size,
        feat_dim=feat_dim,
        row_bytes=row,
        cache=cache if capacity else None,
        cache_rows=capacity,
        num_steps=steps,
        step=step,
        layer=per_layer,
        seeds=tuple(split),
        reads=None
        if record_trainer is None
        else TrainerReads(
            record_trainer,
            record_trainer // trainers,
            np.asarray(split[record_trainer]),
            reads.numpy(),
            fetched.numpy(),
        ),
    )


def _check_work(machines: int, trainers: int, epochs: int, steps: int) -> None:
    """Refuse a replay whose loop (every trainer's epochs and mini-batches) would run more than
    :data:`MAX_STEPS` times."""
    work = epochs * (machines * trainers + steps)
    if work > MAX_STEPS:
        raise GraphpartError(
            f"{epochs} epoch(s) of {machines} machines x {trainers} trainers"
            + (f" in {steps:,} mini-batches per epoch" if steps else "")
            + f" would replay {work:,} trainer-epochs and mini-batches; at most {MAX_STEPS:,}: "
            "ask for fewer trainers or epochs, or a larger batch_size"
        )


def _check_size(shape: tuple[int, int, int], layers: int) -> None:
    """Refuse a replay whose counts (per epoch, trainer, step and layer) would not fit."""
    cells = int(np.prod(shape, dtype=object)) * (len(STEP_FIELDS) + len(LAYER_FIELDS) * layers)
    if cells > MAX_COUNTS:
        epochs, trainers, steps = shape
        raise GraphpartError(
            f"{epochs} epochs of {trainers} trainers, up to {steps} steps each, with {layers} "
            f"layers would keep {cells:,} counts; at most {MAX_COUNTS:,}: ask for fewer epochs "
            "(each adds little to the average) or a larger batch_size"
        )

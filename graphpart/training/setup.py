"""One training configuration to price many partitionings with (what ``sweep`` and the widgets
take)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .counts import EpochCounts, TrainerReads
from .estimate import EpochEstimate, estimate_epoch
from .model import ClusterModel
from .replay import replay_epochs

__all__ = ["TrainingSetup"]


@dataclass(frozen=True)
class TrainingSetup:
    """How training runs: the sampler, the split, the features, the cache and the cluster.

    Every field is an argument of :func:`~graphpart.training.replay_epochs` except ``model``,
    the :class:`ClusterModel` that prices the counts. ``train`` is a node data field name or
    ``None`` (every node), so one setup applies to every partitioning of a graph.

    Attributes
    ----------
    fanouts : tuple of int, default (15, 10, 5)
        Neighbours per node at each layer, from the seeds outwards (``-1``: all).
    batch_size : int, default 1024
        Seeds per mini-batch of each trainer.
    train : str or None, default "train_mask"
        The node data field of the training nodes, or ``None`` for every node.
    num_trainers_per_machine : int or None, default None
        Trainers per machine; ``None``: the partitioning's.
    force_even : bool, default True
        Even slices of the training ids per machine (DGL's default), or each machine's own.
    by_trainer_id : bool, default False
        Deal a machine's slice to its trainers by the partitioner's trainer ids.
    feat_dim : int, default 128
        Values per feature row.
    dtype : str, default "float32"
        The type of those values.
    cache : str or None, default None
        The GPU cache policy of every trainer (one of
        :data:`~graphpart.training.CACHE_POLICIES`), or ``None`` for no cache.
    cache_ratio : float, default 0.0
        The cache's size as a share of all rows, in [0, 1].
    epochs : int, default 1
        Epochs replayed.
    seed : int, default 0
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
    """

    fanouts: tuple[int, ...] = (15, 10, 5)
    batch_size: int = 1024
    train: str | None = "train_mask"
    num_trainers_per_machine: int | None = None
    force_even: bool = True
    by_trainer_id: bool = False
    feat_dim: int = 128
    dtype: str = "float32"
    cache: str | None = None
    cache_ratio: float = 0.0
    epochs: int = 1
    seed: int = 0
    model: ClusterModel = field(default_factory=ClusterModel)

    def replay(self, partitioning, record_trainer: int | None = None) -> EpochCounts:
        """The counts of ``partitioning``'s epoch(s) under this setup (and the reads of
        ``record_trainer``, node by node)."""
        return replay_epochs(
            partitioning,
            self.fanouts,
            batch_size=self.batch_size,
            train=self.train,
            num_trainers_per_machine=self.num_trainers_per_machine,
            force_even=self.force_even,
            by_trainer_id=self.by_trainer_id,
            feat_dim=self.feat_dim,
            dtype=self.dtype,
            cache=self.cache,
            cache_ratio=self.cache_ratio,
            epochs=self.epochs,
            seed=self.seed,
            record_trainer=record_trainer,
        )

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

"""What a partitioning costs distributed training: every trainer's epoch, replayed and timed.

:func:`replay_epochs` counts what DGL-style distributed training asks of every trainer (seeds
split by :func:`node_split`, DGL's layer-by-layer neighbour sampling, feature rows from the GPU
cache, the own machine or another), as a :class:`TrainingSetup` says training runs; a
:class:`ClusterModel` turns the counts into step and epoch times (:func:`estimate_epoch`,
``TrainingSetup.estimate``), with every assumption visible.

Its modules, one idea each:

- ``counts``: EpochCounts: per (epoch, trainer, step[, layer]) arrays
- ``estimate``: estimate_epoch -> EpochEstimate
- ``model``: ClusterModel (every rate a field, SOURCES for the defaults), calibrate()
- ``_walk``: one trainer's batches walked: DGL's sampling, its GPU cache, where rows come from
- ``replay``: TrainingSetup (every option of the replay, checked once), replay_epochs
- ``split``: node_split: DGL's seed split for every trainer
- ``trainset``: the training nodes (field, mask, ids, per type) in new ids, per machine range
"""

from .counts import LAYER_FIELDS, STEP_FIELDS, EpochCounts, TrainerReads
from .estimate import PARTS, TIE, EpochEstimate, estimate_epoch, is_tie, seconds
from .model import SOURCES, ClusterModel, calibrate
from .replay import CACHE_POLICIES, TrainingSetup, replay_epochs, row_bytes
from .split import even_offsets, node_split
from .trainset import TrainSet, train_set, trainers_per_machine

__all__ = [
    "estimate_epoch",
    "EpochEstimate",
    "PARTS",
    "TIE",
    "is_tie",
    "seconds",
    "ClusterModel",
    "calibrate",
    "SOURCES",
    "replay_epochs",
    "TrainingSetup",
    "row_bytes",
    "EpochCounts",
    "TrainerReads",
    "STEP_FIELDS",
    "LAYER_FIELDS",
    "CACHE_POLICIES",
    "node_split",
    "even_offsets",
    "TrainSet",
    "train_set",
    "trainers_per_machine",
]

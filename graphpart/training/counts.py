"""What an epoch replay counted: per epoch, trainer and step (and layer), as plain arrays."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..errors import GraphpartError
from ..utils.check import short_repr

__all__ = ["EpochCounts", "STEP_FIELDS", "LAYER_FIELDS"]

#: Counts kept per (epoch, trainer, step).
STEP_FIELDS = (
    "seeds",  # seeds of the batch
    "seeds_local",  # of which the trainer's machine owns
    "inputs",  # input nodes: every node of the sample (the last frontier)
    "inputs_cached",  # rows served by the trainer's GPU cache
    "inputs_local",  # rows gathered from the trainer's machine (not cached)
    "inputs_remote",  # rows fetched from another machine (not cached)
    "inputs_remote_owned",  # input nodes another machine owns, cache or not
    "fetch_machines",  # distinct machines rows were fetched from (one request each)
)
#: Counts kept per (epoch, trainer, step, layer); layer 0 is the one next to the seeds.
LAYER_FIELDS = (
    "dst",  # frontier nodes sampled at this layer
    "src",  # nodes after this layer (frontier + new neighbours)
    "requests_local",  # frontier nodes the trainer's machine owns (sampled locally)
    "requests_remote",  # frontier nodes another machine owns (sampled there)
    "edges_local",  # edges sampled locally
    "edges_remote",  # edges sampled by other machines and sent back
    "sample_machines",  # distinct machines asked to sample
)
#: Bytes one sampled edge costs on the wire (source, destination and edge id, int64 each).
EDGE_BYTES = 24


@dataclass(frozen=True)
class TrainerReads:
    """What one trainer read over the replayed epochs, per node (new ids): in how many of its
    batches each node's feature row was an input (``reads``), and how many of those reads were
    fetched from another machine (``fetched``: owned elsewhere and not in its GPU cache).

    Attributes
    ----------
    trainer : int
        The trainer recorded.
    machine : int
        Its machine.
    seeds : ndarray
        Its seeds (new ids), as the split gave them.
    reads : ndarray
        Per node (new ids): in how many of its batches the node was an input.
    fetched : ndarray
        Per node: how many of those reads came from another machine.
    """

    trainer: int
    machine: int
    seeds: np.ndarray
    reads: np.ndarray
    fetched: np.ndarray


@dataclass(frozen=True)
class EpochCounts:
    """Counts of :func:`~graphpart.training.replay_epochs`.

    Attributes
    ----------
    num_machines, num_trainers_per_machine : int
    fanouts : tuple of int
        From the seeds outwards.
    batch_size, feat_dim, row_bytes : int
    cache : str or None
        The GPU cache policy; ``cache_rows`` rows per trainer.
    cache_rows : int
    num_steps : ndarray
        Steps each trainer runs per epoch.
    step : dict of str to ndarray
        :data:`STEP_FIELDS`, each of shape ``(epochs, trainers, max steps)`` (0 past a trainer's
        last step).
    layer : dict of str to ndarray
        :data:`LAYER_FIELDS`, each of shape ``(epochs, trainers, max steps, layers)``.
    seeds : tuple of ndarray
        Every trainer's seeds (new ids), as the split gave them.
    reads : TrainerReads or None
        The node by node reads of the trainer ``replay_epochs(record_trainer=...)`` names.
    """

    num_machines: int
    num_trainers_per_machine: int
    fanouts: tuple[int, ...]
    batch_size: int
    feat_dim: int
    row_bytes: int
    cache: str | None
    cache_rows: int
    num_steps: np.ndarray
    step: Mapping[str, np.ndarray]
    layer: Mapping[str, np.ndarray]
    seeds: tuple[np.ndarray, ...]
    reads: TrainerReads | None = None

    @property
    def num_trainers(self) -> int:
        return len(self.num_steps)

    @property
    def num_epochs(self) -> int:
        return self.step["seeds"].shape[0]

    @property
    def machine(self) -> np.ndarray:
        """The machine of every trainer."""
        return np.arange(self.num_trainers) // self.num_trainers_per_machine

    @property
    def active(self) -> np.ndarray:
        """``(trainers, max steps)``: whether the trainer runs that step."""
        width = self.step["seeds"].shape[2]
        return np.arange(width)[None, :] < self.num_steps[:, None]

    def per_trainer(self, field: str) -> np.ndarray:
        """A step or layer count summed over one epoch's steps (and layers), averaged over
        epochs, per trainer (an int array when there is one epoch)."""
        if field in self.step:
            a = self.step[field].sum(axis=2)
        elif field in self.layer:
            a = self.layer[field].sum(axis=(2, 3))
        else:
            raise GraphpartError(
                f"no count named {short_repr(field)}; counts: {[*STEP_FIELDS, *LAYER_FIELDS]}"
            )
        return a[0] if self.num_epochs == 1 else a.mean(axis=0)

    def bytes(self, field: str) -> np.ndarray:
        """Bytes per trainer and epoch of the rows in ``field`` (``"inputs_remote"``, ...)."""
        if not field.startswith("inputs"):
            raise GraphpartError(f"bytes are counted for input rows, got {short_repr(field)}")
        return self.per_trainer(field) * float(self.row_bytes)  # float: no int64 overflow

    def totals(self) -> dict[str, float]:
        """Every count summed over trainers (one epoch; the mean of epochs)."""
        return {f: float(self.per_trainer(f).sum()) for f in (*STEP_FIELDS, *LAYER_FIELDS)}

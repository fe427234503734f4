"""A lookup trace: the distinct nodes each mini-batch looks features up for, batch after batch."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from ..errors import GraphpartError
from ..utils.check import check_count
from ..utils.tensors import as_id_tensor, check_ids_in_range

if TYPE_CHECKING:
    from ..sampling import NeighborLoader

__all__ = ["Trace", "record_trace"]


@dataclass(frozen=True)
class Trace:
    """Concatenated batches of node ids: batch ``i`` is ``ids[offsets[i]:offsets[i + 1]]``.

    Ids are distinct within a batch (a trainer gathers each row once per
    mini-batch). ``epochs[i]`` is the epoch batch ``i`` belongs to.

    Attributes
    ----------
    ids : Tensor
        int64 node ids of every batch, concatenated.
    offsets : Tensor
        int64, length ``num_batches + 1``: where each batch starts in ``ids`` (``offsets[0]`` is
        0, the last entry ``len(ids)``).
    num_nodes : int
        Node ids lie in ``0 .. num_nodes - 1``.
    epochs : Tensor
        int64, the epoch of each batch.

    Examples
    --------
    >>> t = Trace.from_batches([[0, 1], [1, 2, 2]], num_nodes=4)
    >>> t.num_batches, t.num_lookups, t.batch(1).tolist(), t.counts().tolist()
    (2, 4, [1, 2], [1, 2, 1, 0])
    """

    ids: torch.Tensor
    offsets: torch.Tensor
    num_nodes: int
    epochs: torch.Tensor

    @classmethod
    def from_batches(
        cls, batches: Iterable, num_nodes: int, epochs: Iterable[int] | None = None
    ) -> "Trace":
        """From a sequence of id batches (each made distinct; order of first appearance is not
        kept)."""
        n = check_count(num_nodes, "num_nodes")
        parts = [torch.unique(as_id_tensor(b, f"batch {i}")) for i, b in enumerate(batches)]
        ep = [0] * len(parts) if epochs is None else list(epochs)
        if len(ep) != len(parts):
            raise GraphpartError(
                f"epochs must give one epoch per batch ({len(parts)}), got {len(ep)}"
            )
        trace = cls._concat(parts, n, ep)
        check_ids_in_range(trace.ids, n, "trace ids")
        return trace

    @classmethod
    def _concat(cls, parts: list[torch.Tensor], num_nodes: int, epochs: list[int]) -> "Trace":
        ids = torch.cat(parts) if parts else torch.zeros(0, dtype=torch.int64)
        offsets = torch.zeros(len(parts) + 1, dtype=torch.int64)
        torch.cumsum(torch.tensor([len(p) for p in parts], dtype=torch.int64), 0, out=offsets[1:])
        return cls(ids, offsets, num_nodes, torch.tensor(epochs, dtype=torch.int64))

    @property
    def num_batches(self) -> int:
        return len(self.offsets) - 1

    @property
    def num_lookups(self) -> int:
        return len(self.ids)

    @property
    def num_epochs(self) -> int:
        return int(self.epochs.max()) + 1 if len(self.epochs) else 0

    def batch(self, i: int) -> torch.Tensor:
        return self.ids[int(self.offsets[i]) : int(self.offsets[i + 1])]

    def batch_sizes(self) -> torch.Tensor:
        return torch.diff(self.offsets)

    def batch_index(self) -> torch.Tensor:
        """The batch of every entry of :attr:`ids`."""
        return torch.repeat_interleave(torch.arange(self.num_batches), self.batch_sizes())

    def counts(self) -> torch.Tensor:
        """Accesses per node over the whole trace."""
        return torch.bincount(self.ids, minlength=self.num_nodes)

    def head(self, num_batches: int) -> "Trace":
        """The first ``num_batches`` batches."""
        k = min(check_count(num_batches, "num_batches"), self.num_batches)
        return Trace(
            self.ids[: int(self.offsets[k])], self.offsets[: k + 1], self.num_nodes, self.epochs[:k]
        )


def record_trace(loader: NeighborLoader, epochs: int = 1) -> Trace:
    """Run ``loader`` (a :class:`~graphpart.sampling.NeighborLoader`) for ``epochs`` and keep what
    it looks up.

    Parameters
    ----------
    loader : NeighborLoader
        Each mini-batch's ``input_nodes`` (distinct already) become one batch of the trace.
        Iterating it advances its random generator.
    epochs : int, default 1
        Passes over ``loader``; 0 gives an empty trace.

    Returns
    -------
    Trace
        One batch per mini-batch, in order, each tagged with its epoch; ``num_nodes`` is
        ``loader.topo.num_nodes``.
    """
    epochs = check_count(epochs, "epochs")
    batches, ep = [], []
    for e in range(epochs):
        for mb in loader:
            batches.append(mb.input_nodes)  # already distinct
            ep.append(e)
    return Trace._concat(batches, loader.topo.num_nodes, ep)

"""The training nodes of a partitioning, in the partitions' (new) ids, ready to be split.

What users pass as ``train`` — a node data field (``"train_mask"``), a boolean mask or ids over
the original homogeneous ids, ``{ntype: mask or ids}`` for a heterograph, or ``None`` for every
node — becomes one :class:`TrainSet`: per node type, the sorted new ids of its training nodes and
where each machine's id range starts among them (what DGL's ``node_split`` cuts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

from ..errors import GraphpartError
from ..utils.check import check_trainers_per_machine, short_repr
from ..utils.tensors import as_id_tensor, flat_ints

if TYPE_CHECKING:
    from ..partitioning.core import Partitioning

if TYPE_CHECKING:  # pragma: no cover
    from ..partitioning.core import Partitioning

__all__ = ["TrainSet", "train_set", "trainers_per_machine"]


@dataclass(frozen=True)
class TrainSet:
    """Training nodes in new homogeneous ids, grouped by node type.

    Attributes
    ----------
    num_parts : int
        Machines (partitions).
    ids_by_type : tuple of ndarray
        Sorted new ids of the training nodes of each node type that has any.
    type_starts : tuple of ndarray
        For each of those types, ``num_parts + 1`` positions: machine ``m``'s nodes are
        ``ids[starts[m]:starts[m + 1]]``.
    ntypes : tuple of str
        The node type of each group.
    trainer_id : ndarray or None
        Trainer of every node by new id, where the partitioning knows it.
    """

    num_parts: int
    ids_by_type: tuple[np.ndarray, ...]
    type_starts: tuple[np.ndarray, ...]
    ntypes: tuple[str, ...]
    trainer_id: np.ndarray | None

    @property
    def ids(self) -> np.ndarray:
        """Every training node (new ids, by type)."""
        return np.concatenate(self.ids_by_type) if self.ids_by_type else np.zeros(0, np.int64)

    @property
    def per_machine(self) -> np.ndarray:
        """Training nodes each machine owns."""
        return sum((np.diff(s) for s in self.type_starts), np.zeros(self.num_parts, np.int64))


def node_mask(partitioning, train: object) -> np.ndarray:
    """``train`` as a boolean mask over original homogeneous ids: ``None`` (every node), a node
    data field name (0/1 or bool; nodes of types without it are outside), a mask or ids over the
    graph, or ``{ntype: mask or ids}``; the one reading of a node set (trainers, the views)."""
    g = partitioning.graph
    offsets = partitioning.homogeneous.node_offsets
    n = int(offsets[-1])
    if train is None:
        return np.ones(n, dtype=bool)
    if isinstance(train, str):
        have = {t: g.node_data(t)[train] for t in g.ntypes if train in g.node_data(t)}
        if not have:
            names = sorted({k for t in g.ntypes for k in g.node_data(t)})
            raise GraphpartError(
                f"no node data named {short_repr(train)} to train on; node data: {names} (pass a "
                f"mask, "
                f"ids, or None for every node)"
            )
        return node_mask(partitioning, {t: _as_mask(v, t) for t, v in have.items()})
    if isinstance(train, Mapping):
        out = np.zeros(n, dtype=bool)
        for t, v in train.items():
            if t not in g.ntypes:
                raise GraphpartError(
                    f"train names node type {short_repr(t)}; the graph has {g.ntypes}"
                )
            i = g.ntypes.index(t)
            out[offsets[i] : offsets[i + 1]] = _one(v, int(offsets[i + 1] - offsets[i]), t)
        return out
    return _one(train, n, "the graph")


def _as_mask(v, ntype: str) -> np.ndarray:
    """A node data field as a mask: stored masks are bool or 0/1 integers (DGL keeps uint8)."""
    a = v.numpy() if isinstance(v, torch.Tensor) else np.asarray(v)
    if a.ndim != 1 or a.dtype.kind not in "biu" or (a.size and (a.min() < 0 or a.max() > 1)):
        raise GraphpartError(
            f"a train field must hold one 0/1 or bool value per node; {short_repr(ntype)} has "
            f"{a.dtype} of shape {a.shape}"
        )
    return a.astype(bool)


def _one(v: object, n: int, what: str) -> np.ndarray:
    v = flat_ints(v, n, f"train for {what}", "a mask or integer ids")  # its nodes at most
    a = v.numpy() if isinstance(v, torch.Tensor) else np.asarray(v)
    if a.ndim != 1:
        raise GraphpartError(f"train for {what} must be one-dimensional, got shape {a.shape}")
    if a.dtype == bool or a.dtype == np.uint8:
        if len(a) != n:
            raise GraphpartError(
                f"a train mask for {what} needs one entry per node ({n}), got {len(a)}"
            )
        return a.astype(bool)
    if a.dtype.kind not in "iu":
        raise GraphpartError(f"train for {what} must be a mask or integer ids, got {a.dtype}")
    if len(a) == n and n > 2 and a.min() >= 0 and a.max() <= 1:
        # one 0/1 value per node: a mask stored as integers; as ids, most would repeat (with
        # one or two nodes the same array is a list of distinct ids, and is read as one)
        return a.astype(bool)
    if a.size and (a.min() < 0 or a.max() >= n):
        raise GraphpartError(f"train ids for {what} must be in [0, {n}), got {a.min()}..{a.max()}")
    out = np.zeros(n, dtype=bool)
    out[a] = True
    return out


def train_set(partitioning: Partitioning, train: object = "train_mask") -> TrainSet:
    """The training nodes of ``partitioning`` in its new ids.

    Parameters
    ----------
    partitioning : Partitioning or path
        :func:`graphpart.partition`'s result, or partitions on disk.
    train : str, mask, ids, dict or None
        A node data field (on every node type that has it), a boolean mask or integer ids over
        the original homogeneous ids, ``{ntype: mask or ids}`` (type-wise), or ``None``: every
        node. A bool or uint8 array is a mask (DGL stores masks as uint8), and so is an integer
        array of 0s and 1s with one entry per node (of more than two nodes); other integers are
        ids. A field may hold bool or 0/1 integers.

    Returns
    -------
    TrainSet
        Per node type that has training nodes, their sorted new ids and where each machine's
        id range starts among them, with the trainer of every node where known.

    Raises
    ------
    GraphpartError
        When ``train`` names no node data, names an unknown node type, has the wrong length or
        out-of-range ids, or selects no node.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> p = gp.partition(load_karate_club(), 2, seed=0)
    >>> ts = train_set(p, [0, 1, 2, 33])
    >>> len(ts.ids), int(ts.per_machine.sum()), ts.ntypes
    (4, 4, ('_N',))
    """
    from ..storage.reopen import as_partitioning  # storage builds on training's layer

    partitioning = as_partitioning(partitioning)
    mask = node_mask(partitioning, train)
    sh = partitioning.shuffle
    new_mask = mask[sh.new2old_nid]
    ids_by_type, starts, names = [], [], []
    for i, t in enumerate(partitioning.graph.ntypes):
        bounds = sh.node_bounds[:, i, :]
        ids = np.concatenate([np.flatnonzero(new_mask[a:b]) + a for a, b in bounds])
        if not len(ids):
            continue
        ids_by_type.append(ids)
        starts.append(np.searchsorted(ids, np.append(bounds[:, 0], bounds[-1, 1])))
        names.append(t)
    if not ids_by_type:
        raise GraphpartError("there are no training nodes: the train mask selects none")
    return TrainSet(
        partitioning.num_parts,
        tuple(ids_by_type),
        tuple(starts),
        tuple(names),
        _trainers(partitioning),
    )


def _trainers(partitioning) -> np.ndarray | None:
    """Trainer of every new id: the partitioner's, or the ``trainer_id`` node data of files."""
    new2old = partitioning.shuffle.new2old_nid
    if partitioning.num_trainers_per_machine > 1:
        return np.asarray(partitioning.trainer_id)[new2old]
    g = partitioning.graph
    if all("trainer_id" in g.node_data(t) for t in g.ntypes):
        parts = [as_id_tensor(g.node_data(t)["trainer_id"], f"trainer_id of {t!r} nodes")
                 for t in g.ntypes]  # fmt: skip
        tid = np.concatenate([t.numpy() for t in parts])
        if len(tid) and tid.min() < 0:
            raise GraphpartError(f"trainer_id must be non-negative, got {int(tid.min())}")
        return tid[new2old]
    return None


def trainers_per_machine(partitioning: Partitioning) -> int:
    """The partitioning's trainers per machine: its own, or what the ``trainer_id`` the files
    store implies (DGL writes ids ``machine * T + trainer``), else 1.

    Parameters
    ----------
    partitioning : Partitioning
        An in-memory partitioning, or one opened from files (whose ``trainer_id`` node data,
        on every node type, is read).

    Returns
    -------
    int
        ``partitioning.num_trainers_per_machine`` when above 1; else ``(max trainer_id + 1)
        // num_parts`` (at least 1) when the files store trainer ids; else 1.

    Raises
    ------
    GraphpartError
        When the count is above 1024, or a stored trainer id is negative.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> trainers_per_machine(gp.partition(load_karate_club(), 2, num_trainers_per_machine=3))
    3
    """
    if partitioning.num_trainers_per_machine > 1:
        return check_trainers_per_machine(
            partitioning.num_trainers_per_machine, "the partitioning's num_trainers_per_machine"
        )
    tid = _trainers(partitioning)
    if tid is None or not len(tid):
        return 1
    implied = max(1, (int(tid.max()) + 1) // partitioning.num_parts)
    return check_trainers_per_machine(implied, "trainers per machine (from the files' trainer_id)")

"""Which training nodes each trainer gets: DGL's ``node_split``, for every trainer at once.

Distributed training runs ``num_trainers_per_machine`` trainers on every machine (partition);
trainer ``r`` sits on machine ``r // T``. DGL hands each its seeds with
``dgl.distributed.node_split`` over the training mask in the partitions' (shuffled) ids, and the
split decides how many of a trainer's seeds its own machine owns:

- ``force_even=True`` (DGL's default): the sorted training ids are cut into one contiguous,
  even slice per machine (sizes differ by at most one), whoever owns them. When the training
  nodes are not balanced across partitions, a machine's slice runs into its neighbour's id range
  and those seeds are remote: this is what ``balance_ntypes`` with the train mask prevents.
  Inside a machine the slice goes to its trainers at random (DGL seeds that permutation with the
  machine id), or, with ``by_trainer_id``, by the trainer ids the partitioner wrote: the
  machine's own nodes first, grouped by trainer, then the rest, each evenly.
- ``force_even=False``: each machine keeps exactly the training nodes it owns, in contiguous
  chunks of ``len // T`` per trainer (the last takes the remainder): every seed is local, but
  machines get as many seeds as the partitioning gave them.

Heterographs are split one node type at a time in type-wise ids, as DGL does for each
``ntype``; a trainer's seeds are the concatenation over types.
"""

from __future__ import annotations

import numpy as np

from ..errors import GraphpartError
from ..utils.check import check_trainers_per_machine
from .trainset import TrainSet

__all__ = ["node_split"]


def even_offsets(n: int, k: int) -> np.ndarray:
    """``k + 1`` offsets cutting ``n`` items into ``k`` slices whose sizes differ by at most one
    (the first ``n % k`` slices get the extra item).

    Parameters
    ----------
    n : int
        The number of items, at least 0.
    k : int
        The number of slices, at least 1.

    Returns
    -------
    ndarray
        ``k + 1`` int64 offsets from 0 to ``n``: slice ``i`` is ``[offsets[i], offsets[i + 1])``.

    Examples
    --------
    >>> even_offsets(10, 3).tolist()
    [0, 4, 7, 10]
    """
    sizes = np.full(k, n // k, dtype=np.int64)
    sizes[: n - (n // k) * k] += 1
    return np.concatenate([[0], np.cumsum(sizes)])


def node_split(
    train: TrainSet,
    num_trainers_per_machine: int = 1,
    *,
    force_even: bool = True,
    by_trainer_id: bool = False,
) -> list[np.ndarray]:
    """The seeds of every trainer, as ``dgl.distributed.node_split`` gives them, in new ids.

    Parameters
    ----------
    train : TrainSet
        The training nodes of a partitioning (:func:`~graphpart.training.train_set`).
    num_trainers_per_machine : int
        ``T``: trainer ``r`` runs on machine ``r // T``.
    force_even : bool
        Even slices per machine (DGL's default) or each machine's own training nodes.
    by_trainer_id : bool
        With ``force_even`` and ``T > 1``: split a machine's slice by the trainer ids the
        partitioner wrote (DGL's ``node_trainer_ids``) instead of at random.

    Returns
    -------
    list of ndarray
        ``M * T`` arrays of new homogeneous node ids, machine-major.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.training import train_set
    >>> p = gp.partition(load_karate_club(), 2, seed=0)
    >>> ts = train_set(p, None)  # every node trains
    >>> [len(s) for s in node_split(ts, 2)]
    [9, 8, 9, 8]
    """
    if not isinstance(train, TrainSet):
        raise GraphpartError(
            f"train must be a TrainSet (graphpart.training.train_set), got {type(train).__name__}"
        )
    trainers = check_trainers_per_machine(num_trainers_per_machine)
    if by_trainer_id and train.trainer_id is None:
        raise GraphpartError(
            "by_trainer_id needs the trainer of every node: partition with "
            "num_trainers_per_machine > 1, or open files that store trainer_id"
        )
    machines = train.num_parts
    out: list[list[np.ndarray]] = [[] for _ in range(machines * trainers)]
    for ids, start in zip(train.ids_by_type, train.type_starts):
        # ``ids``: sorted new homogeneous ids of one type; ``start[m]``: where machine m's range
        # of that type begins in them (DGL splits type-wise ids, whose order is the same)
        if force_even:
            cuts = even_offsets(len(ids), machines)
            for m in range(machines):
                part = ids[cuts[m] : cuts[m + 1]]
                for c, piece in enumerate(_within(train, part, m, trainers, by_trainer_id)):
                    out[m * trainers + c].append(piece)
        else:
            for m in range(machines):
                own = ids[start[m] : start[m + 1]]
                size = len(own) // trainers
                for c in range(trainers):
                    end = len(own) if c == trainers - 1 else (c + 1) * size
                    out[m * trainers + c].append(own[c * size : end])
    return [np.concatenate(p) if p else np.zeros(0, np.int64) for p in out]


def _within(train: TrainSet, part: np.ndarray, m: int, trainers: int, by_trainer_id: bool):
    """Machine ``m``'s slice ``part`` dealt to its ``trainers``."""
    if trainers == 1:
        return [part]
    if not by_trainer_id:
        # DGL permutes with numpy's legacy generator seeded by the machine id, then sorts each
        # trainer's positions: a fixed rule, the same on every run
        cuts = even_offsets(len(part), trainers)
        perm = np.random.RandomState(m).permutation(len(part))
        return [part[np.sort(perm[cuts[c] : cuts[c + 1]])] for c in range(trainers)]
    tid = train.trainer_id
    top = int(tid.max()) + 1 if len(tid) else 0
    total = train.num_parts * trainers
    if top > total:  # written for more trainers per machine than now run: merge neighbours
        if top % total:
            raise GraphpartError(
                f"the files' trainer ids run to {top - 1}, which does not divide among "
                f"{total} trainers"
            )
        tid = tid // (top // total)
    owner, local = tid[part] // trainers, tid[part] % trainers
    mine, rest = part[owner == m], part[owner != m]
    mine = mine[np.argsort(local[owner == m], kind="stable")]
    a, b = even_offsets(len(mine), trainers), even_offsets(len(rest), trainers)
    return [np.concatenate([mine[a[c] : a[c + 1]], rest[b[c] : b[c + 1]]]) for c in range(trainers)]

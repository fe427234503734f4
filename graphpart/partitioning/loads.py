"""Balance loads: each balance constraint's load per partition (and per trainer), and the
balance record a config keeps of them, so partitions on disk report the balance they were made
for. The in-memory writer and the chunked pipeline build the record with the same function."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["class_loads", "balance_loads", "trainer_loads", "balance_record", "SPLITS"]

#: The node data masks whose counts are reported per partition and per trainer.
SPLITS = ("train_mask", "val_mask", "test_mask")


def class_loads(
    part: np.ndarray,
    classes: np.ndarray,
    labels: Sequence[str],
    ntypes: Sequence[str],
    num_parts: int,
) -> dict[str, np.ndarray]:
    """Nodes of each balance class in each partition.

    A heterograph's classes that are whole node types are left out (``nodes of <type>``
    reports them).

    Parameters
    ----------
    part : numpy.ndarray
        The partition of every node (homogeneous ids).
    classes : numpy.ndarray
        The balance class of every node (same order).
    labels : sequence of str
        A name per class; numbers name them when the count differs.
    ntypes : sequence of str
        The graph's node types.
    num_parts : int

    Returns
    -------
    dict of str to numpy.ndarray
        ``{"class <label>": nodes of the class in each partition}``.

    Examples
    --------
    >>> loads = class_loads(np.array([0, 0, 1, 1]), np.array([0, 1, 1, 1]), ["a", "b"], ["_N"], 2)
    >>> {k: v.tolist() for k, v in loads.items()}
    {'class a': [1, 0], 'class b': [1, 2]}
    """
    part = np.asarray(part, dtype=np.int64)
    classes = np.asarray(classes, dtype=np.int64)
    ncls = max(len(labels), int(classes.max()) + 1 if len(classes) else 0)
    counts = np.bincount(part * ncls + classes, minlength=num_parts * ncls)
    counts = counts.reshape(num_parts, ncls)
    names = list(labels) if len(labels) == ncls else [str(c) for c in range(ncls)]
    return {
        f"class {names[c]}": counts[:, c]
        for c in range(ncls)
        if len(ntypes) == 1 or names[c] not in ntypes
    }


def balance_record(
    labels: Sequence[str] | None,
    edges: bool,
    loads: Mapping[str, np.ndarray],
    trainer_loads: Mapping[str, np.ndarray] | None = None,
) -> dict:
    """The config's balance record (JSON): what was balanced and each partition's loads.

    Parameters
    ----------
    labels : sequence of str or None
        The classes ``balance_ntypes`` made (``None``: node counts, and each type of a
        heterograph).
    edges : bool
        Whether in-degrees were balanced.
    loads : mapping of str to array
        Each constraint's load per partition (:func:`balance_loads`, :func:`class_loads`).
    trainer_loads : mapping of str to array, optional
        The same per trainer, with several trainers per machine.

    Returns
    -------
    dict
        ``{"ntypes": labels or None, "edges": bool, "loads": {name: [ints]}}`` and
        ``"trainer_loads"`` when given; what :func:`~graphpart.storage.read_config` checks.

    Examples
    --------
    >>> balance_record(["train", "not train"], False, {"class train": np.array([3, 4])})
    {'ntypes': ['train', 'not train'], 'edges': False, 'loads': {'class train': [3, 4]}}
    """
    record = {
        "ntypes": None if labels is None else list(labels),
        "edges": bool(edges),
        "loads": {name: np.asarray(v).astype(np.int64).tolist() for name, v in loads.items()},
    }
    if trainer_loads:
        record["trainer_loads"] = {
            name: np.asarray(v).astype(np.int64).tolist() for name, v in trainer_loads.items()
        }
    return record


def trainer_loads(p) -> dict[str, np.ndarray]:
    """Per-trainer loads (``num_parts * num_trainers_per_machine`` of them, machine-major):
    ``nodes``, each balance class, each train/val/test split and ``in-degree``; empty with one
    trainer per machine (the machine loads say it all).

    Parameters
    ----------
    p : Partitioning
        An in-memory partitioning (its trainer ids, classes and node data are read).

    Returns
    -------
    dict of str to numpy.ndarray
        Load name to its value for each trainer (machine-major: trainer ``machine * T + t``).

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> loads = trainer_loads(gp.partition(load_karate_club(), 2, num_trainers_per_machine=2,
    ...                                    seed=0))
    >>> sorted(loads), int(loads["nodes"].sum()), len(loads["nodes"])
    (['in-degree', 'nodes'], 34, 4)
    """
    t = p.num_trainers_per_machine
    if t <= 1:
        return {}
    k, trainer = p.num_parts * t, np.asarray(p.trainer_id, dtype=np.int64)
    out = {"nodes": np.bincount(trainer, minlength=k)}
    if p.balance_classes is not None and len(p.balance_classes):
        ncls = int(p.balance_classes.max()) + 1
        counts = np.bincount(trainer * ncls + p.balance_classes, minlength=k * ncls).reshape(k, -1)
        names = p.balance_labels if len(p.balance_labels) == ncls else [str(c) for c in range(ncls)]
        out.update({f"class {names[c]}": counts[:, c] for c in range(ncls)})
    g, offsets = p.graph, p.homogeneous.node_offsets
    for split in SPLITS:
        if any(split in g.node_data(nt) for nt in g.ntypes):
            mask = np.zeros(len(trainer), dtype=bool)
            for i, nt in enumerate(g.ntypes):
                if split in g.node_data(nt):
                    mask[offsets[i] : offsets[i + 1]] = g.node_data(nt)[split].numpy().astype(bool)
            out[split.replace("_mask", " nodes")] = np.bincount(trainer[mask], minlength=k)
    sh = p.shuffle
    by_new = trainer[np.asarray(sh.new2old_nid, dtype=np.int64)]
    out["in-degree"] = np.bincount(by_new[np.asarray(sh.dst, dtype=np.int64)], minlength=k)
    return out


def balance_loads(p) -> dict[str, np.ndarray]:
    """The per-partition load of each balance constraint: ``class <label>`` nodes, ``in-degree``.

    Whole node types are left out (``nodes of <type>`` reports them). ``partition_graph``
    records these in the config, so partitions on disk report them too.

    Parameters
    ----------
    p : Partitioning
        The partitioning. One reopened from files, whose balance classes are not known, returns
        the loads its config recorded.

    Returns
    -------
    dict of str to ndarray
        Constraint name to its load in each partition: ``class <label>`` (nodes of that balance
        class) and, when ``p.balance_edges``, ``in-degree`` (edges into the partition's nodes).
        Empty without balance constraints.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> g = load_karate_club()
    >>> loads = balance_loads(gp.partition(g, 2, balance_ntypes=g.ndata["label"], seed=0))
    >>> sorted(loads), int(loads["class 0"].sum()) + int(loads["class 1"].sum())
    (['class 0', 'class 1'], 34)
    """
    extra = {}
    ntypes = p.graph.ntypes
    known = p.balance_classes is not None and (
        len(ntypes) == 1 or p.balance_labels != tuple(ntypes)
    )
    if not known and not p.balance_edges and p.recorded_balance:  # reopened from files
        return {name: np.asarray(v) for name, v in p.recorded_balance.items()}
    if p.balance_classes is not None:
        extra.update(
            class_loads(p.node_part, p.balance_classes, p.balance_labels, ntypes, p.num_parts)
        )
    if p.balance_edges:
        sh = p.shuffle
        deg = np.bincount(sh.dst, minlength=len(sh.new2old_nid))
        extra["in-degree"] = np.bincount(sh.node_part(), weights=deg, minlength=p.num_parts).astype(
            np.int64
        )
    return extra

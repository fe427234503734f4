"""Epoch cost as a graph to point at: one trainer's seeds, the rows its batches read on its own
machine and the rows it fetched from other machines (what makes its bar long), the rest faded.

Computed from a view's :class:`~graphpart.views.graph.GraphData` and the trainer's
:class:`~graphpart.training.TrainerReads`; :class:`~graphpart.widgets.EpochCostView` only draws
it when a trainer's bar is hovered.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..palette import READ_COLORS
from .graph import GraphData

if TYPE_CHECKING:  # pragma: no cover
    from ..partitioning.core import Partitioning
    from ..training.counts import TrainerReads

__all__ = ["trainer_view_data"]


def trainer_view_data(p: Partitioning, data: GraphData, reads: TrainerReads) -> GraphData:
    """``data`` recoloured for trainer ``reads.trainer``: its seeds, the rows it fetched from
    other machines, the rows read on its own machine (or from its GPU cache), and the nodes
    it never read; each card says how many of its batches read the node and fetched it.

    Parameters
    ----------
    p : Partitioning
        The partitioning ``reads`` was replayed on.
    data : GraphData
        A view's data of ``p`` (:func:`~graphpart.views.graph.graph_data` or
        :func:`~graphpart.views.graph.neighbourhood_data`). A quotient graph (its nodes are
        partitions) is returned unchanged.
    reads : TrainerReads
        One trainer's reads, e.g. from ``TrainingSetup.trainer_reads``.

    Returns
    -------
    GraphData
        A copy whose nodes have ``owner`` set to what they are to the trainer (a key of
        :data:`READ_COLORS`), ``partition`` to their former owner, ``reads`` and ``fetched`` to
        their counts and ``label`` to the new card; the title names the trainer.

    Examples
    --------
    >>> import graphpart as gp
    >>> from graphpart.datasets import load_karate_club
    >>> from graphpart.training import TrainingSetup
    >>> from graphpart.views.graph import graph_data
    >>> p = gp.partition(load_karate_club(), 2, seed=0)
    >>> reads = TrainingSetup(fanouts=(3,), batch_size=8, train=None).trainer_reads(p, 0)
    >>> d = trainer_view_data(p, graph_data(p), reads)
    >>> d.title
    '34 nodes in 2 partitions: what trainer 0 (machine 0) reads'
    >>> sorted(d.palette)[:2]
    ['fetched from another machine', 'its seed']
    """
    if any(a.get("kind") == "partition" for a in data.nodes.values()):
        return data  # the quotient graph of a big graph: its nodes are partitions
    keys = list(data.nodes)
    homo = np.array(
        [int(a.get("homogeneous id", a.get("original id"))) for a in data.nodes.values()],
        dtype=np.int64,
    )
    new = np.asarray(p.shuffle.old2new_nid, dtype=np.int64)[homo]
    owner = np.asarray(p.node_part, dtype=np.int64)[homo]
    seed = np.zeros(len(p.shuffle.new2old_nid), dtype=bool)
    seed[np.asarray(reads.seeds, dtype=np.int64)] = True
    read, fetched, is_seed = reads.reads[new], reads.fetched[new], seed[new]
    kind = np.where(
        is_seed,
        "its seed",
        np.where(
            fetched > 0,
            "fetched from another machine",
            np.where(read > 0, "read on its machine", "not read"),
        ),
    ).astype(object)
    s = lambda a: np.asarray(a).astype(str).astype(object)  # noqa: E731
    who = f"trainer {reads.trainer} (machine {reads.machine})"
    text = (
        "node " + np.asarray(keys, dtype=object) + " | " + np.where(is_seed, "seed of ", "for ")
        + who + " | inputs of " + s(read) + " of its batches | fetched remotely: " + s(fetched)
        + " | owner: part " + s(owner)
    )  # fmt: skip
    nodes = {}
    for i, key in enumerate(keys):
        a = dict(data.nodes[key])
        a["partition"] = a["owner"]
        a["owner"] = kind[i]
        a["reads"] = int(read[i])
        a["fetched"] = int(fetched[i])
        a["label"] = text[i]
        nodes[key] = a
    palette = {k: c for k, c in READ_COLORS.items() if (kind == k).any()}
    return replace(data, nodes=nodes, palette=palette, title=f"{data.title}: what {who} reads")

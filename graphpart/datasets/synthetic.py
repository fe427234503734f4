"""The node classification task a generated graph carries (:class:`NodeTask`: labels, features,
train/val/test masks), attached by :func:`attach_node_data`; the generators' shared helpers."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import torch

from ..errors import GraphpartError
from ..graph.core import Graph
from ..index import unique_int
from ..typing import Seed
from ..utils.check import Options, check_count, check_feat_dim, short_repr
from ..utils.seeds import check_random_state

__all__ = ["NodeTask", "attach_node_data"]

#: Peak bytes per drawn edge of an in-memory generator (ids drawn, deduplicated, then held by the
#: graph; both directions counted as edges).
BYTES_PER_EDGE = 48


def check_fits(edges: float, nodes: int, what: str) -> None:
    """Refuse, before drawing anything, a graph of about ``edges`` edges whose generation would
    not fit in the memory this machine has available now.

    Examples
    --------
    >>> check_fits(1e6, 10**5, "sbm")  # 48 MB: fine
    >>> check_fits(1e18, 10**9, "sbm")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: sbm would draw about 1e+18 edges, about ... GiB in memory; ...
    """
    import psutil

    need = BYTES_PER_EDGE * float(edges) + 16.0 * nodes
    have = psutil.virtual_memory().available
    if need > have:
        raise GraphpartError(
            f"{what} would draw about {float(edges):.3g} edges, about {need / 2**30:,.1f} GiB in "
            f"memory; this machine has {have / 2**30:.1f} GiB available: ask for a smaller graph, "
            f"or stream it to disk with `graphpart chunk --dataset {what}`"
        )


def _fraction(x: object, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not 0.0 <= float(x) <= 1.0:
        raise GraphpartError(f"{name} must be a fraction in [0, 1], got {short_repr(x)}")
    return float(x)


@dataclass(frozen=True)
class NodeTask(Options):
    """The node classification task a generated graph carries: labels, features and masks.

    Every generator (:func:`~graphpart.datasets.rmat`, :func:`~graphpart.datasets.sbm`,
    :func:`~graphpart.datasets.dcsbm`, their ``*_chunked`` twins, ``graphpart chunk``) takes
    one, or its fields by name.

    Attributes
    ----------
    num_classes : int, default 0
        Random labels in ``[0, num_classes)`` (0: no ``label`` field). Generators with planted
        communities label nodes by them instead, and refuse this.
    feat_dim : int, default 0
        Width of the ``feat`` field (0: none): a Gaussian class centroid plus unit noise, so a
        model can learn the labels from it.
    train_frac, val_frac, test_frac : float, default 0.0
        Fractions of the nodes in each of the disjoint masks (0: no such mask); they must not
        sum above 1.

    Examples
    --------
    >>> NodeTask(feat_dim=4, train_frac=0.6, val_frac=0.5)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: train_frac + val_frac + test_frac must be at most 1, got 1.1
    """

    option_word = "node task option"

    num_classes: int = 0
    feat_dim: int = 0
    train_frac: float = 0.0
    val_frac: float = 0.0
    test_frac: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "num_classes", check_count(self.num_classes, "num_classes"))
        object.__setattr__(self, "feat_dim", check_feat_dim(self.feat_dim))
        fracs = [_fraction(getattr(self, f"{s}_frac"), f"{s}_frac") for s in SPLITS]
        if sum(fracs) > 1.0 + 1e-9:
            raise GraphpartError(
                f"train_frac + val_frac + test_frac must be at most 1, got {sum(fracs):.3g}"
            )

    @property
    def fractions(self) -> tuple[float, float, float]:
        """``(train_frac, val_frac, test_frac)``."""
        return (float(self.train_frac), float(self.val_frac), float(self.test_frac))


def planted_task(task: NodeTask | None, names: dict) -> NodeTask:
    """The :class:`NodeTask` of a generator whose labels are its planted communities: one
    without ``num_classes``, refused before anything is drawn."""
    task = NodeTask.of(task, **names)
    if task.num_classes:
        raise GraphpartError(
            "this generator labels nodes by their planted communities: num_classes applies to "
            f"rmat only, got {task.num_classes}"
        )
    return task


#: The masks a :class:`NodeTask` draws, in order.
SPLITS = ("train", "val", "test")


def attach_node_data(
    g: Graph, rng: Seed, task: NodeTask | None = None, labels: np.ndarray | None = None
) -> Graph:
    """Attach ``label``, ``feat`` and ``train/val/test_mask`` node data to a homogeneous graph.

    Parameters
    ----------
    g : Graph
        A homogeneous graph; its node data gains the fields (in place).
    rng : int, numpy.random.Generator or None
        Seeds the labels, features and masks.
    task : NodeTask or None, default None
        What to attach (``None``: nothing).
    labels : numpy.ndarray, optional
        One class per node (planted blocks); these win over ``task.num_classes``.

    Returns
    -------
    Graph
        ``g`` itself, with the fields attached.

    Examples
    --------
    >>> g = Graph.from_edges([0, 1], [1, 2], num_nodes=10)
    >>> task = NodeTask(num_classes=2, feat_dim=4, train_frac=0.5, val_frac=0.2, test_frac=0.3)
    >>> g = attach_node_data(g, np.random.default_rng(0), task)
    >>> sorted(g.ndata), int(g.ndata["train_mask"].sum()), g.ndata["feat"].shape
    (['feat', 'label', 'test_mask', 'train_mask', 'val_mask'], 5, torch.Size([10, 4]))
    """
    if not g.is_homogeneous:
        raise GraphpartError(
            f"attach_node_data needs a homogeneous graph, got node types {g.ntypes}"
        )
    task = task or NodeTask()
    rng = check_random_state(rng)
    n = g.num_nodes()
    if labels is None and task.num_classes:
        labels = rng.integers(task.num_classes, size=n)
    if labels is not None:
        g.ndata["label"] = torch.from_numpy(np.asarray(labels, dtype=np.int64))
    if task.feat_dim:
        feat = rng.standard_normal((n, task.feat_dim), dtype=np.float32)
        if labels is not None:
            k = int(np.max(labels)) + 1 if n else 0
            centroids = 2.0 * rng.standard_normal((k, task.feat_dim), dtype=np.float32)
            feat += centroids[labels]
        g.ndata["feat"] = torch.from_numpy(feat)
    if any(task.fractions):
        order = rng.permutation(n)
        # Round the cumulative fractions, so sizes are within one node and never overlap.
        bounds = np.round(np.cumsum([0.0, *task.fractions]) * n).astype(np.int64).clip(0, n)
        for (lo, hi), name in zip(zip(bounds[:-1], bounds[1:]), SPLITS):
            mask = np.zeros(n, dtype=bool)
            mask[order[lo:hi]] = True
            g.ndata[f"{name}_mask"] = torch.from_numpy(mask)
    return g


def dedupe_edges(
    src: np.ndarray, dst: np.ndarray, n: int, symmetric: bool, self_loops: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Unique ``(src, dst)`` pairs sorted by source, optionally symmetrised and loop-free.

    Examples
    --------
    >>> dedupe_edges(np.array([0, 0, 1, 2]), np.array([1, 1, 1, 0]), 3, True, False)
    (array([0, 0, 1, 2]), array([1, 2, 0, 0]))
    """
    if not self_loops:
        keep = src != dst
        src, dst = src[keep], dst[keep]
    if symmetric:
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    key = unique_int(src.astype(np.int64) * n + dst)
    return key // n, key % n

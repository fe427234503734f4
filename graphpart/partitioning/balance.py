"""``balance_ntypes`` and ``balance_edges``: what to balance, as classes and METIS weights.

The one place a balance setting becomes balance classes, whatever form it came in:

========================= ==========================================================
the user's value          :func:`balance_classes`: an array over homogeneous node ids,
                          a dict ``{ntype: array}``, or ``None`` (a heterograph then
                          balances each node type, as DGL does)
a node data field name    :func:`~.fields.field_balance` turns it into that value (the
                          CLI's ``--balance-ntypes FIELD``); ``partition`` given the name
                          names the classes after it (``train`` / ``not train``)
several field names       :func:`~.fields.fields_balance`: a class per combination of
                          their values (``["train_mask", "val_mask", "test_mask"]``:
                          ``train``, ``val``, ``test``, ``none``), per type
per-type values           :func:`classes_by_type`: node type crossed with its values
                          (the rule behind the dict form; the chunked pipeline reads
                          the values from chunks and calls it directly)
========================= ==========================================================

:func:`balance_weights` turns classes into METIS's vertex weights (one column per
constraint, as DGL builds them; :func:`constraint_names` names the columns), and
:func:`fill_isolated` deals nodes without edges out class by class, where they
even out every constraint (and leave no part empty).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch

from ..errors import GraphpartError
from ..graph.core import Graph
from ..homogeneous import HomogeneousGraph
from ..typing import BalanceSpec
from ..utils.check import short_repr
from .fields import as_fields, code_labels, field_balance, fields_balance, named_labels

__all__ = ["balance_classes", "balance_weights", "fill_isolated"]


def class_ids(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Dense ids ``0..C-1`` for the distinct values of ``values`` (in sorted order), and ``C``.

    Parameters
    ----------
    values : numpy.ndarray
        One value per item, of any sortable dtype (bools count as 0 and 1).

    Returns
    -------
    ids : numpy.ndarray of int
        The rank of each item's value among the distinct values, one per item.
    num_classes : int
        The number of distinct values, ``C``.

    Examples
    --------
    >>> cls, n = class_ids(np.array([7, 3, 7, 9]))
    >>> cls.tolist(), n
    ([1, 0, 1, 2], 3)
    """
    values = np.asarray(values)
    if values.dtype == bool:
        values = values.astype(np.int64)
    if values.dtype.kind in "iu" and len(values) and values.min() >= 0 and values.max() < 1 << 20:
        present = np.bincount(values) > 0
        dense = np.cumsum(present) - 1
        return dense[values], int(present.sum())
    uniq, inv = np.unique(values, return_inverse=True)
    return inv.reshape(-1), len(uniq)


def _as_values(x: object, what: str) -> np.ndarray:
    arr = x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)
    if arr.ndim != 1 or arr.dtype.kind not in "biu":
        raise GraphpartError(
            f"{what} must be one bool/int value per node (a one-dimensional bool or int "
            f"array), got dtype {arr.dtype} and shape {arr.shape}"
        )
    return arr


def _labelled(arr: np.ndarray, prefix: str = "") -> tuple[np.ndarray, int, list[str]]:
    cls, ncls = class_ids(arr)
    values = np.empty(ncls, dtype=arr.dtype)
    values[cls] = arr  # every class takes its own value (scatter, no search)
    return cls, ncls, [f"{prefix}{v}" for v in values.tolist()]


def classes_by_type(
    ntypes: Sequence[str],
    counts: Sequence[int],
    values: Mapping[str, object],
    what: str = "balance_ntypes",
) -> tuple[np.ndarray, tuple[str, ...]]:
    """Balance classes of the nodes of several types: each type's values (``"t:value"``), or the
    type as one class (``"t"``) where ``values`` has none; nodes in homogeneous id order.

    Parameters
    ----------
    ntypes : sequence of str
        The node types, in homogeneous id order.
    counts : sequence of int
        The number of nodes of each type, in the order of ``ntypes``.
    values : mapping of str to array-like
        ``{ntype: values}``: one bool or int value per node of that type (a NumPy array, a
        tensor, or anything :func:`numpy.asarray` takes). Keys that are not in ``ntypes`` are
        ignored.
    what : str, default "balance_ntypes"
        The name error messages give ``values``.

    Returns
    -------
    classes : numpy.ndarray of int64
        The class of every node, in homogeneous id order: the classes of each type follow those
        of the types before it, a type's values in sorted order.
    labels : tuple of str
        A label per class: ``"type:value"``, or the type's name where it is one class.

    Raises
    ------
    GraphpartError
        If a type's values are not one-dimensional bool / int, or not one per node of the type.

    Examples
    --------
    >>> cls, labels = classes_by_type(["user", "item"], [3, 2], {"user": np.array([1, 0, 1])})
    >>> cls.tolist(), labels
    ([1, 0, 1, 2, 2], ('user:0', 'user:1', 'item'))
    """
    parts, labels, next_class = [], [], 0
    for t, n in zip(ntypes, counts):
        if t in values:
            arr = _as_values(values[t], f"{what}[{t!r}]")
            if len(arr) != n:
                raise GraphpartError(
                    f"{what}[{short_repr(t)}] must have one value per {short_repr(t)} node ({n}), "
                    f"got {len(arr)}"
                )
            cls, ncls, names = _labelled(arr, f"{t}:")
            parts.append(cls + next_class)
            labels += names
            next_class += ncls
        else:  # a type without its own classes is balanced as a whole
            parts.append(np.full(int(n), next_class, dtype=np.int64))
            labels.append(t)
            next_class += 1
    return (np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)), tuple(labels)


def balance_classes(
    g: Graph, balance_ntypes: BalanceSpec, homo: HomogeneousGraph | None = None
) -> tuple[np.ndarray | None, tuple[str, ...]]:
    """The balance class of every node (homogeneous ids), as DGL builds it, and a label per class.

    ``None`` balances nothing on a homogeneous graph and each node type on a heterograph; an
    array gives one class per distinct value; a dict ``{ntype: array}`` crosses node types with
    their values (:func:`classes_by_type`).

    Parameters
    ----------
    g : Graph
        The graph whose nodes are classed.
    balance_ntypes : None, str, list of str, dict of str to array-like, or array-like
        ``None``; a node data field name (:func:`~.fields.field_balance`; the labels are then
        named after the field, :func:`~.fields.named_labels`); several field names, as a list or
        tuple of str or one comma-separated str (a class per combination of their values,
        :func:`~.fields.fields_balance`); a dict ``{ntype: values}`` (unknown node types are
        refused); or one bool / int value per node in homogeneous id order (an array, a tensor).
    homo : HomogeneousGraph, optional
        The homogeneous view of ``g``, when the caller has it; built from ``g`` otherwise.

    Returns
    -------
    classes : numpy.ndarray of int or None
        The class (dense ids from 0) of every node in homogeneous id order; on a heterograph with
        ``balance_ntypes=None``, the node type id of every node; ``None`` on a homogeneous graph
        with ``balance_ntypes=None``.
    labels : tuple of str
        A label per class (empty when ``classes`` is ``None``).

    Raises
    ------
    GraphpartError
        If a named field does not exist, a dict names unknown node types, or the values are not
        one-dimensional bool / int with one per node.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> g = load_karate_club()
    >>> cls, labels = balance_classes(g, g.ndata["label"])
    >>> cls[:4].tolist(), labels
    ([0, 0, 0, 0], ('0', '1'))
    """
    homo = homo or HomogeneousGraph.of(g)
    if balance_ntypes is None:
        return (None, ()) if g.is_homogeneous else (homo.ntype, tuple(g.ntypes))
    fields = as_fields(balance_ntypes)
    if fields is not None and len(fields) > 1:  # a class per combination, named after them
        values, names = fields_balance(g, fields)
        cls, labels = balance_classes(g, values, homo)
        return cls, code_labels(labels, names, g.ntypes)
    if fields is not None or isinstance(balance_ntypes, str):  # one field: named after it
        name = fields[0] if fields is not None else balance_ntypes
        cls, labels = balance_classes(g, field_balance(g, name), homo)
        return cls, named_labels(name, labels, g.ntypes)
    counts = [g.num_nodes(t) for t in g.ntypes]
    if isinstance(balance_ntypes, Mapping):
        unknown = sorted(set(map(str, balance_ntypes)) - set(g.ntypes))
        if unknown:
            raise GraphpartError(
                f"balance_ntypes has unknown node types {unknown}; known: {g.ntypes}"
            )
        return classes_by_type(g.ntypes, counts, balance_ntypes)
    arr = _as_values(balance_ntypes, "balance_ntypes")
    if len(arr) != homo.num_nodes:
        raise GraphpartError(
            f"balance_ntypes must have one value per node ({homo.num_nodes}), got "
            f"{len(arr)}; for a heterograph pass a dict {{ntype: array}}"
        )
    cls, _, labels = _labelled(arr)
    return cls, tuple(labels)


def balance_weights(
    num_nodes: int,
    balance_ntypes: np.ndarray | None,
    balance_edges: bool,
    in_degrees: np.ndarray | None,
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Vertex weights ``(n, ncon)`` for METIS and the balance class of every node.

    ``balance_ntypes`` adds one 0/1 column per distinct value; ``balance_edges``
    adds the in-degree of each class (or, without classes, a node-count column
    and an in-degree column: DGL uses in-degree alone there, which leaves the
    node counts unbalanced).

    Parameters
    ----------
    num_nodes : int
        The number of nodes, ``n``.
    balance_ntypes : numpy.ndarray or None
        One value per node (any sortable dtype); each distinct value is a class. ``None``: no
        classes.
    balance_edges : bool
        Add in-degree columns.
    in_degrees : numpy.ndarray of int or None
        The in-degree of every node; required when ``balance_edges`` is true, unused otherwise.

    Returns
    -------
    weights : numpy.ndarray of int64, shape (n, ncon), or None
        One column per constraint: a 0/1 column per class (in the sorted order of the values),
        then, with ``balance_edges``, an in-degree column per class in the same order. Without
        classes, ``[1, in-degree]`` per node with ``balance_edges`` and ``None`` without.
    classes : numpy.ndarray of int or None
        The class (dense ids, :func:`class_ids`) of every node; ``None`` when
        ``balance_ntypes`` is ``None``.

    Examples
    --------
    >>> w, cls = balance_weights(3, np.array([1, 0, 1]), True, np.array([2, 5, 1]))
    >>> w.tolist(), cls.tolist()
    ([[0, 1, 0, 2], [1, 0, 5, 0], [0, 1, 0, 1]], [1, 0, 1])
    """
    if balance_ntypes is None:
        if not balance_edges:
            return None, None
        return np.stack(
            [np.ones(num_nodes, dtype=np.int64), in_degrees.astype(np.int64)], axis=1
        ), None
    cls, ncls = class_ids(np.asarray(balance_ntypes))
    rows = np.arange(num_nodes)
    w = np.zeros((num_nodes, ncls * (2 if balance_edges else 1)), dtype=np.int64)
    w[rows, cls] = 1
    if balance_edges:
        w[rows, ncls + cls] = in_degrees
    return w, cls


def constraint_names(
    balance_ntypes: np.ndarray | None, balance_edges: bool, labels: Sequence[str] | None = None
) -> list[str]:
    """A name for every column of :func:`balance_weights` (for messages).

    ``labels[v]`` names the class of value ``v`` of ``balance_ntypes`` (the class ids and labels
    of :func:`balance_classes`); values without a label are named ``"class v"``.

    Parameters
    ----------
    balance_ntypes : numpy.ndarray or None
        As given to :func:`balance_weights`.
    balance_edges : bool
        As given to :func:`balance_weights`.
    labels : sequence of str, optional
        ``labels[v]`` names the class of the int value ``v``.

    Returns
    -------
    list of str
        One name per column of :func:`balance_weights`: the class names, then, with
        ``balance_edges``, ``"in-degree of <name>"`` for each; without classes ``["nodes"]``,
        or ``["nodes", "in-degree"]`` with ``balance_edges``.

    Examples
    --------
    >>> constraint_names(np.array([2, 0, 2]), True, ["user", "item", "tag"])
    ['user', 'tag', 'in-degree of user', 'in-degree of tag']
    >>> constraint_names(None, False)
    ['nodes']
    """
    if balance_ntypes is None:
        return ["nodes", "in-degree"] if balance_edges else ["nodes"]
    values = np.asarray(balance_ntypes)
    values = np.unique(values.astype(np.int64) if values.dtype == bool else values).tolist()
    labels = list(labels or ())
    names = [
        labels[v] if isinstance(v, int) and 0 <= v < len(labels) else f"class {v}" for v in values
    ]
    return names + [f"in-degree of {name}" for name in names] if balance_edges else names


def water_fill(current: np.ndarray, m: int, tie: np.ndarray | None = None) -> np.ndarray:
    """How many of ``m`` new items each part takes so the smallest parts rise evenly.

    ``tie`` (e.g. each part's node count over every class) decides between parts of equal
    ``current``: the lower takes first.

    Parameters
    ----------
    current : numpy.ndarray of int
        The items each part holds now, one entry per part.
    m : int
        The number of new items to hand out (>= 0).
    tie : numpy.ndarray of int, optional
        One entry per part. Among parts of equal ``current`` the one with the lower ``tie`` is
        raised first, and the items left over once the raised parts are level (at most one
        each) go to those with the lowest ``tie`` plus share. ``None``: the lower part index.

    Returns
    -------
    numpy.ndarray of int64
        How many new items each part takes; the entries sum to ``m``.

    Examples
    --------
    >>> water_fill(np.array([1, 0, 0]), 3).tolist()
    [0, 2, 1]
    >>> water_fill(np.array([1, 0, 0]), 3, tie=np.array([0, 5, 1])).tolist()
    [1, 1, 1]
    """
    k = len(current)
    order = np.argsort(current, kind="stable") if tie is None else np.lexsort((tie, current))
    c = current[order].astype(np.int64)
    prefix = np.cumsum(c)
    # Raising the j smallest parts to the level of the j-th costs j*c[j-1] - prefix[j-1].
    cost = np.arange(1, k + 1) * c - prefix
    j = int(np.searchsorted(cost, m, side="right"))
    level, extra = divmod(m + int(prefix[j - 1]), j)
    quota = np.zeros(k, dtype=np.int64)
    raised = order[:j]
    quota[raised] = level - c[:j]
    if tie is not None:  # the raised parts are level now: the one extra each goes by ``tie``
        raised = raised[np.argsort(tie[raised] + quota[raised], kind="stable")]
    quota[raised[:extra]] += 1
    return quota


def fill_isolated(
    part: np.ndarray,
    isolated: np.ndarray,
    cls: np.ndarray | None,
    num_parts: int,
    rng: np.random.Generator,
    spread: bool = False,
) -> None:
    """Assign the ``isolated`` nodes in place, class by class, to the emptiest parts (of their
    class; between parts as empty, to those with fewest nodes, so no part is left empty); with
    ``spread``, evenly (each part of a class's ``m`` nodes ``m // num_parts`` or one more, the
    extra ones to the emptiest parts).

    Parameters
    ----------
    part : numpy.ndarray of int
        The part of every node, ``-1`` for a node not yet assigned (the ``isolated`` ones);
        written to in place.
    isolated : numpy.ndarray of int
        The ids of the nodes to assign.
    cls : numpy.ndarray of int or None
        The class (a non-negative int) of every node; ``None``: all one class.
    num_parts : int
        The number of parts.
    rng : numpy.random.Generator
        Draws which of a class's nodes goes to which part.
    spread : bool, default False
        Deal each class's nodes out evenly instead of filling the emptiest parts
        (:func:`water_fill`).

    Examples
    --------
    >>> part = np.array([0, 0, 0, -1, -1, -1])
    >>> fill_isolated(part, np.array([3, 4, 5]), None, 2, np.random.default_rng(0))
    >>> np.bincount(part).tolist()
    [3, 3]
    >>> part = np.array([-1, -1])   # two classes of one node each
    >>> fill_isolated(part, np.array([0, 1]), np.array([0, 1]), 2, np.random.default_rng(0))
    >>> np.bincount(part).tolist()
    [1, 1]
    """
    cls_all = np.zeros(len(part), dtype=np.int64) if cls is None else cls
    placed = part >= 0
    iso_cls = cls_all[isolated]
    total = np.bincount(part[placed], minlength=num_parts)  # ties go to the parts with fewest nodes
    for c in np.flatnonzero(np.bincount(iso_cls)):
        current = np.bincount(part[placed & (cls_all == c)], minlength=num_parts)
        nodes = isolated[iso_cls == c]
        if spread:
            quota = np.full(num_parts, len(nodes) // num_parts, dtype=np.int64)
            extra = len(nodes) - int(quota.sum())
            quota[np.lexsort((total, current))[:extra]] += 1
        else:
            quota = water_fill(current, len(nodes), total)
        part[rng.permutation(nodes)] = np.repeat(np.arange(num_parts), quota)
        total += quota

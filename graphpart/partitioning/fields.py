"""Balance by node data fields: a field's values as balance classes named after the field
(``train_mask`` -> ``train`` / ``not train``), or several fields at once, a class per combination
of their values (``["train_mask", "val_mask", "test_mask"]`` -> ``train``, ``val``, ``test``,
``none``): each split is then balanced per machine and per trainer, as evaluation runs per
trainer too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from ..errors import GraphpartError
from ..graph.core import Graph
from ..utils.check import short_repr

__all__ = ["field_balance", "fields_balance", "as_fields", "named_labels", "code_labels"]

#: The most fields balanced at once, and the most combinations of their values (each is a
#: METIS constraint, twice with balance_edges).
MAX_FIELDS, MAX_COMBINATIONS = 8, 64


def named_labels(field: str, labels: Sequence[str], ntypes: Sequence[str] = ()) -> tuple[str, ...]:
    """Class labels that say what they count: a mask's ``False``/``True`` become ``not train`` /
    ``train`` (for ``train_mask``), other values ``field=value``; ``type:value`` keeps its type
    and a whole type (one of ``ntypes``) stays as it is.

    Parameters
    ----------
    field : str
        The node data field the classes come from; a ``_mask`` suffix is dropped in the names
        of ``True`` / ``False``.
    labels : sequence of str
        The class labels to rename: ``"value"``, ``"type:value"`` or a type's name.
    ntypes : sequence of str, default ()
        The node types, to tell ``"type:value"`` and whole types from plain values.

    Returns
    -------
    tuple of str
        The renamed labels, in the order of ``labels``.

    Examples
    --------
    >>> named_labels("train_mask", ("False", "True"))
    ('not train', 'train')
    >>> named_labels("label", ("0", "1"))
    ('label=0', 'label=1')
    >>> named_labels("train_mask", ("paper:True", "author"), ntypes=("paper", "author"))
    ('paper:train', 'author')
    """
    short = field.removesuffix("_mask")

    def value(v: str) -> str:
        return short if v == "True" else f"not {short}" if v == "False" else f"{field}={v}"

    return _relabel(labels, value, ntypes)


def _relabel(labels: Sequence[str], value, ntypes: Sequence[str]) -> tuple[str, ...]:
    """Each label's value part renamed by ``value``: ``type:value`` keeps its type, a whole type
    (one of ``ntypes``) stays as it is."""
    out = []
    for label in labels:
        head, sep, v = label.partition(":")
        if label in ntypes:
            out.append(label)
        elif sep and head in ntypes:
            out.append(f"{head}:{value(v)}")
        else:
            out.append(value(label))
    return tuple(out)


def field_balance(g: Graph, field: str | None) -> object:
    """The ``balance_ntypes`` value that balances node data ``field`` (per type where it exists).

    Parameters
    ----------
    g : Graph
        The graph whose node data is read.
    field : str or None
        The node data field name; ``None`` balances nothing.

    Returns
    -------
    torch.Tensor, dict of str to torch.Tensor, or None
        ``None`` for ``field=None``; on a homogeneous graph the field itself; on a heterograph
        ``{ntype: field}`` for the node types that have it. The values are returned as stored,
        not checked.

    Raises
    ------
    GraphpartError
        If no node type has ``field``.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> field_balance(load_karate_club(), "label").shape
    torch.Size([34])
    >>> field_balance(load_karate_club(), "mask")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: no node data named 'mask' to balance; node data: ['label']
    """
    if field is None:
        return None
    have = {t: g.node_data(t)[field] for t in g.ntypes if field in g.node_data(t)}
    if not have:
        names = sorted({n for t in g.ntypes for n in g.node_data(t)})
        raise GraphpartError(
            f"no node data named {short_repr(field)} to balance; node data: {names}"
        )
    return have[g.ntypes[0]] if g.is_homogeneous else have


def as_fields(value: object) -> list[str] | None:
    """``value`` as a list of node data field names when it is several (a list or tuple of
    str, or ``"a,b,c"``), else ``None`` (one field, an array, a dict: not fields).

    Parameters
    ----------
    value : object
        A ``balance_ntypes`` value, in any of the forms
        :func:`~graphpart.partitioning.balance.balance_classes` takes.

    Returns
    -------
    list of str or None
        The field names: a non-empty list or tuple of str as a list (even of one name), a str
        with a comma split at the commas and stripped; ``None`` for anything else.

    Raises
    ------
    GraphpartError
        If a list or tuple names more than :data:`MAX_FIELDS` fields.

    Examples
    --------
    >>> as_fields("train_mask,val_mask"), as_fields(["train_mask"]), as_fields("train_mask")
    (['train_mask', 'val_mask'], ['train_mask'], None)
    """
    if isinstance(value, str):
        return [f.strip() for f in value.split(",")] if "," in value else None
    if isinstance(value, (list, tuple)) and value and all(isinstance(f, str) for f in value):
        if len(value) > MAX_FIELDS:
            raise GraphpartError(
                f"balance_ntypes names {len(value)} fields; at most {MAX_FIELDS} at once"
            )
        return list(value)
    return None


def _mask_like(arr: np.ndarray) -> bool:
    return arr.dtype == bool or (len(arr) > 0 and arr.min() >= 0 and arr.max() <= 1)


def fields_balance(g: Graph, fields: Sequence[str]) -> tuple[object, dict[int, str]]:
    """The ``balance_ntypes`` value that balances the combinations of several fields' values,
    and a name per combination code.

    A node's code numbers the values of every field it has (a type without a field counts as
    ``False`` / 0 there). A combination is named by the masks it is in (``train``, ``val+test``;
    ``none`` for none) and ``field=value`` for other fields.

    Parameters
    ----------
    g : Graph
        The graph whose node data is read.
    fields : sequence of str
        Distinct node data field names (at least one); each must exist on some node type and
        hold one bool / int value per node.

    Returns
    -------
    values : numpy.ndarray of int64, or dict of str to numpy.ndarray of int64
        The combination code of every node (:func:`combine_fields`): an array on a homogeneous
        graph, ``{ntype: codes}`` for every node type on a heterograph.
    names : dict of int to str
        A name for each code that occurs.

    Raises
    ------
    GraphpartError
        If ``fields`` is empty or repeats a name, a field is missing on every type or is not one
        bool / int value per node, or the fields have more than :data:`MAX_COMBINATIONS`
        combinations of values.

    Examples
    --------
    >>> import graphpart as gp
    >>> g = gp.Graph.from_edges([0, 1], [1, 2], num_nodes=4)
    >>> g.ndata["train_mask"] = torch.tensor([True, False, False, False])
    >>> g.ndata["val_mask"] = torch.tensor([False, True, False, False])
    >>> values, names = fields_balance(g, ["train_mask", "val_mask"])
    >>> values.tolist(), [names[v] for v in sorted(set(values.tolist()))]
    ([1, 2, 0, 0], ['none', 'train', 'val'])
    """
    if len(set(fields)) != len(fields) or not fields:
        raise GraphpartError(f"balance_ntypes must name distinct fields, got {short_repr(fields)}")
    per_type: dict[str, list[np.ndarray | None]] = {}
    for f in fields:
        have = field_balance(g, f)  # refuses a field no type has
        have = {g.ntypes[0]: have} if g.is_homogeneous else have
        for t in g.ntypes:
            v = have.get(t)
            arr = None if v is None else np.asarray(v.numpy() if isinstance(v, torch.Tensor) else v)
            if arr is not None and (arr.ndim != 1 or arr.dtype.kind not in "biu"):
                raise GraphpartError(
                    f"balance field {short_repr(f)} of {short_repr(t)} must hold one bool/int "
                    f"value per node, got dtype {arr.dtype} and shape {arr.shape}"
                )
            per_type.setdefault(t, []).append(arr)
    out, names = combine_fields(per_type, {t: g.num_nodes(t) for t in g.ntypes}, fields)
    values = out[g.ntypes[0]] if g.is_homogeneous else out
    return values, names


def _combination_name(code: int, fields, distinct, radix) -> str:
    said = []
    for f, d, r in zip(fields, distinct, radix):
        v = d[code % r] if len(d) else 0
        code //= r
        if _mask_like(d):
            if v:
                said.append(f.removesuffix("_mask"))
        else:
            said.append(f"{f}={v}")
    return "+".join(said) if said else "none"


def code_labels(
    labels: Sequence[str], names: dict[int, str], ntypes: Sequence[str] = ()
) -> tuple[str, ...]:
    """Class labels with each combination code (``"3"``, ``"paper:3"``) replaced by its name.

    Parameters
    ----------
    labels : sequence of str
        The class labels: ``"code"``, ``"type:code"`` or a type's name.
    names : dict of int to str
        The name of each code (as :func:`fields_balance` returns them); a code without a name
        keeps its digits.
    ntypes : sequence of str, default ()
        The node types, to tell ``"type:code"`` and whole types from plain codes.

    Returns
    -------
    tuple of str
        The renamed labels, in the order of ``labels``.

    Examples
    --------
    >>> code_labels(("0", "1"), {0: "none", 1: "train"})
    ('none', 'train')
    >>> code_labels(("paper:1", "author"), {1: "train"}, ntypes=("paper", "author"))
    ('paper:train', 'author')
    """
    return _relabel(labels, lambda v: names.get(int(v), v), ntypes)


def combine_fields(
    per_type: dict[str, list[np.ndarray | None]], counts: dict[str, int], fields: Sequence[str]
) -> tuple[dict[str, np.ndarray], dict[int, str]]:
    """The combination code of every node of each type (``per_type[t][i]``: the values of field
    ``i`` on type ``t``, ``None`` where the type lacks it) and a name per code: the rule of
    :func:`fields_balance`, for values read from anywhere (the chunked pipeline reads chunks).

    Parameters
    ----------
    per_type : dict of str to list of (numpy.ndarray or None)
        ``{ntype: [values of field i, ...]}``, one entry per field in the order of ``fields``:
        a one-dimensional array with one value per node of the type, or ``None`` where the type
        lacks the field (its nodes then take the field's smallest value over all types). Every
        field must be present on at least one type.
    counts : dict of str to int
        The number of nodes of each type in ``per_type``.
    fields : sequence of str
        The field names, for the combination names and messages.

    Returns
    -------
    codes : dict of str to numpy.ndarray of int64
        The code of every node of each type: the rank of its value among the distinct values of
        each field, mixed-radix, the first field lowest.
    names : dict of int to str
        A name for each code that occurs: the masks it is in joined by ``+`` (``none`` for no
        mask), ``field=value`` for fields that are not masks (a field counts as a mask when its
        values are bools, or ints between 0 and 1).

    Raises
    ------
    GraphpartError
        If the fields have more than :data:`MAX_COMBINATIONS` combinations of values.

    Examples
    --------
    >>> codes, names = combine_fields(
    ...     {"a": [np.array([1, 0, 0]), np.array([0, 1, 0])]}, {"a": 3}, ["train_mask", "val_mask"]
    ... )
    >>> codes["a"].tolist(), [names[c] for c in codes["a"].tolist()]
    ([1, 2, 0], ['train', 'val', 'none'])
    """
    distinct = [
        np.unique(np.concatenate([a[i] for a in per_type.values() if a[i] is not None]))
        for i in range(len(fields))
    ]
    radix = [max(len(d), 1) for d in distinct]
    if int(np.prod(radix, dtype=object)) > MAX_COMBINATIONS:
        raise GraphpartError(
            f"balance_ntypes {short_repr(fields)} has {int(np.prod(radix, dtype=object))} "
            f"combinations of values; at most {MAX_COMBINATIONS} (each is a balance constraint)"
        )
    names: dict[int, str] = {}
    out: dict[str, np.ndarray] = {}
    for t, arrays in per_type.items():
        n = counts[t]
        code = np.zeros(n, dtype=np.int64)
        step = 1
        for arr, d, r in zip(arrays, distinct, radix):
            idx = np.zeros(n, dtype=np.int64) if arr is None else np.searchsorted(d, arr)
            code += idx * step
            step *= r
        out[t] = code
        for c in np.unique(code).tolist():
            names.setdefault(c, _combination_name(c, fields, distinct, radix))
    return out, names

"""PyTorch Geometric's partition folders (``torch_geometric.distributed``): the layout, and the
record of data names export_pyg adds to META.json.

Layout (PyG 2.8, ids are the original ones, never renumbered)::

    root/META.json                {num_parts, node_types, edge_types, node_offset, is_hetero,
                                  is_sorted}
    root/node_map.pt, edge_map.pt partition of every node / edge (hetero: node_map/<ntype>.pt,
                                  edge_map/<src>__<rel>__<dst>.pt, type-wise)
    root/part_<i>/graph.pt        {row, col, edge_id, size}: the edges whose destination <i> owns,
                                  sorted by destination (hetero: one such dict per edge type tuple)
    root/part_<i>/node_feats.pt   {global_id, feats: {name: rows}} of the nodes <i> owns (hetero:
                                  per type)
    root/part_<i>/edge_feats.pt   {global_id, feats: {name: rows}} of its edges, or {}

PyG's own heterogeneous writer stores homogeneous ids in ``graph.pt``'s ``edge_id`` and the node
``global_id`` (type-wise ids elsewhere), which its feature store then looks up with type-wise
ids. export_pyg writes type-wise ids everywhere (what the lookups use) and marks its META; the
reader reads both.

PyG's ``LocalFeatureStore`` sizes its id index by ``global_id.max()``, which fails on an empty
``global_id``: a partition that owns no node of a type (or no edge of a type with data) cannot
store that group, so export_pyg leaves it out of that partition's files (of a homogeneous graph:
no ``node_feats.pt`` when it owns no node, ``{}`` for ``edge_feats.pt`` when it owns no edge).
The data names, dtypes and row shapes of every type go to META.json's ``graphpart.schema``, so
that graphpart reads such a partition back with the same (empty) arrays it wrote.
"""

from __future__ import annotations

import torch

from ..errors import FormatError
from ..utils.check import short_repr

__all__ = ["etype_file"]

HOMO_ETYPE = ("_N", "_E", "_N")


def etype_file(e) -> str:
    """The name PyG gives an edge type in file names (and META's schema): ``src__rel__dst``.

    Parameters
    ----------
    e : tuple of str
        A canonical edge type ``(src, rel, dst)``.

    Returns
    -------
    str
        Its parts joined by ``"__"``.

    Examples
    --------
    >>> etype_file(("user", "buys", "item"))
    'user__buys__item'
    """
    return "__".join(e)


def _record(data: dict[str, torch.Tensor]) -> dict[str, list]:
    return {
        name: [str(v.dtype).removeprefix("torch."), list(v.shape[1:])] for name, v in data.items()
    }


def data_schema(g) -> dict[str, dict]:
    """Every type's data names, dtypes and row shapes, as META.json's ``graphpart.schema``.

    Parameters
    ----------
    g : Graph
        The graph whose node and edge data are described; no data is copied.

    Returns
    -------
    dict
        ``{"node": {ntype: record}, "edge": {etype_file(etype): record}}`` with one entry per
        type, each record ``{name: [dtype name without "torch.", row shape as a list]}``.

    Examples
    --------
    >>> from graphpart.datasets import load_karate_club
    >>> data_schema(load_karate_club())
    {'node': {'_N': {'label': ['int64', []]}}, 'edge': {'_N___E___N': {'weight': ['int64', []]}}}
    """
    return {
        "node": {t: _record(g.node_data(t)) for t in g.ntypes},
        "edge": {etype_file(e): _record(g.edge_data(e)) for e in g.canonical_etypes},
    }


def _empty(record: object, where: str) -> dict[str, torch.Tensor]:
    if not isinstance(record, dict):
        raise FormatError(
            f"{where} should map data names to [dtype, shape], got {short_repr(record)}"
        )
    out = {}
    for name, spec in record.items():
        dtype = (
            getattr(torch, spec[0], None)
            if isinstance(spec, list) and len(spec) == 2 and isinstance(spec[0], str)
            else None
        )
        shape = spec[1] if isinstance(dtype, torch.dtype) else None
        if not (
            isinstance(shape, list)
            and len(shape) < 32
            and all(
                isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**31 for n in shape
            )
        ):
            raise FormatError(
                f"{where}: {short_repr(name)} should be [torch dtype name, row shape], "
                f"got {short_repr(spec)}"
            )
        out[str(name)] = torch.empty((0, *shape), dtype=dtype)
    return out


def empty_groups(
    meta: dict, ntypes: list[str], etypes: list[tuple[str, str, str]], where: str
) -> tuple[dict[str, dict], dict[tuple[str, str, str], dict]]:
    """Zero-row arrays of every type's data, from META.json's ``graphpart.schema`` (none without
    one): what a partition that left a group out holds of it.

    Parameters
    ----------
    meta : dict
        The parsed META.json; only ``meta["graphpart"]["schema"]`` is read.
    ntypes : list of str
        The node types to look up in the schema.
    etypes : list of tuple of str
        The canonical edge types to look up (under :func:`etype_file` names).
    where : str
        What to name in error messages (e.g. the file).

    Returns
    -------
    nodes : dict of str to dict of str to torch.Tensor
        Per node type of ``ntypes`` that the schema records, its data as ``(0, *row shape)``
        tensors of the recorded dtypes.
    edges : dict of tuple to dict of str to torch.Tensor
        The same per edge type of ``etypes``. Both are empty when META has no schema.

    Raises
    ------
    FormatError
        The schema lacks node or edge maps, or a record is not ``[torch dtype name, row shape]``.

    Examples
    --------
    >>> meta = {"graphpart": {"schema": {"node": {"_N": {"x": ["float32", [3]]}}, "edge": {}}}}
    >>> nodes, edges = empty_groups(meta, ["_N"], [HOMO_ETYPE], "META.json")
    >>> nodes["_N"]["x"].shape, edges
    (torch.Size([0, 3]), {})
    """
    schema = (meta.get("graphpart") or {}).get("schema")
    if schema is None:
        return {}, {}
    if not (
        isinstance(schema, dict) and all(isinstance(schema.get(k), dict) for k in ("node", "edge"))
    ):
        raise FormatError(f"{where}: graphpart.schema should hold node and edge maps")
    nodes = {
        t: _empty(schema["node"][t], f"{where} schema of {t!r}")
        for t in ntypes
        if t in schema["node"]
    }
    edges = {
        e: _empty(schema["edge"][etype_file(e)], f"{where} schema of {e}")
        for e in etypes
        if etype_file(e) in schema["edge"]
    }
    return nodes, edges

"""A box of GPUs holding one feature table, GraphLearn-for-PyTorch's way, and where every row of
every lookup comes from.

GLT's ``Feature`` keeps its hot rows (the first ``int(split_ratio * num_rows)`` of them, in the
order given) once per :class:`DeviceGroup` -- GPUs that reach each other over NVLink, every group
of one size -- and shards them over the GPUs of the group, each a contiguous run of
``hot // size`` rows, the last GPU's run taking the remainder too; the cold rows stay in
pinned host memory, which every GPU reads without a copy (UVA). A lookup from GPU ``k`` is so
served from three kinds of place:

- ``own``: ``k``'s shard, in its own memory;
- ``peer``: the shard of another GPU of ``k``'s group, over NVLink (peer-to-peer);
- ``host``: a cold row, from pinned host memory over PCIe (zero-copy).

With a group of one GPU per GPU (no NVLink), every GPU holds the whole hot part and has no
peers; with a group of four, the group holds four times the hot rows of one GPU for the same
memory, at the price of reading most of its hits over NVLink (three quarters were the hits spread
evenly; a GPU reads more of its own where its run is hotter or longer than the others'). Hit
rate alone hides
that: :class:`FeatureBox` counts rows and bytes per place, per lookup and per GPU, and a
:class:`LinkModel` turns them into time. It holds no rows (a simulation of any box, any number
of GPUs); :class:`~graphpart.features.Feature` holds the rows, on real GPUs where there are
some, and counts through it. The box follows GLT's rules; where graphpart's ``Feature`` reads
GLT's arguments otherwise, :data:`GLT_DIFFERENCES` says so, in one place.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields

import numpy as np
import torch

from ..errors import GraphpartError
from ..utils.check import check_allocation, check_count, check_rate, short_repr
from ..utils.report import Report
from ..utils.tensors import as_id_tensor, check_ids_in_range

__all__ = [
    "DeviceGroup",
    "LinkModel",
    "LINK_SOURCES",
    "GLT_DIFFERENCES",
    "MAX_GPUS",
    "FeatureBox",
    "LinkStats",
    "BoxRun",
    "replay_box",
]


#: GPUs one box may hold (CUDA ranks ``0 .. MAX_GPUS - 1``): a machine has 8 or 16; the bound
#: keeps a box's tables and its view's links (a group of ``k`` has ``k (k - 1) / 2``) small.
MAX_GPUS = 256

#: Where graphpart's :class:`~graphpart.features.Feature` reads GLT's arguments otherwise than
#: GLT's ``Feature`` (:class:`FeatureBox` itself follows GLT's rules: the hot rows
#: ``int(split_ratio * num_rows)``, ``hot // size`` a GPU and the remainder on the last, groups
#: of one size).
GLT_DIFFERENCES = {
    "device_group_list=None": "GLT keeps a replica of the hot rows on every visible GPU (a group "
    "each); graphpart keeps one hot part on `device`, which is what a lookup from that GPU reads "
    "in GLT, and needs no GPU to count it",
    "split_ratio without groups": "graphpart's hot part without device groups holds "
    "capacity_for(split_ratio, n) rows (rounded, as every cache simulator of graphpart counts); "
    "GLT truncates, so it may hold one row fewer",
    "with_gpu": "GLT's default True needs the GPUs and False drops the hot part (a plain CPU "
    "tensor); graphpart's default None places the rows where the group's GPUs exist and else "
    "simulates the box on the CPU, and False always simulates it (same rows, same counts)",
    "device=None": "GLT looks up from torch.cuda.current_device(); graphpart from the first GPU "
    "of the first group",
    "refusals": "GLT asserts or fails later on what graphpart refuses at once: groups of "
    "different sizes, a GPU in two groups, repeated group ids, rows or devices out of range",
}


def hot_rows(split_ratio: object, num_rows: int) -> int:
    """The hot rows of a box, GLT's count: ``int(num_rows * split_ratio)`` (truncated).

    Parameters
    ----------
    split_ratio : float
        Share of the rows that are hot, a real number in [0, 1] (``bool`` is refused).
    num_rows : int
        Rows of the feature table.

    Returns
    -------
    int
        The hot rows.

    Examples
    --------
    >>> hot_rows(0.5, 5), hot_rows(0.7, 9)
    (2, 6)
    >>> hot_rows(None, 5)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: split_ratio must be a number in [0, 1], got None
    """
    ok = not isinstance(split_ratio, bool) and isinstance(split_ratio, numbers.Real)
    if not (ok and 0.0 <= float(split_ratio) <= 1.0):
        raise GraphpartError(
            f"split_ratio must be a number in [0, 1], got {short_repr(split_ratio)}"
        )
    return int(num_rows * float(split_ratio))


def check_gpu(device: object) -> int:
    """``device`` as a GPU rank: an int (numpy's too) in ``[0, MAX_GPUS)``; bools, floats and
    strings are not ranks.

    Parameters
    ----------
    device : object
        The rank.

    Returns
    -------
    int
        ``device``.

    Examples
    --------
    >>> check_gpu(True)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: a GPU rank must be a non-negative integer, got True
    """
    return check_count(device, "a GPU rank", high=MAX_GPUS - 1)


def check_id2index(id2index, num_rows: int) -> torch.Tensor:
    """GLT's ``id2index`` as an int64 tensor, once every value is a row (``-1``: no row).

    Parameters
    ----------
    id2index : array_like of int
        The row of each node id, ``-1`` for none.
    num_rows : int
        Rows of the feature table.

    Returns
    -------
    Tensor
        int64, one entry per node id.
    """
    m = as_id_tensor(id2index, "id2index")
    if len(m) and (int(m.min()) < -1 or int(m.max()) >= num_rows):
        raise GraphpartError(
            f"id2index maps node ids to rows 0..{num_rows - 1} (or -1: no row), got values "
            f"{int(m.min())}..{int(m.max())}"
        )
    return m


def rows_of(ids, id2index: torch.Tensor | None, num_rows: int) -> torch.Tensor:
    """The table rows of node ``ids``: ``id2index[ids]`` (GLT's mapping), or the ids themselves;
    an id out of range, or without a row, is refused.

    Parameters
    ----------
    ids : array_like of int
        Node ids.
    id2index : Tensor or None
        The mapping (:func:`check_id2index`), or ``None``: node ``v`` is row ``v``.
    num_rows : int
        Rows of the feature table.

    Returns
    -------
    Tensor
        int64 rows, one per id.
    """
    idx = as_id_tensor(ids, "ids")
    if id2index is None:
        if len(idx):
            check_ids_in_range(idx, num_rows, "ids")
        return idx
    if len(idx):
        check_ids_in_range(idx, len(id2index), "ids")
    rows = id2index[idx]
    if len(rows) and int(rows.min()) < 0:
        bad = int(idx[rows < 0][0])
        raise GraphpartError(f"node id {bad} has no row in this feature (id2index is -1)")
    return rows


@dataclass(frozen=True)
class DeviceGroup:
    """GPUs with peer-to-peer access to each other (NVLink), GLT's ``DeviceGroup``.

    Attributes
    ----------
    group_id : int
        The group's id (distinct within a box).
    device_list : tuple of int
        The GPUs of the group (CUDA device ranks), in shard order: the ``i``-th holds the
        ``i``-th run of the group's hot rows.

    Examples
    --------
    >>> DeviceGroup(0, [0, 1, 2, 3])
    DeviceGroup(group_id=0, device_list=(0, 1, 2, 3))
    """

    group_id: int
    device_list: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "group_id", check_count(self.group_id, "group_id"))
        devices = self.device_list
        if isinstance(devices, (np.ndarray, torch.Tensor)) and devices.ndim == 1:
            devices = devices[: MAX_GPUS + 1].tolist()
        if not isinstance(devices, (list, tuple, range)):
            raise GraphpartError(
                f"device_list must be a list of GPU ranks, got {short_repr(devices)}"
            )
        devices = tuple(itertools.islice(devices, MAX_GPUS + 1))
        if len(devices) > MAX_GPUS:
            raise GraphpartError(
                f"device_list lists more than {MAX_GPUS} GPUs, the most a box holds"
            )
        devices = tuple(check_gpu(d) for d in devices)
        if not devices or len(set(devices)) != len(devices):
            raise GraphpartError(
                f"device_list must list distinct GPU ranks, at least one, got {short_repr(devices)}"
            )
        object.__setattr__(self, "device_list", devices)

    @property
    def size(self) -> int:
        return len(self.device_list)


def check_device_groups(groups: object) -> tuple[DeviceGroup, ...]:
    """The groups of a box, once each is a :class:`DeviceGroup`, all of one size (GLT's rule),
    their ids are distinct and no GPU is in two of them.

    Parameters
    ----------
    groups : object
        GLT's ``device_group_list``.

    Returns
    -------
    tuple of DeviceGroup
        The groups, in the order given.

    Raises
    ------
    GraphpartError
        Naming what is wrong.

    Examples
    --------
    >>> check_device_groups([DeviceGroup(0, [0, 1]), DeviceGroup(1, [1, 2])])
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: GPU 1 is in two device groups; a GPU belongs to one group
    """
    if not isinstance(groups, (list, tuple)):
        raise GraphpartError(
            f"device_group_list must be a list of DeviceGroup, got {short_repr(groups)}"
        )
    groups = tuple(itertools.islice(groups, MAX_GPUS + 1))
    if not groups or not all(isinstance(g, DeviceGroup) for g in groups):
        raise GraphpartError(
            f"device_group_list must be a non-empty list of DeviceGroup, got {short_repr(groups)}"
        )
    sizes = sorted({g.size for g in groups})
    if len(sizes) > 1:
        raise GraphpartError(
            f"device groups must all have one size (GLT shards the hot rows alike in each), got "
            f"sizes {sizes}"
        )
    ids = [g.group_id for g in groups]
    if len(set(ids)) != len(ids):
        raise GraphpartError(f"device group ids must be distinct, got {ids}")
    seen: set[int] = set()
    for g in groups:
        for d in g.device_list:
            if d in seen:
                raise GraphpartError(f"GPU {d} is in two device groups; a GPU belongs to one group")
            seen.add(d)
    return groups


#: Where each default of :class:`LinkModel` comes from.
LINK_SOURCES = {
    "own_gbyte_s": "random row gathers from a GPU's own HBM: a fraction of its 2-3 TB/s peak "
    "(A100 / H100); calibrate on the box for yours",
    "peer_gbyte_s": "NVLink 3 (A100): 25 GB/s per link per direction, 12 links; about 100 GB/s "
    "reached from one peer by gathers",
    "host_gbyte_s": "PCIe 4.0 x16: 32 GB/s peak, ~20 GB/s for zero-copy reads of pinned rows",
    "latency_us": "a kernel launch and the copy of the ids to the GPU, ~10 us",
}


@dataclass(frozen=True)
class LinkModel:
    """The rates at which a lookup reads from each place (override any field).

    The places are read at once -- the own shard from HBM, each peer over its own NVLink, the
    host over PCIe -- so a lookup takes ``latency_us`` plus the longest of its reads (its bytes
    over that place's rate).

    Attributes
    ----------
    own_gbyte_s : float
        Gathering rows from the GPU's own memory, GB/s.
    peer_gbyte_s : float
        Reading rows from one peer GPU of the group (NVLink), GB/s per peer.
    host_gbyte_s : float
        Reading cold rows from pinned host memory (zero-copy over PCIe), GB/s.
    latency_us : float
        Fixed cost of one lookup, microseconds.

    Examples
    --------
    >>> m = LinkModel(own_gbyte_s=1000, peer_gbyte_s=100, host_gbyte_s=20, latency_us=0)
    >>> m.seconds(own=10**9, peers=[10**9, 5 * 10**8], host=10**8)  # the NVLink read decides
    0.01
    """

    own_gbyte_s: float = 1000.0
    peer_gbyte_s: float = 100.0
    host_gbyte_s: float = 20.0
    latency_us: float = 10.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = check_rate(getattr(self, f.name), f"LinkModel.{f.name}", f.name == "latency_us")
            object.__setattr__(self, f.name, v)

    def seconds(self, own: float, peers: Sequence[float], host: float) -> float:
        """The time of one lookup reading ``own`` bytes from its shard, ``peers[j]`` from each
        peer and ``host`` from host memory."""
        reads = [own / self.own_gbyte_s, host / self.host_gbyte_s]
        reads += [p / self.peer_gbyte_s for p in peers]
        return self.latency_us * 1e-6 + max(reads) / 1e9


@dataclass
class LinkStats:
    """What one GPU's lookups read from each place, one entry per lookup.

    Attributes
    ----------
    device : int
        The GPU looking up.
    peers : tuple of int
        The other GPUs of its group, the columns of ``peer``.
    row_bytes : int
        Bytes of one row.
    own, host : list of int
        Rows read from the GPU's own shard, and from host memory, by each lookup.
    peer : list of numpy.ndarray
        Rows read from each peer by each lookup (one entry per peer).
    seconds : list of float
        Each lookup's time under the box's :class:`LinkModel`.
    """

    device: int
    peers: tuple[int, ...]
    row_bytes: int
    own: list[int] = field(default_factory=list)
    peer: list[np.ndarray] = field(default_factory=list)
    host: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    @property
    def num_lookups(self) -> int:
        return len(self.own)

    def peer_rows(self) -> np.ndarray:
        """Rows read from each peer over all lookups."""
        return np.sum(self.peer, axis=0) if self.peer else np.zeros(len(self.peers), dtype=np.int64)

    def totals(self) -> dict[str, float]:
        """Rows, hit rate, rows and bytes per kind of place, and time (``ms``), over every
        lookup."""
        own, peer, host = sum(self.own), int(self.peer_rows().sum()), sum(self.host)
        rows = own + peer + host
        rb = self.row_bytes
        return {
            "device": self.device,
            "batches": self.num_lookups,  # lookup calls; "rows" counts the ids looked up
            "rows": rows,
            "hit_rate": (own + peer) / rows if rows else 0.0,
            "own_rows": own,
            "peer_rows": peer,
            "host_rows": host,
            "own_bytes": own * rb,
            "peer_bytes": peer * rb,
            "host_bytes": host * rb,
            "ms": 1e3 * float(sum(self.seconds)),
        }


class FeatureBox:
    """Where the rows of one feature table live on a box of GPUs, and what each lookup reads
    from where (counts only: no rows are held).

    Parameters
    ----------
    num_rows : int
        Rows of the feature table.
    split_ratio : float
        Share of the rows that are hot (GLT's ``split_ratio``, in [0, 1]): the first
        ``int(split_ratio * num_rows)`` of ``order`` (:func:`hot_rows`). Every group holds all
        of them, sharded over its GPUs (:meth:`shard_bounds`).
    device_group_list : list of DeviceGroup
        The groups of the box (GLT's ``device_group_list``), all of one size, at most
        :data:`MAX_GPUS` GPUs in all.
    order : Tensor, optional
        A permutation of the rows, hot first (:mod:`graphpart.features.orderings`); ``None``:
        the rows are already in that order (GLT's assumption).
    id2index : Tensor, optional
        GLT's ``id2index``: the row of each node id (``-1``: the table has no row for it);
        ``None``: node ``v`` is row ``v``.
    row_bytes : int, default 4
        Bytes of one row (a float32 feature of width 1 by default; the bytes per place scale
        with it).
    links : LinkModel, optional
        The rates that turn bytes into time.

    Examples
    --------
    Eight rows, half hot, on one group of two GPUs: GPU 0 holds hot rows 0-1, GPU 1 rows 2-3.

    >>> box = FeatureBox(8, 0.5, [DeviceGroup(0, [0, 1])], row_bytes=16)
    >>> box.owner(torch.tensor([0, 3, 6])).tolist()  # -1: a cold row, in host memory
    [0, 1, -1]
    >>> _ = box.lookup(torch.tensor([0, 3, 6, 7]), device=0)
    >>> t = box.stats[0].totals()
    >>> t["own_rows"], t["peer_rows"], t["host_rows"], t["peer_bytes"]
    (1, 1, 2, 16)
    """

    def __init__(
        self,
        num_rows: int,
        split_ratio: float,
        device_group_list: Iterable[DeviceGroup],
        order=None,
        id2index=None,
        row_bytes: int = 4,
        links: LinkModel | None = None,
    ) -> None:
        n = check_count(num_rows, "num_rows")
        self.capacity = hot_rows(split_ratio, n)
        self.num_rows = n
        self.split_ratio = float(split_ratio)
        self.groups = check_device_groups(device_group_list)
        self.row_bytes = check_count(row_bytes, "row_bytes")
        # the order, its sorted copy and the hot slot of every row: int64 each, at once
        check_allocation(32 * n, f"a box of {n:,} rows")
        if links is not None and not isinstance(links, LinkModel):
            raise GraphpartError(f"links must be a LinkModel, got {short_repr(links)}")
        self.links = links or LinkModel()
        order = torch.arange(n) if order is None else as_id_tensor(order, "order")
        if len(order) != n or (n and not torch.equal(torch.sort(order).values, torch.arange(n))):
            raise GraphpartError(
                f"order must be a permutation of the {n} rows, got {len(order)} ids"
            )
        self.order = order
        # the hot slot of every row (-1: cold), and the shard bounds of every group
        self.slot_of = torch.full((n,), -1, dtype=torch.int64)
        self.slot_of[order[: self.capacity]] = torch.arange(self.capacity)
        self.id2index = None if id2index is None else check_id2index(id2index, n)
        self.stats: dict[int, LinkStats] = {}

    def __repr__(self) -> str:
        groups = ", ".join(f"{g.group_id}: {list(g.device_list)}" for g in self.groups)
        return (
            f"FeatureBox({self.num_rows} rows, {self.capacity} hot, groups {{{groups}}}, "
            f"{self.row_bytes} bytes a row)"
        )

    @property
    def devices(self) -> tuple[int, ...]:
        """Every GPU of the box, group after group."""
        return tuple(d for g in self.groups for d in g.device_list)

    def group_of(self, device: int) -> DeviceGroup:
        """The group GPU ``device`` belongs to (a rank: :func:`check_gpu`)."""
        device = check_gpu(device)
        for g in self.groups:
            if device in g.device_list:
                return g
        raise GraphpartError(
            f"GPU {short_repr(device)} is in no device group of this box (GPUs "
            f"{list(self.devices)})"
        )

    def shard_bounds(self, group: DeviceGroup) -> np.ndarray:
        """Hot slots ``bounds[i]:bounds[i + 1]`` are held by the ``i``-th GPU of ``group``:
        contiguous runs of ``capacity // size`` rows, the last GPU's run taking the remainder
        too (GLT's split).

        Parameters
        ----------
        group : DeviceGroup
            A group of this box.

        Returns
        -------
        numpy.ndarray
            ``group.size + 1`` int64 bounds.

        Examples
        --------
        >>> box = FeatureBox(10, 1.0, [DeviceGroup(0, [0, 1, 2, 3])])
        >>> box.shard_bounds(box.groups[0]).tolist()
        [0, 2, 4, 6, 10]
        """
        k = self.check_group(group).size
        block = self.capacity // k
        return np.array([i * block for i in range(k)] + [self.capacity], dtype=np.int64)

    def check_group(self, group: object) -> DeviceGroup:
        """``group`` if it is one of this box's groups, else a one-line error."""
        if not isinstance(group, DeviceGroup) or group not in self.groups:
            raise GraphpartError(
                f"group must be a DeviceGroup of this box, got {short_repr(group)}"
            )
        return group

    def rows(self, ids) -> torch.Tensor:
        """The rows of node ids (through ``id2index``), checked."""
        return rows_of(ids, self.id2index, self.num_rows)

    def check_rows(self, rows) -> torch.Tensor:
        """Table rows (ids already mapped through ``id2index``) as int64, each in
        ``[0, num_rows)``: negative rows are refused, not counted from the end."""
        rows = as_id_tensor(rows, "rows")
        check_ids_in_range(rows, self.num_rows, "rows")
        return rows

    def shard_of(self, rows: torch.Tensor, group: DeviceGroup) -> torch.Tensor:
        """The position in ``group`` of the GPU holding each row; ``group.size`` for a cold
        row."""
        rows = self.check_rows(rows)
        slot = self.slot_of[rows]
        bounds = torch.from_numpy(self.shard_bounds(group))
        shard = torch.searchsorted(bounds[1:], slot, right=True)
        return torch.where(slot >= 0, shard, torch.full_like(shard, group.size))

    def owner(self, rows: torch.Tensor, device: int | None = None) -> torch.Tensor:
        """The GPU holding each row within ``device``'s group (the first group by default),
        ``-1`` for a cold row."""
        group = self.groups[0] if device is None else self.group_of(device)
        gpus = torch.tensor([*group.device_list, -1], dtype=torch.int64)
        return gpus[self.shard_of(rows, group)]

    def lookup(self, ids, device: int) -> LinkStats:
        """Count one lookup of node ``ids`` (repeats included) by GPU ``device``: rows read from
        its own shard, from each peer of its group, from the host; returns its stats so far."""
        return self.count(self.rows(ids), device)

    def count(self, rows: torch.Tensor, device: int) -> LinkStats:
        """:meth:`lookup` of table rows (ids already mapped through ``id2index``)."""
        group = self.group_of(device)
        per = torch.bincount(self.shard_of(rows, group), minlength=group.size + 1)
        return self.record(per.numpy(), device)

    def record(self, per_shard: np.ndarray, device: int) -> LinkStats:
        """Record one lookup by GPU ``device`` that read ``per_shard[i]`` rows from the
        ``i``-th GPU of its group and ``per_shard[-1]`` from the host (what :meth:`count`
        finds, or a real lookup counted on its GPU)."""
        group = self.group_of(device)
        device = int(device)
        per = as_id_tensor(per_shard, "per_shard").numpy()
        if len(per) != group.size + 1 or (len(per) and int(per.min()) < 0):
            raise GraphpartError(
                f"per_shard must hold {group.size + 1} counts >= 0 (one per GPU of group "
                f"{group.group_id}, then the host), got {short_repr(per.tolist(), 80)}"
            )
        me = group.device_list.index(device)
        st = self.stats.get(device)
        if st is None:
            peers = tuple(d for d in group.device_list if d != device)
            st = self.stats[device] = LinkStats(device, peers, self.row_bytes)
        peer_rows = np.delete(per[: group.size], me)
        own, host = int(per[me]), int(per[group.size])
        rb = self.row_bytes
        st.own.append(own)
        st.peer.append(peer_rows)
        st.host.append(host)
        st.seconds.append(self.links.seconds(own * rb, (peer_rows * float(rb)).tolist(), host * rb))
        return st

    def reset_stats(self) -> None:
        self.stats = {}

    def totals(self) -> Report:
        """One row per GPU that looked up: rows, hit rate, rows and bytes per kind of place,
        time."""
        rows = [self.stats[d].totals() for d in self.devices if d in self.stats]
        keys = [k for k in (rows[0] if rows else {}) if k != "device"]
        return Report(
            repr(self),
            {k: [r[k] for r in rows] for k in keys},
            {},
            index="GPU",
            labels=[str(r["device"]) for r in rows],
        )


@dataclass(frozen=True)
class BoxRun:
    """A replay of every GPU's lookups through one box: :meth:`table` per GPU, and the
    box's totals per kind of place.

    Attributes
    ----------
    box : FeatureBox
        The box, with its stats after the replay.
    label : str
        A name for the setting (e.g. ``"replica per group"``).
    """

    box: FeatureBox
    label: str = ""

    def table(self) -> Report:
        return self.box.totals()

    def per_gpu(self) -> dict[str, np.ndarray]:
        """Arrays over the box's GPUs (those that looked up): hit rate, rows and bytes per
        kind of place, seconds."""
        rows = [self.box.stats[d].totals() for d in self.box.devices if d in self.box.stats]
        keys = rows[0].keys() if rows else ()
        return {k: np.array([r[k] for r in rows]) for k in keys}

    def link_bytes(self) -> dict[tuple[int, int], int]:
        """Bytes read over each GPU-to-GPU link, ``(reader, holder)``: what NVLink carries."""
        out = {}
        for d, st in self.box.stats.items():
            for p, rows in zip(st.peers, st.peer_rows().tolist()):
                out[d, p] = rows * st.row_bytes
        return out


def replay_box(traces: Mapping[int, Iterable], box: FeatureBox, label: str = "") -> BoxRun:
    """Replay each GPU's lookups (``{gpu: batches of node ids}``, e.g. a
    :class:`~graphpart.features.Trace` per GPU) through ``box``, from fresh stats.

    Parameters
    ----------
    traces : mapping of int to iterable
        Per GPU of the box, its lookups: a :class:`~graphpart.features.Trace` or any sequence of
        id batches.
    box : FeatureBox
        The box (its stats are reset first).
    label : str, default ""
        A name for the setting.

    Returns
    -------
    BoxRun
        The box with its stats, per GPU.

    Examples
    --------
    >>> box = FeatureBox(8, 0.5, [DeviceGroup(0, [0]), DeviceGroup(1, [1])])
    >>> run = replay_box({0: [[0, 1, 7]], 1: [[2, 6]]}, box)
    >>> run.per_gpu()["hit_rate"].round(2).tolist()
    [0.67, 0.5]
    """
    streams = trace_batches(traces, box)
    box.reset_stats()
    for device, batches in streams.items():
        for ids in batches:
            box.lookup(ids, device)
    return BoxRun(box, label)


def trace_batches(traces: object, box: object) -> dict[int, Iterable]:
    """Each GPU's lookups, checked: ``traces`` a mapping from GPUs of ``box`` to a
    :class:`~graphpart.features.Trace` or an iterable of id batches (each batch is checked
    when looked up).

    Parameters
    ----------
    traces : object
        ``{gpu: batches}``.
    box : object
        The box they go through (a :class:`FeatureBox`).

    Returns
    -------
    dict of int to iterable
        Per GPU, its batches.

    Examples
    --------
    >>> box = FeatureBox(8, 0.5, [DeviceGroup(0, [0])])
    >>> trace_batches([[0, 1]], box)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: traces must map GPUs to their batches of ids, got [[0, 1]]
    """
    from .trace import Trace

    if not isinstance(box, FeatureBox):
        raise GraphpartError(f"box must be a FeatureBox, got {short_repr(box)}")
    if not isinstance(traces, Mapping):
        raise GraphpartError(
            f"traces must map GPUs to their batches of ids, got {short_repr(traces)}"
        )
    out = {}
    for device, batches in traces.items():
        box.group_of(device)
        if isinstance(batches, Trace):  # read as it is replayed
            batches = map(batches.batch, range(batches.num_batches))
        elif isinstance(batches, (str, bytes, torch.Tensor, np.ndarray)) or not isinstance(
            batches, Iterable
        ):
            raise GraphpartError(
                f"the lookups of GPU {device} must be a Trace or batches of ids, got "
                f"{short_repr(batches)}"
            )
        out[int(device)] = batches
    return out

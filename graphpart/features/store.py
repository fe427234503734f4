"""``Feature``: node features split into a hot part (on the GPU) and a cold part (host memory).

The hot part is either a static set of rows (an ordering's first
``split_ratio``; GLT's split) or a dynamic cache (LRU, FIFO, CLOCK, SIEVE)
whose rows are refilled from the cold part as lookups miss. Without CUDA both
parts are CPU tensors and the hot one stands for GPU memory: lookups, hits and
bytes are the same, only where the rows live differs.

With GLT's ``device_group_list`` the static hot part is kept once per group of GPUs and
sharded over the group (:mod:`graphpart.features.box`): on real GPUs where every GPU of the
lookup's group exists, else simulated on the CPU with the same counts.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np
import torch

from ..errors import DataShapeError, GraphpartError
from ..utils.check import describe_exception, short_repr
from ..utils.tensors import as_id_tensor, check_ids_in_range
from .box import FeatureBox, LinkModel, check_gpu, check_id2index, rows_of
from .caches import DYNAMIC_POLICIES, StaticCache, make_cache
from .simulate import capacity_for

__all__ = ["Feature", "LookupStats"]


@dataclass
class LookupStats:
    """What every ``feature[ids]`` did, one entry per lookup.

    ``hits`` and ``misses`` count requested rows; ``hot_bytes`` were read from
    the hot part, ``cold_bytes`` copied from the cold (host) part.

    Attributes
    ----------
    rows : list of int
        Ids requested by each lookup, repeats included.
    hits : list of int
        Of those, the ones found in the hot part.
    hot_bytes : list of int
        Bytes read from the hot part by each lookup.
    cold_bytes : list of int
        Bytes copied from the cold part by each lookup: one row per missed id, repeats included
        with a static hot part, once per distinct missed id with a dynamic cache.
    """

    rows: list[int] = field(default_factory=list)
    hits: list[int] = field(default_factory=list)
    hot_bytes: list[int] = field(default_factory=list)
    cold_bytes: list[int] = field(default_factory=list)

    def record(self, rows: int, hits: int, hot_bytes: int, cold_bytes: int) -> None:
        self.rows.append(rows)
        self.hits.append(hits)
        self.hot_bytes.append(hot_bytes)
        self.cold_bytes.append(cold_bytes)

    @property
    def num_lookups(self) -> int:
        return len(self.rows)

    @property
    def misses(self) -> list[int]:
        return [r - h for r, h in zip(self.rows, self.hits)]

    @property
    def hit_rate(self) -> float:
        total = sum(self.rows)
        return sum(self.hits) / total if total else 0.0

    def running_hit_rate(self) -> np.ndarray:
        return np.cumsum(self.hits) / np.maximum(np.cumsum(self.rows), 1)

    def totals(self) -> dict[str, int]:
        return {
            "batches": self.num_lookups,  # lookup calls; "rows" counts the ids looked up
            "rows": sum(self.rows),
            "hits": sum(self.hits),
            "misses": sum(self.rows) - sum(self.hits),
            "hot_bytes": sum(self.hot_bytes),
            "cold_bytes": sum(self.cold_bytes),
        }


def feature_tensor(tensor: object) -> torch.Tensor:
    """The rows of a feature as a tensor: a tensor, or anything numpy reads as a regular array of
    numbers (not ragged lists, objects or strings).

    Parameters
    ----------
    tensor : object
        The feature data, one row per node.

    Returns
    -------
    Tensor
        The data (a tensor is returned itself).

    Examples
    --------
    >>> feature_tensor([[1.0, 2.0], [3.0]])
    Traceback (most recent call last):
    ...
    graphpart.errors.DataShapeError: feature tensor must be a regular array of numbers ...
    """
    if isinstance(tensor, torch.Tensor):
        return tensor
    try:
        arr = np.asarray(tensor)
        if arr.dtype.kind not in "biufc":
            raise TypeError(f"dtype {arr.dtype}")
        return torch.as_tensor(arr)
    except (TypeError, ValueError, RuntimeError) as exc:
        raise DataShapeError(
            "feature tensor must be a regular array of numbers (one row per node), got "
            f"{type(tensor).__name__} ({describe_exception(exc, 80)})"
        ) from None


def _gpu_rank(device) -> int:
    """A GPU rank from GLT's ``device`` (an int) or a CUDA device (``"cuda:1"``)."""
    if isinstance(device, numbers.Integral) and not isinstance(device, bool):
        return check_gpu(device)
    dev = None
    if isinstance(device, (str, torch.device)):
        try:
            dev = torch.device(device)
        except (RuntimeError, TypeError):
            dev = None
    if dev is None or dev.type != "cuda":
        raise GraphpartError(
            f"with device groups, device is the GPU rank that looks up (an int, or 'cuda:<k>'), "
            f"got {short_repr(device)}"
        )
    return check_gpu(dev.index or 0)


def _device(device) -> torch.device:
    if device is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        if isinstance(device, bool) or not isinstance(
            device, (str, torch.device, numbers.Integral)
        ):
            raise TypeError
        dev = torch.device(device)
    except (RuntimeError, TypeError, ValueError):
        raise GraphpartError(
            f"device must be 'cpu' or a CUDA device, got {short_repr(device)}"
        ) from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise GraphpartError(
            f"device {short_repr(device)} asked for, but CUDA is not available here"
        )
    if dev.type not in ("cpu", "cuda"):
        raise GraphpartError(f"device must be 'cpu' or a CUDA device, got {short_repr(device)}")
    return dev


class Feature:
    """Rows of ``tensor`` split hot / cold; ``feature[ids]`` returns ``tensor[ids]`` and counts
    hits.

    Parameters
    ----------
    tensor : Tensor
        One row per node (any trailing shape), on the CPU.
    split_ratio : float
        Share of rows in the hot part, in [0, 1] (GLT's ``split_ratio``).
    order : Tensor, optional
        A permutation of node ids, hot first (see :mod:`graphpart.features.orderings`);
        ``None`` keeps the input order (rows assumed already reordered, as in GLT).
    cache : {"static", "lru", "fifo", "clock", "sieve"}
        ``"static"``: the hot part is the first ``split_ratio`` of ``order``.
        Otherwise the hot part is a dynamic cache of that policy, empty at first.
    device : str, int or torch.device, optional
        Where the hot part lives and results are returned: CUDA when available
        (the cold part is then pinned host memory), else the CPU. With
        ``device_group_list``: the GPU rank that looks up (GLT's ``device``; default the
        first GPU of the first group).
    device_group_list : list of DeviceGroup, optional
        GLT's groups of GPUs: the hot part (GLT's ``int(split_ratio * n)`` rows) is kept once
        per group and sharded over its GPUs;
        ``feature.box`` counts the rows and bytes each lookup reads from the GPU's own shard,
        each peer's and the host (``cache`` must be ``"static"``).
    id2index : Tensor, optional
        GLT's ``id2index``: the row of ``tensor`` holding each node id (``-1``: none);
        lookups take node ids. ``None``: node ``v`` is row ``v``.
    with_gpu : bool, optional
        With ``device_group_list``: ``True`` places the rows on real GPUs (refused where a GPU
        of the group is missing), ``False`` simulates the box on the CPU; ``None`` (the
        default) places them where every GPU of the group exists, else simulates.
    links : LinkModel, optional
        The rates that turn the box's bytes into time.

    Notes
    -----
    Where this reads GLT's arguments otherwise than GLT's ``Feature`` (``device_group_list=None``,
    ``with_gpu``, the default ``device``), :data:`graphpart.features.box.GLT_DIFFERENCES` says
    how.

    Examples
    --------
    >>> x = torch.arange(12.0).reshape(6, 2)
    >>> f = Feature(x, split_ratio=0.5, order=torch.tensor([5, 4, 3, 2, 1, 0]), device="cpu")
    >>> torch.equal(f[torch.tensor([0, 5, 4])], x[[0, 5, 4]]), f.stats.hits
    (True, [2])

    Two GPUs of one NVLink group share the hot half: GPU 0 holds rows 0-1, GPU 1 rows 2-3.

    >>> from graphpart.features import DeviceGroup
    >>> x = torch.arange(16.0).reshape(8, 2)
    >>> f = Feature(x, 0.5, device_group_list=[DeviceGroup(0, [0, 1])], device=0, with_gpu=False)
    >>> torch.equal(f[[0, 3, 6]], x[[0, 3, 6]])
    True
    >>> t = f.box.stats[0].totals(); t["own_rows"], t["peer_rows"], t["host_rows"]
    (1, 1, 1)
    """

    def __init__(
        self,
        tensor,
        split_ratio: float = 0.0,
        order=None,
        cache: str = "static",
        device=None,
        *,
        device_group_list=None,
        id2index=None,
        with_gpu: bool | None = None,
        links: LinkModel | None = None,
    ) -> None:
        x = feature_tensor(tensor)
        if x.dim() == 0:
            raise DataShapeError(
                f"feature tensor must have one row per node, got a scalar {short_repr(x)}"
            )
        if x.device.type != "cpu":
            x = x.cpu()
        n = len(x)
        self.num_nodes, self.row_shape, self.dtype = n, tuple(x.shape[1:]), x.dtype
        self.row_bytes = int(x[0].numel() * x.element_size()) if n else 0
        self.capacity = capacity_for(split_ratio, n)
        self.split_ratio = float(split_ratio)
        if with_gpu is not None and not isinstance(with_gpu, bool):
            raise GraphpartError(
                f"with_gpu must be True, False or None, got {short_repr(with_gpu)}"
            )
        if not isinstance(cache, str) or (cache != "static" and cache not in DYNAMIC_POLICIES):
            raise GraphpartError(
                f"cache must be 'static' or one of {sorted(DYNAMIC_POLICIES)}, got "
                f"{short_repr(cache)}"
            )
        self.cache_policy = cache
        self.stats = LookupStats()
        self.id2index = None if id2index is None else check_id2index(id2index, n)
        self.box: FeatureBox | None = None
        if device_group_list is not None:
            if cache != "static":
                raise GraphpartError(
                    "device groups shard a static hot part (GLT's split), not a "
                    f"{short_repr(cache)} cache"
                )
            self.box = FeatureBox(
                n, split_ratio, device_group_list, order, self.id2index, self.row_bytes, links
            )
            self.capacity = self.box.capacity  # GLT's count of hot rows (GLT_DIFFERENCES)
            self._place(x, device, with_gpu)
            return
        self.device = _device(device)
        on_gpu = self.device.type == "cuda"
        if order is None:
            order = torch.arange(n)
        order = as_id_tensor(order, "order")
        if len(order) != n or (n and not torch.equal(torch.sort(order).values, torch.arange(n))):
            raise GraphpartError(
                f"order must be a permutation of the {n} node ids, got {len(order)} ids "
                f"{order[:5].tolist()}..."
            )
        self.order = order
        if cache == "static":
            self.cache = StaticCache(order, self.capacity)
            hot_ids = order[: self.capacity]
            self._is_hot = torch.zeros(
                n, dtype=torch.bool
            )  # cache.slot_of >= 0, one byte a node: cheaper to gather
            self._is_hot[hot_ids] = True
            if on_gpu:  # hot rows copied to the GPU; every row stays in pinned host memory
                self._hot = x[hot_ids].to(self.device)
                self._slot = self.cache.slot_of.to(self.device)
        else:
            self.cache = make_cache(cache, n, self.capacity)
            self._hot = torch.empty(
                (self.capacity, *self.row_shape), dtype=x.dtype, device=self.device
            )
        self.cold = x.pin_memory() if on_gpu else x

    def _place(self, x: torch.Tensor, device, with_gpu: bool | None) -> None:
        """The rows of a box: the hot shards of the lookup GPU's group on its GPUs (real),
        or every row in one host tensor (simulated)."""
        box = self.box
        self.gpu = box.groups[0].device_list[0] if device is None else _gpu_rank(device)
        group = box.group_of(self.gpu)
        present = torch.cuda.is_available() and max(group.device_list) < torch.cuda.device_count()
        if with_gpu and not present:
            raise GraphpartError(
                f"with_gpu=True places rows on GPUs {list(group.device_list)}, but this machine "
                f"has {torch.cuda.device_count() if torch.cuda.is_available() else 0} CUDA "
                "devices: use with_gpu=False to simulate the box"
            )
        self.real = bool(present if with_gpu is None else with_gpu)
        self.order = box.order
        self.cache = StaticCache(box.order, box.capacity)
        self.device = torch.device("cuda", self.gpu) if self.real else torch.device("cpu")
        self._shards = []
        if self.real:
            bounds = box.shard_bounds(group)
            hot = box.order[: box.capacity]
            for i, d in enumerate(group.device_list):
                rows = hot[int(bounds[i]) : int(bounds[i + 1])]
                self._shards.append(x[rows].to(torch.device("cuda", d)))
            self._slot_dev = box.slot_of.to(self.device)
            self._bounds_dev = torch.from_numpy(bounds).to(self.device)
        self.cold = x.pin_memory() if self.real else x

    def _boxed(self, ids) -> torch.Tensor:
        """A lookup through the box: counted per place, then gathered. Simulated: one gather
        from the host tensor. Real: the shard of every row found on the looking GPU (one sync,
        for the counts), each GPU of the group gathering its own rows (copied peer to peer),
        the cold rows gathered into pinned memory and copied over the bus."""
        box, rb, gpu = self.box, self.row_bytes, self.gpu
        if not self.real:
            rows = rows_of(ids.cpu() if isinstance(ids, torch.Tensor) else ids, self.id2index,
                           self.num_nodes)  # fmt: skip
            st = box.count(rows, gpu)
            out = torch.index_select(self.cold, 0, rows)
        else:
            st, out = self._gather(ids)
        own, peer, host = st.own[-1], int(st.peer[-1].sum()), st.host[-1]
        self.stats.record(own + peer + host, own + peer, (own + peer) * rb, host * rb)
        return out

    def _gather(self, ids):
        dev, group = self.device, self.box.group_of(self.gpu)
        if isinstance(ids, torch.Tensor) and ids.dtype in (torch.int32, torch.int64):
            rows = ids.to(dev, torch.int64)
        else:
            rows = as_id_tensor(ids, "ids").to(dev)
        if self.id2index is not None:
            rows = rows_of(rows.cpu(), self.id2index, self.num_nodes).to(dev)
        elif len(rows):
            lo, hi = (int(v) for v in torch.aminmax(rows))
            if lo < 0 or hi >= self.num_nodes:
                check_ids_in_range(rows.cpu(), self.num_nodes, "ids")
        slot = self._slot_dev[rows]
        shard = torch.searchsorted(self._bounds_dev[1:], slot, right=True)
        shard = torch.where(slot >= 0, shard, torch.full_like(shard, group.size))
        per = torch.bincount(shard, minlength=group.size + 1).cpu()  # the one sync
        st = self.box.record(per.numpy(), self.gpu)
        perm = torch.argsort(shard, stable=True)
        ends = torch.cumsum(per, 0).tolist()
        out = torch.empty((len(rows), *self.row_shape), dtype=self.dtype, device=dev)
        for i, d in enumerate(group.device_list):  # a loop over the group's GPUs, not rows
            pos = perm[ends[i] - int(per[i]) : ends[i]]
            if len(pos):
                holder = torch.device("cuda", d)
                local = (slot[pos] - self._bounds_dev[i]).to(holder)
                got = torch.index_select(self._shards[i], 0, local)
                out.index_copy_(0, pos, got.to(dev))
        pos = perm[ends[-1] - int(per[-1]) :]
        if len(pos):  # gathered into pinned memory, then one copy over the bus
            staged = torch.empty((len(pos), *self.row_shape), dtype=self.dtype, pin_memory=True)
            torch.index_select(self.cold, 0, rows[pos].cpu(), out=staged)
            out.index_copy_(0, pos, staged.to(dev, non_blocking=True))
        return st, out

    def __repr__(self) -> str:
        return (
            f"Feature({self.num_nodes} rows of {self.row_shape}, {self.dtype}, "
            f"split_ratio={self.split_ratio}, "
            f"cache={self.cache_policy!r}, device={self.device})"
        )

    def __len__(self) -> int:
        return self.num_nodes

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.num_nodes, *self.row_shape)

    @property
    def hot(self) -> torch.Tensor:
        """The hot part: rows of the cached nodes in slot order (on the device).

        Without CUDA a static hot part is not copied (the rows stay in the one
        host tensor and a mask marks them); this property gathers it on demand.
        """
        if self.box is not None or (self.cache_policy == "static" and self.device.type == "cpu"):
            return self.cold[self.order[: self.capacity]]
        return self._hot

    def reset_stats(self) -> None:
        self.stats = LookupStats()
        if self.box is not None:
            self.box.reset_stats()

    def __getitem__(self, ids) -> torch.Tensor:
        if self.box is not None:
            return self._boxed(ids)
        if self.id2index is not None:
            ids = rows_of(ids.cpu() if isinstance(ids, torch.Tensor) else ids, self.id2index,
                          self.num_nodes)  # fmt: skip
        if isinstance(ids, torch.Tensor) and ids.device.type == "cuda":
            idx = ids.to(torch.int64)
        else:
            idx = as_id_tensor(ids, "ids")
        if len(idx) and (int(idx.min()) < 0 or int(idx.max()) >= self.num_nodes):
            check_ids_in_range(idx.cpu(), self.num_nodes, "ids")
        if self.cache_policy == "static":
            return self._static(idx)
        return self._dynamic(idx)

    def _static(self, ids: torch.Tensor) -> torch.Tensor:
        rb = self.row_bytes
        if self.device.type == "cpu":  # the hot part stands in: one gather, a mask counts the hits
            hits = int(self._is_hot[ids].sum())
            out = torch.index_select(self.cold, 0, ids)
            self.stats.record(len(ids), hits, hits * rb, (len(ids) - hits) * rb)
            return out
        dev = self.device
        ids_dev = ids.to(dev)
        slot = self._slot[ids_dev]
        hot = slot >= 0
        out = torch.empty((len(ids), *self.row_shape), dtype=self.dtype, device=dev)
        hot_pos = torch.nonzero(hot).reshape(-1)
        cold_pos = torch.nonzero(~hot).reshape(-1)
        out.index_copy_(0, hot_pos, torch.index_select(self._hot, 0, slot[hot_pos]))
        if len(
            cold_pos
        ):  # gather on the host straight into pinned memory, then one copy over the bus
            cold_ids = ids_dev[cold_pos].cpu()
            staged = torch.empty(
                (len(cold_ids), *self.row_shape), dtype=self.dtype, pin_memory=True
            )
            torch.index_select(self.cold, 0, cold_ids, out=staged)
            out.index_copy_(0, cold_pos, staged.to(dev, non_blocking=True))
        self.stats.record(len(ids), len(hot_pos), len(hot_pos) * rb, len(cold_pos) * rb)
        return out

    def _dynamic(self, ids: torch.Tensor) -> torch.Tensor:
        dev = self.device
        uniq, inverse = torch.unique(ids.cpu(), return_inverse=True)
        hit, slots, miss_slots = self.cache.access(uniq)
        hit_pos = torch.nonzero(hit).reshape(-1)
        miss_pos = torch.nonzero(~hit).reshape(-1)
        rows = torch.empty((len(uniq), *self.row_shape), dtype=self.dtype, device=dev)
        rows.index_copy_(
            0, hit_pos.to(dev), torch.index_select(self._hot, 0, slots[hit_pos].to(dev))
        )
        if len(miss_pos):
            if dev.type == "cuda":
                staged = torch.empty(
                    (len(miss_pos), *self.row_shape), dtype=self.dtype, pin_memory=True
                )
                fetched = torch.index_select(self.cold, 0, uniq[miss_pos], out=staged).to(
                    dev, non_blocking=True
                )
            else:
                fetched = torch.index_select(self.cold, 0, uniq[miss_pos])
            rows.index_copy_(0, miss_pos.to(dev), fetched)
            admitted = torch.nonzero(miss_slots >= 0).reshape(-1)
            if len(admitted):
                self._hot.index_copy_(
                    0,
                    miss_slots[admitted].to(dev),
                    torch.index_select(fetched, 0, admitted.to(dev)),
                )
        hits = int(hit[inverse].sum())
        rb = self.row_bytes
        self.stats.record(len(ids), hits, hits * rb, len(miss_pos) * rb)
        return torch.index_select(rows, 0, inverse.to(dev))

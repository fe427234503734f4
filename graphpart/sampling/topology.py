"""Graph topology for sampling: compressed rows (CSR or CSC) with edge ids, built from COO, CSR or
CSC.

``Topology`` stores one compressed layout: ``"CSC"`` groups edges by
destination (``indices`` are in-neighbours, what message passing into a seed
node reads; the default) and ``"CSR"`` groups them by source (``indices`` are
out-neighbours). Any input layout converts to either with one stable torch sort,
so the edges of a row keep their input order and each edge keeps its id.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..errors import GraphpartError
from ..typing import IdArray
from ..utils.check import check_allocation, check_count, short_repr
from ..utils.tensors import as_id_tensor, check_ids_in_range

__all__ = ["Topology", "LAYOUTS", "MODES"]

LAYOUTS = ("CSR", "CSC")
#: Where a topology lives and where sampling on it runs, GLT's ``Graph`` modes: ``"CPU"`` (host
#: memory, sampling on the CPU), ``"ZERO_COPY"`` (the edge arrays in pinned host memory, the
#: offsets and the sampling on the GPU), ``"CUDA"`` (everything on the GPU).
MODES = ("CPU", "ZERO_COPY", "CUDA")


def _check_layout(layout: object, what: str = "layout") -> str:
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise GraphpartError(f"{what} must be one of {LAYOUTS}, got {short_repr(layout)}")
    return layout


def check_topology(topo: object, name: str = "topo") -> "Topology":
    """``topo`` if it is a :class:`Topology`, else a one-line error: the check every sampling
    function makes of the graph it is given.

    Parameters
    ----------
    topo : object
        The graph to sample.
    name : str, default "topo"
        How the message names it.

    Returns
    -------
    Topology
        ``topo``.

    Examples
    --------
    >>> check_topology(None)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: topo must be a Topology (Topology.from_coo, ...), got None
    """
    if not isinstance(topo, Topology):
        raise GraphpartError(
            f"{name} must be a Topology (Topology.from_coo, from_compressed or from_graph), got "
            f"{short_repr(topo, 60)}"
        )
    return topo


def _indptr(rows: torch.Tensor, num_rows: int) -> torch.Tensor:
    ptr = torch.zeros(num_rows + 1, dtype=torch.int64)
    torch.cumsum(torch.bincount(rows, minlength=num_rows), 0, out=ptr[1:])
    return ptr


def _expand(indptr: torch.Tensor) -> torch.Tensor:
    """The row of every entry of a compressed layout."""
    return torch.repeat_interleave(torch.arange(len(indptr) - 1), torch.diff(indptr))


@dataclass(frozen=True)
class Topology:
    """Edges in one compressed layout, with edge ids.

    Attributes
    ----------
    indptr : Tensor
        ``num_nodes + 1`` offsets: row ``v``'s entries are ``indptr[v]:indptr[v + 1]``.
    indices : Tensor
        The other end of each edge (sources for CSC, destinations for CSR).
    edge_ids : Tensor
        The id of each edge (its position in the COO input unless given).
    layout : {"CSC", "CSR"}
    mode : {"CPU", "ZERO_COPY", "CUDA"}
        Where the arrays live and sampling runs (:data:`MODES`, :meth:`to_mode`).

    Examples
    --------
    >>> t = Topology.from_coo([0, 0, 1, 2], [1, 2, 2, 0])
    >>> t.indptr.tolist(), t.indices.tolist(), t.edge_ids.tolist()
    ([0, 1, 2, 4], [2, 0, 0, 1], [3, 0, 1, 2])
    >>> [x.tolist() for x in t.to_coo()]
    [[2, 0, 0, 1], [0, 1, 2, 2], [3, 0, 1, 2]]
    >>> t.to_layout("CSR").indices.tolist()
    [1, 2, 2, 0]
    """

    indptr: torch.Tensor
    indices: torch.Tensor
    edge_ids: torch.Tensor
    layout: str = "CSC"
    mode: str = "CPU"

    @property
    def device(self) -> torch.device:
        """Where sampling on this topology runs (the offsets' device)."""
        return self.indptr.device

    def to_mode(self, mode: str, device=None) -> "Topology":
        """The same topology in GLT's ``mode`` (:data:`MODES`) on CUDA ``device`` (default: the
        current one).

        ``"ZERO_COPY"`` keeps the edge arrays (``indices``, ``edge_ids``: the graph's bulk) in
        pinned host memory and the offsets on the GPU, where sampling runs; the entries it picks
        are gathered on the host and copied over (GLT's kernel reads them in place over UVA,
        which torch cannot). ``"CUDA"`` moves everything to the GPU.

        Parameters
        ----------
        mode : {"CPU", "ZERO_COPY", "CUDA"}
            The mode.
        device : int, str or torch.device, optional
            The GPU of the GPU modes.

        Returns
        -------
        Topology
            A topology in that mode (``self`` when it already is).

        Raises
        ------
        GraphpartError
            For another mode, or a GPU mode where CUDA is not available.

        Examples
        --------
        >>> t = Topology.from_coo([0, 1], [1, 0]).to_mode("CPU")
        >>> t.mode, t.device.type
        ('CPU', 'cpu')
        """
        if not isinstance(mode, str) or mode not in MODES:
            raise GraphpartError(f"mode must be one of {MODES}, got {short_repr(mode)}")
        if device is not None and (
            isinstance(device, bool) or not isinstance(device, (int, str, torch.device))
        ):
            raise GraphpartError(
                f"device must be a GPU rank, 'cuda:<k>' or a torch.device, got {short_repr(device)}"
            )
        if mode == self.mode and device is None:
            return self
        cpu = torch.device("cpu")
        host = (self.indptr.to(cpu), self.indices.to(cpu), self.edge_ids.to(cpu))
        if mode == "CPU":
            return Topology(*host, self.layout, mode)
        if not torch.cuda.is_available():
            raise GraphpartError(
                f"mode {short_repr(mode)} samples on a GPU, and CUDA is not available here: use "
                "mode='CPU'"
            )
        try:
            dev = torch.device("cuda", torch.cuda.current_device()) if device is None else (
                torch.device("cuda", device) if isinstance(device, int) else torch.device(device)
            )  # fmt: skip
        except (RuntimeError, ValueError) as exc:
            raise GraphpartError(f"device {short_repr(device)} is not a device ({exc})") from None
        if dev.type != "cuda":
            raise GraphpartError(
                f"mode {short_repr(mode)} samples on a GPU, got device {short_repr(device)}"
            )
        if mode == "CUDA":
            return Topology(*(a.to(dev) for a in host), self.layout, mode)
        return Topology(host[0].to(dev), host[1].pin_memory(), host[2].pin_memory(), self.layout,
                        mode)  # fmt: skip

    @property
    def num_nodes(self) -> int:
        return len(self.indptr) - 1

    @property
    def num_edges(self) -> int:
        return len(self.indices)

    def degree(self) -> torch.Tensor:
        """Entries per row: in-degrees for CSC, out-degrees for CSR."""
        return torch.diff(self.indptr)

    @classmethod
    def from_coo(
        cls,
        src: IdArray,
        dst: IdArray,
        num_nodes: int | None = None,
        edge_ids: IdArray | None = None,
        layout: str = "CSC",
    ) -> "Topology":
        """From edge lists ``src -> dst``; ``num_nodes`` defaults to the largest id plus one.

        Parameters
        ----------
        src, dst : array_like of int
            The edges' ends.
        num_nodes : int, optional
            Nodes of the graph (refused where their offsets would not fit in memory).
        edge_ids : array_like of int, optional
            The id of each edge (default: its position).
        layout : {"CSC", "CSR"}
            The layout built.

        Returns
        -------
        Topology
            The edges in ``layout``.
        """
        _check_layout(layout)
        s, d = as_id_tensor(src, "src"), as_id_tensor(dst, "dst")
        if len(s) != len(d):
            raise GraphpartError(
                f"src and dst must have the same length, got {len(s)} and {len(d)}"
            )
        top = int(max(s.max(), d.max())) + 1 if len(s) else 0
        n = top if num_nodes is None else check_count(num_nodes, "num_nodes")
        # the offsets, the degree count, and per edge its ends, id, sort key and order
        check_allocation(16 * (n + 1) + 48 * len(s), f"a topology of {n:,} nodes")
        check_ids_in_range(s, n, "src")
        check_ids_in_range(d, n, "dst")
        eids = torch.arange(len(s)) if edge_ids is None else as_id_tensor(edge_ids, "edge_ids")
        if len(eids) != len(s):
            raise GraphpartError(f"edge_ids must have one id per edge ({len(s)}), got {len(eids)}")
        rows, other = (d, s) if layout == "CSC" else (s, d)
        order = torch.sort(rows, stable=True).indices
        return cls(_indptr(rows, n), other[order], eids[order], layout)

    @classmethod
    def from_compressed(
        cls,
        indptr: IdArray,
        indices: IdArray,
        edge_ids: IdArray | None = None,
        input_layout: str = "CSR",
        layout: str = "CSC",
    ) -> "Topology":
        """From a CSR or CSC ``(indptr, indices)``, converted to ``layout``."""
        _check_layout(input_layout, "input_layout")
        _check_layout(layout)
        ptr, idx = as_id_tensor(indptr, "indptr"), as_id_tensor(indices, "indices")
        if (
            len(ptr) == 0
            or int(ptr[0]) != 0
            or int(ptr[-1]) != len(idx)
            or bool((torch.diff(ptr) < 0).any())
        ):
            raise GraphpartError(
                f"indptr must start at 0, never decrease and end at len(indices) = {len(idx)}, "
                f"got {ptr[:5].tolist()}...{ptr[-2:].tolist()}"
            )
        n = len(ptr) - 1
        check_ids_in_range(idx, n, "indices")
        eids = torch.arange(len(idx)) if edge_ids is None else as_id_tensor(edge_ids, "edge_ids")
        if len(eids) != len(idx):
            raise GraphpartError(
                f"edge_ids must have one id per edge ({len(idx)}), got {len(eids)}"
            )
        given = cls(ptr, idx, eids, input_layout)
        return given.to_layout(_check_layout(layout))

    @classmethod
    def from_graph(cls, g, layout: str = "CSC") -> "Topology":
        """The topology of a :class:`~graphpart.Graph` (edge ids are the graph's).

        A heterograph is taken in its homogeneous ids (types in ``g.ntypes``
        order, as :meth:`~graphpart.Graph.to_homogeneous` and
        :class:`~graphpart.Partitioning` number them).
        """
        if not all(hasattr(g, a) for a in ("is_homogeneous", "edges", "num_nodes")):
            raise GraphpartError(f"g must be a graphpart Graph, got {short_repr(g, 60)}")
        if not g.is_homogeneous:
            g = g.to_homogeneous()
        s, d = g.edges()
        return cls.from_coo(s, d, g.num_nodes(), layout=layout)

    def to_coo(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``(src, dst, edge_ids)`` in this layout's entry order (on the CPU)."""
        if self.mode != "CPU":
            return self.to_mode("CPU").to_coo()
        rows = _expand(self.indptr)
        return (
            (self.indices, rows, self.edge_ids)
            if self.layout == "CSC"
            else (rows, self.indices, self.edge_ids)
        )

    def to_layout(self, layout: str) -> "Topology":
        """The same edges in ``layout`` (``self`` when it already is)."""
        if _check_layout(layout) == self.layout:
            return self
        s, d, e = self.to_coo()
        return Topology.from_coo(s, d, self.num_nodes, e, layout)

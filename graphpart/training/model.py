"""The machine model that turns an epoch's counts into seconds: every assumption is a field.

Defaults are published hardware figures, stated per field; :func:`calibrate` measures this
machine's local gather bandwidth and sampling speed instead. A step of one trainer costs, with
the trainer's machine link shared by its ``T`` trainers:

- **sampling**, per layer: the local frontier's edges at ``sample_medges_s``, while the other
  machines sample theirs in parallel and send them back (one round trip per machine asked,
  :data:`~graphpart.training.counts.EDGE_BYTES` per edge on the link); the layer takes the longer of
  the two, as DGL sends the remote requests before sampling locally.
- **fetch**: local rows gathered at ``gather_gbyte_s`` while remote rows come over the link
  (one round trip per machine), then every row not in the GPU cache crosses PCIe.
- **compute**: a GraphSAGE layer per fanout (mean over the sampled edges, then two
  ``d_in x hidden`` matrix products per destination node), forward and backward (3x forward),
  at ``gpu_tflops``.

What the model leaves out, so read its estimates as a comparison of settings, not a forecast:

- **No contention.** Every serving machine is assumed idle, so a layer's remote edges spread
  over ``k`` machines sample ``k`` times faster; under load the servers also sample for their
  own trainers, which makes spreading requests (random partitioning) look cheaper than it is.
- **No overlap.** Sampling, fetch and compute of a step add up; DGL can prefetch the next
  mini-batch while the GPU computes, which hides part of the first two.
- **One round trip per part,** whatever the number of machines asked (they are asked at once);
  a machine's link is shared evenly by its trainers.
- **GraphSAGE-mean compute.** Attention or wider models move the balance towards compute.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields, replace

import numpy as np
import torch

from ..errors import GraphpartError
from ..utils.check import check_rate

__all__ = ["ClusterModel", "calibrate", "SOURCES"]

#: Where each default comes from.
SOURCES = {
    "network_gbit_s": "10 Gb/s Ethernet, a common link in commodity clusters",
    "rpc_latency_us": "a TCP round trip inside one data centre (~100 us); DGL's Python RPC "
    "adds more",
    "pcie_gbyte_s": "PCIe 3.0 x16: 15.75 GB/s peak, ~12 GB/s measured for pinned host-to-device "
    "copies",
    "gather_gbyte_s": "random row gathers from DRAM by one process, a few GB/s (calibrate() "
    "measures it)",
    "sample_medges_s": "CPU neighbour sampling, a few million edges/s per process (calibrate() "
    "measures it)",
    "gpu_tflops": "effective FP32 rate of GNN layers, about a third of a V100's 15.7 TFLOPS peak",
    "hidden": "hidden width of GraphSAGE in DGL's distributed example",
}


@dataclass(frozen=True)
class ClusterModel:
    """Hardware rates and sizes the time model assumes (override any field).

    Attributes
    ----------
    network_gbit_s : float
        One machine's network link, Gbit/s, shared by the machine's trainers.
    rpc_latency_us : float
        One request/response round trip to another machine, microseconds.
    pcie_gbyte_s : float
        Host-to-GPU copies, GB/s per trainer.
    gather_gbyte_s : float
        Gathering feature rows from the machine's own memory, GB/s per trainer.
    sample_medges_s : float
        Neighbour sampling, million sampled edges per second per trainer (or server).
    gpu_tflops : float
        Effective GPU rate, TFLOPS.
    hidden : int
        Hidden width of the model (its input width is the feature width).

    Examples
    --------
    >>> ClusterModel(network_gbit_s=100).network_bytes_s(4) == 100e9 / 8 / 4
    True
    """

    network_gbit_s: float = 10.0
    rpc_latency_us: float = 100.0
    pcie_gbyte_s: float = 12.0
    gather_gbyte_s: float = 4.0
    sample_medges_s: float = 5.0
    gpu_tflops: float = 5.0
    hidden: int = 256

    def __post_init__(self) -> None:
        for f in fields(self):
            v = check_rate(getattr(self, f.name), f.name, zero=f.name == "rpc_latency_us")
            if f.name == "hidden" and v != int(v):
                raise GraphpartError(f"hidden must be a whole number of units, got {v}")
            # numpy scalars as Python numbers
            object.__setattr__(self, f.name, int(v) if f.name == "hidden" else v)

    def network_bytes_s(self, trainers_per_machine: int = 1) -> float:
        """Bytes per second one trainer gets from its machine's link."""
        return self.network_gbit_s * 1e9 / 8 / trainers_per_machine

    def describe(self) -> dict[str, str]:
        """Every assumption with its value and source, for a table."""
        return {f.name: f"{getattr(self, f.name):g} ({SOURCES[f.name]})" for f in fields(self)}

    def with_(self, **changes) -> ClusterModel:
        """A copy with some fields changed (checked as on construction)."""
        return replace(self, **changes)


def calibrate(model: ClusterModel | None = None, *, rows: int = 1_000_000, dim: int = 128):
    """``model`` (default: :class:`ClusterModel`) with ``gather_gbyte_s`` and
    ``sample_medges_s`` measured on this machine.

    Gathers random rows from a ``rows x dim`` float32 table, and samples 10 neighbours of random
    nodes of an R-MAT graph with graphpart's sampler; each is timed over a few repeats, the
    fastest kept. Network, PCIe and GPU figures stay as given (they describe the cluster, not
    this machine). About a second.

    Parameters
    ----------
    model : ClusterModel or None, default None
        The model whose other fields are kept; ``None`` is ``ClusterModel()``.
    rows : int, default 1_000_000
        Rows of the gathered table; the gather reads ``min(rows, 200_000)`` random rows, and
        the R-MAT graph has scale ``max(10, log2(rows) - 2)``.
    dim : int, default 128
        Float32 values per row.

    Returns
    -------
    ClusterModel
        A copy of ``model`` with ``gather_gbyte_s`` (GB/s) and ``sample_medges_s`` (million
        sampled edges per second) set to the measured rates, rounded to two decimals.

    Examples
    --------
    >>> m = calibrate(rows=20_000, dim=16)
    >>> m.gather_gbyte_s > 0 and m.sample_medges_s > 0
    True
    """
    from ..datasets import rmat
    from ..sampling import Topology, sample_neighbors

    model = ClusterModel() if model is None else model
    gen = torch.Generator().manual_seed(0)
    table = torch.randn(rows, dim, generator=gen)
    idx = torch.randint(rows, (min(rows, 200_000),), generator=gen)
    gather = _fastest(lambda: table.index_select(0, idx))
    g = rmat(max(10, int(np.log2(rows)) - 2), seed=0)
    s, d = g.edges()
    topo = Topology.from_coo(s, d, num_nodes=g.num_nodes())
    seeds = torch.randint(g.num_nodes(), (min(g.num_nodes(), 50_000),), generator=gen)
    edges = len(sample_neighbors(topo, seeds, 10, generator=gen)[0])
    sample = _fastest(lambda: sample_neighbors(topo, seeds, 10, generator=gen))
    return model.with_(
        gather_gbyte_s=round(len(idx) * dim * 4 / gather / 1e9, 2),
        sample_medges_s=round(edges / sample / 1e6, 2),
    )


def _fastest(fn, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return max(best, 1e-9)

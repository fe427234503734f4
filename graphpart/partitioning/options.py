"""How to partition: every option of :func:`~graphpart.partition`, declared, documented and
validated once (the functions, the CLI, sweeps and widgets all take this object)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

import numpy as np
import torch

from ..errors import GraphpartError
from ..typing import BalanceSpec, Seed
from ..utils.check import Options, check_count, check_flag, check_trainers_per_machine, short_repr
from ..utils.seeds import check_seed

__all__ = ["PartitionOptions", "MetisOptions", "BalanceSpec"]

#: Edges METIS sees at most by default (larger graphs are coarsened, or sampled).
DEFAULT_METIS_MAX_EDGES = 1_000_000
#: Rounds of full-graph refinement after METIS saw a coarsened graph or a sample.
DEFAULT_REFINE_ROUNDS = 8


#: The most refinement iterations (``niter``) or partitionings (``ncuts``) METIS is asked for.
MAX_TRIES = 100


@dataclass(frozen=True)
class MetisOptions(Options):
    """METIS options that matter for speed and quality.

    The objective (``objtype``) and the seed are partition options
    (:class:`~graphpart.PartitionOptions`): :func:`part_graph` takes them on their own.

    Attributes
    ----------
    niter : int or None
        Refinement iterations per level (METIS default 10), at most :data:`MAX_TRIES`. Fewer
        is faster.
    ncuts : int or None
        Independent partitionings tried, at most :data:`MAX_TRIES`; the best is kept
        (default 1).
    ufactor : int or None
        Allowed load imbalance in thousandths: 30 allows 1.03 (k-way default).
    ctype : {"rm", "shem"} or None
        Coarsening matching: random or sorted heavy-edge (default).
    minconn, contig : bool
        Minimise the partitions' connectivity / force contiguous partitions.
    """

    option_word = "METIS option"

    niter: int | None = None
    ncuts: int | None = None
    ufactor: int | None = None
    ctype: str | None = None
    minconn: bool = False
    contig: bool = False

    def __post_init__(self) -> None:
        if self.ctype is not None and self.ctype not in ("rm", "shem"):
            raise GraphpartError(f"ctype must be 'rm' or 'shem', got {short_repr(self.ctype)}")
        for name in ("niter", "ncuts", "ufactor"):
            value = getattr(self, name)
            if value is not None and (
                not isinstance(value, (int, np.integer))
                or isinstance(value, bool)
                or value < (1 if name in ("niter", "ncuts") else 0)
                or value >= 2**62
            ):
                raise GraphpartError(
                    f"METIS option {name} must be a non-negative int "
                    f"(niter, ncuts >= 1), got {short_repr(value)}"
                )
        for name in ("niter", "ncuts"):  # each a refinement pass or a whole partitioning
            value = getattr(self, name)
            if value is not None and value > MAX_TRIES:
                raise GraphpartError(
                    f"METIS option {name} is at most {MAX_TRIES} (METIS's time grows with it: "
                    f"each is a whole refinement or partitioning), got {int(value):,}"
                )


_METHODS = ("metis", "random")


@dataclass(frozen=True, eq=False)
class PartitionOptions(Options):
    """How to partition a graph: the options of DGL's ``partition_graph``, and graphpart's own.

    :func:`~graphpart.partition`, :func:`~graphpart.partition_graph`, ``graphpart partition``,
    :class:`~graphpart.sweep.Setting` and the widgets take one of these; each option is checked
    here, once (what needs the graph, such as a field name, when the graph is partitioned).

    Parameters
    ----------
    part_method : {"metis", "random"}, array or dict, default "metis"
        ``"metis"`` minimises the edge cut; ``"random"`` is a *balanced* random split (each
        part gets the same number of nodes of each type, +-1; DGL's random split is not
        balanced). An int array over homogeneous node ids, or a dict ``{ntype: array}`` of
        type-wise values, is used as the assignment itself (values in
        ``[0, num_parts * num_trainers_per_machine)``: trainer ids when
        ``num_trainers_per_machine > 1``).
    balance_ntypes : array, dict, str, list of str or None, default None
        METIS balances the nodes of each distinct value (e.g. a train mask) across
        partitions. A heterograph balances each node type by default. A node data name
        (``"train_mask"``) balances that field, its classes named after it (``train`` /
        ``not train``); several names balance every combination (train, val, test, none).
    balance_edges : bool or None, default False
        Also balance each part's in-degree (its edges). ``None`` decides from the graph: the
        chunked pipeline's streaming partitioners balance in-degrees where they are spread
        unevenly (power-law graphs), and METIS takes it as ``False``.
    num_hops : int, default 1
        HALO hops (0 keeps only edges inside a partition).
    num_trainers_per_machine : int, default 1
        Trainers per machine, ``T``. METIS balances the machines first, then splits each
        machine's nodes into ``T`` trainers under the same constraints; trainer ids are
        ``machine * T + local trainer``. ``"random"`` deals out ``num_parts * T`` balanced
        trainer parts.
    objtype : {"cut", "vol"}, default "cut"
        METIS objective: the edge cut or the total communication volume.
    seed : int, numpy.random.Generator or None, default None
        Seeds METIS, the random split and the edge sample. A Generator is drawn from, so the
        same options object partitions differently each time; an int partitions alike.
    recursive : bool, default False
        METIS recursive bisection instead of k-way.
    metis_options : MetisOptions or None, default None
        METIS's own knobs (``niter``, ``ncuts``, ``ufactor``, ``ctype``, ``minconn``,
        ``contig``); METIS's objective and seed are ``objtype`` and ``seed`` above.
    metis_max_edges : int or None, default 1,000,000
        METIS sees at most about this many edges, at least 1 (``None``: every edge, as DGL; the
        CLI's ``--metis-max-edges 0`` means the same). A larger graph is coarsened first: nodes
        join clusters of their neighbours (size-constrained label propagation), which keeps
        communities, and METIS partitions the graph of the clusters
        (:mod:`graphpart.partitioning.coarsen`). A graph whose first clusters hold almost none of
        its edges (R-MAT) has no communities to keep: METIS sees a random sample of its edges
        instead, degree-aware with ``balance_edges`` (every node keeps about the same number of
        its edges), else uniform.
    metis_refine_rounds : int, default 8
        After METIS saw a coarsened graph or a sample: rounds of refinement on every edge
        (moves that lower the cut while each part stays within the same tolerance in every
        constraint); 0 turns it off.

    Examples
    --------
    >>> opts = PartitionOptions(part_method="random", seed=0)
    >>> opts.part_method, opts.num_hops
    ('random', 1)
    >>> PartitionOptions.of(opts, num_hops=2).num_hops
    2
    >>> PartitionOptions(num_hops=-1)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: num_hops must be a non-negative integer, got -1
    >>> PartitionOptions.of(None, num_hop=2)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: unknown partition option 'num_hop' (did you mean num_hops?)...
    """

    option_word = "partition option"

    part_method: str | np.ndarray | torch.Tensor | Mapping = "metis"
    balance_ntypes: BalanceSpec = None
    balance_edges: bool | None = False
    num_hops: int = 1
    num_trainers_per_machine: int = 1
    objtype: str = "cut"
    seed: Seed = None
    recursive: bool = False
    metis_options: MetisOptions | None = None
    metis_max_edges: int | None = DEFAULT_METIS_MAX_EDGES
    metis_refine_rounds: int = DEFAULT_REFINE_ROUNDS

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        method = self.part_method
        if isinstance(method, str) and method not in _METHODS:
            raise GraphpartError(
                f"part_method must be 'metis', 'random' or an assignment, got {short_repr(method)}"
            )
        if not isinstance(method, (str, np.ndarray, torch.Tensor, Mapping, Sequence)):
            raise GraphpartError(
                "part_method must be 'metis', 'random' or an assignment (an int array, or a "
                f"dict of arrays by node type), got {short_repr(method)}"
            )
        set_(self, "num_hops", check_count(self.num_hops, "num_hops"))
        set_(
            self,
            "num_trainers_per_machine",
            check_trainers_per_machine(self.num_trainers_per_machine),
        )
        if self.objtype not in ("cut", "vol"):
            raise GraphpartError(f"objtype must be 'cut' or 'vol', got {short_repr(self.objtype)}")
        if self.balance_edges is not None:
            set_(self, "balance_edges", check_flag(self.balance_edges, "balance_edges"))
        set_(self, "recursive", check_flag(self.recursive, "recursive"))
        set_(self, "seed", check_seed(self.seed))
        if self.metis_options is not None and not isinstance(self.metis_options, MetisOptions):
            raise GraphpartError(
                "metis_options must be a MetisOptions or None, got "
                f"{short_repr(self.metis_options)}"
            )
        if self.metis_max_edges is not None:
            set_(
                self,
                "metis_max_edges",
                check_count(
                    self.metis_max_edges,
                    "metis_max_edges (the edges METIS may see; None for all)",
                    low=1,
                ),
            )
        set_(
            self,
            "metis_refine_rounds",
            check_count(self.metis_refine_rounds, "metis_refine_rounds"),
        )

    def _key(self) -> tuple:
        """The fields as a comparable tuple: values as they are, an array, tensor, dict or
        Generator by identity (an array's elementwise == has no single answer)."""
        out = []
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                value = tuple(value)
            elif not isinstance(value, (str, int, float, bool, type(None), MetisOptions)):
                value = ("id", id(value))
            out.append(value)
        return tuple(out)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PartitionOptions) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def summary(self) -> dict[str, object]:
        """The options that differ from the defaults, as plain values (a label, a record).

        Returns
        -------
        dict
            ``{name: value}``; an assignment given as ``part_method`` reads ``"custom"``.

        Examples
        --------
        >>> PartitionOptions(balance_edges=True, num_hops=2).summary()
        {'balance_edges': True, 'num_hops': 2}
        """
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "part_method" and not isinstance(value, str):
                value = "custom"
            if f.name == "balance_ntypes" and isinstance(value, (list, tuple)):
                value = (
                    ",".join(map(str, value)) if all(isinstance(v, str) for v in value) else value
                )
            if isinstance(value, (np.ndarray, torch.Tensor, Mapping)) or (
                isinstance(value, Sequence) and not isinstance(value, str)
            ):
                value = "given"
            if isinstance(value, np.random.Generator):
                value = "Generator"
            if value != f.default:
                out[f.name] = value
        return out

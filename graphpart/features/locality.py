"""Which feature rows a trainer's machine holds, by the rule of a named system: the one home of
that rule, for :mod:`graphpart.features`, :mod:`graphpart.training` and every view.

- ``"dgl"`` -- DGL's ``DistGraph``: a machine keeps the feature rows of the nodes it owns. HALO
  copies carry structure for sampling, never features: a HALO node's row is fetched from its
  owner like any other remote row. No cache of remote rows.
- ``"glt"`` -- GraphLearn-for-PyTorch: the rows of the nodes a partition owns, plus a cache of the
  hot remote rows its own sampling visits most (its frequency partitioner's feature cache). No
  HALO copies.
- ``"halo-copies"`` -- not a system either of them ships: the machine also keeps the rows of its
  HALO copies (``num_hops >= 1``), at the cost of those rows, and no remote cache. What holding
  them would buy.

A lookup is served locally when the rule holds its row, else by the machine's cache of remote
rows where the rule has one and the row is in it, else fetched from the owner. A trainer's GPU
cache (:mod:`graphpart.training`) sits in front of all three, whatever the rule.
"""

from __future__ import annotations

import torch

from ..errors import GraphpartError
from ..utils.check import short_repr

__all__ = ["RULES", "held_locally", "keeps_halo_rows", "keeps_remote_cache"]

#: Every named rule, with what it models.
RULES = {
    "dgl": "DGL: rows of owned nodes only (HALO copies serve sampling, not features)",
    "glt": "GraphLearn-for-PyTorch: rows of owned nodes, and a cache of hot remote rows",
    "halo-copies": "owned rows and the HALO copies' rows, no remote cache (neither DGL nor GLT)",
}


def check_rule(rule: object) -> str:
    """``rule`` if it names one of :data:`RULES`, else a :class:`GraphpartError`.

    Parameters
    ----------
    rule : object
        The system's name.

    Returns
    -------
    str
        ``rule``.

    Examples
    --------
    >>> check_rule("dgl")
    'dgl'
    >>> check_rule("pyg")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: rule must name a system: one of [...], got 'pyg'
    """
    if not isinstance(rule, str) or rule not in RULES:
        raise GraphpartError(
            f"rule must name a system: one of {list(RULES)}, got {short_repr(rule)}"
        )
    return rule


def keeps_halo_rows(rule: str) -> bool:
    """Whether the machine keeps the feature rows of its HALO copies (neither DGL nor GLT).

    Parameters
    ----------
    rule : str
        One of :data:`RULES`.

    Returns
    -------
    bool
        True for ``"halo-copies"`` only.
    """
    return check_rule(rule) == "halo-copies"


def keeps_remote_cache(rule: str) -> bool:
    """Whether the system keeps a cache of remote rows on a machine (GLT does; DGL and
    ``"halo-copies"`` do not).

    Parameters
    ----------
    rule : str
        One of :data:`RULES`.

    Returns
    -------
    bool
        True for ``"glt"`` only.
    """
    return check_rule(rule) == "glt"


def held_locally(rule: str, owned: torch.Tensor, halo: torch.Tensor | None = None) -> torch.Tensor:
    """Which rows the machine holds under ``rule``: its owned nodes', and its HALO copies' where
    the rule keeps them.

    Parameters
    ----------
    rule : str
        One of :data:`RULES`.
    owned : Tensor
        bool, per node: the machine owns it.
    halo : Tensor, optional
        bool, per node: the machine holds a HALO copy of it (``None``: no HALO copies).

    Returns
    -------
    Tensor
        bool, per node.

    Examples
    --------
    >>> owned, halo = torch.tensor([True, False, False]), torch.tensor([False, True, False])
    >>> held_locally("dgl", owned, halo).tolist(), held_locally("halo-copies", owned, halo).tolist()
    ([True, False, False], [True, True, False])
    """
    if keeps_halo_rows(rule) and halo is not None:
        return owned | halo
    return owned

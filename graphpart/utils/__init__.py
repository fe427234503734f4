"""Helpers every layer shares.

- :mod:`~graphpart.utils.check` -- ``check_*`` helpers that raise
  :class:`~graphpart.GraphpartError` saying what was received and what was expected
- :mod:`~graphpart.utils.seeds` -- the one seed -> :class:`numpy.random.Generator` helper
- :mod:`~graphpart.utils.report` -- a table that prints in a terminal and renders in Jupyter

Its modules, one idea each:

- ``check``: check_* helpers that raise GraphpartError, short_repr, option names
- ``heap``: reused_heap: big freed arrays reused, not faulted in anew (glibc)
- ``memory``: the memory rule every step follows, and what this machine (its cgroups) can give
- ``report``: a table that prints in a terminal and renders as HTML in Jupyter
- ``seeds``: the one seed -> Generator helper (check_random_state)
- ``tensors``: user input as checked tensors (ids, data)
- ``units``: quantities as people read them (bytes in an adaptive unit, rates)
"""

from __future__ import annotations

from .check import check_count, check_file_name, check_part_id, short_repr
from .report import Report
from .seeds import check_random_state

__all__ = [
    "check_count",
    "check_part_id",
    "check_file_name",
    "short_repr",
    "check_random_state",
    "Report",
]

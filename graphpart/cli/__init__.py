"""The ``graphpart`` command: one module per command group.

- :mod:`~graphpart.cli.main` -- the parser, one-line errors (exit status 2), :func:`main`
- :mod:`~graphpart.cli.partition` -- ``partition`` and ``inspect``
- :mod:`~graphpart.cli.cost` -- ``cost``
- :mod:`~graphpart.cli.chunked` -- the chunked pipeline's commands

Its modules, one idea each:

- ``__main__``: ``python -m graphpart.cli``
- ``args``: what the commands share: values, one-line usage errors, --dataset/--graph/--edges
- ``chunked``: the pipeline's commands (chunk, assign, dispatch, verify, plan, ParMETIS)
- ``cost``: cost: an epoch priced from partitions on disk
- ``main``: the parser, main; warnings and errors as one line (exit status 2)
- ``partition``: partition, inspect
"""

from __future__ import annotations

from .main import build_parser, main

__all__ = ["main", "build_parser"]

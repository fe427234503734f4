"""The ``graphpart`` command: one module per command group.

- :mod:`~graphpart.cli.main` -- the parser, one-line errors (exit status 2), :func:`main`
- :mod:`~graphpart.cli.partition` -- ``partition`` and ``inspect``
- :mod:`~graphpart.cli.cost` -- ``cost``
- :mod:`~graphpart.cli.chunked` -- the chunked pipeline's commands
"""

from __future__ import annotations

from .main import build_parser, main

__all__ = ["main", "build_parser"]

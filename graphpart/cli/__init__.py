"""The ``graphpart`` command: one module per command group.

- :mod:`~graphpart.cli.main` -- the parser, one-line errors (exit status 2), :func:`main`
- :mod:`~graphpart.cli.partition` -- ``partition`` and ``inspect``
- :mod:`~graphpart.cli.cost` -- ``cost``
- :mod:`~graphpart.cli.chunked` -- the chunked pipeline's commands

Its modules, one idea each:

- ``__main__``: ``python -m graphpart.cli``
- ``args``: what the commands share: values, one-line usage errors, --dataset/--graph/--edges
- ``chunked``: the pipeline's commands (chunk, assign, dispatch, verify, plan, ``parmetis-*``)
  tests/            mirrors graphpart/; test_browser.py drives JupyterLab in Debian Chromium
  (test_browser_ids.py: IdView, its pixels from the plots' d3 ticks); fuzzing.py + test_fuzz.py
  mutate peer-written partitions (make fuzz: the long run) ``tests/interop/peer/*.py`` run in the
  peer venv (real DGL 2.1, PyG 2.8) as subprocesses benchmarks/       speed and memory, side by
  side with a peer; RESULTS.md notebooks/        tutorials 00-08: jupytext pairs NAME.py
  (percent format) + NAME.ipynb (outputs cleared) tools/            make_peer_env.sh (the peers'
  venv, outside the checkout); make_peer_fixtures.py (re-make graphpart/datasets/peer_made with
  the real peers); check_docstrings.py (public names lacking numpydoc Parameters/Returns
  sections) docs/             the site `make docs` builds (Sphinx, alabaster, myst-nb) into
  docs/_build/html: conf.py (tutorials copied from notebooks/ and executed, outputs cached in
  _build/.jupyter_cache; widgets shown as a note, their state left out: offline), api_pages.py
  (a page per public package, and per public function and class at the shortest public path
  exporting it), check_site.py (every internal link and anchor resolves, nothing loads from
  another host); `.ci/run` runs `make docs`
- ``cost``: cost
- ``main``: the parser, main; warnings and errors as one line (exit status 2)
- ``partition``: partition, inspect
"""

from __future__ import annotations

from .main import build_parser, main

__all__ = ["main", "build_parser"]

# graphpart: two commands on a fresh machine.
#   make lab    create .venv if needed, install, open JupyterLab on notebooks/
#   make test   create .venv if needed, install, lint (make lint), run the whole test suite
#   make docs   the documentation site in docs/_build/html (tutorials executed; offline)
PYTHON ?= python3
VENV   ?= .venv
# torch is installed on its own, pinned, before the package: an unpinned torch
# would pull several GB of CUDA wheels. Override TORCH_SPEC/TORCH_PIP_ARGS to
# pick another build (e.g. a CPU index on a machine without a local wheel).
TORCH_SPEC     ?= torch==2.13.0
TORCH_PIP_ARGS ?=
LAB_PORT ?= 8888
LAB_ARGS ?=
PYTEST_ARGS ?=

BIN   := $(VENV)/bin
STAMP := $(VENV)/.graphpart-installed

.PHONY: lab test lint install debian-packages bench fuzz docs clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet $(TORCH_PIP_ARGS) "$(TORCH_SPEC)"
	$(BIN)/python -m pip install --quiet -e ".[test,docs]"
	@touch $@

# Debian's datasets and Chromium, where this machine allows (root with apt-get); never fails.
debian-packages:
	@bash tools/install_debian_packages.sh

# ruff: pycodestyle + pyflakes + import order at 100 columns, and the formatter's layout
# (configured in pyproject.toml; notebooks are checked as their jupytext .py halves)
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check --quiet .

test: $(STAMP) debian-packages lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# JupyterLab refuses to start as root unless told; CI machines and containers run as root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=notebooks --port=$(LAB_PORT) $(ROOT_FLAG) $(LAB_ARGS)

# The documentation site: the API reference from the docstrings (a page per public function and
# class) and every tutorial executed (outputs cached in docs/_build/.jupyter_cache until the
# notebook changes); warnings are errors, then every internal link and anchor is checked and
# nothing may load from another host. Open docs/_build/html/index.html in a browser.
# Two processes build it; should that fail, it is built again in one process, which prints the
# whole error (a parallel worker's traceback is lost) and runs again only the tutorials whose
# outputs are not cached: a failure that happens once is said and retried, one that stays fails.
DOCS_ARGS ?=
SPHINX = $(BIN)/python -m sphinx -b html -W --keep-going $(DOCS_ARGS) docs docs/_build/html
docs: $(STAMP)
	rm -rf docs/_build/html
	$(SPHINX) -j 2 || { echo "make docs: the parallel build failed; again in one process:"; \
		rm -rf docs/_build/html; $(SPHINX); }
	$(BIN)/python docs/check_site.py docs/_build/html

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

# the long fuzz run: thousands of mutated peer-written partitions (make test runs 300 per target)
FUZZ_ARGS ?=
fuzz: $(STAMP)
	$(BIN)/python benchmarks/fuzz.py $(FUZZ_ARGS)
	GRAPHPART_FUZZ_ALL=1 $(BIN)/python -m pytest -q tests/test_fuzz.py -k swapped

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis docs/_build docs/api docs/tutorials

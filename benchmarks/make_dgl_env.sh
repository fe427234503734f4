#!/usr/bin/env bash
# Create the git-ignored virtual environment that runs DGL for the side-by-side
# benchmarks (benchmarks/partition_vs_dgl.py).  DGL 2.1.0 is the newest release
# on PyPI and it needs torch <= 2.2.1 and numpy < 2; about 2.8 GB of downloads.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${DGL_VENV:-$here/.dgl-venv}"
python="${PYTHON:-python3}"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import dgl, dgl.distributed" 2>/dev/null; then
    echo "$venv"; exit 0
fi
rm -rf "$venv.tmp"
"$python" -m venv "$venv.tmp"
"$venv.tmp/bin/pip" install --quiet --upgrade pip >&2
"$venv.tmp/bin/pip" install --quiet torch==2.2.1 "numpy<2" dgl==2.1.0 "setuptools<70" \
    pandas==2.2.3 pyyaml pydantic psutil >&2
"$venv.tmp/bin/pip" install --quiet torchdata==0.7.1 --no-deps >&2
rm -rf "$venv"
mv "$venv.tmp" "$venv"
# venv scripts hard-code their path; the interpreter itself is all we use.
"$venv/bin/python" -c "import dgl, dgl.distributed" >&2
echo "$venv"

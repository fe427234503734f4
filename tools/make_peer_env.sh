#!/usr/bin/env bash
# Build (once) the virtual environment of graphpart's peers: DGL 2.1.0 (the newest on PyPI; it
# needs torch 2.2.1 and numpy < 2), PyTorch Geometric and GraphLearn-for-PyTorch. The interop
# tests (tests/interop/test_peers*.py) and the DGL benchmarks run these real libraries in
# subprocesses of this venv; graphpart itself never imports them.
#
# The venv lives outside the checkout (default ~/.cache/graphpart/peer-venv) so a machine
# builds it once: about 2.8 GB of downloads, the CUDA build of torch 2.2.1 being the only one
# PyPI has. Prints the venv's path. Exit status 0 also when a peer is missing: the tests skip
# the peers that do not import, each with its reason.
set -euo pipefail
venv="${GRAPHPART_PEER_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/graphpart/peer-venv}"
python="${PYTHON:-python3}"
check='import dgl, dgl.distributed, torch_geometric.distributed'
if [ -x "$venv/bin/python" ] && DGLBACKEND=pytorch "$venv/bin/python" -c "$check" 2>/dev/null; then
    echo "$venv"; exit 0
fi
mkdir -p "$(dirname "$venv")"
rm -rf "$venv.tmp"
"$python" -m venv "$venv.tmp"
pip=("$venv.tmp/bin/python" -m pip install --quiet)
"${pip[@]}" --upgrade pip >&2
"${pip[@]}" torch==2.2.1 "numpy<2" dgl==2.1.0 "setuptools<70" pandas==2.2.3 pyyaml pydantic \
    psutil scipy networkx >&2
"${pip[@]}" torchdata==0.7.1 --no-deps >&2
"${pip[@]}" torch-geometric==2.8.1 >&2
# GLT's wheel is a CPU build against one torch; it is optional (its tests skip without it).
"${pip[@]}" graphlearn-torch==0.2.4 --no-deps >&2 || echo "graphlearn-torch did not install" >&2
rm -rf "$venv"
mv "$venv.tmp" "$venv"
DGLBACKEND=pytorch "$venv/bin/python" -c "$check" >&2
echo "$venv"

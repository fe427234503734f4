#!/usr/bin/env bash
# The DGL side of the benchmarks runs in the peers' venv (DGL 2.1.0, torch 2.2.1, numpy < 2, PyG),
# built once per machine by tools/make_peer_env.sh; this prints its path.
set -euo pipefail
exec bash "$(cd "$(dirname "$0")/.." && pwd)/tools/make_peer_env.sh"

"""The peer scripts run under the peers' own venv (tests/interop/peers.py), never under pytest."""

collect_ignore = ["peer"]

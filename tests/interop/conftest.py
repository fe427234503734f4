"""The fixture writer and the peer scripts run under the peers' own venv, never under pytest."""

collect_ignore = ["fixtures/make_fixtures.py", "peer"]

"""environment.yml lists the same dependencies, with the same bounds, as pyproject.toml."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib
import yaml

ROOT = Path(__file__).resolve().parents[1]
# pip name -> conda-forge names
CONDA_NAMES = {"torch": ["pytorch"], "dask[distributed]": ["dask", "distributed"]}


def split(req: str) -> tuple[str, str]:
    m = re.match(r"^([A-Za-z0-9_.\-\[\]]+)\s*(.*)$", req.strip())
    return m.group(1).lower(), m.group(2).replace(" ", "")


def pyproject_requirements() -> dict[str, str]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = meta["dependencies"] + meta["optional-dependencies"]["test"]
    out = {}
    for r in reqs:
        name, spec = split(r)
        for conda in CONDA_NAMES.get(name, [name]):
            out[conda] = spec
    return out


def conda_requirements() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    out = {}
    for dep in env["dependencies"]:
        if isinstance(dep, str):
            name, spec = split(dep)
            out[name] = spec
    return out


def test_environment_matches_pyproject():
    conda = conda_requirements()
    for name in ("python", "pip"):
        conda.pop(name)
    assert conda == pyproject_requirements()


def test_environment_installs_the_package():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "-e ." in pip


def test_python_bound_matches():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert conda_requirements()["python"] == meta["requires-python"]

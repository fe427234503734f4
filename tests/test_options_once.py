"""Every option is declared once: in one options family (a public frozen dataclass built on
``utils.check.Options``: PartitionOptions, MetisOptions, ClusterOptions, StreamOptions,
ChunkFormat, NodeTask, TrainingSetup), never in two; and a public callable that takes a family
takes that family's options through it (the object, or by name through ``**``), never as
parameters of its own.

Three names are one quantity that two steps of the pipeline read, and so belong to two
families: ``seed`` (each random step's own draw), ``num_trainers_per_machine`` (what the
partitioner assigns trainer ids for, and what a replay runs, by default the partitioning's) and
``feat_dim`` (the width a generator draws features at, and the width a replay prices). Each is
checked by one helper, which the test pins: every family refuses a bad value with the same
message."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil

import pytest

import graphpart
from graphpart import PartitionOptions
from graphpart.errors import GraphpartError
from graphpart.utils.check import Options


def _public() -> dict[str, object]:
    """``module.name`` -> every public function and class (the union of ``__all__``)."""
    out = {}
    for m in [graphpart.__name__] + [
        m.name for m in pkgutil.walk_packages(graphpart.__path__, "graphpart.")
    ]:
        if any(p.startswith("_") for p in m.split(".")):
            continue
        module = importlib.import_module(m)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                out.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
    return out


PUBLIC = _public()


def _is_family(cls: object) -> bool:
    return inspect.isclass(cls) and issubclass(cls, Options) and cls is not Options


FAMILIES = {path: cls for path, cls in PUBLIC.items() if _is_family(cls)}


def _fields(cls: type) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def _families_taken(sig: inspect.Signature, families: dict[str, type]) -> list[type]:
    """The families a signature takes: a parameter annotated with one."""
    names = " ".join(str(p.annotation) for p in sig.parameters.values())
    return [cls for cls in families.values() if cls.__name__ in names.replace("|", " ").split()]


def test_every_options_class_is_a_family():
    named = {p for p, c in PUBLIC.items() if inspect.isclass(c) and p.endswith("Options")}
    named.discard("graphpart.utils.check.Options")
    assert named <= set(FAMILIES)


def test_the_families_are_frozen_dataclasses():
    assert len(FAMILIES) >= 7, sorted(FAMILIES)
    for path, cls in FAMILIES.items():
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, path


def _declared_twice(families: dict[str, type]) -> dict[str, list[str]]:
    owners: dict[str, list[str]] = {}
    for path, cls in families.items():
        for name in _fields(cls):
            owners.setdefault(name, []).append(path)
    return {name: paths for name, paths in owners.items() if len(paths) > 1}


#: The quantities two families share, each checked by one helper.
SHARED = {"seed", "num_trainers_per_machine", "feat_dim"}
#: Values every check of a shared name refuses.
BAD = [-1, "x", 1.5, True, [1]]


def test_no_option_is_declared_by_two_families():
    twice = _declared_twice(FAMILIES)
    assert set(twice) == SHARED, twice


def _refusal(cls: type, name: str, value: object) -> str:
    with pytest.raises(GraphpartError) as err:
        cls(**{name: value})
    return str(err.value)


@pytest.mark.parametrize("name", sorted(SHARED))
def test_a_shared_quantity_is_checked_by_one_helper(name):
    owners = _declared_twice(FAMILIES)[name]
    for value in BAD:
        messages = {_refusal(FAMILIES[path], name, value) for path in owners}
        assert len(messages) == 1, (name, value, messages)


def test_the_check_finds_a_planted_second_rule():
    @dataclasses.dataclass(frozen=True)
    class LaxOptions(Options):
        feat_dim: int = 0

        def __post_init__(self):
            if self.feat_dim == -1:
                raise GraphpartError("feat_dim must not be -1")

    with pytest.raises(pytest.fail.Exception):
        _refusal(LaxOptions, "feat_dim", 1.5)
    assert _refusal(LaxOptions, "feat_dim", -1) != _refusal(
        FAMILIES["graphpart.datasets.synthetic.NodeTask"], "feat_dim", -1
    )


#: Results, not inputs: a Partitioning records the options it was made with, and the facts a
#: partitioning reopened from files reads from them (its part_method names their origin).
RESULTS = {"graphpart.partitioning.core.Partitioning"}


def _redeclared(public: dict[str, object]) -> dict[str, list[str]]:
    found = {}
    for path, obj in public.items():
        if obj in FAMILIES.values() or path in RESULTS:
            continue
        try:
            sig = inspect.signature(obj)
        except (TypeError, ValueError):
            continue
        taken = set().union(*(_fields(cls) for cls in _families_taken(sig, FAMILIES)))
        own = sorted(n for n in sig.parameters if n in taken)
        if own:
            found[path] = own
    return found


def test_a_callable_that_takes_a_family_declares_none_of_its_options_again():
    assert _redeclared(PUBLIC) == {}


@pytest.mark.parametrize("planted", ["family", "callable"])
def test_the_walk_finds_a_planted_second_declaration(planted):
    @dataclasses.dataclass(frozen=True)
    class TwiceOptions:
        num_hops: int = 1

    def run(options: PartitionOptions | None = None, *, seed: int = 0) -> None:
        """A callable taking partition options, and one of them again."""

    if planted == "family":
        assert "num_hops" in _declared_twice({**FAMILIES, "x.TwiceOptions": TwiceOptions})
    else:
        assert _redeclared({"x.run": run}) == {"x.run": ["seed"]}

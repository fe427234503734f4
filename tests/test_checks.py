"""The check helpers and the seed helper."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from graphpart import GraphpartError
from graphpart.utils.check import check_count
from graphpart.utils.seeds import check_random_state
from graphpart.utils.tensors import as_data_tensor, as_id_tensor


def test_seed_int_is_reproducible():
    assert check_random_state(5).random() == check_random_state(5).random()


def test_seed_generator_passes_through():
    rng = np.random.default_rng(0)
    assert check_random_state(rng) is rng


def test_seed_none_is_fresh():
    assert isinstance(check_random_state(None), np.random.Generator)


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True, np.random.RandomState(0)])
def test_bad_seeds(seed):
    with pytest.raises(GraphpartError, match="seed must be"):
        check_random_state(seed)


def test_as_id_tensor_empty_float_list_is_fine():
    assert as_id_tensor([]).dtype == torch.int64


def test_as_id_tensor_uint64_and_int8():
    assert as_id_tensor(np.array([1], dtype=np.uint64)).tolist() == [1]
    assert as_id_tensor(torch.tensor([3], dtype=torch.int8)).dtype == torch.int64


def test_check_count_numpy_ints():
    assert check_count(np.int32(3), "n") == 3


def test_as_data_tensor_rejects_ragged():
    with pytest.raises(GraphpartError, match="convertible to a tensor"):
        as_data_tensor([[1, 2], [3]], 2, "node data 'x'")


ERRORS = {name for name in __import__("graphpart.errors").errors.__all__ if name.endswith("Error")}


def _unbounded_quotes(source: str) -> list[int]:
    """Lines where a refusal formats a value with ``!r``: the repr of a user's object has no
    bound (a list shared a million times takes minutes), ``short_repr`` has."""
    import ast

    lines = []
    for node in ast.walk(ast.parse(source)):
        fn = getattr(node, "func", None)
        name = getattr(fn, "id", None) or getattr(fn, "attr", None)
        if isinstance(node, ast.Call) and name in ERRORS:
            lines += [
                v.lineno
                for v in ast.walk(node)
                if isinstance(v, ast.FormattedValue) and v.conversion == ord("r")
            ]
    return lines


def test_no_refusal_quotes_a_value_unbounded():
    from pathlib import Path

    import graphpart

    root = Path(graphpart.__file__).parent
    found = {
        str(f.relative_to(root)): lines
        for f in sorted(root.rglob("*.py"))
        if (lines := _unbounded_quotes(f.read_text()))
    }
    assert found == {}, f"use short_repr(x) instead of {{x!r}} in: {found}"


def test_the_quote_check_finds_a_planted_repr():
    planted = 'def f(x):\n    raise GraphpartError(\n        f"bad {x!r}"\n    )\n'
    assert _unbounded_quotes(planted) == [3]
    assert _unbounded_quotes(planted.replace("{x!r}", "{short_repr(x)}")) == []


def test_a_refusal_quoting_a_shared_nested_list_is_quick():
    """The first audit's hang: ``cache=[x] * 64`` nested 50 deep made the message itself hang."""
    import time

    from graphpart import partition
    from graphpart.datasets import load_karate_club
    from graphpart.training import replay_epochs

    x: list = [1]
    for _ in range(50):
        x = [x] * 64
    p = partition(load_karate_club(), 2, seed=0)
    t0 = time.perf_counter()
    with pytest.raises(GraphpartError, match="cache must be None or one of"):
        replay_epochs(p, fanouts=[5], train=None, cache=x)
    assert time.perf_counter() - t0 < 5


def test_numpy_scalars_are_taken_wherever_python_numbers_are():
    """numpy integers were refused with "must be a positive int64, got np.int64(5)"."""
    from graphpart import partition
    from graphpart.datasets import load_karate_club
    from graphpart.features import node_locality
    from graphpart.features.simulate import capacity_for
    from graphpart.lookup import locate_node
    from graphpart.sampling.loader import seed_nodes
    from graphpart.training import ClusterModel, replay_epochs

    g = load_karate_club()
    p = partition(g, np.int64(2), num_hops=np.int64(1), seed=np.int64(0))
    c = replay_epochs(p, fanouts=np.array([5, 5]), batch_size=np.int64(8), train=None, seed=0)
    assert c.fanouts == (5, 5) and c.batch_size == 8
    assert len(node_locality(p, np.int64(1))) == 34
    seeds = seed_nodes(np.arange(34), 34, p, np.int64(1))
    assert len(seeds) == int((p.node_part == 1).sum())
    assert locate_node(p, np.int64(3)).orig_id == 3
    model = ClusterModel(hidden=np.int64(64), network_gbit_s=np.float32(2.5))
    assert (model.hidden, model.network_gbit_s) == (64, 2.5) and type(model.hidden) is int
    assert capacity_for(np.float64(0.5), 10) == 5


def test_a_range_of_ids_is_checked_before_it_is_built():
    import time

    from graphpart.utils.tensors import as_id_tensor

    with pytest.raises(GraphpartError, match="a range of 1,000,000,000,000 ids needs about"):
        as_id_tensor(range(10**12))  # MemoryError from numpy's walk, after minutes
    with pytest.raises(GraphpartError, match="must fit in int64"):
        as_id_tensor(range(2**63 - 2, 2**63 + 2))  # wrapped to negative ids silently
    t = time.perf_counter()
    assert as_id_tensor(range(3, 10**7, 2))[-1] == 10**7 - 1
    assert time.perf_counter() - t < 2  # numpy walked a range one int at a time: 8 s per 10^8


@pytest.mark.parametrize("rate", [1e-300, 1e-10, 1e13])
def test_a_machine_model_rate_outside_its_range_is_refused(rate):
    # LinkModel(peer_gbyte_s=1e-300).seconds(...) was infinite: a subnormal check is not enough
    from graphpart.features.box import LinkModel

    with pytest.raises(GraphpartError, match="must lie between 1e-09 and 1e\\+12"):
        LinkModel(peer_gbyte_s=rate)
    m = LinkModel(peer_gbyte_s=1e-9, latency_us=0)
    assert np.isfinite(m.seconds(own=0, peers=[1e15], host=0))

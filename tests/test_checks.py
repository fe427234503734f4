"""The check helpers and the seed helper."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from graphpart import GraphpartError
from graphpart._check import as_data_tensor, as_id_tensor, check_count
from graphpart._random import check_random_state


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

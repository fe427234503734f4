"""The homogeneous-id rule: type offsets, typed <-> homogeneous ids, numpy and torch alike."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from graphpart.homogeneous import homogeneous_ids, type_offsets, typed_ids


@given(st.lists(st.integers(0, 5), min_size=1, max_size=6), st.data())
def test_typed_and_homogeneous_ids_round_trip(counts, data):
    off = type_offsets(counts)
    total = int(off[-1])
    ids = np.array(
        data.draw(st.lists(st.integers(0, max(total - 1, 0)), max_size=20)) if total else []
    )
    ids = ids.astype(np.int64)
    t, local = typed_ids(ids, off)
    assert np.all((local >= 0) & (local < np.asarray(counts)[t]))
    assert np.array_equal(homogeneous_ids(t, local, off), ids)
    tt, lt = typed_ids(torch.from_numpy(ids), off)
    assert tt.tolist() == t.tolist() and lt.tolist() == local.tolist()


@pytest.mark.parametrize("counts", [[5], [2, 3]])
@pytest.mark.parametrize("as_tensor", [False, True])
def test_to_typed_never_hands_back_the_callers_array(counts, as_tensor):
    ids = np.arange(5)
    x = torch.from_numpy(ids) if as_tensor else ids
    _, local = typed_ids(x, type_offsets(counts))
    local[0] = 99
    assert ids[0] == 0

def test_fanouts_of_numpy_integers_are_taken_as_ints():
    import numpy as np

    from graphpart.sampling.neighbors import check_fanouts

    assert check_fanouts([np.int64(5), np.int32(-1)]) == (5, -1)
    assert all(type(f) is int for f in check_fanouts((np.int64(3),)))


def test_a_huge_or_self_referencing_fanouts_is_one_line_at_once():
    import time

    import pytest

    from graphpart.errors import GraphpartError
    from graphpart.sampling.neighbors import check_fanouts

    shared: list = [1]
    for _ in range(40):
        shared = [shared, shared]
    t = time.monotonic()
    for bad in (range(1, 10**12), [10] * 20_000, [shared], 5, "10,5"):
        with pytest.raises(GraphpartError) as e:
            check_fanouts(bad)
        assert len(str(e.value)) < 300 and "\n" not in str(e.value)
    assert time.monotonic() - t < 2

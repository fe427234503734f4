"""A Dask client shared by the chunked-pipeline tests (threads in this process: quick to start)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client

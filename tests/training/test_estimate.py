"""The time model: epoch = slowest trainer per step, summed; every rate moves what it should."""

from __future__ import annotations

import numpy as np
import pytest

import graphpart as gp
from graphpart.datasets import load_karate_club, sbm
from graphpart.errors import GraphpartError
from graphpart.training import PARTS, ClusterModel, calibrate, estimate_epoch, replay_epochs


@pytest.fixture(scope="module")
def counts():
    p = gp.partition(sbm([60, 60, 60], 0.15, 0.02, seed=0), 3, seed=0)
    return replay_epochs(p, fanouts=[5, 3], batch_size=16, train=None, epochs=2, seed=0)


def test_the_epoch_is_the_slowest_trainer_of_each_step_summed(counts):
    est = estimate_epoch(counts)
    t = sum(est.parts[p] for p in PARTS)
    want = np.mean([sum(t[e, :, s].max() for s in range(t.shape[2])) for e in range(2)])
    assert est.epoch_s == pytest.approx(want)
    assert sum(est.breakdown.values()) == pytest.approx(est.epoch_s)
    busy = est.per_trainer()
    assert est.straggler == int(np.argmax(busy))
    assert est.straggler_ratio == pytest.approx(busy.max() / busy.mean())
    assert est.epoch_s >= busy.max() - 1e-12  # waiting only adds


def test_each_rate_moves_its_own_part(counts):
    base = estimate_epoch(counts)
    slow_net = estimate_epoch(counts, ClusterModel(network_gbit_s=1))
    assert slow_net.per_trainer("fetch").sum() > base.per_trainer("fetch").sum()
    assert np.allclose(slow_net.per_trainer("compute"), base.per_trainer("compute"))
    fast_gpu = estimate_epoch(counts, ClusterModel(gpu_tflops=50))
    assert np.allclose(fast_gpu.per_trainer("compute"), base.per_trainer("compute") / 10)
    slow_sampling = estimate_epoch(counts, ClusterModel(sample_medges_s=0.5))
    assert slow_sampling.per_trainer("sampling").sum() > base.per_trainer("sampling").sum()


def test_compute_follows_the_stated_graphsage_formula():
    p = gp.partition(load_karate_club(), 1)
    c = replay_epochs(p, fanouts=[-1], batch_size=100, train=[0], feat_dim=10, seed=0)
    m = ClusterModel(gpu_tflops=1, hidden=4)
    # node 0 has 16 in-neighbours: one layer, 16 edges, 1 destination, input width 10
    want = 3 * (2 * 16 * 10 + 4 * 1 * 10 * 4) / 1e12
    assert estimate_epoch(c, m).per_trainer("compute")[0] == pytest.approx(want)


def test_one_machine_fetches_nothing_over_the_network():
    p = gp.partition(load_karate_club(), 1)
    c = replay_epochs(p, fanouts=[3, 3], batch_size=8, train=None, seed=0)
    assert c.per_trainer("inputs_remote").sum() == 0
    slow = estimate_epoch(c, ClusterModel(network_gbit_s=0.001, rpc_latency_us=1e6))
    assert slow.epoch_s == pytest.approx(estimate_epoch(c).epoch_s)


def test_a_graph_without_features_moves_no_rows():
    """feat_dim=0 (what NodeTask calls a graph without features): the same batches, no row bytes;
    the sampling requests still cross the network."""
    p = gp.partition(load_karate_club(), 2, seed=0)
    bare = replay_epochs(p, fanouts=[3, 3], batch_size=8, train=None, feat_dim=0, seed=0)
    wide = replay_epochs(p, fanouts=[3, 3], batch_size=8, train=None, seed=0)
    assert bare.row_bytes == 0 and wide.row_bytes == 512
    assert (bare.per_trainer("inputs_remote") == wide.per_trainer("inputs_remote")).all()
    slow = ClusterModel(network_gbit_s=0.01)
    assert (
        estimate_epoch(bare, slow).per_trainer("fetch").sum()
        < estimate_epoch(wide, slow).per_trainer("fetch").sum()
    )
    assert estimate_epoch(bare, slow).epoch_s < estimate_epoch(wide, slow).epoch_s


def test_the_table_names_the_straggler_and_why(counts):
    est = estimate_epoch(counts, label="METIS")
    text = str(est.table())
    assert text.startswith("METIS: 3 trainers")
    assert f"trainer {est.straggler} (machine {est.straggler}) is the slowest" in text
    assert "epoch:" in text and "straggler:" in text and "network_gbit_s=10.0" in text
    assert "<table>" in est._repr_html_()


@pytest.mark.parametrize(
    "field, value",
    [("network_gbit_s", 0), ("gpu_tflops", -1), ("hidden", float("nan")), ("pcie_gbyte_s", "fast")],
)
def test_a_bad_rate_says_which(field, value):
    with pytest.raises(GraphpartError, match=field):
        ClusterModel(**{field: value})


def test_calibrate_measures_gather_and_sampling_and_keeps_the_rest():
    m = calibrate(ClusterModel(network_gbit_s=100), rows=20_000, dim=16)
    assert m.network_gbit_s == 100 and m.gather_gbyte_s > 0 and m.sample_medges_s > 0

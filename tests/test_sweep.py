"""Settings, balance sources and sweeps."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import graphpart as gp
from graphpart import MetisOptions, PartitionOptions
from graphpart.datasets import load_karate_club
from graphpart.sweep import Setting, balance_sources, grid, sweep, sweep_report

from .graphs import masked_sbm


def test_balance_sources_offer_masks_and_labels_not_features():
    g = masked_sbm()
    g.ndata["feat"] = torch.randn(g.num_nodes(), 3)
    g.ndata["node_id"] = torch.arange(g.num_nodes())  # too many distinct values to balance
    assert balance_sources(g) == ["none", "label", "train_mask", "val_mask", "test_mask"]


def test_setting_runs_what_it_says():
    g = masked_sbm()
    opts = PartitionOptions(
        balance_ntypes="train_mask",
        balance_edges=True,
        metis_options=MetisOptions(ufactor=10),
        num_hops=2,
    )
    s = Setting(3, opts)
    assert s.label == "metis k=3 bal=train_mask +edges tol=1%"
    p = s.run(g)
    assert p.num_parts == 3 and p.num_hops == 2 and p.balance_edges
    assert p.balance_labels == ("not train", "train")
    assert "class train" in p.metrics.balance


def test_a_setting_is_seeded_unless_its_options_say_otherwise():
    assert Setting().options.seed == 0
    assert Setting(options=PartitionOptions(seed=5)).options.seed == 5


def test_random_setting_drops_balance_options():
    opts = PartitionOptions(
        part_method="random",
        balance_ntypes="train_mask",
        balance_edges=True,
        metis_options=MetisOptions(ufactor=50),
    )
    s = Setting(4, opts)
    assert (s.balance, s.options.balance_edges, s.options.metis_options) == ("none", False, None)
    assert s == Setting(4, PartitionOptions(part_method="random"))


def test_a_setting_takes_a_label_or_names_itself():
    assert Setting(2, label="mine").label == "mine"
    assert Setting(2, PartitionOptions(balance_ntypes=["a", "b"])).label == "metis k=2 bal=a,b"
    given = Setting(2, PartitionOptions(part_method=np.zeros(34, dtype=np.int64)))
    assert given.label == "given k=2" and given.method == "given"


def test_grid_is_the_product_without_duplicates():
    settings = grid(part_method=["random", "metis"], num_parts=[2, 3], balance_edges=[False, True])
    assert len(settings) == 2 + 4
    assert len({s.label for s in settings}) == len(settings)


def test_grid_and_setting_reject_unknown_input():
    with pytest.raises(gp.GraphpartError, match="unknown setting option 'colour'"):
        grid(colour=["red"])
    with pytest.raises(gp.GraphpartError, match="did you mean balance_edges"):
        grid(balance_edge=[True])
    with pytest.raises(gp.GraphpartError, match="part_method must be"):
        grid(part_method="spectral")
    with pytest.raises(gp.GraphpartError, match="options must be a PartitionOptions"):
        Setting(2, {"num_hops": 2})
    with pytest.raises(gp.GraphpartError, match="num_parts"):
        Setting(0)
    with pytest.raises(gp.GraphpartError, match="Setting objects"):
        sweep(load_karate_club(), [{"num_parts": 2}])


def test_sweep_reports_progress_and_measures_each_setting():
    g = masked_sbm()
    seen = []
    results = sweep(
        g,
        grid(part_method=["random", "metis"], num_parts=3, balance_ntypes=[None, "train_mask"]),
        progress=lambda i, n, s: seen.append((i, n, s.label)),
    )
    assert [x[:2] for x in seen] == [(0, 3), (1, 3), (2, 3)]
    for r in results:
        assert r.edge_cut == r.partitioning.metrics.edge_cut
        assert r.max_imbalance == max(r.imbalance.values()) >= 1.0
        assert not any(k.startswith("class ") for k in r.imbalance)  # only what every row shares
    metis = [r for r in results if r.setting.method == "metis"]
    random = [r for r in results if r.setting.method == "random"]
    assert all(m.edge_cut < random[0].edge_cut for m in metis)


def test_sweep_report_has_one_row_per_setting():
    results = sweep(load_karate_club(), grid(part_method=["random", "metis"], num_parts=[2, 4]))
    report = sweep_report(results)
    assert report.columns["setting"] == [r.setting.label for r in results]
    assert report.columns["edge cut"] == [r.edge_cut for r in results]
    assert "<table>" in report._repr_html_() and np.isfinite(report.columns["nodes max/mean"]).all()


def test_a_quantity_a_setting_lacks_reads_as_a_dash_not_nan():
    """Trainers' balance exists only with several trainers a machine: an audit saw ``nan`` in
    the playground's table for a one-trainer setting."""
    from graphpart.datasets import sbm

    g = sbm([40] * 4, 0.2, 0.01, seed=0, train_frac=0.3)
    settings = grid(part_method="metis", num_parts=2, num_trainers_per_machine=[1, 2])
    col = sweep_report(sweep(g, settings)).columns["trainer nodes max/mean"]
    assert col[0] == "-" and isinstance(col[1], float), col


def test_a_sweep_with_a_training_setup_prices_every_setting_and_plots_cut_vs_epoch():
    from graphpart.datasets import load_karate_club
    from graphpart.sweep import grid, sweep, sweep_report
    from graphpart.training import ClusterModel, TrainingSetup
    from graphpart.viz import plot_tradeoff

    setup = TrainingSetup(fanouts=(5, 5), batch_size=4, train=None, model=ClusterModel(1))
    res = sweep(
        load_karate_club(), grid(part_method=["random", "metis"], num_parts=2), training=setup
    )
    assert [r.epoch.label for r in res] == ["random k=2", "metis k=2"]
    assert all(r.epoch_s == r.epoch.epoch_s > 0 for r in res)
    table = sweep_report(res)
    assert "epoch (est.)" in table.columns and "straggler" in table.columns
    ax = plot_tradeoff(res, imbalance="epoch")
    assert ax.get_xlabel() == "estimated epoch (ms), 1 Gb/s network"
    assert sorted(
        ax.collections[0].get_offsets()[:, 0].tolist()
        + ax.collections[1].get_offsets()[:, 0].tolist()
    ) == sorted(1e3 * r.epoch_s for r in res)


def test_an_epoch_axis_without_a_training_setup_says_what_is_missing():
    from graphpart.datasets import load_karate_club
    from graphpart.errors import GraphpartError
    from graphpart.sweep import grid, sweep
    from graphpart.viz import plot_tradeoff

    res = sweep(load_karate_club(), grid(part_method=["random"], num_parts=2))
    with pytest.raises(GraphpartError, match="sweep\\(..., training=TrainingSetup"):
        plot_tradeoff(res, imbalance="epoch")

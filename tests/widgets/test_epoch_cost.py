"""EpochCostView: model and sliders in sync both ways; presets re-price; the fastest follows."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from graphpart.datasets import load_karate_club  # noqa: E402
from graphpart.errors import GraphpartError  # noqa: E402
from graphpart.sweep import grid, sweep  # noqa: E402
from graphpart.training import ClusterModel, TrainingSetup, replay_epochs  # noqa: E402
from graphpart.widgets import EpochCostView  # noqa: E402

from ..graphs import train_in_two_communities  # noqa: E402


@pytest.fixture(scope="module")
def counts():
    """Notebook 08's graph: 8 communities, the train nodes concentrated in two."""
    g = train_in_two_communities(1000, 0.01, 0.0005)
    setup = TrainingSetup(fanouts=(10, 5), batch_size=64, num_trainers_per_machine=2)
    settings = grid(
        part_method=["random", "metis"], num_parts=4, balance_ntypes=[None, "train_mask"]
    )
    return {r.setting.label: r.epoch.counts for r in sweep(g, settings, training=setup)}


def test_setting_the_model_moves_the_sliders_and_a_slider_sets_the_model(counts):
    view = EpochCostView(counts, threaded=False)
    view.model = ClusterModel(network_gbit_s=25, gpu_tflops=20)
    assert view.sliders["network_gbit_s"].value == pytest.approx(25)
    assert view.sliders["gpu_tflops"].value == 20
    before = {k: e.epoch_s for k, e in view.estimates.items()}
    view.sliders["pcie_gbyte_s"].value = 2.0
    assert view.model.pcie_gbyte_s == 2.0 and view.model.network_gbit_s == pytest.approx(25)
    assert all(view.estimates[k].epoch_s > before[k] for k in before)


def test_the_network_preset_decides_which_setting_wins(counts):
    view = EpochCostView(counts, threaded=False)
    view.presets[0].click()  # 1 Gb/s: remote rows are dear, the balanced METIS cut wins
    assert view.model.network_gbit_s == 1.0
    slow = view.fastest
    assert slow == "metis k=4 bal=train_mask" and "fastest: metis k=4 bal=train_mask" in (
        view.verdict.value
    )
    view.presets[2].click()  # 100 Gb/s: the network is cheap, random's even work wins
    assert view.fastest == "random k=4" != slow
    assert view.settings_plot.value[:4] == b"\x89PNG"


def test_choosing_a_setting_draws_its_trainers(counts):
    view = EpochCostView(counts, threaded=False)
    before = view.trainers_plot.value
    view.setting.value = "metis k=4"
    assert view.trainers_plot.value != before and "metis k=4: trainer" in view.verdict.value


def test_calibrate_replaces_gather_and_sampling_only(counts):
    view = EpochCostView(
        counts, TrainingSetup(model=ClusterModel(gather_gbyte_s=0.1234)), threaded=False
    )
    view.calibrate()
    assert view.model.gather_gbyte_s != 0.1234 and view.model.network_gbit_s == 10
    assert view.sliders["gather_gbyte_s"].value == pytest.approx(view.model.gather_gbyte_s)


def test_it_needs_counts():
    with pytest.raises(GraphpartError, match="EpochCostView needs"):
        EpochCostView({})


def test_a_model_set_past_a_sliders_range_widens_it(counts):
    """The sliders once showed clamped values (398 Gb/s for 1000) while the verdict used 1000."""
    view = EpochCostView(counts, threaded=False)
    view.model = ClusterModel(network_gbit_s=1000, rpc_latency_us=5000, pcie_gbyte_s=0.5)
    got = {k: view.sliders[k].value for k in ("network_gbit_s", "rpc_latency_us", "pcie_gbyte_s")}
    assert got == pytest.approx(
        {"network_gbit_s": 1000, "rpc_latency_us": 5000, "pcie_gbyte_s": 0.5}
    )
    assert "At 1000 Gb/s" in view.verdict.value


def test_settings_within_noise_are_a_tie_and_zero_epochs_do_not_divide(karate_counts):
    """Two equal estimates (here every epoch 0 s: no full batch with drop_last) read as a tie."""
    view = EpochCostView({"a": karate_counts, "b": karate_counts}, threaded=False)
    assert "a tie" in view.verdict.value and "x ahead" not in view.verdict.value


@pytest.fixture
def karate_counts():
    import graphpart as gp
    from graphpart.datasets import load_karate_club
    from graphpart.training import replay_epochs

    p = gp.partition(load_karate_club(), 2, seed=0)
    return replay_epochs(p, fanouts=[3], batch_size=100, drop_last=True, train=None)


def _swept():
    from graphpart.sweep import sweep
    from graphpart.training import TrainingSetup

    g = load_karate_club()
    setup = TrainingSetup(fanouts=(4, 3), batch_size=6, train=None, num_trainers_per_machine=2)
    settings = grid(part_method=["random", "metis"], num_parts=2)
    return sweep(g, settings, training=setup), setup


def test_hovering_a_trainer_bar_shows_what_that_trainer_reads_on_the_graph():
    results, setup = _swept()
    view = EpochCostView.from_sweep(results, setup, threaded=False)
    tg = view.trainer_graph
    chosen = view.estimates[view.setting.value]
    assert tg.bars.hovered == chosen.straggler  # the slowest trainer first
    tg.bars.hovered = 2  # what the browser sets when the mouse enters bar 2
    assert tg.view.title.endswith("what trainer 2 (machine 1) reads")
    p = results[[r.setting.label for r in results].index(view.setting.value)].partitioning
    reads = setup.trainer_reads(p, 2)
    seeds = {str(int(p.shuffle.new2old_nid[s])) for s in reads.seeds}
    drawn = {k for k, a in tg.view.data.nodes.items() if a["owner"] == "its seed"}
    assert drawn == seeds
    fetched = {
        k for k, a in tg.view.data.nodes.items() if a["owner"] == "fetched from another machine"
    }
    owner = p.node_part
    assert fetched and all(owner[int(k)] != 1 for k in fetched)


def test_a_model_change_keeps_the_trainer_pointed_at_and_its_graph():
    results, setup = _swept()
    view = EpochCostView.from_sweep(results, setup, threaded=False)
    view.trainer_graph.bars.hovered = 1
    sigma = view.trainer_graph.view.sigma
    view.model = view.model.with_(network_gbit_s=1.0)
    assert view.trainer_graph.bars.hovered == 1 and view.trainer_graph.view.sigma is sigma
    view.setting.value = [
        r.setting.label for r in results if r.setting.label != view.setting.value
    ][0]
    assert view.trainer_graph.view.title.endswith(
        f"trainer {view.estimates[view.setting.value].straggler} "
        f"(machine {view.estimates[view.setting.value].straggler // 2}) reads"
    )


def test_from_sweep_needs_priced_results():
    from graphpart.sweep import Setting, sweep

    with pytest.raises(GraphpartError, match="training=setup"):
        EpochCostView.from_sweep(sweep(load_karate_club(), [Setting(num_parts=2)]), None)


def test_a_setup_that_replays_other_counts_is_said_not_drawn():
    g = load_karate_club()
    p = gp_partition(g)
    counts = {"metis": replay_epochs(p, fanouts=[5], batch_size=8, train=None, seed=1)}
    setup = TrainingSetup(fanouts=(5,), batch_size=8, train=None, seed=0)  # another seed
    view = EpochCostView(counts, setup, partitionings={"metis": p}, threaded=False)
    tg = view.trainer_graph
    assert tg.view is None and "replays other counts" in tg.error
    assert "replays other counts" in tg.note.value
    same = EpochCostView(
        counts,
        partitionings={"metis": p},
        setup=TrainingSetup(fanouts=(5,), batch_size=8, train=None, seed=1),
        threaded=False,
    )
    assert same.trainer_graph.error is None and same.trainer_graph.view is not None


def gp_partition(g):
    import graphpart as gp

    return gp.partition(g, 2, seed=0)


def test_from_sweep_prices_each_setting_as_the_sweep_did():
    from graphpart.sweep import grid, sweep

    setup = TrainingSetup(fanouts=(4,), batch_size=6, train=None, model=ClusterModel(1))
    results = sweep(
        load_karate_club(), grid(part_method=["random", "metis"], num_parts=2), training=setup
    )
    view = EpochCostView.from_sweep(results, setup, threaded=False)
    assert view.model == setup.model
    for r in results:
        assert view.estimates[r.setting.label].epoch_s == pytest.approx(r.epoch_s)

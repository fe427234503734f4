"""Every widget checks its arguments: a one-line GraphpartError naming what it got, never an
AttributeError or TypeError from inside ipywidgets or ipysigma, and nothing silently misread."""

from __future__ import annotations

import pytest

pytest.importorskip("ipysigma")

import graphpart as gp  # noqa: E402
from graphpart.datasets import load_karate_club  # noqa: E402
from graphpart.errors import GraphpartError  # noqa: E402
from graphpart.training import ClusterModel, TrainingSetup, replay_epochs  # noqa: E402
from graphpart.widgets import (  # noqa: E402
    BalancePlayground,
    EpochCostView,
    IdView,
    PartitionExplorer,
    PartitionGraph,
    PartitionViews,
)


@pytest.fixture(scope="module")
def karate():
    return gp.partition(load_karate_club(), 2, num_hops=1, seed=0)


@pytest.fixture(scope="module")
def config(karate, tmp_path_factory):
    out = tmp_path_factory.mktemp("parts")
    gp.partition_graph(load_karate_club(), "karate", 2, out, num_hops=1)
    return out / "karate.json"


@pytest.mark.parametrize("widget", [PartitionGraph, PartitionViews, IdView])
def test_views_open_partitions_on_disk_by_their_config(widget, config, karate):
    view = widget(config)
    shown = view.data if widget is IdView else view.p  # IdView keeps only what it draws
    assert shown.num_parts == 2
    assert (view.data.num_nodes if widget is IdView else view.p.graph.num_nodes()) == 34


def test_a_view_given_a_partition_folder_opens_its_config(config):
    assert PartitionGraph(config.parent).p.num_parts == 2


BAD = [
    (PartitionGraph, {"node": "abc"}, "node must be an original homogeneous id.*got 'abc'"),
    (PartitionGraph, {"node": 34}, r"in \[0, 34\), got 34"),
    (PartitionGraph, {"node": 1.0}, "got 1.0"),
    (PartitionGraph, {"height": 100}, "height must be an integer >= 250, got 100"),
    (PartitionGraph, {"height": "tall"}, "height must be an integer"),
    (PartitionGraph, {"part": 0, "hops": -3}, "hops must be a non-negative integer, got -3"),
    (PartitionGraph, {"part": 0, "hops": 2}, "HALO copies up to num_hops=1; got 2"),
    (PartitionGraph, {"selected": ["0"]}, "selected must be a node key"),
    (PartitionViews, {"parts": 1}, r"parts must be partition ids, ints in \[0, 2\), got 1"),
    (PartitionViews, {"parts": [0.5]}, "got \\[0.5\\]"),
    (PartitionViews, {"parts": [True]}, "got \\[True\\]"),
    (PartitionViews, {"parts": [0, 0]}, "got \\[0, 0\\]"),
    (PartitionViews, {"parts": []}, "names no partition"),
    (PartitionViews, {"hops": -3}, "hops must be a non-negative integer"),
    (PartitionViews, {"height": 100}, "height must be an integer >= 250"),
    (IdView, {"height": 10}, "height must be an integer >= 120"),
    (IdView, {"max_points": -1}, "max_points must be an integer >= 1"),
]


@pytest.mark.parametrize("widget, kwargs, match", BAD, ids=[f"{w.__name__}-{k}" for w, k, _ in BAD])
def test_a_bad_argument_is_refused_in_one_line(widget, kwargs, match, karate):
    with pytest.raises(GraphpartError, match=match) as e:
        widget(karate, **kwargs)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("widget", [PartitionGraph, PartitionViews, IdView])
def test_a_view_refuses_what_is_not_partitions(widget):
    with pytest.raises(GraphpartError, match="expected a Partitioning"):
        widget(load_karate_club())


def test_selecting_a_non_key_from_python_is_refused(karate):
    view = PartitionGraph(karate)
    with pytest.raises(GraphpartError, match="key must be a node key"):
        view.selected = 5
    with pytest.raises(GraphpartError, match="key must be a node key"):
        PartitionViews(karate).select(5)


GRAPH_BAD = [
    ({"num_parts": 0}, "num_parts must be an integer >= 1, got 0"),
    ({"num_parts": 1000}, "num_parts must be at most 256"),
    ({"part_method": "kmeans"}, "part_method must be 'metis', 'random' or an assignment"),
    ({"part_method": [0, 1] * 17}, r"part_method must be one of \['metis', 'random'\]"),
    ({"balance_ntypes": "label_mask"}, "balance_ntypes must be one of"),
    ({"balance_edges": 1}, "balance_edges must be"),
    ({"num_hop": 2}, "did you mean num_hops"),
    ({"num_hops": 5}, "num_hops must be at most 3"),
    ({"seed": -1}, "seed must be a non-negative int, got -1"),
]


@pytest.mark.parametrize("kwargs, match", GRAPH_BAD)
def test_the_explorer_checks_each_setting(kwargs, match):
    with pytest.raises(GraphpartError, match=match):
        PartitionExplorer(load_karate_club(), threaded=False, **kwargs)


@pytest.mark.parametrize("widget", [PartitionExplorer, BalancePlayground])
def test_graph_widgets_refuse_what_is_not_a_graph(widget, config):
    with pytest.raises(GraphpartError, match="graph must be a graphpart.Graph, got PosixPath"):
        widget(config, threaded=False)


def test_the_playground_checks_its_settings():
    with pytest.raises(GraphpartError, match="num_parts must be an integer >= 1"):
        BalancePlayground(load_karate_club(), num_parts=0, threaded=False)
    with pytest.raises(GraphpartError, match="training must be a .*TrainingSetup or None"):
        BalancePlayground(load_karate_club(), training="fast", threaded=False)


@pytest.fixture(scope="module")
def counts(karate):
    return {"metis": replay_epochs(karate, fanouts=[5], train=None, seed=0)}


def test_epoch_cost_view_refuses_a_setup_that_is_not_one(counts):
    with pytest.raises(GraphpartError, match="setup must be a graphpart.training.TrainingSetup"):
        EpochCostView(counts, "x", threaded=False)


@pytest.mark.parametrize("counts_", [[1, 2], "x", None])
def test_epoch_cost_view_refuses_what_is_not_counts(counts_):
    with pytest.raises(GraphpartError, match="EpochCostView needs"):
        EpochCostView(counts_, threaded=False)


def test_a_model_given_past_the_sliders_range_widens_them(counts):
    """Sliders clamped a model given to the constructor while the estimate used the real one."""
    model = ClusterModel(network_gbit_s=1000, rpc_latency_us=5000, pcie_gbyte_s=0.5)
    view = EpochCostView(counts, TrainingSetup(model=model), threaded=False)
    got = {k: view.sliders[k].value for k in ("network_gbit_s", "rpc_latency_us", "pcie_gbyte_s")}
    assert got == pytest.approx(
        {"network_gbit_s": 1000, "rpc_latency_us": 5000, "pcie_gbyte_s": 0.5}
    )
    assert view.model == model


MORE = [
    (PartitionViews, {"selected": "zzz"}, "'zzz' is not a node these views draw"),
    (PartitionGraph, {"sync_key": 5}, "sync_key must be a str or None, got int"),
    (PartitionGraph, {"table": "x"}, "table must be a NodeTable or None, got str"),
    (PartitionGraph, {"data": "x"}, "data must be a GraphData or None"),
    (PartitionGraph, {"others": "x"}, "others must be a dict or None"),
]


@pytest.mark.parametrize("widget, kwargs, match", MORE, ids=[str(k) for _, k, _ in MORE])
def test_advanced_arguments_are_checked_too(widget, kwargs, match, karate):
    with pytest.raises(GraphpartError, match=match):
        widget(karate, **kwargs)


def test_epoch_cost_view_needs_text_labels(counts):
    with pytest.raises(GraphpartError, match="str label"):
        EpochCostView({1: counts["metis"]}, threaded=False)


def test_a_comparison_checks_labels_and_figure(karate):
    from graphpart.widgets import PartitioningComparison

    with pytest.raises(GraphpartError, match="labels must be non-empty strings"):
        PartitioningComparison({1: karate, 2: karate})
    with pytest.raises(GraphpartError, match="figure must be one of"):
        PartitioningComparison({"a": karate, "b": karate}, figure="x")


CACHE_BAD = [
    ({"source": 5}, "expected a Partitioning"),
    ({"cache_ratio": 0.9}, r"cache_ratio must be a share of the rows in \[0, 0.5\], got 0.9"),
    ({"cache_ratio": "a"}, "cache_ratio must be"),
    ({"batch_size": 0}, "batch_size must be an integer >= 1"),
    ({"batch_size": 2**22}, "batch_size must be at most 1048576"),
    ({"fanouts": 5}, "fanouts must be text such as '10,5'"),
    ({"seeds": "a"}, "seeds must be a bool mask or node ids"),
    ({"seeds": [0, 99]}, r"seed ids must lie in \[0, 34\)"),
    ({"policies": ["lru", 5]}, "policies must be one or more of"),
]


@pytest.mark.parametrize("kwargs, match", CACHE_BAD, ids=[str(k) for k, _ in CACHE_BAD])
def test_the_cache_simulator_checks_each_argument(kwargs, match, karate):
    from graphpart.widgets import CacheSimulator

    kwargs = {"source": karate, **kwargs}
    with pytest.raises(GraphpartError, match=match):
        CacheSimulator(kwargs.pop("source"), **kwargs)


def test_the_cache_simulator_refuses_a_shared_nested_list_at_once(karate):
    import time

    from graphpart.widgets import CacheSimulator

    x: list = [1]
    for _ in range(30):
        x = [x] * 4
    t0 = time.perf_counter()
    for kw in ({"seeds": x}, {"policies": x}):
        with pytest.raises(GraphpartError):
            CacheSimulator(karate, **kw)
    assert time.perf_counter() - t0 < 2

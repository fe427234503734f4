"""Issue 61, hostile and careless arguments to the widgets and the teaching views: each is
refused by one GraphpartError in one line, saying what it got, never an IndexError,
AttributeError, TraitError or TypeError from inside, in bounded time and memory; nothing is
silently misread (a NaN tolerance, a None batch taken for a trace's end)."""

from __future__ import annotations

import time
import tracemalloc

import ipywidgets as w
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import graphpart as gp
from graphpart.errors import GraphpartError
from graphpart.features import DeviceGroup, FeatureBox
from graphpart.features.box import LinkModel
from graphpart.partitioning import fennel_steps, multilevel_steps
from graphpart.widgets import BigGraphView, BoxView, Exercise, MultilevelView, StreamingSteps
from graphpart.widgets._tabs import Tabs

#: Two triangles joined by one edge: small enough to draw in a fraction of a second.
GRAPH = gp.Graph.from_edges([0, 1, 2, 3, 4, 5, 2], [1, 2, 0, 4, 5, 3, 3], num_nodes=6)


def _box():
    return FeatureBox(8, 0.5, [DeviceGroup(0, [0, 1])])


def refused(call, match: str | None = None) -> GraphpartError:
    """The GraphpartError ``call()`` raises, checked to be one printable line."""
    with pytest.raises(GraphpartError, match=match) as e:
        call()
    assert "\n" not in str(e.value) and str(e.value).isprintable()
    return e.value


# -- each fault the audit found, pinned (each test fails with its fault planted back) ----------


@pytest.mark.parametrize(
    "pages, titles, match",
    [
        ([1, 2], ["a", "b"], r"pages must be a list .* got \[1, 2\]"),
        (5, ["a"], "pages must be a list"),
        ("ab", ["a", "b"], "pages must be a list"),
        ([w.HTML(), w.HTML()], "ab", "titles must be a list of 2 distinct strings"),
        ([w.HTML(), w.HTML()], ["a", 1], "titles must be"),
        ([w.HTML(), w.HTML()], ["a", "a"], "titles must be"),
        ([], [], "pages must be a list"),
    ],
)
def test_tabs_refuse_what_is_not_pages_and_titles(pages, titles, match):
    refused(lambda: Tabs(pages, titles), match)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"tolerance": "x"}, "tolerance must be a finite number >= 0, got 'x'"),
        ({"tolerance": float("nan")}, "tolerance must be a finite number >= 0, got nan"),
        ({"tolerance": -0.1}, "tolerance must be a finite number >= 0"),
        ({"tolerance": 5e-324}, "tolerance must be a finite number >= 0, got 5e-324"),
        ({"tolerance": float("inf")}, "tolerance must be"),
        ({"answer": float("nan")}, "answer must be a number .* got nan"),
        ({"answer": float("inf")}, "answer must be a number"),
        ({"answer": -5e-324}, "answer must be a number"),
        ({"answer": True}, "answer must be a number"),
        ({"answer": None}, "answer must be a number"),
        ({"holds": "yes"}, "holds must be True or False"),
        ({"question": 5}, "question must be a str"),
        ({"choices": "abc"}, "choices must be a list"),
        ({"choices": []}, "choices must be a list of 1 to"),
    ],
)
def test_an_exercise_refuses_numbers_that_are_not_and_careless_text(kwargs, match):
    kwargs = {"question": "How many?", "answer": 4, **kwargs}
    refused(lambda: Exercise(kwargs.pop("question"), kwargs.pop("answer"), **kwargs), match)


def test_an_exercise_keeps_a_negative_answer_and_a_whole_one_whole():
    ex = Exercise("Change?", -3, tolerance=0)
    ex.guess.value = "-3"
    ex.reveal()
    assert ex.verdict == "right" and "Answer: -3." in ex.output.value
    assert Exercise("Share?", np.float64(0.5)).answer == 0.5


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"imbalance": float("nan")}, "imbalance must be a finite number >= 0, got nan"),
        ({"imbalance": -1}, "imbalance must be a finite number >= 0"),
        ({"imbalance": 5e-324}, "imbalance must be"),
        ({"coarsest": "x"}, "coarsest must be an integer >= 1, got 'x'"),
        ({"coarsest": -1}, "coarsest must be an integer >= 1"),
        ({"coarsest": 1.5}, "coarsest must be an integer >= 1"),
        ({"coarsets": 4}, "did you mean coarsest"),
    ],
)
def test_the_multilevel_view_checks_its_numbers(kwargs, match):
    refused(lambda: MultilevelView(GRAPH, 2, **kwargs), match)


def test_the_multilevel_steps_check_them_where_they_are_used():
    refused(lambda: multilevel_steps(GRAPH, 2, imbalance=float("nan")), "imbalance")
    refused(lambda: multilevel_steps(GRAPH, 2, coarsest=0), "coarsest")


@pytest.mark.parametrize("rate", [5e-324, -1.0, float("inf"), float("nan"), True])
def test_a_link_model_refuses_a_rate_that_makes_times_infinite(rate):
    refused(lambda: LinkModel(host_gbyte_s=rate), "LinkModel.host_gbyte_s must be a finite")


def test_a_big_graph_view_given_a_graph_says_what_it_takes():
    refused(lambda: BigGraphView(GRAPH), "expected a Partitioning .* got Graph")
    refused(lambda: BigGraphView(gp.partition(GRAPH, 2, seed=0), height="tall"), "height")


@pytest.mark.parametrize("view", [StreamingSteps, MultilevelView])
def test_a_step_view_of_an_empty_graph_is_refused(view):
    refused(lambda: view(gp.Graph.from_edges([], [], num_nodes=0)), "the graph has no nodes")


@pytest.mark.parametrize("view", [StreamingSteps, MultilevelView])
def test_a_part_count_past_the_node_count_is_refused_before_any_allocation(view):
    tracemalloc.start()
    try:
        refused(lambda: view(GRAPH, 10**9), "num_parts must be at most the graph's 6 nodes")
        assert tracemalloc.get_traced_memory()[1] < 50 * 2**20
    finally:
        tracemalloc.stop()
    refused(lambda: fennel_steps(GRAPH, 7), "num_parts must be at most")
    refused(lambda: view(GRAPH, 2.0), "num_parts must be")
    refused(lambda: view("karate.npz"), "graph must be a graphpart.Graph")


def test_a_streaming_view_checks_the_names_and_order_of_its_options():
    refused(lambda: StreamingSteps(GRAPH, 2, gama=2), "did you mean gamma")
    refused(lambda: StreamingSteps(GRAPH, 2, order=[None] * 6), "order must be a permutation")
    refused(lambda: StreamingSteps(GRAPH, 2, order="abcdef"), "order must be a permutation")
    refused(lambda: StreamingSteps(GRAPH, 2, gamma=5e-324), "gamma must be a finite number")
    # each would overflow a float: n ** gamma, (1 + slack) * n, alpha * load ** (gamma - 1)
    refused(lambda: StreamingSteps(GRAPH, 2, gamma=397), "gamma must be above 1 and at most 10")
    refused(
        lambda: StreamingSteps(GRAPH, 2, slack=1e308), "slack must (be at most 100|lie between)"
    )
    refused(lambda: StreamingSteps(GRAPH, 2, alpha=1e308), "alpha must (be at most 1e|lie between)")


def test_a_none_batch_is_refused_not_taken_for_the_end_of_its_trace():
    view = BoxView(_box(), {0: [[0, 1], None, [2]]})
    view.step()
    refused(view.step, "batch 1 of GPU 0's trace is None")
    assert not view.done


def test_a_box_view_refuses_what_is_not_a_box_or_traces():
    refused(lambda: BoxView("box", {0: [[0]]}), "box must be a FeatureBox")
    refused(lambda: BoxView(_box(), [[0]]), "traces must map each GPU")
    refused(lambda: BoxView(_box(), {0: 5}), "the trace of GPU 0 must be")


# -- fuzz: any argument replaced by a hostile value --------------------------------------------

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, 1, 2, 3, 6, 7, 10**9, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([5e-324, -5e-324, 1e-310, float("nan"), float("-inf"), 1e308, 0.5]),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.lists(st.integers(-3, 8), max_size=7),
    st.lists(st.text(max_size=3), max_size=4),
    st.dictionaries(st.integers(-1, 3), st.lists(st.integers(0, 9), max_size=3), max_size=3),
    st.sampled_from([object(), GRAPH, w.HTML(), np.arange(6), np.zeros((2, 2)), [None] * 6]),
)


def _make(name: str, args: dict):
    kinds = {
        "Tabs": lambda a: Tabs(a["pages"], a["titles"]),
        "Exercise": lambda a: Exercise(a["question"], a["answer"], **a["kw"]),
        "StreamingSteps": lambda a: StreamingSteps(a["graph"], a["num_parts"], **a["kw"]),
        "MultilevelView": lambda a: MultilevelView(a["graph"], a["num_parts"], **a["kw"]),
        "BigGraphView": lambda a: BigGraphView(a["p"], **a["kw"]),
        "BoxView": lambda a: BoxView(a["box"], a["traces"]).step(3),
        "LinkModel": lambda a: LinkModel(**a["kw"]),
    }
    return kinds[name](args)


def _valid(name: str) -> dict:
    return {
        "Tabs": {"pages": [w.HTML(), w.HTML()], "titles": ["a", "b"]},
        "Exercise": {"question": "q", "answer": 4, "kw": {}},
        "StreamingSteps": {"graph": GRAPH, "num_parts": 2, "kw": {}},
        "MultilevelView": {"graph": GRAPH, "num_parts": 2, "kw": {}},
        "BigGraphView": {"p": PARTS, "kw": {}},
        "BoxView": {"box": _box(), "traces": {0: [[0, 1], [2]], 1: [[3]]}},
        "LinkModel": {"kw": {}},
    }[name]


#: Each widget's arguments a fuzz case may replace: positional ones, then keywords.
SLOTS = {
    "Tabs": ["pages", "titles"],
    "Exercise": ["question", "answer", "explain", "choices", "also_right", "tolerance", "unit"]
    + ["holds"],
    "StreamingSteps": ["graph", "num_parts", "order", "gamma", "alpha", "slack"],
    "MultilevelView": ["graph", "num_parts", "coarsest", "imbalance", "seed"],
    "BigGraphView": ["p", "height"],
    "BoxView": ["box", "traces", "gpu trace", "batch"],
    "LinkModel": ["own_gbyte_s", "peer_gbyte_s", "host_gbyte_s", "latency_us"],
}
PARTS = gp.partition(GRAPH, 2, seed=0)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    case=st.sampled_from([(name, slot) for name, slots in SLOTS.items() for slot in slots]),
    value=HOSTILE,
    also=st.one_of(st.none(), HOSTILE),
)
def test_any_hostile_argument_gives_a_graphpart_error_or_a_view(case, value, also):
    name, slot = case
    args = _valid(name)
    if slot in args:
        args[slot] = value
    elif slot == "gpu trace":
        args["traces"] = {0: value}
    elif slot == "batch":
        args["traces"] = {0: [[0], value, also]}
    else:
        args["kw"][slot] = value
    if also is not None and name == "Exercise" and slot != "choices":
        args["kw"]["choices"] = also  # two careless arguments at once
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        _make(name, args)
    except GraphpartError as e:
        assert "\n" not in str(e) and str(e).isprintable(), str(e)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert time.perf_counter() - t0 < 10, (name, slot)
    assert peak < 200 * 2**20, (name, slot, peak)

"""jupyter-scatter's JavaScript reaches the page once per kernel, not once per IdView plot."""

from __future__ import annotations

import json

import anywidget
import pytest

import graphpart as gp
from graphpart.datasets import load_davis_southern_women
from graphpart.widgets import IdView
from graphpart.widgets.shared_code import SharedCode, shared_code

jscatter_widget = pytest.importorskip("jscatter.widget")


@pytest.fixture(scope="module")
def davis():
    return gp.partition(load_davis_southern_women(), 2, num_hops=1, seed=0)


def _holders() -> list[SharedCode]:
    from ipywidgets.widgets.widget import _instances  # every open widget of this kernel

    return [x for x in _instances.values() if isinstance(x, SharedCode)]


def test_id_views_plots_share_one_copy_of_the_scatter_code(davis):
    code = str(jscatter_widget.JupyterScatter._esm)
    views = [IdView(davis), IdView(davis)]
    plots = [s.widget for v in views for s in (v.nodes_before, v.edges_after)]
    assert all(len(p._esm) < 1000 for p in plots)  # a few lines each, not 2.1 MB
    keys = {x.key for x in _holders() if x.code == code}
    assert len(keys) == 1  # both views, one holder of the code in this kernel
    assert str(jscatter_widget.JupyterScatter._esm) == code  # the class is left as it was


def test_an_id_views_state_is_small_enough_to_restore_quickly(davis):
    view = IdView(davis)

    def size(x) -> int:  # what a reloading page is sent for widget x
        return len(json.dumps(x.get_state(), default=str))

    plots = [view.nodes_before, view.nodes_after, view.edges_before, view.edges_after]
    total = sum(size(s.widget) for s in plots)
    assert total < 1_000_000, total  # was 8.5 MB: four copies of the 2.1 MB bundle
    # nor does the code's holder carry it in its state: the page asks for it by message
    assert all(size(x) < 10_000 for x in _holders())


def test_the_class_keeps_its_code_when_the_block_raises():
    class Big(anywidget.AnyWidget):
        _esm = "export default { render({ el }) { el.textContent = 'hi'; } };"

    with pytest.raises(RuntimeError), shared_code(Big):
        raise RuntimeError("boom")
    assert "textContent" in Big()._esm


def test_a_closed_holder_is_made_again():
    class Big(anywidget.AnyWidget):
        _esm = "export default { render({ el }) { el.textContent = 'again'; } };"

    with shared_code(Big):
        Big()
    (first,) = [x for x in _holders() if "'again'" in x.code]
    first.close()
    with shared_code(Big):
        Big()
    (second,) = [x for x in _holders() if "'again'" in x.code]
    assert second is not first and second.comm is not None


def test_a_big_views_state_holds_neither_its_arrays_nor_cosmos_code():
    """BigGraphView's arrays go by message to the view that asks, and cosmos.gl's code once per
    kernel: what a reloading page is sent for it stays small whatever the graph's size."""
    from graphpart.datasets import sbm
    from graphpart.widgets import BigGraphView

    view = BigGraphView(gp.partition(sbm([500] * 4, 0.02, 0.001, seed=0), 4, seed=0))
    state, sent = view.get_state(), []
    assert not {"positions", "links", "colors"} & set(state)
    assert len(json.dumps(state, default=str)) < 10_000
    view.send = lambda content, buffers: sent.append((content, buffers))
    view._send_arrays(view, {"want": "arrays"}, [])
    (content, [buffer]), n = sent[0], 2000
    spans = dict(zip(content["arrays"], content["spans"]))
    assert spans["positions"][1] == 8 * n and spans["owner"][1] == n
    assert all(start % 4 == 0 for start, _ in spans.values())  # typed arrays start aligned
    start, size = spans["owner"]
    assert buffer[start : start + size] == view.owner

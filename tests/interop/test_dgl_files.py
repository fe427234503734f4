"""DGL's binary files (save_graphs v2, save_tensors): read what real DGL 2.1 wrote, write what it
reads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpart import Graph
from graphpart.interop import load_graphs, load_tensors, save_graphs, save_tensors

from ..helpers import assert_same_graph
from ..strategies import typed_graphs
from .fixture_graphs import GRAPHS
from .peers import FIXTURES


def _as_dgl_stores(g: Graph) -> Graph:
    """``g`` with bool data as uint8: what DGL stores and gives back."""

    def cast(d):
        return {k: v.to(torch.uint8) if v.dtype == torch.bool else v for k, v in d.items()}

    return Graph.from_typed_edges(
        {e: g.edges(e) for e in g.canonical_etypes},
        num_nodes={t: g.num_nodes(t) for t in g.ntypes},
        ndata={t: cast(dict(g.node_data(t).items())) for t in g.ntypes},
        edata={e: cast(dict(g.edge_data(e).items())) for e in g.canonical_etypes},
    )


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_reads_the_graph_dgl_saved(name):
    graphs, labels = load_graphs(FIXTURES / name / "graph.dgl")
    assert len(graphs) == 1
    assert_same_graph(graphs[0], _as_dgl_stores(GRAPHS[name]()))
    assert labels["glabel"].tolist() == [1, 2]


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_reads_the_tensors_dgl_saved(name):
    t = load_tensors(FIXTURES / name / "tensors.dgl")
    assert torch.equal(t["extra/bf16"], torch.arange(4, dtype=torch.bfloat16))
    assert t["extra/empty"].shape == (0, 3) and t["extra/empty"].dtype == torch.float64
    if name == "karate":
        g = GRAPHS[name]()
        assert torch.equal(t["feat"], g.ndata["feat"])
        assert torch.equal(t["train_mask"], g.ndata["train_mask"].to(torch.uint8))


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_written_graph_file_is_byte_identical_to_dgls_past_the_header(name, tmp_path):
    # Same graph, same labels: every byte DGL initialises matches (DGL's header padding is garbage).
    # DGL writes data dicts in hash order, so compare after re-saving in DGL's order.
    graphs, labels = load_graphs(FIXTURES / name / "graph.dgl")
    save_graphs(tmp_path / "g.dgl", graphs, labels)
    ours, theirs = (tmp_path / "g.dgl").read_bytes(), (FIXTURES / name / "graph.dgl").read_bytes()
    assert ours[:32] == theirs[:32] and ours[4096:] == theirs[4096:]


def test_tensor_file_is_byte_identical_to_dgls(tmp_path):
    t = load_tensors(FIXTURES / "karate" / "tensors.dgl")
    save_tensors(tmp_path / "t.dgl", t)
    assert (tmp_path / "t.dgl").read_bytes() == (FIXTURES / "karate" / "tensors.dgl").read_bytes()


def mapped_file(t: torch.Tensor) -> str | None:
    """The file whose mapping holds ``t``'s data (Linux /proc/self/maps), or None."""
    ptr = t.data_ptr()
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split()
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            if lo <= ptr < hi:
                return parts[5] if len(parts) > 5 else None
    return None


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux /proc/self/maps")
def test_reading_maps_the_file_instead_of_copying(tmp_path):
    big = torch.arange(1 << 20, dtype=torch.int64).reshape(-1, 8)
    save_tensors(tmp_path / "t.dgl", {"x": big})
    x = load_tensors(tmp_path / "t.dgl")["x"]
    assert torch.equal(x, big)
    assert mapped_file(x) == str(tmp_path / "t.dgl")
    save_graphs(tmp_path / "g.dgl", [Graph.from_edges([0], [1], ndata={"f": torch.ones(2, 1000)})])
    (g,), _ = load_graphs(tmp_path / "g.dgl")
    assert mapped_file(g.ndata["f"]) == str(tmp_path / "g.dgl")


@pytest.mark.parametrize("formats", [("coo",), ("csr",), ("csc",), ("coo", "csr", "csc")])
@settings(max_examples=25, deadline=None)
@given(g=typed_graphs())
def test_round_trip_in_every_sparse_format(tmp_path_factory, formats, g):
    path = tmp_path_factory.mktemp("g") / "g.dgl"
    save_graphs(path, [g], formats=formats)
    (back,), labels = load_graphs(path)
    assert labels == {}
    assert_same_graph(back, _as_dgl_stores(g))


@settings(max_examples=25, deadline=None)
@given(
    st.dictionaries(
        st.text(min_size=1, max_size=8),
        st.sampled_from(
            [
                torch.int8,
                torch.int16,
                torch.int32,
                torch.int64,
                torch.uint8,
                torch.float16,
                torch.bfloat16,
                torch.float32,
                torch.float64,
                torch.bool,
            ]
        ),
        max_size=6,
    ),
    st.lists(st.integers(0, 5), min_size=0, max_size=3),
)
def test_tensor_round_trip_every_dtype(tmp_path_factory, dtypes, shape):
    data = {
        k: (torch.arange(int(np.prod(shape))) % 3).reshape(shape).to(dt) for k, dt in dtypes.items()
    }
    path = tmp_path_factory.mktemp("t") / "t.dgl"
    save_tensors(path, data)
    back = load_tensors(path)
    assert list(back) == list(data)
    for k, v in data.items():
        expect = v.to(torch.uint8) if v.dtype == torch.bool else v
        assert back[k].dtype == expect.dtype and torch.equal(back[k], expect)


def test_several_graphs_and_the_trailer(tmp_path):
    gs = [GRAPHS["karate"](), GRAPHS["hetero3"]()]
    save_graphs(tmp_path / "g.dgl", gs)
    back, _ = load_graphs(tmp_path / "g.dgl")
    for a, b in zip(back, gs):
        assert_same_graph(a, _as_dgl_stores(b))
    raw = (tmp_path / "g.dgl").read_bytes()
    size = int.from_bytes(raw[-8:], "little")
    assert size == 8 * 3 and int.from_bytes(raw[-8 - size : -size], "little") == 2

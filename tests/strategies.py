"""Hypothesis strategies for random typed graphs (including empty types and one-node types)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from graphpart import Graph


@st.composite
def typed_graphs(
    draw,
    max_types: int = 4,
    max_nodes: int = 6,
    max_edges: int = 12,
    min_relations: int = 0,
    max_relations: int = 5,
) -> Graph:
    """A heterogeneous graph; node counts may be 0 or 1, edge types may be empty.

    ``max_types=1, min_relations=1, max_relations=1`` draws a homogeneous graph.
    """
    k = draw(st.integers(1, max_types))
    ntypes = [f"t{i}" for i in range(k)]
    counts = {t: draw(st.integers(0, max_nodes)) for t in ntypes}
    rels = draw(
        st.lists(
            st.tuples(
                st.sampled_from(ntypes), st.sampled_from(["r", "s"]), st.sampled_from(ntypes)
            ),
            unique=True,
            min_size=min_relations,
            max_size=max_relations,
        )
    )
    edges, edata = {}, {}
    for s, r, d in rels:
        m = draw(st.integers(0, max_edges)) if counts[s] and counts[d] else 0
        src = np.array(
            draw(st.lists(st.integers(0, max(counts[s] - 1, 0)), min_size=m, max_size=m)),
            dtype=np.int64,
        )
        dst = np.array(
            draw(st.lists(st.integers(0, max(counts[d] - 1, 0)), min_size=m, max_size=m)),
            dtype=np.int64,
        )
        edges[(s, r, d)] = (src, dst)
        edata[(s, r, d)] = {"w": np.arange(m, dtype=np.float32)}
    ndata = {
        t: {"x": np.arange(counts[t] * 2, dtype=np.float32).reshape(counts[t], 2)} for t in ntypes
    }
    return Graph.from_typed_edges(edges, num_nodes=counts, ndata=ndata, edata=edata)

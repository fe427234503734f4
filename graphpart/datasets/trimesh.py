"""A generated 2-D triangle mesh: the kind of graph METIS was built for, always available."""

from __future__ import annotations

import numpy as np
import torch

from ..graph.core import Graph
from ..typing import Seed
from ..utils.check import check_count
from ..utils.seeds import check_random_state

__all__ = ["triangle_mesh"]


def triangle_mesh(rows: int, cols: int, *, jitter: float = 0.25, seed: Seed = 0) -> Graph:
    """A ``rows x cols`` grid of points, each square cut into two triangles along the same
    diagonal, as a structured finite-element mesh is: every inner node has 6 neighbours.

    Edges are stored in both directions (the mesh is undirected). Node data ``pos`` holds each
    point's ``(x, y)`` (grid coordinates moved by up to ``jitter`` of a cell), so drawings use the
    mesh's own geometry.

    Parameters
    ----------
    rows, cols : int
        The grid's numbers of rows and columns of points, each at least 1.
    jitter : float, default 0.25
        Each coordinate moves by a uniform amount in ``[-jitter, jitter)`` cells.
    seed : int, numpy.random.Generator or None, default 0
        Draws the jitter; the default gives the same mesh every call.

    Returns
    -------
    Graph
        ``rows * cols`` nodes, numbered row by row, and both directions of every grid edge and
        of one diagonal per square; ``ndata["pos"]`` is float32 ``(x, y)`` with ``x`` the
        column and ``y`` minus the row.

    Raises
    ------
    GraphpartError
        ``rows`` or ``cols`` is not an int of at least 1.

    Examples
    --------
    >>> g = triangle_mesh(3, 4)
    >>> g.num_nodes(), g.num_edges() // 2  # 17 grid edges + 6 diagonals
    (12, 23)
    >>> int(g.in_degrees().max()), tuple(g.ndata["pos"].shape)
    (6, (12, 2))
    """
    rows, cols = check_count(rows, "rows", low=1), check_count(cols, "cols", low=1)
    ids = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    pairs = [
        (ids[:, :-1].ravel(), ids[:, 1:].ravel()),  # along rows
        (ids[:-1, :].ravel(), ids[1:, :].ravel()),  # along columns
    ]
    pairs.append((ids[:-1, :-1].ravel(), ids[1:, 1:].ravel()))  # one diagonal per square
    src = np.concatenate([p[0] for p in pairs])
    dst = np.concatenate([p[1] for p in pairs])
    rng = check_random_state(seed)
    r, c = np.divmod(np.arange(rows * cols), cols)
    pos = np.stack([c, -r], axis=1).astype(np.float64)
    pos += rng.uniform(-jitter, jitter, size=pos.shape)
    return Graph.from_edges(
        torch.from_numpy(np.concatenate([src, dst])),
        torch.from_numpy(np.concatenate([dst, src])),
        num_nodes=rows * cols,
        ndata={"pos": torch.from_numpy(pos).float()},
    )

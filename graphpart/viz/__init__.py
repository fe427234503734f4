"""Matplotlib figures of partitions: each takes ``ax=`` and returns the axes it drew on.

=========================  =====================================================
``draw_partition``         nodes by partition, cut edges, HALO; quotient graph when large
``plot_balance``           per-partition load of every balanced quantity vs the mean
``plot_cut_matrix``        partition x partition heatmap of cut edges
``plot_halo_growth``       inner vs HALO nodes per partition as hops grow
``plot_tradeoff``          edge cut vs imbalance across a sweep of settings
=========================  =====================================================
"""

from __future__ import annotations

from ._style import part_colors, to_png
from .balance import plot_balance
from .cuts import plot_cut_matrix, plot_halo_growth
from .drawing import DRAW_MODES, draw_partition
from .layout import node_positions, sample_neighbourhood
from .tradeoff import plot_tradeoff

__all__ = ["draw_partition", "plot_balance", "plot_cut_matrix", "plot_halo_growth", "plot_tradeoff",
           "node_positions", "sample_neighbourhood", "part_colors", "to_png", "DRAW_MODES"]

"""Matplotlib figures of partitions: each takes ``ax=`` and returns the axes it drew on.

=========================  =====================================================
``draw_partition``         nodes by partition, cut edges, HALO; quotient graph when large
``plot_balance``           per-partition load of every balanced quantity vs the mean
``plot_cut_matrix``        partition x partition heatmap of cut edges
``plot_halo_growth``       inner vs HALO nodes per partition as hops grow
``plot_tradeoff``          edge cut vs imbalance across a sweep of settings
``plot_hit_rate_trace``    feature-cache hit rate batch after batch (per batch and running)
``plot_hit_rate_curve``    hit rate vs cache ratio for every policy, with the oracles
``plot_bytes_per_epoch``   host-to-GPU bytes per epoch for each policy
``plot_partition_access``  each trainer's lookups: local / remote cache / fetched (by a rule)
``plot_box``               a box of GPUs: each GPU's reads from its shard, its peers, the host
``plot_id_line``           the homogeneous id line before and after the reshuffle
``plot_adjacency``         the adjacency in original ids and in new ids (partition blocks)
``plot_ids``               both in one figure (the id line above, the adjacency below)
``plot_pipeline``          the chunked pipeline: chunks -> assign -> dispatch -> partitions
=========================  =====================================================

Its modules, one idea each:

- ``_style``: the figures' shared look: axes, PNG rendering, number formats, labels
- ``balance``: load balance: every balanced quantity per partition, relative to its mean
- ``box``: a box of GPUs: every GPU's reads by place (own shard, peers, host) per setting
- ``cache``: feature-cache figures: hit rates, bytes moved, where lookups are served
- ``cuts``: where the cut edges go (cut matrix) and how HALO grows with hops
- ``drawing``: draw_partition: nodes by partition, cut edges, one partition's HALO
- ``epoch``: epoch estimates: each trainer's sampling / fetch / compute, settings side by side
- ``ids``: the reshuffle's renumbering: the id line and the adjacency before and after
- ``ids_data``: the numbers behind the id figures and views
- ``layout``: node positions: a graph's own coordinates, else a cached layout
- ``nodes``: the node drawing of :func:`~graphpart.viz.draw_partition`, layer by layer
- ``pipeline``: a diagram of the chunked pipeline: chunks -> assign -> dispatch -> partitions
- ``tradeoff``: edge cut against load imbalance over a sweep of partition settings
"""

from __future__ import annotations

from ..palette import part_colors
from ._style import to_png
from .balance import plot_balance
from .box import plot_box
from .cache import (
    plot_bytes_per_epoch,
    plot_hit_rate_curve,
    plot_hit_rate_trace,
    plot_partition_access,
)
from .cuts import plot_cut_matrix, plot_halo_growth
from .drawing import DRAW_MODES, draw_partition
from .epoch import PART_COLORS, plot_epoch_estimates, plot_trainer_times
from .ids import plot_adjacency, plot_id_line, plot_ids
from .ids_data import id_data
from .layout import node_positions, sample_neighbourhood
from .pipeline import plot_pipeline
from .tradeoff import plot_tradeoff

__all__ = [
    "draw_partition",
    "plot_balance",
    "plot_cut_matrix",
    "plot_halo_growth",
    "plot_tradeoff",
    "plot_trainer_times",
    "plot_epoch_estimates",
    "PART_COLORS",
    "plot_hit_rate_trace",
    "plot_hit_rate_curve",
    "plot_bytes_per_epoch",
    "plot_partition_access",
    "plot_box",
    "plot_id_line",
    "plot_adjacency",
    "plot_ids",
    "id_data",
    "plot_pipeline",
    "node_positions",
    "sample_neighbourhood",
    "part_colors",
    "to_png",
    "DRAW_MODES",
]

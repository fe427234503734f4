"""Matplotlib figures of partitions -- each ``plot_*`` takes ``ax=`` and returns the axes it
drew on -- and what they draw from (``node_positions``, ``id_data``).

Its modules, one idea each:

- ``_style``: the figures' shared look: axes, PNG rendering, number formats, labels
- ``balance``: plot_balance: per-partition load of every balanced quantity vs the mean
- ``box``: plot_box: every GPU's reads from its shard, its peers, the host, per setting
- ``cache``: plot_hit_rate_trace, plot_hit_rate_curve, plot_bytes_per_epoch, plot_partition_access
- ``cut_kinds``: draw_volume (communication volume per node), draw_vertex_cut (node copies)
- ``cuts``: plot_cut_matrix (partition x partition cut edges), plot_halo_growth (by hop)
- ``drawing``: draw_partition: nodes by partition, cut edges, HALO; quotient graph when large
- ``epoch``: plot_trainer_times, plot_epoch_estimates (a trainer's phases), plot_break_even
- ``ids``: plot_id_line, plot_adjacency, plot_ids: the reshuffle's renumbering
- ``ids_data``: id_data: the numbers behind the id figures and views
- ``layout``: node_positions: a graph's own coordinates, else a cached layout
- ``nodes``: the node drawing of draw_partition, layer by layer
- ``pipeline``: plot_pipeline: chunks -> assign -> dispatch -> partitions
- ``stream``: plot_stream_step, plot_multilevel_level: the partitioners at work, step by step
- ``tradeoff``: plot_tradeoff: edge cut vs imbalance (or epoch time) across a sweep
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
from .cut_kinds import draw_vertex_cut, draw_volume
from .cuts import plot_cut_matrix, plot_halo_growth
from .drawing import DRAW_MODES, draw_partition
from .epoch import plot_break_even, plot_epoch_estimates, plot_trainer_times
from .ids import plot_adjacency, plot_id_line, plot_ids
from .ids_data import id_data
from .layout import node_positions, sample_neighbourhood
from .pipeline import plot_pipeline
from .stream import plot_multilevel_level, plot_stream_step
from .tradeoff import plot_tradeoff

__all__ = [
    "draw_partition",
    "plot_balance",
    "plot_cut_matrix",
    "plot_halo_growth",
    "plot_tradeoff",
    "plot_stream_step",
    "plot_break_even",
    "draw_volume",
    "draw_vertex_cut",
    "plot_multilevel_level",
    "plot_trainer_times",
    "plot_epoch_estimates",
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

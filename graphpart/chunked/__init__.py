"""The chunked graph format (DGL's input to its multi-machine pipeline): read, validate, write.

``write_chunked(g, out_dir, num_chunks)`` writes a graph; ``read_metadata`` parses and checks
``metadata.json``; ``load_chunked`` reads every chunk back into a ``Graph``, checking row counts,
id ranges and edge-feature chunking. ``assign`` is step 1 of the pipeline: a partition
assignment (``<ntype>.txt`` files), METIS (by default), random, Fennel or LDG; ``read_assignment``
validates any such folder. ``dispatch`` is step 2: it writes the partitions on Dask, exactly as
``partition_graph`` would; ``verify`` checks written partitions against their chunked input.
``rmat_chunked`` / ``dcsbm_chunked`` / ``edges_chunked`` write graphs larger than memory chunk by
chunk; ``plan_pipeline`` / ``format_plan`` say what every step will need before it runs.

Its modules, one idea each:

- ``_assemble``: dispatch phase 2: a partition's pieces -> its files (DGL's .dgl built in memory)
- ``_assemble_stream``: phase 2 out of core (GraphBolt's format and graphpart's), any partition size
- ``_csc``: CscBuckets: a partition's edges into CSC order out of core
- ``_dask``: where a step's tasks run (Runner: here or on the cluster) and the arrays they share
- ``_distinct``: DistinctSketch: distinct values per group by HyperLogLog
- ``_eta``: Progress: log lines with the time left (the CLI shows them on a terminal)
- ``_files``: one chunk file (csv / numpy / parquet), every reader of foreign rows bounded by bytes
- ``_fit``: the message when a partition did not fit a worker
- ``_loads``: the streaming partitioners' state: parts, loads per class, hard caps, moves
- ``_metis``: METIS in the pipeline: every edge within budget, else coarsened (or a sample), refined
- ``_nodemaps``: new node ids from an assignment (the in-memory rule), as mapped .npy files
- ``_owned``: what of a chunked graph folder or assignment folder graphpart wrote
- ``_part_arrays``: a written partition as verify reads it (node arrays whole, edges by slices)
- ``_random_assign``: the random assignment, drawn chunk by chunk on Dask
- ``_resume``: --resume: partition markers checked before a finished partition is kept
- ``_shuffle``: dispatch phase 1: a chunk -> per-partition pieces (.npz, atomic)
- ``assign``: step 1: METIS (the default) / random (on Dask) / streaming assignment files
- ``cluster``: ClusterOptions: the Dask settings assign, dispatch and the CLI share
- ``dispatch``: step 2: orchestration, checks (worker memory and disk before any task), config
- ``edge_files``: edge-list files (text, .npy, parquet) read in blocks through _files' readers
- ``follow``: follow_node: one node from its chunk rows to its rows in the partition files
- ``format``: metadata.json parsed and validated; ChunkFormat, how chunks are written
- ``ingest``: graphs beyond memory: rmat_chunked, dcsbm_chunked, sbm_chunked, edges_chunked
- ``metis_memory``: what assign metis holds by route (every edge, coarsened, a sample)
- ``orig_ids``: merged original-id maps (--save-orig-nids/eids) and load_orig_ids
- ``parmetis``: ParMETIS input export, output import
- ``plan``: every step's peak memory (per process) and disk as formulas with measured constants
- ``read``: load_chunked: every chunk checked (counts, id ranges, edge-feature chunking)
- ``stream``: Fennel and LDG over the edge chunks (StreamOptions), a stream per Dask worker
- ``verify``: a written partitioning against its chunked input
- ``write``: write_chunked: atomic, always with per-type and per-chunk counts
"""

from __future__ import annotations

from .assign import ALGORITHMS, assign, assignment_loads, read_assignment, write_assignment
from .cluster import ClusterOptions
from .dispatch import dispatch, load_orig_ids
from .follow import NodeJourney, follow_node
from .format import METADATA, ChunkedMetadata, ChunkFormat, ChunkSpec, read_metadata
from .ingest import dcsbm_chunked, edges_chunked, rmat_chunked
from .parmetis import export_parmetis, import_parmetis
from .plan import format_plan, plan_pipeline
from .read import load_chunked, read_data, read_edges
from .stream import StreamOptions, stream_partition
from .verify import Verification, verify
from .write import write_chunked

__all__ = [
    "rmat_chunked",
    "dcsbm_chunked",
    "edges_chunked",
    "plan_pipeline",
    "format_plan",
    "export_parmetis",
    "import_parmetis",
    "stream_partition",
    "StreamOptions",
    "dispatch",
    "load_orig_ids",
    "follow_node",
    "NodeJourney",
    "verify",
    "Verification",
    "assign",
    "ClusterOptions",
    "read_assignment",
    "assignment_loads",
    "write_assignment",
    "ALGORITHMS",
    "write_chunked",
    "read_metadata",
    "load_chunked",
    "read_edges",
    "read_data",
    "ChunkedMetadata",
    "ChunkFormat",
    "ChunkSpec",
    "METADATA",
]

"""The chunked graph format (DGL's input to its multi-machine pipeline): read, validate, write.

``write_chunked(g, out_dir, num_chunks)`` writes a graph; ``read_metadata`` parses and checks
``metadata.json``; ``load_chunked`` reads every chunk back into a ``Graph``, checking row counts,
id ranges and edge-feature chunking. ``assign`` is step 1 of the pipeline: a partition
assignment (``<ntype>.txt`` files), METIS (by default), random, Fennel or LDG; ``read_assignment``
validates any such folder. ``dispatch`` is step 2: it writes the partitions on Dask, exactly as
``partition_graph`` would; ``verify`` checks written partitions against their chunked input.
``rmat_chunked`` / ``dcsbm_chunked`` / ``edges_chunked`` write graphs larger than memory chunk by
chunk; ``plan_pipeline`` / ``format_plan`` say what every step will need before it runs.
"""

from __future__ import annotations

from .assign import ALGORITHMS, assign, assignment_loads, read_assignment, write_assignment
from .cluster import ClusterOptions
from .dispatch import dispatch, load_orig_ids
from .follow import NodeJourney, follow_node
from .format import METADATA, ChunkedMetadata, ChunkSpec, read_metadata
from .ingest import dcsbm_chunked, edges_chunked, rmat_chunked
from .parmetis import export_parmetis, import_parmetis
from .plan import format_plan, plan_pipeline
from .read import load_chunked, read_data, read_edges
from .stream import stream_partition
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
    "ChunkSpec",
    "METADATA",
]

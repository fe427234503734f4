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

- ``_assemble``: dispatch phase 2: a partition's pieces -> its files; DGL's .dgl built in memory
  (shared halo/storage code), the others streamed
- ``_assemble_stream``: phase 2 out of core, GraphBolt's format (the default) and graphpart's:
  HALO bitmap, leaving edges (out_edges) sorted by one file per owner, every record filled block
  by block (interop/torch_zip, GraphBolt's pickled class names included), features streamed into
  DGL's tensor files; worker memory B + 9 N + 24 L + 24 C + 400 MB (GraphBolt), any partition
  size
- ``_csc``: CscBuckets: a partition's edges into CSC order out of core (buckets of about 4M
  edges cut from the in-degrees, appended, then each sorted stably)
- ``_dask``: dask_client(ClusterOptions): LocalCluster or existing cluster; run tasks, progress,
  wait for all on failure; Runner: where a step's tasks run (here below 2^22 edges, else the
  cluster) and the arrays they share (.npy files, mapped read-only); a task's GraphpartError
  comes back as the error, a killed worker as one; results gathered as tasks end (a dead worker
  loses no finished result)
- ``_distinct``: DistinctSketch: distinct values per group by HyperLogLog (assign's estimate of
  each part's HALO nodes, for the plan)
- ``_eta``: Progress: log lines with the time left (the CLI shows them on a terminal)
- ``_files``: one chunk file: csv / numpy / parquet, and every reader of foreign rows, bounded
  by bytes: text a 16 MiB block at a time (lines end at LF, CRLF or CR; a first line over 1 MiB
  or wider than allowed refused before parsing), parquet a batch of 2^20 rows at a time whatever
  its row groups, a .npy header and a parquet footer checked before decoding; none read past the
  rows allowed; is_chunk_dtype (bool/int/uint/float of at most 64 bits); native readers closed
  on every path; failures name the library's error, never the file's bytes
- ``_fit``: the message when a partition did not fit a worker
- ``_loads``: the streaming state: part per node, loads per balance class and in-degree, hard
  caps, batch placement, moves, the last nodes placed where they fill least; share(): a stream's
  view over the nodes of its chunk
- ``_metis``: METIS in the pipeline: every edge where they fit, else (--max-edges, or by default
  the largest that fits) a sample drawn as the chunks stream past (degree-aware), refined over
  every edge on the workers
- ``_nodemaps``: new node ids from an assignment (group_order, the in-memory rule), as mmap'd
  .npy
- ``_owned``: what of a chunked graph folder or assignment folder graphpart wrote, the whole
  tree (the files its metadata lists, each of its format; assignments marked written_by), before
  a new one replaces it
- ``_part_arrays``: a written partition as verify reads it: node arrays whole, edges and
  features as records read by slices (graphpart's torch files; GraphBolt's, destinations
  expanded from indptr per slice), graph.dgl loaded
- ``_random_assign``: the random assignment, drawn chunk by chunk on Dask
- ``_resume``: --resume: partition markers (the inputs' key, counts, every file's SHA-256),
  checked before a finished partition is kept; the key of the inputs (the bytes of metadata,
  assignment and every chunk, phase 1 fingerprints what it reads)
- ``_shuffle``: dispatch phase 1: a chunk -> per-partition pieces (.npz, atomic)
- ``assign``: step 1: METIS (the default) / random (on Dask) / streaming assignment files;
  validation; partition_meta.json records each part's nodes, in-degree, leaving edges and HALO
  estimate (part_loads: one pass, shared out on the workers)
- ``cluster``: ClusterOptions: the Dask settings assign, dispatch and the CLI share (a client, a
  scheduler's address, or the LocalCluster's workers, threads, memory limit), checked once;
  check_memory_limit
- ``dispatch``: step 2: orchestration, checks (worker memory and disk before any task), config
- ``edge_files``: edge-list files read in blocks: text (SNAP/OGB, comments, any line ending),
  .npy, parquet (through _files' bounded readers)
- ``follow``: follow_node: one node from its feature-chunk row and the edge-chunk rows naming
  it, to its assignment line, new id and rows in the partition files (owner and HALO copies),
  one chunk or partition at a time; pipeline_partitioning (the output in original ids, for a
  view)
- ``format``: metadata.json: parse and validate (counts < 2^62, numeric dtypes, short shapes, a
  node count the machine can hold, check_type_names: types are file names of at most 200 bytes);
  ChunkSpec.read never reads a chunk past its recorded count (or its type's total), for every
  reader
- ``ingest``: graphs beyond memory: rmat_chunked (R-MAT in blocks, each draw from its place in
  the PCG64 stream; sorted and deduplicated out of core by source bucket: equal to
  write_chunked(rmat(...))), dcsbm_chunked (the same way), both drawn on the workers (a share of
  the blocks each, bucket files of their own; a bucket sorted per task), sbm_chunked (block pair
  by block pair, from copies of the generator), edges_chunked (an edge-list file)
- ``orig_ids``: merged original-id maps (--save-orig-nids/eids) and load_orig_ids;
  node_orig_maps / orig_of: original node ids from those maps or the assignment (verify and
  follow_node on GraphBolt's files, which keep none)
- ``parmetis``: ParMETIS input export, output import (no links followed, each file sized against
  the nodes left before it is parsed)
- ``plan``: every step's peak memory (per process) and disk as formulas with measured constants;
  check_memory / check_disk (refuse before work); available_memory (the least room over the
  process's own memory cgroup and those above it); format_plan (`graphpart plan`), which refuses
  what the steps refuse
- ``read``: load_chunked: every chunk checked (counts, id ranges, edge-feature chunking)
- ``stream``: Fennel and LDG: in-degrees (one pass), a streaming pass (or a given start,
  METIS's), then refinement passes (label propagation under the caps, the lowest cut kept);
  memory O(N). Passes run as one stream per worker in rounds: placing, a chunk each (placements
  counted once per stream, applied in stream order under the caps); refining, shares of one
  chunk's nodes, moved together
- ``verify``: a written partitioning against its chunked input, a partition per task and the
  chunks in shares (Runner); edges compared through 64-bit fingerprints summed per partition, a
  slice at a time, keyed by original edge ids, or by new ones (GraphBolt's files: the chunks'
  order and the assignment give them)
- ``write``: write_chunked: atomic, always with per-type and per-chunk counts;
  write_edge_stream: the same files from edge blocks (one chunk in memory); chunk_stem: file
  names by type and field position (one-to-one, short)
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

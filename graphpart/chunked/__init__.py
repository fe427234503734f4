"""The chunked graph format (DGL's input to its multi-machine pipeline): read, validate, write.

``write_chunked(g, out_dir, num_chunks)`` writes a graph; ``read_metadata`` parses and checks
``metadata.json``; ``load_chunked`` reads every chunk back into a ``Graph``, checking row counts,
id ranges and edge-feature chunking.
"""

from __future__ import annotations

from .format import METADATA, ChunkedMetadata, ChunkSpec, read_metadata
from .read import load_chunked, read_data, read_edges
from .write import write_chunked

__all__ = ["write_chunked", "read_metadata", "load_chunked", "read_edges", "read_data", "ChunkedMetadata",
           "ChunkSpec", "METADATA"]

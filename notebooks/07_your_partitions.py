# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 07 · Your partitions: DGL, GraphBolt, PyG and GLT files
#
# *The interactive views live in the running kernel: after reopening this notebook or
# restarting its kernel, run all cells again (Run > Run All Cells) and they come back.*
#
# The partitions your training job actually uses were probably written by another library: DGL's
# `partition_graph` (`.dgl` files, or GraphBolt's `fused_csc_sampling_graph.pt`), PyTorch
# Geometric's `Partitioner`, or GraphLearn-for-PyTorch. graphpart reads all of them, so you can
# inspect *those* partitions with the same metrics, figures and widgets as the previous notebooks.
# And it writes DGL's and PyG's formats, so a partitioning you prototyped here goes straight to your
# trainer.
#
# graphpart imports none of these libraries: it reads and writes their file layouts itself, and
# never runs code stored in a file.

# %%
# %matplotlib inline
import json
import tempfile
from pathlib import Path

import graphpart as gp
from graphpart import datasets, interop, storage, viz
from graphpart.datasets import peer_partitions

# %% [markdown]
# ## 1 · Write partitions DGL trains on
#
# `format="dgl"` writes DGL's binary files instead of graphpart's torch files; `format="graphbolt"`
# writes GraphBolt's sampling graph in their place (DGL 2.x's `load_partition(...,
# use_graphbolt=True)`; what the chunked pipeline writes by default). The folder layout and the
# config are DGL's: `dgl.distributed.load_partition` and `DistGraph` load it (graphpart's test
# suite checks this with the real DGL 2.1). This notebook writes into a fresh temporary folder,
# never beside itself.

# %%
tmp = tempfile.TemporaryDirectory(prefix="graphpart-07-")  # removed when the kernel stops
work = Path(tmp.name)  # this notebook's files go here
out = work / "karate_dgl"
g = datasets.load_karate_club()
config = out / "karate.json"
gp.partition_graph(g, "karate", 2, out, num_hops=1, seed=0, format="dgl")
print(sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()))
print(json.dumps(json.loads(config.read_text())["part-0"], indent=1))
bolt = work / "karate_graphbolt"
gp.partition_graph(g, "karate", 2, bolt, num_hops=1, seed=0, format="graphbolt")
print(sorted(str(p.relative_to(bolt)) for p in bolt.rglob("*") if p.is_file()))

# %% [markdown]
# `graph.dgl` is what `dgl.save_graphs` writes: a 4 KB header, then the graph's sparse matrices and
# its node and edge data as raw arrays. `interop.load_graphs` reads it without DGL. The arrays are
# not copied into memory: they are *views of the file*, mapped by the operating system, so opening a
# 10 GB partition costs page cache, not 10 GB of RAM (see `benchmarks/RESULTS.md`).

# %%
(local,), labels = interop.load_graphs(out / "part0" / "graph.dgl")
local

# %% [markdown]
# DGL's reserved fields are there with DGL's dtypes: `_ID` (the partition-major global id, int64),
# `inner_node` (uint8: 1 for the nodes this partition owns, 0 for HALO copies), `part_id` (the
# owner). `storage.detect_format` says what a path holds (`graphpart.storage` opens partitions of
# every format; `graphpart.interop` holds the other libraries' file layouts):

# %%
storage.detect_format(config), storage.detect_format(peer_partitions("karate", "pyg"))

# %% [markdown]
# ## 2 · Open partitions DGL wrote
#
# graphpart ships a few small partitionings written by the real libraries (how:
# `graphpart/datasets/peer_made/README.md`). `peer_partitions("karate", "dgl")` is the config
# DGL 2.1's `partition_graph` wrote for the karate club with METIS, 2 parts, one hop of HALO. Open
# it exactly as you would open graphpart's own output:

# %%
dgl_config = peer_partitions("karate", "dgl")
lg, nfeat, efeat, book, name, ntypes, etypes = gp.load_partition(dgl_config, 0)
print(
    name, lg.num_nodes(), "local nodes,", int(lg.ndata["inner_node"].sum()), "owned;", sorted(nfeat)
)
book.nid2partid([0, 16, 17, 33])

# %%
gp.metrics.metrics_from_disk(dgl_config).report()

# %% [markdown]
# The GraphBolt variant stores the same local graph as a CSC matrix (edges grouped by destination).
# It is a pickle, which graphpart reads with torch's weights-only loader: only tensors come out, and
# a file that tries to run code is refused.

# %%
gb = interop.load_graphbolt(dgl_config.parent / "part0" / "fused_csc_sampling_graph.pt")
gb.indptr[:6], gb.indices[:6], sorted(gb.node_attributes)

# %% [markdown]
# ## 3 · PyG and GLT partitions
#
# PyG and GLT keep the *original* node ids and store, per partition, the edges it holds plus a map
# from every node to its partition. graphpart shows them the way it shows every partitioning:
# renumbered so that each partition owns one id range (its partition book), inner nodes first and
# then HALO copies. The original ids are kept on the nodes as `orig_id`.
#
# Which edges a partition holds differs: PyG keeps an edge with its destination (like DGL), GLT with
# its source. The edge cut counts an edge once either way: its endpoints lie in different
# partitions. GLT's files here split karate in 2 parts at random, PyG's half and half (the first
# 17 ids, the last 17: PyG's METIS needs an extra compiled package).

# %% jupyter={"source_hidden": true}
from graphpart.widgets import Exercise

glt_cut = gp.metrics.metrics_from_disk(peer_partitions("karate", "glt")).edge_cut_fraction
Exercise(
    "What percentage of karate's 156 edges do GLT's two random partitions cut?",
    round(100 * glt_cut),
    tolerance=0.2,
    unit="%",
    explain=f"About half: an edge's two ends land in the same one of 2 parts 1 time in 2, so"
    f" random cuts about 1 - 1/2 = 50% (here {100 * glt_cut:.0f}%).",
    holds=abs(100 * glt_cut - 50) < 12,
)

# %%
for peer in ("pyg", "glt"):
    path = peer_partitions("karate", peer)
    m = gp.metrics.metrics_from_disk(path)
    print(
        f"{peer}: {storage.detect_format(path)}, edge cut {m.edge_cut} of {m.num_edges}, "
        f"replication {m.replication_factor:.2f}"
    )
lg = gp.load_partition(peer_partitions("karate", "pyg"), 0).graph
lg.ndata["_ID"][:5], lg.ndata["orig_id"][:5]

# %% [markdown]
# ## 4 · Compare partitionings of one graph, side by side
#
# Here are three partitionings of the karate club: DGL's METIS run, PyG's (a fixed half/half split,
# since PyG's METIS needs an extra compiled package), and GLT's random partitioner. Add graphpart's
# own METIS run, held in memory. `PartitioningComparison` draws the same graph for each, coloured by
# owner, in linked views: pan or zoom one and all follow; click a node and every linked
# view selects it, the card under each saying where that partitioning put it. Below, the same
# figure for each (switch it with the buttons) and one table. Partitions on disk are opened in their
# files' partition-major ids (DGL's keep no others; PyG's and GLT's are renumbered the same way). A
# view whose numbering differs from the first one's is drawn on its own, and its caption says so:
# here DGL's and GLT's. PyG's half/half split keeps every id where it was, so its view is linked.

# %%
from graphpart.widgets import PartitioningComparison

cmp = PartitioningComparison(
    {
        "graphpart, METIS": gp.partition(datasets.load_karate_club(), 2, seed=0),
        "PyG, half/half": peer_partitions("karate", "pyg"),
        "GLT, random": peer_partitions("karate", "glt"),
        "DGL 2.1, METIS": peer_partitions("karate", "dgl"),
    }
)
cmp

# %% [markdown]
# Reading the table: METIS (DGL's and graphpart's, which agree here) cuts a quarter as many edges as
# GLT's random assignment and copies 13 HALO nodes instead of 33, at equal node balance. PyG's
# half/half split falls in between: the club's ids already keep many friends together.
#
# Every figure and widget that takes a partitioning also takes such a path. Here, the HALO of DGL's
# partition 1, drawn from its files: the node numbers are DGL's shuffled ids (partition 0's nodes
# first), not the club's original ones.

# %%
ax = viz.draw_partition(peer_partitions("karate", "dgl"), halo_of=1)
# %% [markdown]
# ## 5 · Hand a partitioning to PyG
#
# `interop.export_pyg` writes the folder PyG's `LocalGraphStore.from_partition` and
# `LocalFeatureStore.from_partition` load. It uses the same node assignment and edge placement as
# the partitioning, and original ids, as PyG expects. graphpart reads it back like any other format.

# %%
p = gp.partition(datasets.load_karate_club(), 2, seed=0)
root = interop.export_pyg(p, work / "karate_pyg")
print(sorted(str(x.relative_to(root)) for x in root.rglob("*") if x.is_file()))
gp.metrics.metrics_from_disk(root).edge_cut == p.metrics.edge_cut

# %% [markdown]
# ## From a shell
#
# ```bash
# graphpart partition --dataset karate_club --graph-name karate --num-parts 2 \
#     --out-path parts --format dgl
# graphpart inspect parts/karate.json            # format: DGL (.dgl files), then the metrics
# graphpart inspect /path/to/pyg_partitions      # a PyG or GLT folder works too
# graphpart dispatch ... --format dgl            # the chunked pipeline writes DGL's files as well
# ```

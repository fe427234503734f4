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
# # 05 · The chunked pipeline: partitioning graphs that do not fit in memory
#
# *The interactive views live in the running kernel: after reopening this notebook or
# restarting its kernel, run all cells again (Run > Run All Cells) and they come back.*
#
# `partition_graph` holds the whole graph in RAM. For bigger graphs DGL describes a two-step
# pipeline over a **chunked graph format**: the graph is stored as many small files, **step 1**
# computes a partition assignment (one partition id per node), and **step 2** (*dispatch*) moves
# every edge and feature row to its partition, on several machines at once. graphpart runs step 2 on
# **Dask**: a local cluster here, a cluster of machines by address for the real thing.
#
# We follow one graph through the pipeline and check, at the end, that the result is *exactly* what
# the in-memory `partition_graph` writes for the same assignment.

# %%
# %matplotlib inline
import json
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import torch

import graphpart as gp
from graphpart import chunked, datasets, viz

# this notebook's files go to a temporary folder, removed when the kernel stops
tmp = tempfile.TemporaryDirectory(prefix="graphpart-05-")
work = Path(tmp.name)
g = datasets.sbm(block_sizes=[400] * 6, p_in=0.03, p_out=0.001, seed=0, feat_dim=16, train_frac=0.2)
g

# %% [markdown]
# The whole journey in one picture: the chunk files (and `metadata.json`) are read by step 1, which
# writes one small file per node type; step 2 reads that file and the chunks again, and writes the
# partition folders. Only METIS, in step 1, ever loads every edge at once.

# %%
ax = viz.plot_pipeline(num_chunks=4, num_parts=4)

# %% [markdown]
# ## 1 · Chunk the graph
#
# `write_chunked` splits edges and features into `num_chunks` files each. The edges go to CSV (text,
# as many pipelines export them) and the features to NumPy files; parquet works too.

# %%
meta_path = chunked.write_chunked(g, work / "chunks", num_chunks=4, graph_name="sbm")
for p in sorted((work / "chunks").rglob("*"))[:12]:
    print(p.relative_to(work))

# %% [markdown]
# `metadata.json` describes everything: node and edge types with their counts, and for every edge
# type and feature the list of chunk files. graphpart also records the rows of each chunk
# (`counts`), which lets every step check the files before trusting them.

# %%
meta = json.loads(meta_path.read_text())
print(
    json.dumps(
        {
            k: meta[k]
            for k in [
                "graph_name",
                "node_type",
                "num_nodes_per_type",
                "edge_type",
                "num_edges_per_type",
            ]
        },
        indent=1,
    )
)
print(json.dumps(meta["edges"], indent=1)[:400], "...")

# %% [markdown]
# ## 2 · Step 1: assign nodes to partitions
#
# Four ways, all writing the same files (`<ntype>.txt`: line *i*, counted from 1, holds the
# partition of node *i - 1*):
#
# * **random**: balanced, reads no edges at all, computed chunk by chunk on Dask;
# * **Fennel** and **LDG**: *streaming* partitioners. They read the edge chunks one at a time and
#   keep a few numbers per node, so they work when the edges do not fit in memory. Each node goes
#   where most of its already placed neighbours are, minus a penalty for full partitions, under
#   hard caps: at most 1.05 x the mean of every balance class's nodes (here node type x
#   `train_mask`, as `balance_ntypes` does) and, with `balance_edges`, of the in-degree. Then a
#   few *refinement* passes move nodes towards their neighbours where the caps allow. With
#   several Dask workers (`workers`, 2 by default) each worker streams chunks of its own, and
#   the loads are reconciled after every chunk; the answer depends on the number of workers;
# * **METIS**: the best cuts, but it loads every edge at once.

# %%
num_parts = 4
assignments = {}
for algo in ["random", "fennel", "ldg", "metis"]:
    options = {
        "random": {"processes": False, "workers": 1},
        "fennel": {"balance_ntypes": "train_mask", "balance_edges": True},
        "ldg": {"balance_ntypes": "train_mask", "balance_edges": True},
        "metis": {"balance_ntypes": "train_mask", "balance_edges": True},
    }[algo]
    out = chunked.assign(
        work / "chunks", work / f"assign-{algo}", num_parts, algo, seed=0, **options
    )
    assignments[algo], _ = chunked.read_assignment(out, work / "chunks")
print((work / "assign-fennel" / "_N.txt").read_text().split()[:20])

# %%
cuts = {
    algo: gp.partition(g, num_parts, part_method=parts["_N"], num_hops=0).metrics.edge_cut_fraction
    for algo, parts in assignments.items()
}

# %% jupyter={"source_hidden": true}
from graphpart.widgets import Exercise

fennel, metis_cut = 100 * cuts["fennel"], 100 * cuts["metis"]
Exercise(
    f"Random cuts {100 * cuts['random']:.0f}% of the edges, METIS {metis_cut:.0f}%. Fennel sees"
    " the nodes one at a time, each with the neighbours placed so far. What percentage does it"
    " cut?",
    round(fennel),
    tolerance=0.2,
    unit="%",
    explain=f"As low as METIS's {metis_cut:.0f}%: in a graph of clear communities, most of a"
    " node's neighbours already placed sit in its community's partition, and Fennel's score"
    " follows them (its refinement passes, described above, mend the early guesses).",
    holds=abs(fennel - metis_cut) < 5 and cuts["random"] > 0.7,
)

# %%
fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
ax.bar(list(cuts), [100 * c for c in cuts.values()], color="#6b7b8c")  # not partitions' colours
ax.set_ylabel("edge cut (%)")
ax.set_title(f"{num_parts} partitions of an SBM with 6 communities")
ax.set_ylim(0, 100 * max(cuts.values()) * 1.18)  # room for the labels above the bars
for i, c in enumerate(cuts.values()):
    ax.text(i, 100 * c + 1, f"{100 * c:.0f}%", ha="center")

# %% [markdown]
# Random cuts about 3/4 of the edges (an edge's two ends land in the same one of 4 parts 1 time in
# 4). METIS sees the whole graph and cuts far less. A streaming partitioner decides each node
# after seeing only the edges read so far, so on its own it splits communities; its refinement
# passes then bring most of each community back together, and the bars' labels say how close it
# gets to METIS.
#
# A cut is only half the story: a partition with more nodes, edges or training nodes than the
# others makes its machine the straggler. Here are the loads per partition, over the mean (1.0 is
# perfect):

# %%
fig, axes = plt.subplots(1, 2, figsize=(12, 3.2), layout="constrained")
for ax, algo in zip(axes, ["fennel", "ldg"]):
    streamed = gp.partition(g, num_parts, part_method=assignments[algo]["_N"], num_hops=0)
    viz.plot_balance(streamed, ax=ax, quantities=["nodes", "edges", "train nodes"])
    ax.set_title(f"{algo}: load per partition / mean", fontsize=10)
    worst = {k: f"{v:.3f}" for k, v in streamed.metrics.balance.items()}
    lightest = np.bincount(np.asarray(streamed.node_part), minlength=num_parts).min()
    print(f"{algo:>6}: max/mean", worst, f"lightest: {lightest / (g.num_nodes() / num_parts):.2f}")

# %% [markdown]
# Every load stays at or under its cap of 1.05: nodes, edges (each partition's in-degree: under
# DGL's rule an edge belongs to the partition of its destination) and training nodes. A cap bounds
# only the heaviest partition, which is what makes a straggler: a partition may end light (the
# *lightest* printed above: its nodes over the mean), as refinement moves nodes to where most of
# their neighbours are for as long as those partitions have room.
#
# ### Why the edges need their own cap
#
# On this SBM every node has about the same degree, so balancing nodes balances edges too. Real
# graphs are *power-law*: a few hubs have most of the edges. R-MAT imitates that. Balance only the
# node counts and the partition that collects the hubs gets several times the mean of edges: its
# machine holds them all in memory, and in training it is the straggler. This is the failure
# reported on R-MAT at a quarter of papers100M's size (one partition with 160M of 263M edges).

# %%
r = datasets.rmat(14, seed=0)
chunked.write_chunked(r, work / "rmat", num_chunks=4, edge_format="numpy")
dst = r.edges()[1].numpy()
fig, axes = plt.subplots(1, 2, figsize=(12, 3.2), layout="constrained", sharey=True)
for ax, edges in zip(axes, [False, True]):
    out = chunked.assign(work / "rmat", work / f"rmat-{edges}", 8, "fennel", balance_edges=edges)
    parts = chunked.read_assignment(out, work / "rmat")[0]["_N"]
    loads = {
        "nodes": np.bincount(parts, minlength=8),
        "in-degree": np.bincount(parts[dst], minlength=8),
    }
    for j, (name, load) in enumerate(loads.items()):
        ax.bar(np.arange(8) + 0.4 * j - 0.2, load / load.mean(), width=0.4, label=name)
    ax.axhline(1.05, color="k", lw=0.8, ls="--")
    ax.set_xlabel("partition")
    ax.set_title(f"fennel, balance_edges={edges}", fontsize=10)
    worst = loads["in-degree"].max() / loads["in-degree"].mean()
    print(f"balance_edges={edges}: in-degree max/mean {worst:.2f}")
axes[0].set_ylabel("load / mean")
_ = axes[1].legend()

# %% [markdown]
# With `balance_edges=True` both loads stay under the dashed cap of 1.05. You rarely need to ask:
# `assign` turns the edge cap on by itself when the in-degrees are spread this unevenly, and says
# so in a warning (`balance_edges=False`, or `--no-balance-edges`, turns it off).
#
# ### A plan before running
#
# At scale, memory and disk decide whether a run finishes. `graphpart plan` (or
# `chunked.format_plan`) predicts, from `metadata.json` alone, the peak memory of every step
# and process and the disk each needs, against what this machine has free. Every step also checks
# this itself and refuses in one line *before* it starts when it cannot fit, instead of running
# out of memory halfway. Here for the SBM, with the partition sizes of the Fennel assignment:

# %%
meta = chunked.read_metadata(work / "chunks")
loads = chunked.assignment_loads(work / "assign-fennel", num_parts, meta)
print(chunked.format_plan(meta, num_parts, "fennel", loads=loads, out_dir=work))

# %% [markdown]
# The formulas (in the `graphpart.chunked.plan` docstring) were measured on R-MAT up to scale 26
# (67M nodes, 1.06B edges) on a 2-core, 24 GB machine: there every process stayed under 5.1 GB,
# and the whole pipeline took 24 minutes.
#
# ## 3 · Step 2: dispatch on a Dask cluster
#
# `dispatch` runs two rounds of Dask tasks. One task per chunk (or per run of small chunks, up
# to 4M edges) splits it into pieces, one per partition. Then one task per partition gathers its
# pieces and writes its files, a block of edges at a time: no task ever holds the whole edge
# list, a whole partition's edges or a whole feature matrix, so a worker needs the same memory
# whether its partition is small or huge.
#
# The files are what DGL trains on: GraphBolt's `fused_csc_sampling_graph.pt` (DGL 2.x loads it
# with `load_partition(..., use_graphbolt=True)`), the graph in CSC form (each node's in-edges
# together), int32 where the ids fit, with the features in `node_feat.dgl` / `edge_feat.dgl`.
# As in DGL's own pipeline, each edge is stored once, in the partition that owns its destination;
# the sources from other partitions become HALO nodes. Here we start
# a small `LocalCluster`; its **dashboard link** shows the tasks as they run. Open it, then run the
# dispatch cell below: the cluster stays up as long as the kernel does. On several
# machines you would pass `scheduler="tcp://host:8786"` instead (see the README).

# %%
import dask
from distributed import Client, LocalCluster
from IPython.display import HTML

dask.config.set({"temporary-directory": str(work)})  # Dask's scratch space: removed with `work`
cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0")
client = Client(cluster)
# the cluster's dashboard (its workers are threads of this kernel, with no dashboards of their own)
HTML(
    f'Dask dashboard: <a href="{client.dashboard_link}" target="_blank">{client.dashboard_link}</a>'
)

# %%
config = chunked.dispatch(
    work / "chunks",
    work / "assign-fennel",
    work / "partitions",
    num_hops=1,
    client=client,
    save_orig_nids=True,
    progress=True,
)
sorted(p.name for p in (work / "partitions").iterdir())

# %% [markdown]
# ## 4 · Verify against the input
#
# `verify` re-reads the chunks and checks the written partitions: node and edge counts, that every
# node is owned once and every edge by its destination's partition, that every edge joins the right
# original nodes, and that every feature row is the original one.

# %%
print(chunked.verify(config, work / "chunks"))

# %% [markdown]
# GraphBolt's files keep no original ids, so `verify` took them from the merged map that
# `save_orig_nids=True` wrote (`orig_nids/`); without it, pass the assignment:
# `verify(config, chunks, partitions_dir)`.

# %% [markdown]
# ## Follow one node
#
# Where did a node go? `JourneyView` draws the partitioned graph; **click a node** (or type an
# original id and press *follow*) and the boxes above the graph follow it through every file: its
# row in the feature chunks and the rows of the edge chunks that name it, its line in the
# assignment file (line *i* holds the partition of node *i - 1*), its new id, and its rows in the
# partition files, where a tick says the feature row arrived unchanged. Its HALO copies in other
# partitions are listed too. Everything is read back from the files, one chunk or one partition at
# a time (`chunked.follow_node` is the same without the drawing).

# %%
from graphpart.widgets import JourneyView

journey = JourneyView(config, work / "chunks", work / "assign-fennel")
journey.follow(1237)  # what clicking node 1237 does
journey

# %% [markdown]
# ## 5 · Load a partition, and compare with the in-memory path
#
# `load_partition` reads the files as DGL does. `partition_graph` keeps more in a partition: the
# edges *leaving* its nodes too (their destinations become HALO nodes), which sampling along
# out-edges needs. `dispatch(..., out_edges=True)` does the same, and then partitioning the
# in-memory graph with the same assignment gives the **same files**: the same new ids, the same
# edges in the same order, and the same features. It costs disk: compare the sizes.

# %%
part = gp.load_partition(config, 0)
print(part.graph)
print("features:", {k: tuple(v.shape) for k, v in part.node_feats.items()})

both = chunked.dispatch(
    work / "chunks", work / "assign-fennel", work / "with-out-edges", client=client, out_edges=True
)
gp.partition_graph(
    g, "sbm", num_parts, work / "in-memory", part_method=assignments["fennel"]["_N"],
    format="graphbolt",
)  # fmt: skip


def size(folder, pattern="*"):
    return sum(f.stat().st_size for f in folder.rglob(pattern) if f.is_file())


for name, cfg in [("each edge once", config), ("with out-edges", both)]:
    graph = size(cfg.parent, "*.pt")  # the graphs: CSC arrays, ids, HALO flags
    print(
        f"{name}: {size(cfg.parent) / g.num_edges():.1f} bytes per edge of the graph in all,"
        f" {graph / g.num_edges():.1f} of them for the graph itself (the rest: features)"
    )
for i in range(num_parts):
    a, b = gp.load_partition(both, i), gp.load_partition(work / "in-memory" / "sbm.json", i)
    same = all(torch.equal(x, y) for x, y in zip(a.graph.edges(), b.graph.edges()))
    same &= all(torch.equal(a.graph.ndata[k], b.graph.ndata[k]) for k in b.graph.ndata)
    same &= all(torch.equal(a.node_feats[k], b.node_feats[k]) for k in b.node_feats)
    assert same, i
    owned = int(a.graph.ndata["inner_node"].sum())
    print(
        f"partition {i}: {a.graph.num_nodes()} nodes ({owned} owned), "
        f"{a.graph.num_edges()} edges: identical to the in-memory output"
    )

# %% [markdown]
# The graph's share is what the README's "14-16 bytes per edge" counts, measured on R-MAT graphs of
# millions of nodes; a graph this small pays a little more per edge (each node's ids and HALO flag
# weigh more against its few edges), and its 16 features per node come on top.
#
# The merged original-id map answers "which original node is new node *i*?" for the whole graph,
# without concatenating per-partition files by hand. Around the border between partitions 0 and 1
# the new ids are consecutive, the original ones are not:

# %%
orig_nids, _ = chunked.load_orig_ids(config)
owned = int(part.graph.ndata["inner_node"].sum())  # partition 0 owns new ids 0 .. owned-1
print(
    f"new ids {owned - 3}..{owned + 2} are original nodes",
    orig_nids[owned - 3 : owned + 3].tolist(),
)

# %% [markdown]
# ## The same from a terminal
#
# ```bash
# graphpart chunk    --dataset rmat --dataset-arg scale=20 --out-dir chunks --num-chunks 16
# graphpart plan     --in-dir chunks --num-parts 4
# graphpart assign   --in-dir chunks --out-dir assignment --num-parts 4 --algorithm fennel
# graphpart dispatch --in-dir chunks --partitions-dir assignment --out-dir partitions --workers 2
# graphpart verify   partitions/chunks.json --chunked-dir chunks
# ```
#
# `graphpart chunk` generates R-MAT in blocks (memory: one block, whatever the scale) and reads an
# edge list larger than memory with `--edges FILE` (text, `.npy` or parquet). A `dispatch` that was
# killed resumes with `--resume`, without writing again the partitions it finished.
#
# Add `--scheduler tcp://host:8786` to `dispatch` to run it on a cluster of machines that share a
# file system.

# %% [markdown]
# The Dask cluster stays up while this notebook's kernel runs, so its dashboard link above keeps
# working after *Run All*: run the dispatch cell again (it replaces the partitions it wrote) to
# watch the tasks. `client.close(); cluster.close()` frees its workers, and restarting the kernel
# does too.

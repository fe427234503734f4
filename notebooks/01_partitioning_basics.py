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
# # 01 · Partitioning basics: random vs METIS, and what an edge cut costs
#
# *The interactive views live in the running kernel: after reopening this notebook or
# restarting its kernel, run all cells again (Run > Run All Cells) and they come back.*
#
# A graph too big for one machine is split into **partitions**, one per machine. Each machine trains
# a GNN on its own nodes, but a GNN layer aggregates messages from *neighbours*, and some neighbours
# live on other machines. Every edge whose two ends sit in different partitions — a **cut edge** —
# is a message (a feature vector, or a hidden state) that must cross the network, at every layer, in
# every epoch.
#
# So a good partitioning does two things at once:
# * **few cut edges** — less communication;
# * **balanced parts** — no machine waits for a slower, overloaded one.
#
# This notebook compares the two classic ways to assign nodes: at random, and with METIS, a
# multilevel graph partitioner that minimises the edge cut under a balance constraint.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np

import graphpart as gp
from graphpart import datasets, viz

# %% [markdown]
# ## A small real graph: Zachary's karate club
#
# 34 members of a club, an edge where two of them met outside the club. We split it into 2 parts
# twice. In the drawings, node colour is the partition; **dark dashed lines are cut edges**.

# %%
karate = datasets.load_karate_club()
rand = gp.partition(karate, 2, part_method="random", seed=0)
metis = gp.partition(karate, 2, part_method="metis", seed=0)

fig, axes = plt.subplots(1, 2, figsize=(13, 5), layout="constrained")
viz.draw_partition(rand, ax=axes[0], legend=False)
ax = viz.draw_partition(metis, ax=axes[1])
# %% [markdown]
# Both splits are perfectly balanced (17 nodes each), but the random one cuts about half of all
# edges: a random pair of neighbours lands on different machines half of the time. METIS keeps the
# two communities together and cuts a small fraction. The numbers are in the metrics report:

# %%
metis.report()

# %% [markdown]
# *Edge cut* counts directed edges (the karate graph stores each friendship in both directions).
# *Communication volume* counts, for every node, how many other partitions hold one of its
# neighbours: that is how many copies of its features must be sent when each machine fetches each
# remote feature once. *Replication factor* is how many nodes the machines hold in all (own + HALO
# copies, see notebook 02) per node of the graph.
#
# The same three parts of karate, drawn for each count: on the left the edge cut (dashed); in the
# middle each node's communication volume (the number on it: how many other partitions need its
# features); a node beside several cut edges into the same partition is sent there only once, so
# the volume is below the edge cut. On the right, a different idea altogether: a **vertex cut**,
# as PowerGraph-style systems make it. Edges, not nodes, are given to machines (here by
# degree-based hashing: each edge goes with its lower-degree end's machine), so no edge is cut;
# a node is instead copied to every machine holding one of its edges, and the copies (x2, x3)
# must be kept in sync. DGL, PyG, GLT and graphpart make edge cuts, whose copies are the HALO
# nodes of notebook 02.

# %%
from graphpart.partitioning import vertex_cut

three = gp.partition(karate, 3, seed=0)
fig, axes = plt.subplots(1, 3, figsize=(16, 5), layout="constrained")
viz.draw_partition(three, ax=axes[0], legend=False)
viz.draw_volume(three, ax=axes[1])
ax = viz.draw_vertex_cut(karate, vertex_cut(karate, 3, seed=0), ax=axes[2])

# %% [markdown]
# Before the numbers, a guess: a random partitioner puts each node on a machine by a coin toss.

# %% jupyter={"source_hidden": true}
from graphpart.widgets import Exercise

rand4 = gp.partition(karate, 4, part_method="random", seed=0)
cut4 = 100 * rand4.metrics.edge_cut_fraction
metis4 = 100 * gp.partition(karate, 4, seed=0).metrics.edge_cut_fraction
Exercise(
    "Random partitioning into 4 parts: what percentage of karate's 156 edges will it cut?",
    round(cut4),
    tolerance=0.15,
    unit="%",
    explain=f"An edge stays inside a partition only when its two ends land in the same one of 4"
    f" parts: 1 time in 4. So random cuts about 1 - 1/4 = 75% of the edges, whatever the graph"
    f" (here {cut4:.0f}%). METIS, which reads the edges, cuts {metis4:.0f}% into the same 4"
    f" parts.",
    holds=abs(cut4 - 75) < 10 and metis4 < cut4 / 1.5,
)

# %% [markdown]
# ## How the cut grows with the number of machines
#
# More partitions means more boundaries. `graphpart.sweep` runs a grid of settings and returns one
# row per setting:

# %%
from graphpart.sweep import grid, sweep

results = sweep(karate, grid(part_method=["random", "metis"], num_parts=[2, 3, 4, 6, 8]))
fig, ax = plt.subplots(figsize=(6.5, 3.6), layout="constrained")
for method, marker in [("random", "X"), ("metis", "o")]:
    rows = [r for r in results if r.setting.method == method]
    ax.plot(
        [r.setting.num_parts for r in rows],
        [100 * r.edge_cut_fraction for r in rows],
        marker=marker,
        label=method,
    )
ax.set(
    xlabel="number of partitions",
    ylabel="edge cut (% of edges)",
    title="Karate club: edge cut vs parts",
)
ks = np.array([2, 3, 4, 6, 8])
ax.plot(ks, 100 * (ks - 1) / ks, ls=":", color="grey", label="(k-1)/k: random, on average")
ax.legend()
for method in ("random", "metis"):
    cuts = [f"{100 * r.edge_cut_fraction:.0f}%" for r in results if r.setting.method == method]
    print(f"{method:>6}: edge cut for 2, 3, 4, 6, 8 parts:", ", ".join(cuts))
# %% [markdown]
# A random split of *k* parts cuts (k-1)/k of the edges on average (the dotted line): half at 2
# parts, nearly everything at 8. One seed's split of 34 nodes is one draw, and it can land ten
# points off that line, or cut less at 4 parts than at 3: each point is a single coin toss per
# node, not an average. METIS cuts four times fewer edges at 2 parts, but on a 34-member club its
# cut climbs fast too: with 8 parts of 4 or 5 members, most friendships must cross a boundary. The
# gap stays large on graphs with local structure, like the mesh below; on real training graphs it is
# the difference between a network-bound and a compute-bound job.
#
# ## Where the cut edges go
#
# With more than two parts it also matters *which* partitions talk to each other. The cut matrix
# shows, for every pair, how many edges run from a node of one partition (row) to a node owned by
# another (column); each edge belongs to the partition of its destination, as in DGL.

# %%
metis4 = gp.partition(karate, 4, seed=0)
ax = viz.plot_cut_matrix(metis4)
# %% [markdown]
# ## A larger graph: a finite-element mesh
#
# METIS was built for meshes: graphs whose nodes sit in space and link only to their neighbours.
# `datasets.triangle_mesh` generates one, an 87 x 87 grid of points cut into triangles (7,569
# nodes, each linked to up to 6 neighbours), with the points' coordinates as node data `pos`, so
# drawings use the mesh's own geometry. (With the Debian package `libmetis-doc`,
# `datasets.load_metis_graph("4elt")` loads METIS's own example meshes.) Drawing 7,569 nodes would
# be slow and unreadable, so above 1,000 nodes `draw_partition` draws the **quotient graph**
# instead: one circle per partition (area = its nodes), one line per pair of partitions that share
# cut edges (width = how many). The title says which view you are looking at. `mode="sample"`
# draws a connected neighbourhood instead.

# %%
from graphpart.metrics import quotient_graph

mesh = datasets.triangle_mesh(87, 87)
mesh_parts = gp.partition(mesh, 8, seed=0)

fig, axes = plt.subplots(1, 2, figsize=(14, 6), layout="constrained")
viz.draw_partition(mesh_parts, ax=axes[0])
viz.draw_partition(mesh_parts, ax=axes[1], mode="sample", max_nodes=2000, legend=False)
pairs = len(quotient_graph(mesh_parts).src)
print(
    f"edge cut {mesh_parts.metrics.edge_cut_fraction:.1%}; {pairs} of 28 pairs of parts share edges"
)
# %% [markdown]
# On a mesh each part only borders its few neighbours in space: METIS cuts a few percent of the
# edges, and many pairs of partitions exchange nothing at all (the printed line above). That is
# what METIS is built for; on power-law graphs (social networks, web graphs) cuts are much larger.
#
# ## The partitioners at work
#
# How does METIS find such a small cut? It never partitions the big graph directly. It
# **coarsens** it: each node is merged with the neighbour it shares its heaviest edge with, level
# after level, until a handful of heavy nodes remain. It **partitions** that tiny graph, then
# **uncoarsens**: each level takes its coarse node's partition, and a **refinement** pass moves the
# boundary nodes that cut fewer edges elsewhere, within balance. Step through the stages on the
# karate club (METIS itself partitions the coarsest graph):

# %%
from graphpart.widgets import MultilevelView

MultilevelView(karate, 2)

# %% [markdown]
# METIS needs the whole graph in memory. A **streaming** partitioner reads the nodes one at a time
# and decides each at once, from the neighbours it has already placed: Fennel scores every
# partition as *neighbours placed there* minus a *load penalty* that grows with the partition's
# size, and takes the best. Press play (or drag the step slider) to watch it place the karate club
# in two parts, in id order: the table says why each node went where it did. Neighbours pull a node
# toward them, the penalty pushes it to the lighter partition, and a node with no neighbours
# placed yet goes to the lightest. A decision is final once made, even when later nodes show it
# was wrong: this is why the chunked pipeline (notebook 05) refines after streaming.

# %%
from graphpart.widgets import StreamingSteps

StreamingSteps(karate, 2)

# %% [markdown]
# ## Explore
#
# The explorer re-partitions whenever you change a control, in the background, and redraws the
# graph, a partition with its HALO, the balance plot and the metrics (the tabs). The status line
# says what changed (`edge cut 512 -> 284`) and the table under it keeps your last settings. Hover
# a node for its ids and owner, click it for its card. Scrolling moves the page past the view as
# usual; Ctrl + scroll zooms it (so does scrolling after a click on it). Try:
# * `part_method` random vs metis, and watch the cut edges;
# * `parts` from 2 to 8;
# * `balance_ntypes` = `train_mask` (the status gives `max/mean train nodes`), then
#   `balance_edges` (notebook 03 explains them). A constraint costs some cut on average, but on
#   300 nodes METIS's choices are noisy: one setting can come out with a lower cut than before;
# * the HALO tab, then `num_hops` from 1 to 2: partition 0 gains the second hop's copies.

# %%
from graphpart.widgets import PartitionExplorer

blocks = datasets.sbm(
    block_sizes=[50] * 6,
    p_in=0.16,
    p_out=0.004,
    seed=1,
    train_frac=0.2,
    val_frac=0.1,
    test_frac=0.2,
)
explorer = PartitionExplorer(blocks, num_parts=4)
explorer

# %% [markdown]
# `explorer.partitioning` is the partitioning on display, so you can pick up in code where the
# widget left off:

# %%
explorer.partitioning, explorer.setting.label

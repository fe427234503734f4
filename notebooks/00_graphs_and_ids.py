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
# # 00 · Graphs, datasets and ids
#
# *The interactive views live in the running kernel: after reopening this notebook or
# restarting its kernel, run all cells again (Run > Run All Cells) and they come back.*
#
# Before we partition anything we need a graph. This notebook shows the three things every later
# notebook stands on:
#
# 1. `graphpart.Graph` — one class for **homogeneous** graphs (one kind of node, one kind of edge)
#    and **heterogeneous** ones (several kinds).
# 2. The datasets that ship with graphpart: tiny teaching graphs, real meshes and WordNet, and
#    generators for graphs as large as you like.
# 3. **Homogeneous vs heterogeneous ids**, and the `IDConverter` that moves between them — the
#    bookkeeping every distributed GNN system does under the hood.

# %%
import torch

import graphpart as gp
from graphpart import datasets

# %% [markdown]
# ## A graph from two edge lists
#
# Edges are directed: edge *i* goes from `src[i]` to `dst[i]`. Ids are int64 tensors; data are
# tensors with one row per node (or edge), and graphpart checks that.

# %%
g = gp.Graph.from_edges([0, 1, 2, 2], [1, 2, 0, 3], ndata={"feat": torch.randn(4, 8)})
g

# %%
g.in_degrees(), g.out_degrees()

# %%
try:
    g.ndata["label"] = torch.tensor([0, 1])  # 2 rows for 4 nodes
except gp.GraphpartError as err:
    print(err)

# %% [markdown]
# ## Real graphs
#
# Zachary's karate club is the classic first graph: 34 members of a club that split in two.
# `ndata["label"]` says which side each member joined — a partitioner that finds this split from the
# edges alone has found the club's natural cut.

# %% jupyter={"source_hidden": true}
from graphpart.widgets import Exercise

karate = datasets.load_karate_club()
Exercise(
    "The club has 78 friendships. How many edges does <code>karate.num_edges()</code> count?",
    karate.num_edges(),
    tolerance=0,
    explain="Graphs here are directed, as in DGL: each friendship is stored both ways, u to v and"
    " v to u, so 2 x 78 = 156 edges. Every edge count in these notebooks (cuts included) counts"
    " directed edges.",
    holds=karate.num_edges() == 2 * 78,
)

# %%
karate, karate.ndata["label"].bincount()

# %%
datasets.names()  # everything datasets.load(name) knows

# %% [markdown]
# ## Heterogeneous graphs
#
# Davis Southern Women: 18 women and the 14 social events they attended. Two node types, and an edge
# type for each direction. Edge types are *canonical*: `(source type, relation, destination type)`.

# %%
davis = datasets.load_davis_southern_women()
davis.ntypes, davis.canonical_etypes

# %% [markdown]
# ## Two kinds of id
#
# In a heterogeneous graph a node is `(type, type-wise id)`: woman 3, event 3. Partitioners work on
# one flat id space, so the graph is viewed as **homogeneous**: every type takes one contiguous
# range of ids, in `g.ntypes` order. `to_homogeneous()` builds that view and records each node's
# type (`_TYPE`) and type-wise id (`_ID`).

# %%
h = davis.to_homogeneous()
h.ndata[gp.NTYPE][:3], h.ndata[gp.NTYPE][-3:]

# %%
conv = gp.IDConverter.from_graph(davis)
conv.nid_range("event"), conv.nid_range("woman")

# %%
conv.nid_hom2het(14)  # the first woman comes right after the 14 events

# %%
# vectorised: any number of ids at once
types, local = conv.nid_hom2het(torch.arange(h.num_nodes()))
torch.equal(conv.nid_het2hom(types, local), torch.arange(h.num_nodes()))

# %% [markdown]
# Asking for an id that does not exist says so, with the valid range:

# %%
try:
    conv.nid_het2hom("event", 14)
except gp.GraphpartError as err:
    print(err)

# %% [markdown]
# ## Seeing the id line
#
# Partitioning adds a third numbering. graphpart (like DGL) renumbers the nodes so that each
# partition owns one contiguous range of **new** ids, and inside it each type one contiguous block.
# The top bar below is the homogeneous id line you just built (events 0-13, then women 14-31); the
# bottom bar is the new id line after a split into two partitions (colour = owner, hatching =
# type), and the arrows follow a sample of nodes from old id to new. Notebook 02 explains why
# systems renumber.

# %%
from graphpart import viz

split = gp.partition(davis, 2, seed=0)
ax = viz.plot_id_line(split)
# %% [markdown]
# The same, interactively: one point per node at its original id (left) and at its new id (right),
# one row per (type, owner). **Hover** a point for every id of that node (its key such as
# `woman:6`, its homogeneous id, its new id and new type-wise id, owner and local id): the same
# node lights up in the other plot. **Click** it to read its card below. The lower pair shows the
# edges as a matrix, before and after: after the renumbering, the edges inside a partition gather
# in one coloured block per partition, and the cut edges (black) fall outside. The mouse wheel
# scrolls the page past the plots; Ctrl + wheel zooms them, and so does the plain wheel after a
# click anywhere in the view, until the mouse leaves the view.

# %%
from graphpart.widgets import IdView

IdView(split)

# %% [markdown]
# ## Graphs for scale
#
# R-MAT draws graphs with the skewed degrees of real networks; the stochastic block model plants
# communities a partitioner should find. Both attach features, labels and train/val/test masks on
# request.

# %%
big = datasets.rmat(14, seed=0, num_classes=4, feat_dim=16, train_frac=0.1)
deg = big.in_degrees()
big, int(deg.max()), float(deg.double().mean())

# %%
blocks = datasets.sbm([200, 200, 200], p_in=0.05, p_out=0.002, seed=0)
blocks.num_edges(), blocks.ndata["label"].bincount()

# %% [markdown]
# Next, graphpart splits these graphs across machines: partitioning, edge cuts and HALO nodes.

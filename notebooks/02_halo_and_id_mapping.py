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
# # 02 · HALO nodes and id mapping
#
# *The interactive views live in the running kernel: after reopening this notebook or
# restarting its kernel, run all cells again (Run > Run All Cells) and they come back.*
#
# A machine that owns a set of nodes still needs their neighbours' features to compute a GNN layer.
# Partitioning therefore copies those neighbours into each partition as read-only **HALO nodes**.
# With `num_hops=h`, everything within h hops of an owned node is copied, so an h-layer GNN never
# leaves the machine for *structure* (features of HALO nodes are still fetched from their owners).
#
# Partitioning also **renumbers** the nodes: each partition's nodes get one contiguous range of new
# ids, so "which machine owns node i?" is a range lookup instead of a table the size of the graph.
# This notebook follows ids through that renumbering and back.

# %%
# %matplotlib inline
import torch

import graphpart as gp
from graphpart import datasets, viz

# %%
karate = datasets.load_karate_club()
p = gp.partition(karate, 3, num_hops=2, seed=0)
ax = viz.draw_partition(p, halo_of=0, hops=1)
# %% [markdown]
# Partition 0's own nodes are solid; the ringed nodes are its first hop of HALO: owned by other
# partitions, copied into partition 0 because an edge reaches them. The drawing stops at one hop
# (`hops=1`), but `p` keeps two (`num_hops=2`): partition 0 also holds copies of the neighbours of
# those, faded here. On this small-world graph two hops reach everything: partition 0 holds a
# copy of all 34 nodes, as the next cell's `halo_hop` list shows (2 for the second hop).
#
# ## The local graph of one partition
#
# `local_graph(i)` is what a machine would load. Inner nodes come first, so a local id of an inner
# node is just its new global id minus the partition's first id; HALO nodes follow, ordered by hop.

# %%
lg = p.local_graph(0)
print(lg)
print("inner_node:", lg.ndata["inner_node"].int().tolist())
print("_ID (new global id):", lg.ndata["_ID"].tolist())
print("halo_hop:", lg.ndata["halo_hop"].tolist())

# %% [markdown]
# Node 1 is one of partition 0's HALO nodes (hop 1): partition 0 holds its edges, so sampling its
# neighbourhood never leaves the machine.

# %% jupyter={"source_hidden": true}
from graphpart.widgets import Exercise

halo = lg.ndata["orig_id"][~lg.ndata["inner_node"]].tolist()
owner = int(p.book.nid2partid(torch.as_tensor(p.shuffle.old2new_nid[[1]]))[0])
Exercise(
    "When partition 0 trains on a batch that needs node 1's features, which partition sends them?",
    f"part {owner}",
    choices=[f"part {q}" for q in range(p.num_parts)],
    explain=f"A HALO copy carries structure, not features: node 1's feature row lives only on its"
    f" owner, partition {owner}, which the partition book names from node 1's new id"
    f" (<code>p.book.nid2partid</code>). Partition 0 fetches it over the network.",
    holds=1 in halo and owner != 0,
)

# %% [markdown]
# ## Every copy of a node, side by side
#
# Below, each partition's local graph is drawn on its own, at the same positions: its inner nodes in
# its colour, its HALO copies ringed (dark for hop 1, grey for hop 2), edges inside a partition in
# its colour, lighter, and edges between partitions near-black. Hover a node to see it, click it
# (or type its id in a view's search box) to select it: every view that holds a copy of it selects
# it too, and the card below lists all its ids: where it lives, its local id there, and each HALO
# copy with its local id and hop. Try node 0, owned by one partition and copied into the others.

# %%
from graphpart.widgets import PartitionViews

PartitionViews(gp.partition(karate, 3, num_hops=1, seed=0))

# %% [markdown]
# ## How HALO grows with hops
#
# Each extra hop copies more of the graph into every machine. On a small-world graph like this one,
# two hops copy nearly everything: the **replication factor** (nodes held in all machines / nodes in
# the graph) approaches the number of partitions. This is why deep GNNs are usually trained with
# sampling rather than full neighbourhoods.

# %%
ax = viz.plot_halo_growth(p, max_hops=3)
# %% [markdown]
# ## Original ids, new ids, and the way back
#
# `p.shuffle.new2old_nid[new] = old`; DGL calls the same array `orig_nids` and returns it from
# `partition_graph(..., return_mapping=True)`. Writing partitions to disk and asking for the
# mapping:

# %%
import pathlib
import tempfile

tmp = tempfile.TemporaryDirectory(prefix="graphpart-02-")  # removed when the kernel stops
out = pathlib.Path(tmp.name) / "karate"
orig_nids, orig_eids = gp.partition_graph(
    karate, "karate", 3, out, num_hops=1, return_mapping=True, seed=0
)
print("partition files:", sorted(q.name for q in out.iterdir()))
print(f"orig_nids: {len(orig_nids)} original ids, one per new id")

# %% [markdown]
# A list of 34 integers says little; a picture says where every id went. The top bar is the
# original id line, the bottom bar the new one: each partition owns one contiguous range (one
# colour, its range written under it), and the arrows follow a sample of nodes. Below it, the
# adjacency matrix before and after, one dot per edge: inner edges in their partition's colour,
# cut edges in black. In original ids the colours are scattered; in new ids each partition's inner
# edges fill its block on the diagonal (dashed lines: the partitions' ranges), and only the black
# cut edges fall outside.

# %%
fig = viz.plot_ids(p)
# %% [markdown]
# The same data, interactive (the adjacency plots put id 0 at the bottom left, as scatter plots do;
# the figure above puts it at the top left, as matrices do). Hover any dot for its ids: a node's
# original and new id, owner and local id; an edge's two ends, with `original ids 0 → 31` and
# `new ids` in the same order. The
# plots are linked in pairs, so the node (or edge) you hover lights up in the other numbering too:
# hover a black dot in the lower right plot to see which nodes a cut edge joins and where it was
# before the reshuffle. Click a dot to keep its ids in the card below; Python sees them as
# `view.selected` (and the hovered one as `view.hovered`).

# %%
from graphpart.widgets import IdView

view = IdView(p)
view

# %% [markdown]
# A model trained on the partitions produces outputs in **new** id order (each machine writes its
# own range). To put them back in original order — to compare with labels, or to save embeddings —
# scatter them through `orig_nids`:

# %%
# Pretend embeddings: each machine emits one row per owned node, in new-id order.
emb_new = torch.cat([torch.full((int((p.node_part == i).sum()), 2), float(i)) for i in range(3)])
emb_new[:, 1] = torch.arange(len(emb_new))  # column 1: the new id, to check the order
emb_orig = torch.empty_like(emb_new)
emb_orig[orig_nids] = emb_new  # row i now belongs to original node i
assert torch.equal(emb_orig[:, 0].long(), torch.as_tensor(p.node_part))
emb_orig[:5]

# %% [markdown]
# ## The partition book
#
# Every machine carries a small **partition book**: for each node type the id range each partition
# owns. It answers "who owns node n?" and "what is n's local id there?" without any per-node table.
# The book speaks **new** ids only (that is what makes ranges enough): to ask about an original
# node, map it to its new id first, `p.shuffle.old2new_nid[old]`.

# %%
book = p.book
nids = torch.tensor([0, 5, 20, 33])  # new ids
print("owner of new ids 0, 5, 20, 33:", book.nid2partid(nids).tolist())
new = torch.as_tensor(p.shuffle.old2new_nid[[1, 5, 20]])  # original nodes 1, 5 and 20
print("original 1, 5, 20 are new", new.tolist(), "owned by", book.nid2partid(new).tolist())
print("node_map:", book.node_map)
first, last = book.partid2nids(1)[[0, -1]].tolist()
print(f"partition 1 owns new ids {first}..{last}")

# %% [markdown]
# ## Look any node up
#
# `graphpart.lookup.locate_node` gathers every id of one node: original, new, type-wise, owner, its
# local id in the owner, and every partition that holds a HALO copy of it:

# %%
from graphpart.lookup import locate_node

locate_node(p, 33)

# %% [markdown]
# `HaloInspector(p)` does the same interactively: pick a partition and a hop count, look a node up
# by original, new (shuffled) or type-wise id, and it draws the chosen partition beside every
# partition holding a copy of that node, the node selected in each. Notebook 04 uses it on a
# heterograph.
#
# A note on many views: a browser keeps only about 16 WebGL canvases per page (each graph view
# uses three), and every open notebook shares them. graphpart's views take turns: one you scroll
# away from gives its canvases back and shows a still picture, drawn live again when you scroll
# back to it (or click *draw live*).

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
# # 04 · Heterogeneous graphs: WordNet
#
# *The interactive views live in the running kernel: after reopening this notebook or
# restarting its kernel, run all cells again (Run > Run All Cells) and they come back.*
#
# Many GNN datasets have several **node types** (users and items, papers and authors) and **edge
# types**. graphpart partitions them the way DGL does: every node gets a *homogeneous* id (types one
# after another), METIS partitions that one graph, and each partition owns, for every node type, one
# contiguous range of new ids. This notebook uses WordNet 3.0: synsets of 5 parts of speech, linked
# by 74 kinds of pointers (hypernym, antonym, ...). It needs the Debian package `wordnet-base`;
# without it we fall back to the small Davis Southern Women graph.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import torch

import graphpart as gp
from graphpart import datasets, viz

# %%
try:
    wn = datasets.load_wordnet()
except gp.errors.DatasetNotFoundError:
    wn = datasets.load_davis_southern_women()
print(wn)
print("node types:", wn.ntypes)
print("a few edge types:", wn.canonical_etypes[:4])

# %% [markdown]
# ## Homogeneous vs heterogeneous ids
#
# Node `i` of type `t` has homogeneous id `offset[t] + i`, with types in order. `IDConverter`
# converts both ways:

# %%
conv = gp.IDConverter.from_graph(wn)
t = wn.ntypes[-1]
homo = conv.nid_het2hom(t, torch.tensor([0, 1, 2]))
print(f"{t} 0,1,2 -> homogeneous", homo.tolist())
types, ids = conv.nid_hom2het(homo)  # a type index (into wn.ntypes) and a type-wise id for each
print("and back:", [(wn.ntypes[i], j) for i, j in zip(types.tolist(), ids.tolist())])

# %% [markdown]
# ## Partitioning with per-type balance
#
# With no `balance_ntypes`, a heterograph is balanced **per node type**: each partition gets about a
# quarter of the nouns, a quarter of the verbs, and so on, so every machine sees every type.

# %%
p = gp.partition(wn, 4, seed=0)
type_bars = [f"{t} nodes" for t in wn.ntypes]
ax = viz.plot_balance(p, quantities=["nodes", *type_bars, "edges"])
p.report()

# %% [markdown]
# Compare with a METIS run that only balances the total: one `balance_ntypes` value for every node
# (an array over homogeneous ids), so node types are ignored:

# %%
one_class = torch.zeros(wn.num_nodes(), dtype=torch.int64)  # wn.num_nodes(): all types together
merged = gp.partition(wn, 4, balance_ntypes=one_class, seed=0)
fig, axes = plt.subplots(1, 2, figsize=(15, 4), layout="constrained")
viz.plot_balance(p, ax=axes[0], quantities=["nodes", *type_bars])
axes[0].set_title(f"per-type balance: edge cut {100 * p.metrics.edge_cut_fraction:.1f}%")
viz.plot_balance(merged, ax=axes[1], quantities=["nodes", *type_bars])
axes[1].set_title(f"node count only: edge cut {100 * merged.metrics.edge_cut_fraction:.1f}%")
plt.show()
# %% [markdown]
# Per-type balance costs a little cut and keeps every type even; balancing only the total lets METIS
# pile the rarer types into some partitions.
#
# ## Per-type ranges in the partition book
#
# New ids are partition-major, then by type in `wn.ntypes` order: partition 0's adjectives, its
# adjective satellites, adverbs, nouns and verbs, then partition 1's. The book stores one
# `[start, end)` range per partition per type:

# %% jupyter={"source_hidden": true}
from graphpart.widgets import Exercise

num_ranges = sum(len(r) for r in p.book.node_map.values())
Exercise(
    f"How many <code>[start, end)</code> ranges does the book need for WordNet's"
    f" {wn.num_nodes():,} nodes in {p.num_parts} partitions?",
    num_ranges,
    tolerance=0,
    explain=f"One per partition per node type: {p.num_parts} x {len(wn.ntypes)} ="
    f" {p.num_parts * len(wn.ntypes)}, whatever the graph's size. That is why every machine can"
    f" carry the whole book.",
    holds=num_ranges == p.num_parts * len(wn.ntypes),
)

# %%
for t, ranges in p.book.node_map.items():
    print(f"{t:>22}:", ranges)

# %% [markdown]
# Drawn: the top bar is WordNet's homogeneous id line, one block per type in `wn.ntypes` order; the
# bottom bar is the new id line, partition by partition, each cut into the same types (hatching).
# Every block is one range of the book above.

# %%
ax = viz.plot_id_line(p)
# %%
# Which partition owns the first 3 nodes of the last type, and what are their type-wise new ids?
new_homo = p.shuffle.old2new_nid[homo.numpy()]
print("owners:", p.book.nid2partid(torch.from_numpy(new_homo)).tolist())
types, typed = p.book.map_to_per_ntype(torch.from_numpy(new_homo))
# map_to_per_ntype returns (type index into wn.ntypes, id within that type) for every node
print("type:", [wn.ntypes[i] for i in types.tolist()], "type-wise new ids:", typed.tolist())

# %% [markdown]
# `orig_nids` maps new ids back to **type-wise** original ids, one array per type, as DGL's
# `return_mapping` does:

# %%
orig = p.orig_nids
{t: v[:5].tolist() for t, v in orig.items()}

# %% [markdown]
# The cut matrix works for heterographs as well; here it is per pair of partitions over all edge
# types:

# %%
ax = viz.plot_cut_matrix(p)

# %% [markdown]
# ## All of WordNet, drawn
#
# `BigGraphView` draws every node and link of a graph in WebGL (cosmos.gl), from typed arrays
# sent to the page as bytes: here all of WordNet, coloured by the partition that owns each node in
# `p`. The first frame takes a few seconds. Hover a node for its card (its type, ids and owner,
# computed in Python), click one to light up its neighbours, and zoom with Ctrl + wheel (the wheel
# alone scrolls the page). Without a graphics card (a browser drawing WebGL in software), a frame
# of 117,659 nodes takes seconds: the first picture, each zoom and each click's highlight come
# that slowly, while a hover's card comes at once (the page finds the node itself).

# %%
from graphpart.widgets import BigGraphView

big = BigGraphView(p, height=480)
big

# %% [markdown]
# Python sees the click: `big.selected` is the node's homogeneous id, and `IDConverter` (above)
# turns it into a type and a type-wise id. Click a node, then run this cell again:

# %%
if big.selected < 0:
    print("no node selected yet: click one in the view above, then run this cell again")
else:
    [type_index], [type_id] = conv.nid_hom2het(torch.tensor([big.selected]))
    print(f"homogeneous id {big.selected} is {wn.ntypes[type_index]} {int(type_id)}")

# %% [markdown]
# ## Every id of a typed node, interactively
#
# Every id of every WordNet node is more than a table can show, so here is a small heterograph:
# the Southern Women graph
# (18 women, 14 events, an edge for each attendance, both ways), in two partitions with one hop of
# HALO. `HaloInspector` looks a node up by any of its ids; below it starts on **event 6**, given
# by its type-wise id. Read the table: event 6 is homogeneous id 6 (events come first), partition 1
# owns it, and the reshuffle gave it new id 16, or 7 among the events. It is also drawn in
# partition 0, as a HALO copy (ringed): some of the women who attended it live there. Hover any node
# in the views for the same facts on one line; click one and the table follows.

# %%
from graphpart.datasets import load_davis_southern_women
from graphpart.widgets import HaloInspector

davis = gp.partition(load_davis_southern_women(), 2, num_hops=1, seed=0)
inspector = HaloInspector(davis)
inspector.controls["kind"].value = "typed"
inspector.controls["ntype"].value = "event"
inspector.controls["node"].value = 6
inspector

# %% [markdown]
# And every id at once: `IdView` puts each node at its original homogeneous id (left) and its new id
# (right), one row per (type, owner). Before, events take ids 0-13 and women 14-31, whatever their
# owner; after, each partition's events and then its women form one block each. Hover a point for
# its type-wise and homogeneous ids; the same node lights up in the other plot. Below, hover an
# edge: the tooltip names its two ends (`event:8`, `woman:0`) and gives their ids source first in
# each numbering, homogeneous before and after, and type-wise after (`new type-wise ids 8 → 0`:
# event 8 and woman 0 of the new numbering).

# %%
from graphpart.widgets import IdView

IdView(davis)

# %%
loc = inspector.location
where = f"owner {loc.owner} (local {loc.local_id})"
print(f"{loc.ntype} {loc.orig_id}: homogeneous {loc.orig_homo_id}, {where},")
copies = "; ".join(f"part {q} (local {lid}, hop {h})" for q, lid, h in loc.halo) or "none"
print(f"new id {loc.shuffled_id} (type-wise {loc.shuffled_typed_id}), HALO copies: {copies}")

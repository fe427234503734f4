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
# # 03 · Prototyping `balance_ntypes` and `balance_edges`
#
# *The interactive views live in the running kernel: after reopening this notebook or
# restarting its kernel, run all cells again (Run > Run All Cells) and they come back.*
#
# METIS balances **node counts** by default. But a machine's work in an epoch is not its node count:
# * it computes losses only for its **training nodes**, so unevenly spread training nodes make some
#   machines finish late (every step waits for the slowest);
# * it aggregates over its **edges**, so a partition full of hubs does more work per node.
#
# DGL's `partition_graph` adds METIS constraints for both: `balance_ntypes` balances each class of a
# node array (typically the train mask), `balance_edges` balances in-degrees. Each constraint costs
# some edge cut. Here we measure how much, before paying for a real cluster run.

# %%
# %matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
import torch

import graphpart as gp
from graphpart import datasets, viz

# %% [markdown]
# ## A graph where it matters
#
# Real training sets are rarely spread uniformly over the graph (think of products that were
# labelled because they sold well). We build a stochastic block model with 8 communities of
# different density (so degrees differ between them) and put most training nodes in two communities.

# %%
sizes = [400] * 8
p_in = np.linspace(0.01, 0.06, 8)  # community i is denser than community i-1
probs = np.full((8, 8), 0.0008)
np.fill_diagonal(probs, p_in)
g = datasets.sbm(block_sizes=sizes, probs=probs, seed=0)
rng = np.random.default_rng(0)
block = g.ndata["label"].numpy()
# training nodes cluster in blocks 0-1
train = rng.random(g.num_nodes()) < np.where(block < 2, 0.5, 0.03)
g.ndata["train_mask"] = torch.from_numpy(train)
print(g, "\ntraining nodes:", int(train.sum()))

# %% [markdown]
# ## Node-only balance leaves work unbalanced
#
# Plain METIS, 4 parts. Bars are each partition's load divided by the mean: 1.0 is perfect; the
# legend gives each quantity's max/mean, which is what the slowest machine pays.

# %% jupyter={"source_hidden": true}
from graphpart.widgets import Exercise

plain = gp.partition(g, 4, seed=0)
ratio = plain.metrics.balance["train nodes"]
Exercise(
    "METIS balances nodes: each machine gets about 800. How many times the mean number of"
    " <i>training</i> nodes does the busiest machine get (1.0 is perfect)?",
    round(ratio, 2),
    tolerance=0.15,
    explain="Training nodes cluster in communities 0 and 1 (half their nodes train, 3%"
    " elsewhere), and METIS keeps communities whole: the machine that gets them gets their"
    " training nodes too, and every step waits for it. <code>balance_ntypes</code> below fixes"
    " this.",
    holds=ratio > 1.4 and plain.metrics.balance["nodes"] < 1.05,
)

# %%
ax = viz.plot_balance(plain, quantities=["nodes", "train nodes", "edges"])
# %% [markdown]
# Nodes are balanced, but one partition holds nearly twice its share of the training nodes, and
# the densest communities put a fifth more edges than the mean on one machine (the legend's
# max/mean). Every training step waits for the machine with the most work.
#
# ## Adding constraints
#
# `balance_ntypes=g.ndata["train_mask"]` makes METIS balance train and non-train nodes separately;
# `balance_edges=True` adds the in-degree of each class as another constraint.

# %%
by_train = gp.partition(g, 4, balance_ntypes=g.ndata["train_mask"], seed=0)
both = gp.partition(g, 4, balance_ntypes=g.ndata["train_mask"], balance_edges=True, seed=0)

fig, axes = plt.subplots(1, 3, figsize=(15, 4.6), layout="constrained", sharey=True)
names = ["nodes only", "+ train_mask", "+ train_mask + edges"]
tops = []
for ax, part, name in zip(axes, [plain, by_train, both], names):
    viz.plot_balance(part, ax=ax, quantities=["nodes", "train nodes", "edges"])
    ax.set_title(f"{name}: edge cut {100 * part.metrics.edge_cut_fraction:.1f}%")
    tops.append(ax.get_ylim()[1])
axes[0].set_ylim(0, max(tops))  # one scale for the three (the axes share it)
plt.show()

# %% [markdown]
# Each constraint flattens its bars, and the edge cut rises: METIS has less freedom to follow
# communities.
#
# ## Trainers inside machines
#
# A machine runs several trainers (one per GPU), each on its own share of the machine's training
# nodes, and every step waits for the slowest *trainer*. With `num_trainers_per_machine`, graphpart
# balances the machines first, then each machine's trainers on the same constraints. Left: the
# machines; right: every trainer (`machine.trainer`), lines between machines.

# %%
trained = gp.partition(
    g, 4, balance_ntypes="train_mask", balance_edges=True, num_trainers_per_machine=2, seed=0
)
fig, axes = plt.subplots(1, 2, figsize=(15, 4.6), layout="constrained", sharey=True)
viz.plot_balance(trained, ax=axes[0], quantities=["nodes", "train nodes", "edges"])
top = axes[0].get_ylim()[1]
ax = viz.plot_balance(
    trained, ax=axes[1], level="trainer", quantities=["nodes", "train nodes", "in-degree"]
)
axes[0].set_ylim(0, max(top, ax.get_ylim()[1]))  # machines and trainers on one scale
plt.show()

# %% [markdown]
# `trained.report()` lists the same figures as `trainer balance ...` lines, and `graphpart inspect`
# shows them for partitions on disk. The playground at the end of this notebook has a
# `trainers/machine` control: add a setting at 1, 2 and 4 and compare the `trainer nodes` column.
#
# ## The trade-off across settings
#
# A sweep over balance sources, `balance_edges` and METIS's imbalance tolerance (`ufactor`, in
# thousandths: 30 allows 3% above the mean), plotted as edge cut against the worst imbalance. Points
# on the dashed line are the best trade-offs: nothing else has both a lower cut and a lower
# imbalance.

# %%
from graphpart.sweep import grid, sweep, sweep_report

results = sweep(
    g,
    grid(
        part_method=["random", "metis"],
        num_parts=4,
        balance_ntypes=[None, "train_mask"],
        balance_edges=[False, True],
        ufactor=[10, 100],
    ),
)
viz.plot_tradeoff(results)
sweep_report(results)

# %% [markdown]
# Reading it: random partitioning is balanced on everything but cuts ~75% of edges. METIS without
# the train-mask constraint has the lowest cuts and the worst imbalance: some partition gets about
# twice its share of the training nodes (the worst point adds `balance_edges` and a 10% tolerance,
# which balance the edges, not the training load). Balancing the train mask fixes the training load,
# at the price of a higher cut (about twice METIS's lowest here); adding `balance_edges` evens the
# aggregation work too. A looser tolerance buys back some cut at the price of imbalance.
#
# ## Which setting trains fastest?
#
# Cut and imbalance are stand-ins; what a cluster run pays is the **epoch time**. graphpart
# estimates it by *replaying* the epoch: every trainer's mini-batches are drawn as DGL's sampler
# would draw them on these partitions, and each step is priced with a cluster model (network,
# sampling, feature gathering and GPU speeds, `graphpart.training.ClusterModel`). Every step waits
# for the slowest trainer, so the epoch is set by the **straggler**: the column `straggler` is the
# slowest trainer's busy time over the mean (1.00x: perfectly even). The column `epoch (est.)` is
# the estimate.
#
# `recommend` reads such a sweep: the settings no other beats on epoch, cut and replication at once
# (the Pareto set), and the one to pick. Estimates within 3% of the fastest are a tie
# (`graphpart.training.TIE`: another sampling seed moves an estimate that much); among ties the
# pick is the one that cuts fewest edges, so the pick is not always the very fastest, and its
# line says so.

# %%
from graphpart.recommend import recommend
from graphpart.training import TrainingSetup

setup = TrainingSetup(fanouts=(10, 5), batch_size=64)  # two trainers per machine, as partitioned
settings = grid(
    part_method=["random", "metis"],
    num_parts=4,
    balance_ntypes=[None, "train_mask"],
    num_trainers_per_machine=2,
)
priced = sweep(g, settings, training=setup)
rec = recommend(priced)
print(rec.headline)
rec

# %% [markdown]
# ## Playground
#
# Add settings one by one (or the presets) and compare them in the table and the trade-off plot.
# Given the same `setup` and starting at two trainers per machine, it prices every setting as the
# cell above did: the same setting, the same epoch. (The first sweep had one trainer per machine: a
# random split is drawn per trainer, so its `random k=4` cuts a few dozen edges more or less than
# here.) The pick is named above the table, by the same tie rule. Set `trainers/machine`, then press
# **Add setting**: the new row shows trainer-level balance at that count (the rows already there
# keep theirs). The presets try every **balance source** of the graph: `none`, each mask
# (`train_mask`), and each class column of the node data: here `label`, the community each node came
# from, so `bal=label` spreads every community evenly over the machines.

# %%
from graphpart.widgets import BalancePlayground

playground = BalancePlayground(g, num_parts=4, training=setup, num_trainers_per_machine=2)
playground.add(*playground.presets())
playground.wait()
playground

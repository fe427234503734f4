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
# # 08 · Which setting trains fastest? Pricing an epoch per trainer
#
# *The interactive views live in the running kernel: after reopening this notebook or
# restarting its kernel, run all cells again (Run > Run All Cells) and they come back.*
#
# Notebooks 01-04 measured what partitioning does to the *graph*: edge cut, load balance, HALO
# copies. A training run cares about something else: **how long one epoch takes**. Distributed
# training is synchronous, so every step waits for the slowest trainer, and each trainer's step is
# three things:
#
# - **sampling**: drawing the neighbours of its mini-batch, layer by layer. A node owned by another
#   machine is sampled *there*, at the cost of a network round trip;
# - **fetch**: gathering the feature row of every node the sample touched: from its own machine's
#   memory, from another machine over the network, or from its GPU cache. Which rows a machine
#   holds is DGL's rule (`features.RULES["dgl"]`, the default of notebook 06 too): the rows of the
#   nodes it owns; a HALO copy helps sampling, but its row is fetched from its owner;
# - **compute**: the GNN layers on the GPU, proportional to the sampled edges.
#
# `graphpart.training` replays an epoch the way DGL runs it — seeds split by DGL's `node_split`,
# DGL's layer-by-layer sampling — and counts, for every trainer and step, what each of the three
# asks. A `ClusterModel` turns the counts into seconds; every rate in it is a field you can change.
# graphpart's tests check the replay against real DGL 2.1 trainers loading mini-batches from real
# DistGraph servers: the same seeds, steps and local seeds, and remote input nodes within 3%.

# %%
# %matplotlib inline
import numpy as np

import graphpart as gp
from graphpart import datasets, viz
from graphpart.sweep import grid, sweep, sweep_report
from graphpart.training import ClusterModel, TrainingSetup, estimate_epoch, train_set
from graphpart.widgets import EpochCostView

# %% [markdown]
# ## Four settings on a graph with communities
#
# A stochastic block model: 8 communities of 1,000 nodes, dense inside, sparse between. The
# training nodes are not spread evenly: half of the first two communities' nodes train, only 5%
# of the others' (the usual case: a train split by time, by source or by label). The cluster has
# 4 machines with 2 trainers each. Each trainer takes its training nodes in mini-batches of 64
# **seeds** (the nodes whose loss the step computes) and samples GraphSAGE-style: 10 neighbours
# of each seed, then 5 of each of those. The nodes the sample reaches are the step's **input
# nodes**; each needs its feature **row** (128 floats here) on the trainer's GPU.
#
# `fanouts` are listed from the seeds outwards, the reverse of DGL's: DGL's
# `NeighborSampler([5, 10])` (or `--fan_out 5,10`) is `fanouts=(10, 5)` here.
#
# The four settings: a **random** split; plain **METIS** (fewest cut edges); METIS with
# `balance_ntypes=train_mask` (**bal=train_mask**: every machine gets about as many training
# nodes); and that plus `balance_edges=True` (**+edges**: about as many edges too).

# %%
g = datasets.sbm([1000] * 8, 0.01, 0.0005, seed=0)
rng = np.random.default_rng(0)
train = np.zeros(g.num_nodes(), bool)
train[:2000] = rng.random(2000) < 0.5
train[2000:] = rng.random(6000) < 0.05
g.ndata["train_mask"] = train
setup = TrainingSetup(fanouts=(10, 5), batch_size=64, num_trainers_per_machine=2)
settings = grid(
    part_method=["random", "metis"],
    num_parts=4,
    balance_ntypes=[None, "train_mask"],
    balance_edges=[False],
) + grid(part_method=["metis"], num_parts=4, balance_ntypes=["train_mask"], balance_edges=[True])
results = sweep(g, settings, training=setup)

# %% [markdown]
# Before the table: the four settings are random, METIS, METIS balancing training nodes, and METIS
# balancing training nodes and edges, on 4 machines of 2 trainers.

# %% jupyter={"source_hidden": true}
from graphpart.recommend import recommend
from graphpart.training import TIE, is_tie
from graphpart.widgets import Exercise

rec = recommend(results)
fastest = min(r.epoch.epoch_s for r in results)
Exercise(
    f"Which setting trains an epoch fastest? (Settings within {TIE:.0%} of the fastest tie: any"
    " of them counts; the answer is the one of them that cuts least.)",
    rec.best.setting.label,
    choices=[r.setting.label for r in results],
    also_right=[r.setting.label for r in results if is_tie(r.epoch.epoch_s, fastest)],
    explain=rec.headline + ". " + rec.why,
    holds=is_tie(rec.best.epoch.epoch_s, fastest),
)

# %%
sweep_report(results)

# %% [markdown]
# The table has two new columns: the **estimated epoch** (under the default model: a 10 Gb/s
# network) and the **straggler** ratio (the busiest trainer's time over the mean; 1.0 is perfect
# balance). Sampling is random, so a gap of a few percent between two settings can flip with the
# seed: read differences under 3% as a tie (`graphpart.training.TIE`, the rule `recommend`, the
# playground and the view below all use). Cut against epoch time, with the best
# trade-offs joined:

# %%
ax = viz.plot_tradeoff(results, imbalance="epoch")

# %% [markdown]
# The lowest cut is not the fastest epoch: plain METIS cuts the fewest edges, yet its epoch is no
# faster than a random split's. Ask each estimate why its slowest trainer is slow:

# %%
for r in results:
    print(f"{r.setting.label:32s} {r.epoch.why()}")

# %% [markdown]
# ## Where remote seeds come from
#
# DGL's `node_split(..., force_even=True)` (its default) sorts the training ids and cuts them into
# one even slice per machine, *whoever owns them*. After partitioning, DGL renumbers nodes so that
# each machine owns one contiguous id range (notebook 02, "partition-major ids"); that makes a
# slice mostly the
# machine's own nodes — but only if every machine owns about the same number of training nodes.
# Plain METIS puts the two train-heavy communities on few machines, so the other machines' slices
# run into their neighbours' id ranges: those seeds are remote, and each is sampled and fetched
# over the network. `balance_ntypes="train_mask"` keeps the training nodes even:

# %%
for r in results:
    c = r.epoch.counts
    remote = 1 - c.per_trainer("seeds_local").sum() / c.per_trainer("seeds").sum()
    owned = train_set(r.partitioning).per_machine.tolist()
    print(f"{r.setting.label:32s} train nodes per machine {owned}, remote seeds {remote:.0%}")

# %% [markdown]
# Each bar below is one trainer's epoch split into its three parts; trainers are grouped by
# machine. Plain METIS first, then with the train mask balanced:

# %%
by_label = {r.setting.label: r for r in results}
ax = viz.plot_trainer_times(by_label["metis k=4"].epoch)

# %%
ax = viz.plot_trainer_times(by_label["metis k=4 bal=train_mask"].epoch)

# %%
by_label["metis k=4"].epoch.table()

# %% [markdown]
# Under plain METIS, the trainers of machines 1 and 2 (few training nodes of their own) get most
# of their seeds from other machines, and their fetch bars are the longest: they set every step's
# pace. Balancing the train mask evens the bars out, yet fetch still dominates: even with local
# seeds, half or more of the input rows two hops out belong to other machines. That is why
# balancing saves about a tenth of the epoch, not more.
#
# (`force_even=False` would keep every seed local instead, at the price of machines with more
# seeds than others: the replay takes it as `TrainingSetup(force_even=False)`.)
#
# ## The network decides which setting wins
#
# The counts do not depend on the cluster; only the prices do. Re-pricing the same counts under a
# 1, 10 and 100 Gb/s network takes no new sampling:

# %%
for gbit in (1, 10, 100):
    model = ClusterModel(network_gbit_s=gbit)
    times = {r.setting.label: estimate_epoch(r.epoch.counts, model).epoch_s for r in results}
    best = min(times, key=times.get)
    print(f"{gbit:>3} Gb/s: fastest {best!r}")
    print("          " + ", ".join(f"{k} {v * 1e3:.2f} ms" for k, v in times.items()))

# %% [markdown]
# On a slow network every remote row is expensive, so the balanced METIS settings win: they cut
# fewer edges than random *and* keep seeds local. On a fast network remote rows are cheap and
# what is left is the balance of work, where a random split is hard to beat. The widget below
# lets you set the machine model yourself: drag the network slider or press a preset, and watch
# which setting wins and why (`calibrate` measures this machine's gather and sampling speed).
#
# Below the settings, one bar per trainer of the setting chosen under *show trainers of*. **Hover
# a trainer's bar** and the graph under it shows what that trainer does in an epoch: its seeds
# (purple), the rows it read on its own machine (blue) and the rows it had to fetch from another
# machine (red): the red nodes are what its *fetch* segment pays for. Hover a node for how many of
# the trainer's batches read it. `from_sweep` replays each trainer node by node the first time you
# point at it, with the same setup the sweep priced.

# %%
view = EpochCostView.from_sweep(results, setup)
view

# %% [markdown]
# ## Is partitioning worth it?
#
# METIS usually takes longer than a random split (the table above has both times). It pays that
# back only if its faster epochs add up to more than the extra partitioning time. Each line below
# starts at the setting's partitioning time (measured here: `SweepResult.seconds`, partitioning
# and its metrics on this machine) and rises by its estimated epoch (the cluster model, 10 Gb/s);
# past the epoch where it crosses the random split's line for good, it has paid for itself
# (`graphpart.recommend.break_even`).

# %%
import math

from graphpart.recommend import break_even

ax = viz.plot_break_even(results, "random k=4", max_epochs=200)
base = by_label["random k=4"]
width = max(len(r.setting.label) for r in results)
for r in results:
    if r is not base:
        n = break_even(r, base)
        per_epoch = f"{(r.epoch_s - base.epoch_s) * 1e3:+.2f} ms per epoch"
        if is_tie(max(r.epoch_s, base.epoch_s), min(r.epoch_s, base.epoch_s)):
            per_epoch += f" (a tie: within {TIE:.0%})"
        when = "never pays back" if n is None else f"paid back after {math.ceil(n):,} epochs"
        print(
            f"{r.setting.label:>{width}}: {1e3 * (r.seconds - base.seconds):+.1f} ms to partition, "
            f"{per_epoch}: {when}"
        )

# %% [markdown]
# A setting slower per epoch never pays its partitioning back, however good its cut (even one
# that was quicker to partition falls behind after a while). Plain METIS is slower here by a
# hair: its epoch ties with the random split's (the 3% rule above), since its slowest trainer
# still gets most of its seeds from other machines. So in the long run it stays behind, by a
# margin too small to matter: a tie means the two train alike. The balanced settings are faster
# per epoch, by more than the tie, and pay their partitioning back after the epochs printed (the
# partitioning times are measured on this machine, so those counts change a little from run to
# run). A graph is partitioned once and trained on many times (every model, every
# hyper-parameter search), which divides its partitioning time among all those runs.

# %% [markdown]
# ## R-MAT: when the cut hardly matters
#
# R-MAT graphs (skewed degrees, like web and social graphs) have no communities to keep together:
# two hops from any seed reach hubs everywhere. The same four settings, with 10% of the nodes in a
# random train mask:

# %%
rmat = datasets.rmat(14, seed=0, train_frac=0.1)
rmat_results = sweep(rmat, settings, training=setup)
for r in rmat_results:
    c = r.epoch.counts
    remote_rows = c.per_trainer("inputs_remote").sum() / c.per_trainer("inputs").sum()
    print(
        f"{r.setting.label:32s} cut {r.edge_cut_fraction:.0%}, remote rows {remote_rows:.0%}, "
        f"epoch {r.epoch_s * 1e3:.2f} ms"
    )

# %% [markdown]
# METIS cuts half as many edges as a random split, yet most input rows stay remote under every
# setting: on such graphs the partitioning changes the epoch little, and a feature cache is the
# lever that moves it: `TrainingSetup(cache="lru", cache_ratio=0.05)` prices each trainer with a GPU
# cache of 5% of the rows (notebook 06 shows the policies at work).

# %% [markdown]
# ## WordNet, with typed train nodes
#
# A real heterogeneous graph: WordNet's synsets. The train nodes are typed: 20% of the nouns and
# of the verbs, no adjectives or adverbs. Here 4 machines run one trainer each (the
# partitioning's). DGL splits each type's training nodes on its own (in
# type-wise ids) and samples the fanout once per relation type, and so does the replay. It needs
# the Debian package `wordnet-base`; without it a small heterograph stands in.

# %%
try:
    wn = datasets.load_wordnet()
except gp.errors.DatasetNotFoundError:
    wn = datasets.load_davis_southern_women()
rng = np.random.default_rng(0)
typed = {t: rng.random(wn.num_nodes(t)) < 0.2 for t in wn.ntypes if t in ("noun", "verb")}
typed = typed or {wn.ntypes[0]: rng.random(wn.num_nodes(wn.ntypes[0])) < 0.2}
wn_settings = {
    "random": dict(part_method="random"),
    "METIS": dict(),
    "METIS + balance train": dict(balance_ntypes={t: m.astype(int) for t, m in typed.items()}),
}
wn_estimates = []
for label, kwargs in wn_settings.items():
    p = gp.partition(wn, 4, seed=0, **kwargs)
    setup = TrainingSetup(fanouts=(10, 5), batch_size=512, train=typed)
    wn_estimates.append(setup.estimate(p, label=label))
ax = viz.plot_epoch_estimates(wn_estimates)

# %%
for est in wn_estimates:
    print(f"{est.label:22s} {est.why()}")

# %% [markdown]
# With WordNet, METIS is the fastest here. A random split sends most input rows over the network
# (the orange part); METIS keeps most rows and sampling requests on the machine, and its slowest
# trainer is busy *sampling*: the fanout applies per relation type, so a synset with many kinds of
# pointers draws many edges. Balancing the typed train nodes does not help here (it comes out a
# little slower than plain METIS, within the noise of a few percent): METIS already left only a
# few percent of the seeds remote.

# %% [markdown]
# ## Your own partitions: a partitioning written by DGL
#
# The replay reads any partitioning graphpart can open, including DGL's own. This one was written
# by DGL 2.1's `partition_graph` (karate club, 2 parts, METIS) and ships with graphpart; it trains
# on the 12 nodes of DGL's own `train_mask`. The same table comes from the command line, given
# the config path printed below:
# `graphpart cost PATH/karate.json --fanouts 5,5 --batch-size 4 --num-trainers-per-machine 2`.

# %%
dgl_config = datasets.peer_partitions("karate", "dgl")
print(dgl_config)
dgl_setup = TrainingSetup(fanouts=(5, 5), batch_size=4, num_trainers_per_machine=2)
dgl_est = dgl_setup.estimate(dgl_config, label="DGL's files")
dgl_est.table()

# %% [markdown]
# ## What the model assumes
#
# Every rate, its default and where the default comes from. Change any of them with
# `ClusterModel(network_gbit_s=25, ...)` or `model.with_(...)`; measure this machine's gather and
# sampling speed with `graphpart.training.calibrate()`.

# %%
for name, text in ClusterModel().describe().items():
    print(f"{name:16s} {text}")

# %% [markdown]
# And what it leaves out, so read the estimates as a *comparison* of settings on one cluster,
# not a forecast of your run:
#
# - **no contention**: a machine serving another's sampling requests is assumed idle, so spreading
#   requests over many machines (as a random split does) looks cheaper than it is under load;
# - **no overlap**: a step's sampling, fetch and compute add up, while DGL can prepare the next
#   mini-batch during the GPU's work;
# - **GraphSAGE-mean compute**: attention or wider layers shift the balance towards compute.
#
# The counts underneath (seeds, requests, edges and rows per trainer and step) make no such
# assumptions: they follow DGL's trainers step by step, and the tests check them against real DGL.

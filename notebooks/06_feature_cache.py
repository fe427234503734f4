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
# # 06 · Feature caches: which rows to keep on the GPU, and what partitioning does to lookups
#
# *The interactive views live in the running kernel: after reopening this notebook or
# restarting its kernel, run all cells again (Run > Run All Cells) and they come back.*
#
# After partitioning, the cost of GNN training moves to **feature lookup**. Every mini-batch samples
# a few hops of neighbours around its seed nodes, and the trainer must gather the feature row of
# *every* node the sample touched. Node features rarely fit in GPU memory, so systems keep a **hot**
# part on the GPU and the rest (the **cold** part) in host memory, and every cold row crosses the
# PCIe bus for every batch that needs it.
#
# The share of looked-up rows found in the hot part is the **hit rate**. This notebook measures it
# with real sampling and real lookups:
#
# 1. a `Feature` store with a 10% hot part, as GLT builds one;
# 2. *which* 10%: node degree, GNNLab's pre-sampling, or a dynamic cache (LRU, FIFO, CLOCK, SIEVE),
#    against the best any cache could do (the oracles);
# 3. the same on WordNet;
# 4. what partitioning does: which lookups stay on the trainer's machine and which go remote,
#    by the rule of a named system (DGL's, GLT's);
# 5. a box of eight GPUs: one GPU, a replica of the hot rows per GPU, or a replica per group of
#    GPUs joined by NVLink (GLT's `DeviceGroup`).

# %%
# %matplotlib inline
import torch

import graphpart as gp
from graphpart import datasets, features, viz
from graphpart.sampling import NeighborLoader, Topology

# %% [markdown]
# ## A power-law graph and a sampler
#
# R-MAT graphs have the skewed degrees of real web and citation graphs: a few hubs are neighbours of
# very many nodes. We sample **in-neighbours** (what message passing into a node reads) with fanouts
# (10, 5): 10 neighbours of each seed, then 5 of each of those. A random 10% of nodes is the train
# set.

# %%
g = datasets.rmat(16, edge_factor=16, seed=0)
topo = Topology.from_graph(g)  # CSC: in-neighbours per node
n = topo.num_nodes
train = torch.randperm(n, generator=torch.Generator().manual_seed(0))[: n // 10]
loader = NeighborLoader(topo, fanouts=[10, 5], seeds=train, batch_size=256, seed=0)
mb = next(iter(loader))
print(f"{n:,} nodes, {topo.num_edges:,} edges; {len(loader)} mini-batches per epoch")
print(
    f"one mini-batch: {len(mb.seeds)} seeds -> {[len(h) for h in mb.hops]} new nodes per hop "
    f"-> {len(mb.input_nodes):,} feature rows to look up"
)

# %% [markdown]
# A batch of 256 seeds needs thousands of rows: the sample fans out. Now the store. `Feature` takes
# the full feature tensor, an **order** (hot rows first) and a `split_ratio`; `feature[ids]` returns
# exactly `x[ids]` and records, per lookup, how many rows were hits and how many bytes came from
# each part.

# %% jupyter={"source_hidden": true}
from graphpart.widgets import Exercise

x = torch.randn(n, 64)  # 64 float32 features per node: 256 bytes a row
order = features.degree_order(topo, "in")  # GLT's sort_by_in_degree
feat = features.Feature(x, split_ratio=0.10, order=order)
for mb in loader:  # one epoch: the answer below, printed by the next cell
    rows = feat[mb.input_nodes]
top = 100 * feat.stats.hit_rate
Exercise(
    "The GPU caches 10% of the rows: those of the nodes with the highest in-degree. What"
    " percentage of the row lookups of an epoch will it serve?",
    round(top),
    tolerance=0.15,
    unit="%",
    explain="Far more than 10%: on a power-law graph the sampler reaches a node once"
    " per edge, so the few nodes with many edges are looked up again and again. A random 10% of"
    " the rows would serve about 10%.",
    holds=top > 30,
)

# %%
assert torch.equal(rows, x[mb.input_nodes])  # the store returns the true rows
t = feat.stats.totals()
print(feat)
print(
    f"{feat.stats.num_lookups} batches, {sum(feat.stats.rows):,} rows looked up, hit rate "
    f"{feat.stats.hit_rate:.1%}: "
    f"{t['hot_bytes'] / 1e6:.1f} MB read from the hot part, "
    f"{t['cold_bytes'] / 1e6:.1f} MB copied from host memory"
)

# %% [markdown]
# With 10% of the rows cached by in-degree, well over half of the rows looked up are hits: the hubs
# are in almost every sample. The plot shows the hit rate batch after batch (thin: each batch, bold:
# so far).

# %%
ax = viz.plot_hit_rate_trace(
    feat.stats, title="Feature(split_ratio=0.1, order=in-degree): one epoch"
)
# %% [markdown]
# ## Which rows? Static orderings, dynamic caches, and the oracles
#
# * **static** orderings fix the hot set before training: `random`, `in-degree` (GLT), `out-degree`
#   (PaGraph) and `presample` (GNNLab's PreSC: sample one epoch first, count how often each node is
#   looked up, cache the most looked-up);
# * **dynamic** caches start empty and admit every miss, evicting by a policy: LRU, FIFO, CLOCK,
#   SIEVE;
# * two **oracles** know the measured epoch in advance: the best *static* set (the most looked-up
#   nodes of that very epoch) and Belady's replacement, the best *dynamic* cache. No policy can beat
#   them.
#
# We record three pre-sampling epochs and the next (measured) epoch as **traces**, then replay the
# measured trace through every policy at several cache sizes. The dynamic caches are warmed with the
# pre-sampling epochs, as they would be after some training.

# %%
# GNNLab's pre-sampling: a few epochs of sampling alone
pre = features.record_trace(loader, epochs=3)
trace = features.record_trace(loader, epochs=1)  # the epoch we measure
orders = {
    "random": features.random_order(n, 0),
    "in-degree": features.degree_order(topo, "in"),
    "out-degree": features.degree_order(topo, "out"),
    "presample": features.oracle_order(pre),
}
ratios = [0.02, 0.05, 0.1, 0.2, 0.4]
table = features.hit_rate_table(trace, ratios, orders, warmup=pre)

# %%
table

# %%
ax = viz.plot_hit_rate_curve(
    table, reference={"GNNLab papers100M: degree": (0.10, 0.496), "pre-sampling": (0.10, 0.983)}
)
# %% [markdown]
# What to read in it:
#
# * **random** caching gives a hit rate equal to the cache ratio: the diagonal every policy must
#   beat.
# * On a power-law graph with a uniformly random train set, **degree** is already close to the
#   static oracle, and **out-degree** edges out in-degree: sampling in-neighbours reaches a node
#   once per *out*-edge. **Pre-sampling** measures exactly what the sampler does and lands within a
#   few percent of the oracle without knowing anything about the graph. GNNLab's crosses come from
#   ogbn-papers100M, where the train set is a small, non-random subset: there degree is misleading
#   (49.6%) and pre-sampling is not (98.3%). The pre-sampling cross sits above this graph's oracle
#   curve because it is another graph: with a small train set, a few rows serve most lookups, so
#   10% of papers100M's rows hold nearly all of them; the curves here bound this graph only.
# * **Dynamic** caches trail the static ones while the cache is small: each batch evicts rows that
#   the next batch needs again. SIEVE, which keeps rows that were hit in place, does best among
#   them (with room for 40% of the rows it draws level with pre-sampling); FIFO, which ignores hits,
#   worst.
# * **Belady** is above everything: it may keep a different set after every batch, knowing the
#   future. It starts with the rows the first batches need, which is why it opens at 100% in the
#   next plot.
#
# The same runs, batch by batch, at a 10% cache:

# %%
i = ratios.index(0.1)
runs = [table.runs[p][i] for p in ("in-degree", "presample", "lru", "sieve", "belady")]
ax = viz.plot_hit_rate_trace(runs)
# %% [markdown]
# Misses are what cost: every miss is one row copied from host memory. Per epoch:

# %%
row_bytes = x[0].numel() * x.element_size()
policies = ("random", "in-degree", "presample", "lru", "sieve", "oracle")
ax = viz.plot_bytes_per_epoch([table.runs[p][i] for p in policies], row_bytes)
# %% [markdown]
# ## WordNet
#
# A real, sparse, heterogeneous graph: WordNet's synsets linked by pointers (hypernyms, antonyms,
# ...), sampled in its homogeneous ids. It needs the Debian package `wordnet-base`; without it we
# use a smaller SBM so the notebook still runs.

# %%
try:
    wn = datasets.load_wordnet()
    name = "WordNet"
except gp.errors.DatasetNotFoundError:
    wn = datasets.sbm(block_sizes=[2000] * 4, p_in=0.004, p_out=0.0005, seed=0)
    name = "SBM (no WordNet here)"
wtopo = Topology.from_graph(wn)
wn_perm = torch.randperm(wtopo.num_nodes, generator=torch.Generator().manual_seed(0))
wn_train = wn_perm[: wtopo.num_nodes // 20]
wloader = NeighborLoader(wtopo, [10, 5], seeds=wn_train, batch_size=512, seed=0)
wpre, wtrace = features.record_trace(wloader, 1), features.record_trace(wloader, 1)
wtable = features.hit_rate_table(
    wtrace,
    [0.01, 0.05, 0.1, 0.2],
    {
        "random": features.random_order(wtopo.num_nodes, 0),
        "in-degree": features.degree_order(wtopo, "in"),
        "out-degree": features.degree_order(wtopo, "out"),
        "presample": features.oracle_order(wpre),
    },
    dynamic=("lru", "sieve"),
    warmup=wpre,
)
ax = viz.plot_hit_rate_curve(wtable)
ax.set_title(f"{name}: hit rate vs cache size", fontsize=10)
print(
    f"{name}: {wtopo.num_nodes:,} nodes, {wtopo.num_edges:,} edges, "
    f"{wtrace.num_lookups:,} lookups per epoch"
)
# %% [markdown]
# WordNet is sparse and its degrees far less skewed than R-MAT's, so every curve sits lower. And
# here **pre-sampling clearly beats degree**: the train set is a small 5% of the nodes, and the
# nodes that 2-hop samples from *those* seeds visit most are not simply WordNet's hubs. This is
# GNNLab's point on papers100M: degree guesses, pre-sampling measures.
#
# ## Partitioning: which rows a trainer's machine holds, by the rule of a named system
#
# In distributed training each machine runs a trainer over the seeds *its* partition owns. Which
# feature rows that machine holds differs between systems, so graphpart names the rule
# (`features.RULES`) and every count says which one it used:
#
# * **DGL** (`rule="dgl"`, the default, and what notebook 08's epoch replay models): the rows of
#   the nodes the partition owns. HALO copies (`num_hops=1`) carry *structure* for sampling; a HALO
#   node's feature row is fetched from its owner like any other remote row.
# * **GLT** (`rule="glt"`): the owned rows plus a cache of the hottest remote rows, chosen from a
#   pre-sampling run of that trainer (GLT's frequency partitioner).
# * **HALO rows kept** (`rule="halo-copies"`): what keeping the HALO nodes' rows as well would
#   buy. Neither DGL nor GLT does this; it prices the idea.

# %%
sb = datasets.sbm(block_sizes=[500] * 4, p_in=0.02, p_out=0.001, seed=0)
sb_topo = Topology.from_graph(sb)
rules = {
    "DGL": {},
    "GLT, 5% remote cache": {"rule": "glt", "remote_cache": 0.05},
    "HALO rows kept": {"rule": "halo-copies"},
}
runs = {}
for method in ("random", "metis"):
    p = gp.partition(sb, 4, part_method=method, num_hops=1, seed=0)
    for label, kwargs in rules.items():
        acc = features.access_by_partition(p, sb_topo, [10, 5], batch_size=128, seed=0, **kwargs)
        runs[f"{method}: {label}"] = (p, acc)
features.locality_table(runs, title="4 trainers, fanouts (10, 5): where lookups are served")

# %% [markdown]
# How to read the table (rows are summed over the 4 trainers, each adds up to 100%):
#
# * Under **DGL's rule** about three lookups in four leave the machine with **random**
#   partitioning: with 4 parts, 3 of every 4 neighbours live elsewhere. **METIS** cuts only about
#   an eighth of the edges, yet keeps only about 40% of the lookups local: a row is counted once
#   per batch, and a batch of 128 seeds with 10 then 5 neighbours each already touches nearly every
#   node of its 500-node block, so what it reaches beyond the block is almost all remote. (With
#   larger blocks, or smaller batches, METIS keeps more.) The HALO copies do not change these
#   numbers: DGL fetches their rows.
# * **GLT's remote cache** of 5% of the rows serves a further 5-6% of all lookups (7-11% of those
#   that would be fetched). Its pre-sampling epoch moves the sampler on, so its measured batches
#   are other batches than DGL's: the *local inner* shares differ a little.
# * **Keeping the HALO rows** would serve most of what DGL fetches, but random partitioning's HALO
#   is most of the graph: *HALO nodes (all parts)* sums the 4 partitions' HALO nodes, about 1,400
#   of the 1,500 nodes each partition does not own. Memory traded for traffic. METIS's HALO is less
#   than half as large and still halves the fetches.
#
# Per trainer, METIS under GLT's rule:

# %%
p = gp.partition(sb, 4, part_method="metis", num_hops=1, seed=0)
ax = viz.plot_partition_access(
    features.access_by_partition(
        p, sb_topo, [10, 5], batch_size=128, rule="glt", remote_cache=0.05, seed=0
    )
)

# %% [markdown]
# ## One GPU, a replica per GPU, a replica per group
#
# One GPU can spare memory for, say, 2.5% of the rows: the hottest 2.5%, by in-degree (GLT's
# `sort_by_in_degree`; pre-sampling would lift every panel below alike). A training box has eight
# such GPUs, each running a trainer over an eighth of the seeds, and GLT offers two ways to use
# their memory:
#
# * **a replica per GPU** (`DeviceGroup(i, [i])` for each GPU): every GPU holds the same hottest
#   2.5%; a miss goes to host memory over PCIe. Each GPU is the **one GPU** of the first panel
#   (which trains alone, on every seed), eight times over.
# * **a replica per group** (`DeviceGroup(0, [0, 1, 2, 3])`, `DeviceGroup(1, [4, 5, 6, 7])`): the
#   four GPUs of an NVLink group hold *different* quarters of the hottest 10%, so the group caches
#   four times the rows; a row held by a peer comes over NVLink, several times faster than PCIe.
#
# `FeatureBox` places the rows GLT's way and counts every lookup's rows per place: the GPU's own
# shard, each peer's, the host. Its `split_ratio` is GLT's: the share of the table each *group*
# holds, split over the group's GPUs, so a group of four holding 10% costs each GPU 2.5%. It holds
# no rows, so any box can be simulated here; on a machine with GPUs
# `Feature(x, split_ratio, device_group_list=..., device=k)` places the real tensors and counts
# the same (`benchmarks/RESULTS.md` has an H200's numbers). The time comes from
# `features.LinkModel`: every rate a field; the places are read at once, so a lookup takes its
# fixed latency plus its longest read (bytes over that place's rate). The panel titles give the
# slowest GPU's time summed over its lookups of one epoch.

# %%
from graphpart.features import DeviceGroup, FeatureBox, replay_box


def epoch_trace(topo, seeds, gpu=0):
    """One trainer's lookups over one epoch of 2-hop samples of ``seeds``."""
    loader = NeighborLoader(topo, [10, 5], seeds=seeds, batch_size=256, seed=gpu)
    return features.record_trace(loader, 1)


def box_runs(topo, seeds, budget, row_bytes=256):
    """One GPU alone, then eight trainers (an eighth of the seeds each) and two ways to hold the
    hot rows; ``budget``: the share of all rows one GPU can hold. Returns the runs and the eight
    traces."""
    order = features.degree_order(topo, "in")
    traces = {gpu: epoch_trace(topo, s, gpu) for gpu, s in enumerate(torch.tensor_split(seeds, 8))}
    eight_alone = [DeviceGroup(i, [i]) for i in range(8)]
    two_fours = [DeviceGroup(0, [0, 1, 2, 3]), DeviceGroup(1, [4, 5, 6, 7])]
    settings = {  # split_ratio is a group's share: a group of four holds 4 x budget
        "one GPU, every seed": ([DeviceGroup(0, [0])], budget, {0: epoch_trace(topo, seeds)}),
        "a replica per GPU": (eight_alone, budget, traces),
        "a replica per group of 4": (two_fours, 4 * budget, traces),
    }
    runs = [
        replay_box(t, FeatureBox(topo.num_nodes, r, grp, order=order, row_bytes=row_bytes), label)
        for label, (grp, r, t) in settings.items()
    ]
    return runs, traces


box, rmat_traces = box_runs(topo, train, budget=0.025)
fig = viz.plot_box(box)
_ = fig.suptitle("R-MAT: each GPU's reads by place", fontsize=10, y=1.02)

# %%
fig = viz.plot_box(box_runs(wtopo, wn_train, budget=0.025)[0])
_ = fig.suptitle(f"{name}: each GPU's reads by place", fontsize=10, y=1.02)

# %%
per_group = box[2]
per_group.table()

# %% [markdown]
# What the figures show:
#
# * **A replica per GPU** is one GPU eight times over: the same hit rate as the GPU alone (about a
#   third of R-MAT's reads), and two reads in three cross PCIe on every GPU.
# * **A replica per group** doubles the hit rate on R-MAT (and on WordNet) for the same memory. The
#   price: most hits now come from a peer over NVLink -- half of them on GPUs 0 and 4, which hold
#   their group's hottest quarter, and three quarters or more on the others. The table gives the
#   bytes per place; `per_group.link_bytes()` gives them per GPU pair, what each NVLink carries.
# * Time follows bytes per place, not hit rate: a lookup takes as long as its longest read, and
#   the host's over PCIe is the slow one, so moving reads from PCIe to NVLink is what the group
#   buys.
#
# Watch the group of four fill up: **Step** streams the next mini-batch of every GPU through the
# box; each NVLink arc widens with the bytes it carried, each PCIe line with the rows read from
# the host. Hover a GPU or a line for its numbers (written under the drawing), click a GPU for
# what it read from where.

# %%
from graphpart.widgets import BoxView

box8 = FeatureBox(  # a fresh box: the view starts from no lookups
    n,
    0.10,
    [DeviceGroup(0, [0, 1, 2, 3]), DeviceGroup(1, [4, 5, 6, 7])],
    order=features.degree_order(topo, "in"),
    row_bytes=256,
)
box_view = BoxView(box8, rmat_traces)
box_view.step(2)  # what pressing Step twice does
box_view

# %% [markdown]
# ## Watch it happen: `CacheSimulator`
#
# Pick a cache ratio and policies, press **play** (or **Step**): each tick samples the next
# mini-batch, looks its nodes up in every chosen cache, and redraws the hit rates. Choose a trainer
# under *seeds* to see where its lookups land. (Oracles need the whole epoch in advance, so they are
# not streamed.) It runs on the R-MAT graph from the top of this notebook, split into 4 partitions
# with one hop of HALO: its skewed degrees are where caches pay off. A **random** cache is in the
# list as the baseline the others must beat.
#
# Below the plots, the **graph of the latest mini-batch**: a dozen of its seeds on the inner
# circle, the nodes their first hop sampled on the next ring, the second hop outside. Each node is
# coloured by where the trainer got its feature row under DGL's rule: the GPU cache, its own
# partition, or a remote machine (a HALO node's row too: the copy serves sampling only). Hover a
# node to see why the cache held it or not (its in-degree and rank against the cache's size, or
# when LRU last saw it); pick another policy under *graph shows*.

# %%
from graphpart.widgets import CacheSimulator

rp = gp.partition(g, 4, num_hops=1, seed=0)
sim = CacheSimulator(
    rp,
    policies=("random", "in-degree", "presample", "lru"),
    fanouts="10,5",
    batch_size=256,
    cache_ratio=0.1,
)
sim.controls["partition"].value = 0  # seeds: the trainer of partition 0
sim.step(5)  # what pressing Step five times does
sim

# %%
s = sim.session
rates = s.hit_rates()
last = {r.policy: r.batch_hit_rate()[-1] for r in s.runs()}
print(f"a cache of {s.capacity:,} rows ({s.capacity / n:.0%} of all rows), {s.num_batches} batches")
for policy, rate in rates.items():
    print(
        f"{policy:>10}: {rate:6.1%} of lookups so far, {last[policy]:6.1%} in batch {s.num_batches}"
    )
for policy in ("in-degree", "presample"):
    print(
        f"{policy} serves {rates[policy] / rates['random']:.1f}x the lookups random caching serves"
    )
print(
    f"LRU warmed by pre-sampling, over a whole epoch (the table above): {table.rates['lru'][i]:.1%}"
)

# %% [markdown]
# What the numbers show:
#
# * **random** hits about as often as the cache is large: a random 10% of the rows serves about 10%
#   of the lookups.
# * **in-degree** and **pre-sampling** serve about two lookups in three from the very first batch,
#   several times what random serves: the hubs every sample reaches are in the cache before
#   training starts.
# * **LRU** starts empty, so its first batch misses every row and its running rate lags. Its rate
#   in the latest batch shows where it is heading: close to the warmed LRU of the table above, and
#   still below the static orders (each batch evicts rows the next one needs again).
#
# Press play to watch the running rates settle.

# %% [markdown]
# ## Take-aways
#
# * A small hot part catches a large share of lookups on skewed graphs: order it by what the sampler
#   actually does (pre-sampling) and it performs like the oracle.
# * Dynamic caches need no pre-processing, but trail a good static order when accesses are stable.
# * Partitioning decides how many lookups leave the machine; which rows a machine holds is a
#   system's rule: DGL fetches even its HALO copies' rows, GLT adds a cache of hot remote rows.
# * On a box of GPUs, a replica of the hot rows per NVLink group caches more than a replica per
#   GPU, and turns PCIe reads into NVLink reads.
#
# The benchmark `benchmarks/feature_cache.py` runs the same comparison on R-MAT scale 20 and
# measures the simulator's and the store's speed (see `benchmarks/RESULTS.md`).

"""Write the tutorial notebooks 01-07 (outputs cleared). Run: .venv/bin/python tools/build_notebooks.py

The notebooks are committed; this script is how they are edited, so that a
change is reviewed as Python text rather than as notebook JSON.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

OUT = Path(__file__).resolve().parents[1] / "notebooks"


def md(text: str):
    return new_markdown_cell(text.strip("\n"))


def code(text: str):
    return new_code_cell(text.strip("\n"))


def write(name: str, cells: list) -> None:
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})
    nbformat.write(nb, OUT / name)


SETUP = """
%matplotlib inline
import matplotlib.pyplot as plt
import numpy as np
import torch
import graphpart as gp
from graphpart import datasets, viz
"""

# --------------------------------------------------------------------------- 01
write("01_partitioning_basics.ipynb", [
    md("""
# 01 · Partitioning basics: random vs METIS, and what an edge cut costs

A graph too big for one machine is split into **partitions**, one per machine. Each machine trains a GNN on
its own nodes, but a GNN layer aggregates messages from *neighbours*, and some neighbours live on other
machines. Every edge whose two ends sit in different partitions — a **cut edge** — is a message (a feature
vector, or a hidden state) that must cross the network, at every layer, in every epoch.

So a good partitioning does two things at once:
* **few cut edges** — less communication;
* **balanced parts** — no machine waits for a slower, overloaded one.

This notebook compares the two classic ways to assign nodes: at random, and with METIS, a multilevel
graph partitioner that minimises the edge cut under a balance constraint.
"""),
    code(SETUP),
    md("""
## A small real graph: Zachary's karate club

34 members of a club, an edge where two of them met outside the club. We split it into 2 parts twice.
In the drawings, node colour is the partition; **dark dashed lines are cut edges**.
"""),
    code("""
karate = datasets.load_karate_club()
rand = gp.partition(karate, 2, part_method="random", seed=0)
metis = gp.partition(karate, 2, part_method="metis", seed=0)

fig, axes = plt.subplots(1, 2, figsize=(13, 5), layout="constrained")
viz.draw_partition(rand, ax=axes[0], legend=False)
viz.draw_partition(metis, ax=axes[1]);
"""),
    md("""
Both splits are perfectly balanced (17 nodes each), but the random one cuts about half of all edges:
a random pair of neighbours lands on different machines half of the time. METIS keeps the two
communities together and cuts a small fraction. The numbers are in the metrics report:
"""),
    code("""
metis.report()
"""),
    md("""
*Edge cut* counts directed edges (the karate graph stores each friendship in both directions).
*Communication volume* counts, for every node, how many other partitions hold one of its neighbours:
that is how many copies of its features must be sent when each machine fetches each remote feature
once. *Replication factor* is how many nodes the machines hold in all (own + HALO copies, see notebook 02)
per node of the graph.

## How the cut grows with the number of machines

More partitions means more boundaries. `graphpart.sweep` runs a grid of settings and returns one row
per setting:
"""),
    code("""
from graphpart.sweep import grid, sweep, sweep_report

results = sweep(karate, grid(method=["random", "metis"], num_parts=[2, 3, 4, 6, 8]))
fig, ax = plt.subplots(figsize=(6.5, 3.6), layout="constrained")
for method, marker in [("random", "X"), ("metis", "o")]:
    rows = [r for r in results if r.setting.method == method]
    ax.plot([r.setting.num_parts for r in rows], [100 * r.edge_cut_fraction for r in rows],
            marker=marker, label=method)
ax.set(xlabel="number of partitions", ylabel="edge cut (% of edges)", title="Karate club: edge cut vs parts")
ax.legend();
"""),
    md("""
A random split of *k* parts cuts about (k-1)/k of the edges: almost everything, quickly. METIS grows
slowly. On real training graphs this difference is the difference between a network-bound and a
compute-bound job.

## Where the cut edges go

With more than two parts it also matters *which* partitions talk to each other. The cut matrix shows,
for every pair, how many edges run from a node of one partition (row) to a node owned by another
(column); each edge belongs to the partition of its destination, as in DGL.
"""),
    code("""
metis4 = gp.partition(karate, 4, seed=0)
viz.plot_cut_matrix(metis4);
"""),
    md("""
## A larger graph: a finite-element mesh

METIS ships example meshes; `4elt` is a 2-D mesh of 7,434 nodes and 86K edges (on a machine without the
Debian package `libmetis-doc` we fall back to a generated R-MAT graph). Drawing 7,434 nodes would be slow
and unreadable, so above 1,000 nodes `draw_partition` draws the **quotient graph** instead: one circle per
partition (area = its nodes), one line per pair of partitions that share cut edges (width = how many).
The title says which view you are looking at. `mode="sample"` draws a connected neighbourhood instead.
"""),
    code("""
try:
    mesh = datasets.load_metis_graph("4elt")
except gp.errors.DatasetNotFoundError:
    mesh = datasets.rmat(scale=13, edge_factor=8, seed=0, symmetric=True)
mesh_parts = gp.partition(mesh, 8, seed=0)

fig, axes = plt.subplots(1, 2, figsize=(14, 6), layout="constrained")
viz.draw_partition(mesh_parts, ax=axes[0])
viz.draw_partition(mesh_parts, ax=axes[1], mode="sample", max_nodes=2000, legend=False);
"""),
    md("""
On a mesh each part only borders a few neighbours, so most pairs of partitions exchange nothing.
That is what METIS is built for; on power-law graphs (social networks, web graphs) cuts are much larger.

## Explore

The explorer re-partitions whenever you change a control, in the background, and redraws the partition,
the balance plot and the metrics (the tabs). Try:
* `method` random vs metis, and watch the cut edges;
* `parts` from 2 to 8;
* `balance_ntypes` = `train_mask`, then `balance_edges` (notebook 03 explains them).
"""),
    code("""
from graphpart.widgets import PartitionExplorer

blocks = datasets.sbm(block_sizes=[50] * 6, p_in=0.16, p_out=0.004, seed=1,
                      train_frac=0.2, val_frac=0.1, test_frac=0.2)
explorer = PartitionExplorer(blocks, num_parts=4)
explorer
"""),
    md("""
`explorer.partitioning` is the partitioning on display, so you can pick up in code where the
widget left off:
"""),
    code("""
explorer.partitioning, explorer.setting.label
"""),
])

# --------------------------------------------------------------------------- 02
write("02_halo_and_id_mapping.ipynb", [
    md("""
# 02 · HALO nodes and id mapping

A machine that owns a set of nodes still needs their neighbours' features to compute a GNN layer.
Partitioning therefore copies those neighbours into each partition as read-only **HALO nodes**. With
`num_hops=h`, everything within h hops of an owned node is copied, so an h-layer GNN never leaves the
machine for *structure* (features of HALO nodes are still fetched from their owners).

Partitioning also **renumbers** the nodes: each partition's nodes get one contiguous range of new ids,
so "which machine owns node i?" is a range lookup instead of a table the size of the graph. This notebook
follows ids through that renumbering and back.
"""),
    code(SETUP),
    code("""
karate = datasets.load_karate_club()
p = gp.partition(karate, 3, num_hops=2, seed=0)
viz.draw_partition(p, halo_of=0, hops=1);
"""),
    md("""
Partition 0's own nodes are solid; the ringed nodes are its HALO: owned by other partitions, copied
into partition 0 because an edge reaches it. Everything partition 0 does not hold at all is faded.

## The local graph of one partition

`local_graph(i)` is what a machine would load. Inner nodes come first, so a local id of an inner node is
just its new global id minus the partition's first id; HALO nodes follow, ordered by hop.
"""),
    code("""
lg = p.local_graph(0)
print(lg)
print("inner_node:", lg.ndata["inner_node"].int().tolist())
print("_ID (new global id):", lg.ndata["_ID"].tolist())
print("halo_hop:", lg.ndata["halo_hop"].tolist())
"""),
    md("""
## How HALO grows with hops

Each extra hop copies more of the graph into every machine. On a small-world graph like this one,
two hops copy nearly everything: the **replication factor** (nodes held in all machines / nodes in the
graph) approaches the number of partitions. This is why deep GNNs are usually trained with sampling
rather than full neighbourhoods.
"""),
    code("""
viz.plot_halo_growth(p, max_hops=3);
"""),
    md("""
## Original ids, new ids, and the way back

`p.shuffle.new2old_nid[new] = old`; DGL calls the same array `orig_nids` and returns it from
`partition_graph(..., return_mapping=True)`. Writing partitions to disk and asking for the mapping:
"""),
    code("""
import tempfile, pathlib
out = pathlib.Path(tempfile.mkdtemp()) / "karate"
orig_nids, orig_eids = gp.partition_graph(karate, "karate", 3, out, num_hops=1,
                                          return_mapping=True, seed=0)
print("new id -> original id:", orig_nids[:10].tolist(), "...")
print("partition files:", sorted(q.name for q in out.iterdir()))
"""),
    md("""
A model trained on the partitions produces outputs in **new** id order (each machine writes its own
range). To put them back in original order — to compare with labels, or to save embeddings — scatter
them through `orig_nids`:
"""),
    code("""
# Pretend embeddings: each machine emits one row per owned node, in new-id order.
emb_new = torch.cat([torch.full((int((p.node_part == i).sum()), 2), float(i)) for i in range(3)])
emb_new[:, 1] = torch.arange(len(emb_new))          # column 1: the new id, to check the order
emb_orig = torch.empty_like(emb_new)
emb_orig[orig_nids] = emb_new                        # row i now belongs to original node i
assert torch.equal(emb_orig[:, 0].long(), torch.as_tensor(p.node_part))
emb_orig[:5]
"""),
    md("""
## The partition book

Every machine carries a small **partition book**: for each node type the id range each partition owns.
It answers "who owns node n?" and "what is n's local id there?" without any per-node table:
"""),
    code("""
book = p.book
nids = torch.tensor([0, 5, 20, 33])
print("owner:", book.nid2partid(nids).tolist())
print("node_map:", book.node_map)
first, last = book.partid2nids(1)[[0, -1]].tolist()
print(f"partition 1 owns new ids {first}..{last}")
"""),
    md("""
## Look any node up

`graphpart.lookup.locate_node` gathers every id of one node: original, new, type-wise, owner, its local
id in the owner, and every partition that holds a HALO copy of it:
"""),
    code("""
from graphpart.lookup import locate_node
locate_node(p, 33)
"""),
    md("""
The inspector does the same interactively: pick a partition and a hop count, and look a node up by
original id, new (shuffled) id or type-wise id. The star marks the node you looked up.
"""),
    code("""
from graphpart.widgets import HaloInspector
HaloInspector(p)
"""),
])

# --------------------------------------------------------------------------- 03
write("03_balance_ntypes.ipynb", [
    md("""
# 03 · Prototyping `balance_ntypes` and `balance_edges`

METIS balances **node counts** by default. But a machine's work in an epoch is not its node count:
* it computes losses only for its **training nodes**, so unevenly spread training nodes make some
  machines finish late (every step waits for the slowest);
* it aggregates over its **edges**, so a partition full of hubs does more work per node.

DGL's `partition_graph` adds METIS constraints for both: `balance_ntypes` balances each class of a node
array (typically the train mask), `balance_edges` balances in-degrees. Each constraint costs some edge cut.
Here we measure how much, before paying for a real cluster run.
"""),
    code(SETUP),
    md("""
## A graph where it matters

Real training sets are rarely spread uniformly over the graph (think of products that were labelled
because they sold well). We build a stochastic block model with 8 communities of different density
(so degrees differ between them) and put most training nodes in two communities.
"""),
    code("""
sizes = [400] * 8
p_in = np.linspace(0.01, 0.06, 8)                       # community i is denser than community i-1
probs = np.full((8, 8), 0.0008)
np.fill_diagonal(probs, p_in)
g = datasets.sbm(block_sizes=sizes, probs=probs, seed=0)
rng = np.random.default_rng(0)
block = g.ndata["label"].numpy()
train = rng.random(g.num_nodes()) < np.where(block < 2, 0.5, 0.03)   # training nodes cluster in blocks 0-1
g.ndata["train_mask"] = torch.from_numpy(train)
print(g, "\\ntraining nodes:", int(train.sum()))
"""),
    md("""
## Node-only balance leaves work unbalanced

Plain METIS, 4 parts. Bars are each partition's load divided by the mean: 1.0 is perfect; the legend
gives each quantity's max/mean, which is what the slowest machine pays.
"""),
    code("""
plain = gp.partition(g, 4, seed=0)
viz.plot_balance(plain, quantities=["nodes", "train nodes", "edges"]);
"""),
    md("""
Nodes are balanced, but one or two partitions hold most training nodes and the densest communities hold
many more edges: in a training step, those machines do several times the work of the others.

## Adding constraints

`balance_ntypes=g.ndata["train_mask"]` makes METIS balance train and non-train nodes separately;
`balance_edges=True` adds the in-degree of each class as another constraint.
"""),
    code("""
by_train = gp.partition(g, 4, balance_ntypes=g.ndata["train_mask"], seed=0)
both = gp.partition(g, 4, balance_ntypes=g.ndata["train_mask"], balance_edges=True, seed=0)

fig, axes = plt.subplots(1, 3, figsize=(17, 4), layout="constrained")
for ax, part, name in zip(axes, [plain, by_train, both], ["nodes only", "+ train_mask", "+ train_mask + edges"]):
    viz.plot_balance(part, ax=ax, quantities=["nodes", "train nodes", "edges"])
    ax.set_title(f"{name}: edge cut {100 * part.metrics.edge_cut_fraction:.1f}%")
"""),
    md("""
Each constraint flattens its bars, and the edge cut rises: METIS has less freedom to follow communities.

## The trade-off across settings

A sweep over balance sources, `balance_edges` and METIS's imbalance tolerance (`ufactor`, in thousandths:
30 allows 3% above the mean), plotted as edge cut against the worst imbalance. Points on the dashed line
are the best trade-offs: nothing else has both a lower cut and a lower imbalance.
"""),
    code("""
from graphpart.sweep import grid, sweep, sweep_report

results = sweep(g, grid(method=["random", "metis"], num_parts=4, balance=["none", "train_mask"],
                        balance_edges=[False, True], ufactor=[10, 100]))
viz.plot_tradeoff(results)
sweep_report(results)
"""),
    md("""
Reading it: random partitioning is balanced on everything but cuts ~75% of edges. METIS with no
constraint has the lowest cut and the worst training imbalance. Balancing the train mask fixes the
training load for a modest cut increase; adding `balance_edges` evens the aggregation work too.
A looser tolerance buys back some cut at the price of imbalance.

## Playground

Add settings one by one (or the presets) and compare them in the table and the trade-off plot.
"""),
    code("""
from graphpart.widgets import BalancePlayground
playground = BalancePlayground(g, num_parts=4)
playground.add(*playground.presets())
playground.wait()
playground
"""),
])

# --------------------------------------------------------------------------- 04
write("04_heterogeneous_graphs.ipynb", [
    md("""
# 04 · Heterogeneous graphs: WordNet

Many GNN datasets have several **node types** (users and items, papers and authors) and **edge types**.
graphpart partitions them the way DGL does: every node gets a *homogeneous* id (types one after another),
METIS partitions that one graph, and each partition owns, for every node type, one contiguous range of new
ids. This notebook uses WordNet 3.0: synsets of 5 parts of speech, linked by 74 kinds of pointers
(hypernym, antonym, ...). It needs the Debian package `wordnet-base`; without it we fall back to the
small Davis Southern Women graph.
"""),
    code(SETUP),
    code("""
try:
    wn = datasets.load_wordnet()
except gp.errors.DatasetNotFoundError:
    wn = datasets.load_davis_southern_women()
print(wn)
print("node types:", wn.ntypes)
print("a few edge types:", wn.canonical_etypes[:4])
"""),
    md("""
## Homogeneous vs heterogeneous ids

Node `i` of type `t` has homogeneous id `offset[t] + i`, with types in order. `IDConverter` converts both
ways:
"""),
    code("""
conv = gp.IDConverter.from_graph(wn)
t = wn.ntypes[-1]
homo = conv.nid_het2hom(t, torch.tensor([0, 1, 2]))
print(f"{t} 0,1,2 -> homogeneous", homo.tolist())
print("and back:", conv.nid_hom2het(homo))
"""),
    md("""
## Partitioning with per-type balance

With no `balance_ntypes`, a heterograph is balanced **per node type**: each partition gets about a
quarter of the nouns, a quarter of the verbs, and so on, so every machine sees every type.
"""),
    code("""
p = gp.partition(wn, 4, seed=0)
type_bars = [f"{t} nodes" for t in wn.ntypes]
viz.plot_balance(p, quantities=["nodes", *type_bars, "edges"])
p.report()
"""),
    md("""
Compare with a METIS run that only balances the total: one `balance_ntypes` value for every node
(an array over homogeneous ids), so node types are ignored:
"""),
    code("""
one_class = torch.zeros(wn.num_nodes(), dtype=torch.int64)   # wn.num_nodes(): all types together
merged = gp.partition(wn, 4, balance_ntypes=one_class, seed=0)
fig, axes = plt.subplots(1, 2, figsize=(15, 4), layout="constrained")
viz.plot_balance(p, ax=axes[0], quantities=["nodes", *type_bars])
axes[0].set_title(f"per-type balance: edge cut {100 * p.metrics.edge_cut_fraction:.1f}%")
viz.plot_balance(merged, ax=axes[1], quantities=["nodes", *type_bars])
axes[1].set_title(f"node count only: edge cut {100 * merged.metrics.edge_cut_fraction:.1f}%");
"""),
    md("""
Per-type balance costs a little cut and keeps every type even; balancing only the total lets METIS pile
the rarer types into some partitions.

## Per-type ranges in the partition book

New ids are partition-major, then by type: partition 0's adjectives, partition 0's adverbs, ...,
then partition 1's. The book stores one `[start, end)` range per partition per type:
"""),
    code("""
for t, ranges in p.book.node_map.items():
    print(f"{t:>22}:", ranges)
"""),
    code("""
# Which partition owns the first 3 nodes of the last type, and what are their type-wise new ids?
new_homo = p.shuffle.old2new_nid[homo.numpy()]
print("owners:", p.book.nid2partid(torch.from_numpy(new_homo)).tolist())
print("type-wise new ids:", p.book.map_to_per_ntype(torch.from_numpy(new_homo)))
"""),
    md("""
`orig_nids` maps new ids back to **type-wise** original ids, one array per type, as DGL's
`return_mapping` does:
"""),
    code("""
orig = p.orig_nids
{t: v[:5].tolist() for t, v in orig.items()}
"""),
    md("""
The cut matrix works for heterographs as well; here it is per pair of partitions over all edge types:
"""),
    code("""
viz.plot_cut_matrix(p);
"""),
])

write("05_chunked_pipeline.ipynb", [
    md("""
# 05 · The chunked pipeline: partitioning graphs that do not fit in memory

`partition_graph` holds the whole graph in RAM. For bigger graphs DGL describes a two-step pipeline over
a **chunked graph format**: the graph is stored as many small files, **step 1** computes a partition
assignment (one partition id per node), and **step 2** (*dispatch*) moves every edge and feature row to
its partition, on several machines at once. graphpart runs step 2 on **Dask**: a local cluster here, a
cluster of machines by address for the real thing.

We follow one graph through the pipeline and check, at the end, that the result is *exactly* what the
in-memory `partition_graph` writes for the same assignment.
"""),
    code(SETUP + """import json, tempfile
from pathlib import Path
from graphpart import chunked

work = Path(tempfile.mkdtemp(prefix="graphpart-05-"))
g = datasets.sbm(block_sizes=[400] * 6, p_in=0.03, p_out=0.001, seed=0, feat_dim=16, train_frac=0.2)
g
"""),
    md("""
## 1 · Chunk the graph

`write_chunked` splits edges and features into `num_chunks` files each. The edges go to CSV (text, as
many pipelines export them) and the features to NumPy files; parquet works too.
"""),
    code("""
meta_path = chunked.write_chunked(g, work / "chunks", num_chunks=4, graph_name="sbm")
for p in sorted((work / "chunks").rglob("*"))[:12]:
    print(p.relative_to(work))
"""),
    md("""
`metadata.json` describes everything: node and edge types with their counts, and for every edge type and
feature the list of chunk files. graphpart also records the rows of each chunk (`counts`), which lets
every step check the files before trusting them.
"""),
    code("""
meta = json.loads(meta_path.read_text())
print(json.dumps({k: meta[k] for k in ["graph_name", "node_type", "num_nodes_per_type", "edge_type",
                                       "num_edges_per_type"]}, indent=1))
print(json.dumps(meta["edges"], indent=1)[:400], "...")
"""),
    md("""
## 2 · Step 1: assign nodes to partitions

Four ways, all writing the same files (`<ntype>.txt`, line *i* = partition of node *i*):

* **random**: balanced, reads no edges at all, computed chunk by chunk on Dask;
* **Fennel** and **LDG**: *streaming* partitioners. They read each edge chunk once and keep one number per
  node, so they work when the edges do not fit in memory. Each node goes where most of its already placed
  neighbours are, minus a penalty for full partitions;
* **METIS**: the best cuts, but it loads every edge at once.
"""),
    code("""
num_parts = 4
assignments = {}
for algo in ["random", "fennel", "ldg", "metis"]:
    out = chunked.assign(work / "chunks", work / f"assign-{algo}", num_parts, algo, seed=0,
                         **({"processes": False, "workers": 1} if algo == "random" else {}))
    assignments[algo], _ = chunked.read_assignment(out, work / "chunks")
print((work / "assign-fennel" / "_N.txt").read_text().split()[:20])
"""),
    code("""
cuts = {algo: gp.partition(g, num_parts, part_method=parts["_N"], num_hops=0).metrics.edge_cut_fraction
        for algo, parts in assignments.items()}
fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
ax.bar(list(cuts), [100 * c for c in cuts.values()], color=viz.part_colors(4))
ax.set_ylabel("edge cut (%)")
ax.set_title(f"{num_parts} partitions of an SBM with 6 communities")
for i, c in enumerate(cuts.values()):
    ax.text(i, 100 * c + 1, f"{100 * c:.0f}%", ha="center")
"""),
    md("""
Random cuts about 3/4 of the edges (an edge's two ends land in the same one of 4 parts 1 time in 4).
The streaming partitioners cut clearly less, METIS far less: it sees the whole graph, while a streaming
partitioner decides each node after seeing only the edges read so far.

## 3 · Step 2: dispatch on a Dask cluster

`dispatch` runs two rounds of Dask tasks. One task per chunk splits it into pieces, one per partition.
Then one task per partition gathers its pieces and writes its files. No task ever holds the whole edge
list or a whole feature matrix.
Here we start a small `LocalCluster`; its **dashboard link** shows the tasks as they run. On several
machines you would pass `scheduler="tcp://host:8786"` instead (see the README).
"""),
    code("""
from distributed import Client, LocalCluster

cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0")
client = Client(cluster)
client
"""),
    code("""
config = chunked.dispatch(work / "chunks", work / "assign-fennel", work / "partitions", num_hops=1,
                          client=client, save_orig_nids=True, progress=True)
sorted(p.name for p in (work / "partitions").iterdir())
"""),
    md("""
## 4 · Verify against the input

`verify` re-reads the chunks and checks the written partitions: node and edge counts, that every node is
owned once and every edge by its destination's partition, that every edge joins the right original nodes,
and that every feature row is the original one.
"""),
    code("""
print(chunked.verify(config, work / "chunks"))
"""),
    md("""
## 5 · Load a partition, and compare with the in-memory path

The output has the same format as `partition_graph`, so `load_partition` reads it. Partitioning the
in-memory graph with the same assignment gives the **same files**: the same new ids, the same edges in the
same order, and the same features.
"""),
    code("""
part = gp.load_partition(config, 0)
print(part.graph)
print("features:", {k: tuple(v.shape) for k, v in part.node_feats.items()})

gp.partition_graph(g, "sbm", num_parts, work / "in-memory", part_method=assignments["fennel"]["_N"])
for i in range(num_parts):
    a, b = gp.load_partition(config, i), gp.load_partition(work / "in-memory" / "sbm.json", i)
    same = all(torch.equal(x, y) for x, y in zip(a.graph.edges(), b.graph.edges()))
    same &= all(torch.equal(a.graph.ndata[k], b.graph.ndata[k]) for k in b.graph.ndata)
    same &= all(torch.equal(a.node_feats[k], b.node_feats[k]) for k in b.node_feats)
    assert same, i
    print(f"partition {i}: {a.graph.num_nodes()} nodes ({int(a.graph.ndata['inner_node'].sum())} owned), "
          f"{a.graph.num_edges()} edges: identical to the in-memory output")
"""),
    md("""
The merged original-id map answers "which original node is new node *i*?" for the whole graph, without
concatenating per-partition files by hand. Around the border between partitions 0 and 1 the new ids are
consecutive, the original ones are not:
"""),
    code("""
orig_nids, _ = chunked.load_orig_ids(config)
owned = int(part.graph.ndata["inner_node"].sum())      # partition 0 owns new ids 0 .. owned-1
print(f"new ids {owned - 3}..{owned + 2} are original nodes", orig_nids[owned - 3:owned + 3].tolist())
client.close(); cluster.close()
"""),
    md("""
## The same from a terminal

```bash
graphpart chunk    --dataset rmat --dataset-arg scale=20 --out-dir chunks --num-chunks 16
graphpart assign   --in-dir chunks --out-dir assignment --num-parts 4 --algorithm fennel
graphpart dispatch --in-dir chunks --partitions-dir assignment --out-dir partitions --workers 2
graphpart verify   partitions/chunks.json --chunked-dir chunks
```

Add `--scheduler tcp://host:8786` to `dispatch` to run it on a cluster of machines that share a file system.
"""),
])

# --------------------------------------------------------------------------- 06
write("06_feature_cache.ipynb", [
    md("""
# 06 · Feature caches: which rows to keep on the GPU, and what partitioning does to lookups

After partitioning, the cost of GNN training moves to **feature lookup**. Every mini-batch samples a few
hops of neighbours around its seed nodes, and the trainer must gather the feature row of *every* node
the sample touched. Node features rarely fit in GPU memory, so systems keep a **hot** part on the GPU
and the rest (the **cold** part) in host memory, and every cold row crosses the PCIe bus for every batch
that needs it.

The share of looked-up rows found in the hot part is the **hit rate**. This notebook measures it with
real sampling and real lookups:

1. a `Feature` store with a 10% hot part, as GLT builds one;
2. *which* 10%: node degree, GNNLab's pre-sampling, or a dynamic cache (LRU, FIFO, CLOCK, SIEVE), against
   the best any cache could do (the oracles);
3. the same on WordNet;
4. what partitioning does: which lookups stay on the trainer's machine and which go remote.
"""),
    code(SETUP + """from graphpart import features
from graphpart.sampling import NeighborLoader, Topology
"""),
    md("""
## A power-law graph and a sampler

R-MAT graphs have the skewed degrees of real web and citation graphs: a few hubs are neighbours of
very many nodes. We sample **in-neighbours** (what message passing into a node reads) with fanouts
(10, 5): 10 neighbours of each seed, then 5 of each of those. A random 10% of nodes is the train set.
"""),
    code("""
g = datasets.rmat(16, edge_factor=16, seed=0)
topo = Topology.from_graph(g)                      # CSC: in-neighbours per node
n = topo.num_nodes
train = torch.randperm(n, generator=torch.Generator().manual_seed(0))[: n // 10]
loader = NeighborLoader(topo, fanouts=[10, 5], seeds=train, batch_size=256, seed=0)
mb = next(iter(loader))
print(f"{n:,} nodes, {topo.num_edges:,} edges; {len(loader)} mini-batches per epoch")
print(f"one mini-batch: {len(mb.seeds)} seeds -> {[len(h) for h in mb.hops]} new nodes per hop "
      f"-> {len(mb.input_nodes):,} feature rows to look up")
"""),
    md("""
A batch of 256 seeds needs thousands of rows: the sample fans out. Now the store. `Feature` takes the
full feature tensor, an **order** (hot rows first) and a `split_ratio`; `feature[ids]` returns exactly
`x[ids]` and records, per lookup, how many rows were hits and how many bytes came from each part.
"""),
    code("""
x = torch.randn(n, 64)                             # 64 float32 features per node: 256 bytes a row
order = features.degree_order(topo, "in")          # GLT's sort_by_in_degree
feat = features.Feature(x, split_ratio=0.10, order=order)
for mb in loader:
    rows = feat[mb.input_nodes]
assert torch.equal(rows, x[mb.input_nodes])        # the store returns the true rows
t = feat.stats.totals()
print(feat)
print(f"{feat.stats.num_lookups} lookups, hit rate {feat.stats.hit_rate:.1%}: "
      f"{t['hot_bytes'] / 1e6:.1f} MB read from the hot part, {t['cold_bytes'] / 1e6:.1f} MB copied from host memory")
"""),
    md("""
With 10% of the rows cached by in-degree, well over half of the rows looked up are hits: the hubs are
in almost every sample. The plot shows the hit rate batch after batch (thin: each batch, bold: so far).
"""),
    code("""
viz.plot_hit_rate_trace(feat.stats, title="Feature(split_ratio=0.1, order=in-degree): one epoch");
"""),
    md("""
## Which rows? Static orderings, dynamic caches, and the oracles

* **static** orderings fix the hot set before training: `random`, `in-degree` (GLT), `out-degree`
  (PaGraph) and `presample` (GNNLab's PreSC: sample one epoch first, count how often each node is looked
  up, cache the most looked-up);
* **dynamic** caches start empty and admit every miss, evicting by a policy: LRU, FIFO, CLOCK, SIEVE;
* two **oracles** know the measured epoch in advance: the best *static* set (the most looked-up nodes of
  that very epoch) and Belady's replacement, the best *dynamic* cache. No policy can beat them.

We record three pre-sampling epochs and the next (measured) epoch as **traces**, then replay the measured
trace through every policy at several cache sizes. The dynamic caches are warmed with the pre-sampling
epochs, as they would be after some training.
"""),
    code("""
pre = features.record_trace(loader, epochs=3)      # GNNLab's pre-sampling: a few epochs of sampling alone
trace = features.record_trace(loader, epochs=1)    # the epoch we measure
orders = {"random": features.random_order(n, 0), "in-degree": features.degree_order(topo, "in"),
          "out-degree": features.degree_order(topo, "out"), "presample": features.oracle_order(pre)}
ratios = [0.02, 0.05, 0.1, 0.2, 0.4]
table = features.hit_rate_table(trace, ratios, orders, warmup=pre)
table
"""),
    code("""
viz.plot_hit_rate_curve(table, reference={"GNNLab papers100M: degree": (0.10, 0.496),
                                          "pre-sampling": (0.10, 0.983)});
"""),
    md("""
What to read in it:

* **random** caching gives a hit rate equal to the cache ratio: the diagonal every policy must beat.
* On a power-law graph with a uniformly random train set, **degree** is already close to the static
  oracle, and **out-degree** edges out in-degree: sampling in-neighbours reaches a node once per
  *out*-edge. **Pre-sampling** measures exactly what the sampler does and lands within a few percent of
  the oracle without knowing anything about the graph. GNNLab's crosses come from ogbn-papers100M,
  where the train set is a small, non-random subset: there degree is misleading (49.6%) and pre-sampling
  is not (98.3%).
* **Dynamic** caches trail the static ones here: each batch evicts rows that the next batch needs
  again. SIEVE, which keeps rows that were hit in place, does best among them; FIFO, which ignores
  hits, worst.
* **Belady** is above everything: it may keep a different set after every batch, knowing the future.
  It starts with the rows the first batches need, which is why it opens at 100% in the next plot.

The same runs, batch by batch, at a 10% cache:
"""),
    code("""
i = ratios.index(0.1)
runs = [table.runs[p][i] for p in ("in-degree", "presample", "lru", "sieve", "belady")]
viz.plot_hit_rate_trace(runs);
"""),
    md("""
Misses are what cost: every miss is one row copied from host memory. Per epoch:
"""),
    code("""
row_bytes = x[0].numel() * x.element_size()
viz.plot_bytes_per_epoch([table.runs[p][i] for p in ("random", "in-degree", "presample", "lru", "sieve",
                                                     "oracle")], row_bytes);
"""),
    md("""
## WordNet

A real, sparse, heterogeneous graph: WordNet's synsets linked by pointers (hypernyms, antonyms, ...),
sampled in its homogeneous ids. It needs the Debian package `wordnet-base`; without it we use a
smaller SBM so the notebook still runs.
"""),
    code("""
try:
    wn = datasets.load_wordnet()
    name = "WordNet"
except gp.errors.DatasetNotFoundError:
    wn, name = datasets.sbm(block_sizes=[2000] * 4, p_in=0.004, p_out=0.0005, seed=0), "SBM (no WordNet here)"
wtopo = Topology.from_graph(wn)
wn_train = torch.randperm(wtopo.num_nodes, generator=torch.Generator().manual_seed(0))[: wtopo.num_nodes // 20]
wloader = NeighborLoader(wtopo, [10, 5], seeds=wn_train, batch_size=512, seed=0)
wpre, wtrace = features.record_trace(wloader, 1), features.record_trace(wloader, 1)
wtable = features.hit_rate_table(
    wtrace, [0.01, 0.05, 0.1, 0.2],
    {"random": features.random_order(wtopo.num_nodes, 0), "in-degree": features.degree_order(wtopo, "in"),
     "out-degree": features.degree_order(wtopo, "out"), "presample": features.oracle_order(wpre)},
    dynamic=("lru", "sieve"), warmup=wpre)
print(f"{name}: {wtopo.num_nodes:,} nodes, {wtopo.num_edges:,} edges, {wtrace.num_lookups:,} lookups per epoch")
ax = viz.plot_hit_rate_curve(wtable)
ax.set_title(f"{name}: hit rate vs cache size", fontsize=10);
"""),
    md("""
WordNet is sparse and its degrees far less skewed than R-MAT's, so every curve sits lower. And here
**pre-sampling clearly beats degree**: the train set is a small 5% of the nodes, and the nodes that
2-hop samples from *those* seeds visit most are not simply WordNet's hubs. This is GNNLab's point on
papers100M: degree guesses, pre-sampling measures.

## Partitioning: local, HALO and remote lookups

In distributed training each machine runs a trainer over the seeds *its* partition owns. It holds the
features of its inner nodes, plus copies of its HALO nodes (`num_hops=1`); every other looked-up row is
fetched over the network. A per-partition cache of the hottest **remote** rows (chosen, like GLT's
frequency partitioner, from a pre-sampling run of that trainer) saves some of those fetches.
"""),
    code("""
sb = datasets.sbm(block_sizes=[500] * 4, p_in=0.02, p_out=0.001, seed=0)
sb_topo = Topology.from_graph(sb)
rows, labels = {k: [] for k in ("HALO rows held", "local inner", "local HALO", "remote fetched")}, []
for method in ("random", "metis"):
    for hops in (0, 1):
        p = gp.partition(sb, 4, part_method=method, num_hops=hops, seed=0)
        for cache in (0.0, 0.05):
            acc = features.access_by_partition(p, sb_topo, [10, 5], batch_size=128, remote_cache=cache, seed=0)
            t = [a.totals for a in acc]
            total = sum(x["inner"] + x["halo"] + x["remote"] for x in t)
            labels.append(f"{method}, num_hops={hops}, remote cache {cache:.0%}")
            rows["HALO rows held"].append(int(p.metrics.halo_nodes.sum()))
            rows["local inner"].append(f"{sum(x['inner'] for x in t) / total:.1%}")
            rows["local HALO"].append(f"{sum(x['halo'] for x in t) / total:.1%}")
            rows["remote fetched"].append(f"{sum(x['remote'] - x['remote_cached'] for x in t) / total:.1%}")
from graphpart._report import Report
Report("4 trainers, fanouts (10, 5): where lookups are served", rows, {}, index="setting", labels=labels)
"""),
    md("""
How to read the table (rows are summed over the 4 trainers):

* With **random** partitioning about three quarters of a trainer's lookups are remote: with 4 parts,
  3 of every 4 neighbours live elsewhere. **METIS** keeps more of them local, but not most: a 2-hop
  sample wanders, and every remote first-hop neighbour brings its own neighbourhood along.
* **HALO copies** (`num_hops=1`) turn those neighbours into local reads. With random partitioning the
  HALO is most of the graph (see *HALO rows held*, against 2,000 nodes in all): memory traded for
  traffic. METIS's HALO is less than half as large.
* A **remote cache** of 5% of the rows, filled from the trainer's own pre-sampling, removes a further
  share of the fetches that are left.

Per trainer, METIS with one hop of HALO and a 5% remote cache:
"""),
    code("""
p = gp.partition(sb, 4, part_method="metis", num_hops=1, seed=0)
viz.plot_partition_access(features.access_by_partition(p, sb_topo, [10, 5], batch_size=128,
                                                       remote_cache=0.05, seed=0));
"""),
    md("""
## Watch it happen: `CacheSimulator`

Pick a cache ratio and policies, press **play** (or **Step**): each tick samples the next mini-batch,
looks its nodes up in every chosen cache, and redraws the hit rates. Choose a trainer under *seeds* to
see where its lookups land. (Oracles need the whole epoch in advance, so they are not streamed.)
"""),
    code("""
from graphpart.widgets import CacheSimulator

sim = CacheSimulator(p, fanouts="10,5", batch_size=64, cache_ratio=0.1)
sim.step(5)                                        # what pressing Step five times does
sim
"""),
    md("""
## Take-aways

* A small hot part catches a large share of lookups on skewed graphs: order it by what the sampler
  actually does (pre-sampling) and it performs like the oracle.
* Dynamic caches need no pre-processing, but trail a good static order when accesses are stable.
* Partitioning decides how many lookups leave the machine; HALO copies and remote caches buy the rest
  back with memory.

The benchmark `benchmarks/feature_cache.py` runs the same comparison on R-MAT scale 20 and measures the
simulator's and the store's speed (see `benchmarks/RESULTS.md`).
"""),
])


write("07_your_partitions.ipynb", [
    md("""
# 07 · Your partitions: DGL, GraphBolt, PyG and GLT files

The partitions your training job actually uses were probably written by another library: DGL's
`partition_graph` (`.dgl` files, or GraphBolt's `fused_csc_sampling_graph.pt`), PyTorch Geometric's
`Partitioner`, or GraphLearn-for-PyTorch. graphpart reads all of them, so you can inspect *those*
partitions with the same metrics, figures and widgets as the previous notebooks. And it writes DGL's
and PyG's formats, so a partitioning you prototyped here goes straight to your trainer.

graphpart imports none of these libraries: it reads and writes their file layouts itself, and never
runs code stored in a file.
"""),
    code(SETUP + """
import json
from pathlib import Path
from graphpart import interop
from graphpart.datasets import peer_partitions
"""),
    md("""
## 1 · Write partitions DGL trains on

`format="dgl"` writes DGL's binary files instead of graphpart's torch files; `format="graphbolt"` adds
GraphBolt's sampling graph. The folder layout and the config are DGL's: `dgl.distributed.load_partition`
and `DistGraph` load it (graphpart's test suite checks this with the real DGL 2.1).
"""),
    code("""
g = datasets.load_karate_club()
config = Path("karate_dgl") / "karate.json"
gp.partition_graph(g, "karate", 2, "karate_dgl", num_hops=1, seed=0, format="graphbolt")
print(sorted(str(p.relative_to("karate_dgl")) for p in Path("karate_dgl").rglob("*") if p.is_file()))
print(json.dumps(json.loads(config.read_text())["part-0"], indent=1))
"""),
    md("""
`graph.dgl` is what `dgl.save_graphs` writes: a 4 KB header, then the graph's sparse matrices and
its node and edge data as raw arrays. `interop.load_graphs` reads it without DGL. The arrays are not
copied into memory: they are *views of the file*, mapped by the operating system, so opening a
10 GB partition costs page cache, not 10 GB of RAM (see `benchmarks/RESULTS.md`).
"""),
    code("""
(local,), labels = interop.load_graphs("karate_dgl/part0/graph.dgl")
local
"""),
    md("""
DGL's reserved fields are there with DGL's dtypes: `_ID` (the partition-major global id, int64),
`inner_node` (uint8: 1 for the nodes this partition owns, 0 for HALO copies), `part_id` (the owner).
`interop.detect_format` says what a path holds:
"""),
    code("""
interop.detect_format(config), interop.detect_format(peer_partitions("karate", "pyg"))
"""),
    md("""
## 2 · Open partitions DGL wrote

graphpart ships a few small partitionings written by the real libraries (how: `graphpart/datasets/
peer_made/README.md`). `peer_partitions("karate", "dgl")` is the config DGL 2.1's `partition_graph`
wrote for the karate club with METIS, 2 parts, one hop of HALO. Open it exactly as you would open
graphpart's own output:
"""),
    code("""
dgl_config = peer_partitions("karate", "dgl")
lg, nfeat, efeat, book, name, ntypes, etypes = gp.load_partition(dgl_config, 0)
print(name, lg.num_nodes(), "local nodes,", int(lg.ndata["inner_node"].sum()), "owned;", sorted(nfeat))
book.nid2partid([0, 16, 17, 33])
"""),
    code("""
gp.metrics.metrics_from_disk(dgl_config).report()
"""),
    md("""
The GraphBolt variant stores the same local graph as a CSC matrix (edges grouped by destination).
It is a pickle, which graphpart reads with torch's weights-only loader: only tensors come out, and a
file that tries to run code is refused.
"""),
    code("""
gb = interop.load_graphbolt(dgl_config.parent / "part0" / "fused_csc_sampling_graph.pt")
gb.indptr[:6], gb.indices[:6], sorted(gb.node_attributes)
"""),
    md("""
## 3 · PyG and GLT partitions

PyG and GLT keep the *original* node ids and store, per partition, the edges it holds plus a map
from every node to its partition. graphpart shows them the way it shows every partitioning:
renumbered so that each partition owns one id range (its partition book), inner nodes first and
then HALO copies. The original ids are kept on the nodes as `orig_id`.

Which edges a partition holds differs: PyG keeps an edge with its destination (like DGL), GLT with
its source. The edge cut counts an edge once either way: its endpoints lie in different partitions.
"""),
    code("""
for peer in ("pyg", "glt"):
    path = peer_partitions("karate", peer)
    m = gp.metrics.metrics_from_disk(path)
    print(f"{peer}: {interop.detect_format(path)}, edge cut {m.edge_cut} of {m.num_edges}, "
          f"replication {m.replication_factor:.2f}")
lg = gp.load_partition(peer_partitions("karate", "pyg"), 0).graph
lg.ndata["_ID"][:5], lg.ndata["orig_id"][:5]
"""),
    md("""
## 4 · Compare partitionings of one graph, side by side

Here are three partitionings of the karate club: DGL's METIS run, PyG's (a fixed half/half split,
since PyG's METIS needs an extra compiled package), and GLT's random partitioner. Add graphpart's own
METIS run, held in memory. `PartitioningComparison` draws the same figure for each, over one table.
Switch the figure with the buttons.
"""),
    code("""
from graphpart.widgets import PartitioningComparison

cmp = PartitioningComparison({
    "DGL 2.1, METIS": peer_partitions("karate", "dgl"),
    "PyG, half/half": peer_partitions("karate", "pyg"),
    "GLT, random": peer_partitions("karate", "glt"),
    "graphpart, METIS": gp.partition(datasets.load_karate_club(), 2, seed=0),
})
cmp
"""),
    md("""
Reading the table: METIS (DGL's and graphpart's, which agree here) cuts a quarter as many edges as
GLT's random assignment and copies 13 HALO nodes instead of 33, at equal node balance. PyG's half/half
split falls in between: the club's ids already keep many friends together.

Every figure and widget that takes a partitioning also takes such a path. Here, the HALO of DGL's
partition 1, drawn from its files:
"""),
    code("""
viz.draw_partition(peer_partitions("karate", "dgl"), halo_of=1);
"""),
    md("""
## 5 · Hand a partitioning to PyG

`interop.export_pyg` writes the folder PyG's `LocalGraphStore.from_partition` and
`LocalFeatureStore.from_partition` load. It uses the same node assignment and edge placement as the
partitioning, and original ids, as PyG expects. graphpart reads it back like any other format.
"""),
    code("""
p = gp.partition(datasets.load_karate_club(), 2, seed=0)
root = interop.export_pyg(p, "karate_pyg")
print(sorted(str(x.relative_to(root)) for x in root.rglob("*") if x.is_file()))
gp.metrics.metrics_from_disk(root).edge_cut == p.metrics.edge_cut
"""),
    md("""
## From a shell

```bash
graphpart partition --dataset karate_club --graph-name karate --num-parts 2 --out-path parts --format dgl
graphpart inspect parts/karate.json            # format: DGL (.dgl files), then the metrics
graphpart inspect /path/to/pyg_partitions      # a PyG or GLT folder works too
graphpart dispatch ... --format dgl            # the chunked pipeline writes DGL's files as well
```
"""),
])

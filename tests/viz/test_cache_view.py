"""The feature cache's graph: the latest batch's sample, each node coloured by where its row
was served, its card saying why the cache held it or not."""

from __future__ import annotations

import numpy as np
import pytest

import graphpart as gp
from graphpart.datasets import load_davis_southern_women, sbm
from graphpart.errors import GraphpartError
from graphpart.features import LookupSession
from graphpart.sampling import Topology
from graphpart.views.cache import batch_view_data


@pytest.fixture(scope="module")
def setting():
    g = sbm(block_sizes=[60] * 3, p_in=0.12, p_out=0.02, seed=1)
    return g, gp.partition(g, 3, num_hops=1, seed=0), Topology.from_graph(g)


def _session(setting, policies, part_id=0, steps=3, ratio=0.15):
    g, p, topo = setting
    s = LookupSession(
        topo, [4, 3], policies=policies, cache_ratio=ratio, batch_size=10,
        partitioning=p if part_id is not None else None, part_id=part_id, seed=0,
    )  # fmt: skip
    s.step(steps)
    return s


def _homo(d):
    return {k: a["homogeneous id"] for k, a in d.nodes.items()}


def test_each_node_is_coloured_by_where_its_row_was_served(setting):
    _, p, _ = setting
    s = _session(setting, ["in-degree"])
    d = batch_view_data(p, s, "in-degree")
    cached = set(s.caches["in-degree"].cached().tolist())
    part = np.asarray(p.node_part)
    v = p.view(0)
    halo = set(np.asarray(p.shuffle.new2old_nid)[np.asarray(v.nodes[v.num_inner_nodes :])].tolist())
    seen = set()
    for key, node in _homo(d).items():
        want = (
            "GPU cache" if node in cached
            else "own partition" if part[node] == 0
            else "remote machine"  # a HALO copy too: DGL keeps no feature rows of HALO nodes
        )  # fmt: skip
        assert d.nodes[key]["owner"] == want, key
        seen.add(want)
    assert {"GPU cache", "own partition"} <= seen and halo  # HALO nodes were drawn
    assert set(d.palette) == seen


def test_a_static_cache_card_gives_the_rank_against_the_capacity(setting):
    _, p, _ = setting
    s = _session(setting, ["in-degree"])
    d = batch_view_data(p, s, "in-degree")
    rank = s.reasons["in-degree"].rank
    for key, node in _homo(d).items():
        label = d.nodes[key]["label"]
        cached = int(rank[node]) < s.capacity
        assert ("| cached: in-degree " in label) == cached, label
        assert f"rank {int(rank[node]) + 1:,} of 180 by in-degree" in label
        assert f"the cache keeps the top {s.capacity}" in label


def test_a_dynamic_cache_card_tells_what_the_cache_did_with_the_node(setting):
    """Each claim of a card is checked against the cache itself, replayed batch by batch: an
    admission in batch b means the node was cached right after batch b; admitted now means it
    is cached now; a first lookup means no batch before looked it up."""
    import re

    _, p, _ = setting
    steps = 4
    s = _session(setting, ["lru"], steps=steps, ratio=0.05)  # a small cache: misses not admitted
    d = batch_view_data(p, s, "lru")
    after = {b: set(_session(setting, ["lru"], steps=b, ratio=0.05).caches["lru"].cached()
                    .tolist()) for b in range(1, steps + 1)}  # fmt: skip
    looked = set()
    for b in range(1, steps):
        looked |= set(_session(setting, ["lru"], steps=b).last.sample.input_nodes.tolist())
    kinds = set()
    for key, node in _homo(d).items():
        label = d.nodes[key]["label"]
        m = re.search(r"admitted in batch (\d+)", label)
        if m:
            assert node in after[int(m.group(1))], label
        if "lru admits it now" in label:
            assert node in after[steps], label
            kinds.add("admitted now")
        if "not admitted now" in label:
            assert node not in after[steps], label
            kinds.add("not admitted")
        if "its first lookup" in label:
            assert node not in looked, label
        if "| cached:" in label:
            assert node in after[steps - 1], label
            kinds.add("hit")
    assert {"admitted now", "not admitted", "hit"} <= kinds, kinds


def test_the_drawn_sample_is_the_first_seeds_and_what_they_reached(setting):
    _, p, _ = setting
    s = _session(setting, ["in-degree"])
    d = batch_view_data(p, s, "in-degree", max_seeds=3)
    mb = s.last.sample
    nodes = _homo(d)
    seeds = {k for k, a in d.nodes.items() if a["sample hop"] == 0}
    assert sorted(nodes[k] for k in seeds) == sorted(mb.seeds[:3].tolist())
    sampled = {
        (int(a), int(b)) for nbr, node, _ in mb.edges for a, b in zip(nbr.tolist(), node.tolist())
    }
    for a, b, _ in d.edges:
        assert (nodes[a], nodes[b]) in sampled
    # every drawn node is reached from the drawn seeds along drawn edges, at its hop
    reach = {k: 0 for k in seeds}
    for h in (1, 2):
        for a, b, _ in d.edges:
            if b in reach and reach[b] == h - 1 and a not in reach:
                reach[a] = h
    assert reach == {k: a["sample hop"] for k, a in d.nodes.items()}
    drawn = {(a, b) for a, b, _ in d.edges}
    for k, a in d.nodes.items():  # the card names the node that sampled it, a hop nearer
        if a["sample hop"]:
            by = a["label"].split("(sampled by node ")[1].split(")")[0]
            assert (k, by) in drawn and d.nodes[by]["sample hop"] == a["sample hop"] - 1
    r = {k: np.hypot(a["x"], a["y"]) for k, a in d.nodes.items()}
    assert all(abs(r[k] - (d.nodes[k]["sample hop"] + 0.35)) < 1e-9 for k in r)  # rings


def test_without_a_trainer_a_row_is_cached_or_from_host_memory(setting):
    _, p, _ = setting
    s = _session(setting, ["out-degree"], part_id=None)
    d = batch_view_data(p, s, "out-degree")
    assert {a["owner"] for a in d.nodes.values()} <= {"GPU cache", "host memory"}
    assert d.title.startswith("all training nodes, batch 3:")


def test_before_the_first_batch_the_view_says_to_step(setting):
    _, p, _ = setting
    s = _session(setting, ["lru"], steps=0)
    d = batch_view_data(p, s, "lru")
    assert d.nodes == {} and "press Step" in d.title


def test_a_policy_the_session_does_not_run_is_refused(setting):
    _, p, _ = setting
    with pytest.raises(GraphpartError, match="policy must be one the session runs"):
        batch_view_data(p, _session(setting, ["lru"]), "in-degree")


def test_a_heterograph_batch_is_keyed_like_every_other_view():
    from graphpart.lookup import node_keys

    g = load_davis_southern_women()
    p = gp.partition(g, 2, num_hops=1, seed=0)
    s = LookupSession(Topology.from_graph(g), [3], policies=["lru"], batch_size=4, seed=0)
    s.step()
    d = batch_view_data(p, s, "lru")
    keys = node_keys(p)
    assert d.nodes and all(k == keys[a["homogeneous id"]] for k, a in d.nodes.items())
    assert any(":" in k for k in d.nodes)


def test_a_seed_beyond_the_drawn_ones_says_it_is_a_seed_too():
    from graphpart.datasets import load_karate_club

    g = load_karate_club()
    p = gp.partition(g, 2, num_hops=1, seed=0)
    s = LookupSession(Topology.from_graph(g), [4, 3], policies=["lru"], batch_size=30, seed=0)
    s.step(1)
    d = batch_view_data(p, s, "lru", max_seeds=4)
    seeds = set(s.last.sample.seeds.tolist())
    for a in d.nodes.values():
        later = a["sample hop"] > 0 and a["homogeneous id"] in seeds
        assert ("(also a seed of this batch)" in a["label"]) == later
    assert any("(also a seed" in a["label"] for a in d.nodes.values())

"""DGL's partition invariants, re-expressed over graphpart's outputs."""

from __future__ import annotations

import numpy as np
import torch

from graphpart import Graph
from graphpart.graph.schema import etype_str


def _offsets(counts):
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


def check_parts(g: Graph, parts, orig_nids, orig_eids, num_hops: int, trainers: int = 1) -> None:
    """``parts`` is a list of (local graph, node_feats, edge_feats, book) per partition."""
    hetero = not g.is_homogeneous
    ntypes, etypes = g.ntypes, g.canonical_etypes
    noff = _offsets([g.num_nodes(t) for t in ntypes])
    eoff = _offsets([g.num_edges(e) for e in etypes])
    n, m = int(noff[-1]), int(eoff[-1])
    onids = orig_nids if hetero else {ntypes[0]: orig_nids}
    oeids = orig_eids if hetero else {etypes[0]: orig_eids}
    book = parts[0][3]
    k = book.num_partitions()
    assert len(parts) == k
    # Totals of the book equal the graph's.
    assert sum(len(book.partid2nids(p)) for p in range(k)) == n
    assert sum(len(book.partid2eids(p)) for p in range(k)) == m
    assert sum(md["num_nodes"] for md in book.metadata()) == n
    # nid2partid yields contiguous blocks, homogeneous and per type.
    assert bool((torch.diff(book.nid2partid(torch.arange(n))) >= 0).all())
    assert bool((torch.diff(book.eid2partid(torch.arange(m))) >= 0).all())
    # Partitions own consecutive blocks of homogeneous ids, in partition order.
    assert torch.equal(torch.cat([book.partid2nids(p) for p in range(k)]), torch.arange(n))
    assert torch.equal(torch.cat([book.partid2eids(p) for p in range(k)]), torch.arange(m))
    for t in ntypes:
        # Per-type inner ids are contiguous and cover the type once (also for the one type of a
        # homogeneous graph: its type-wise ids go through the book's per-type lookups).
        cat = torch.cat([book.partid2nids(p, t) for p in range(k)])
        assert torch.equal(cat, torch.arange(g.num_nodes(t)))
        assert bool((torch.diff(book.nid2partid(torch.arange(g.num_nodes(t)), t)) >= 0).all())
        # return_mapping: a permutation of the type's ids.
        assert torch.equal(torch.sort(onids[t]).values, torch.arange(g.num_nodes(t)))
    for e in etypes:
        cat = torch.cat([book.partid2eids(p, e) for p in range(k)])
        assert torch.equal(cat, torch.arange(g.num_edges(e)))
        assert torch.equal(torch.sort(oeids[e]).values, torch.arange(g.num_edges(e)))
    x = torch.randn(n, dtype=torch.float64)  # one value per original homogeneous node
    src_all = (
        torch.cat([g.edges(e)[0] + int(noff[ntypes.index(e[0])]) for e in etypes])
        if etypes
        else torch.zeros(0, dtype=torch.int64)
    )
    dst_all = (
        torch.cat([g.edges(e)[1] + int(noff[ntypes.index(e[2])]) for e in etypes])
        if etypes
        else torch.zeros(0, dtype=torch.int64)
    )
    full1 = torch.zeros(n, dtype=torch.float64).index_add_(0, dst_all, x[src_all])
    full2 = torch.zeros(n, dtype=torch.float64).index_add_(0, dst_all, full1[src_all])
    # The partition owning each original node (homogeneous original ids), as the book says.
    owner = torch.empty(n, dtype=torch.int64)
    for i, t in enumerate(ntypes):
        owner[int(noff[i]) + onids[t]] = book.nid2partid(torch.arange(g.num_nodes(t)), t)
    rebuilt_n = {}
    rebuilt_e = {}
    for p, (lg, nfeat, efeat, b) in enumerate(parts):
        inner = lg.ndata["inner_node"].bool()
        ni = int(inner.sum())
        assert bool(inner[:ni].all()) and not bool(inner[ni:].any())
        ids = lg.ndata["_ID"]
        assert torch.equal(b.partid2nids(p), ids[:ni])
        assert torch.equal(b.nid2localnid(ids[:ni], p), torch.arange(ni))
        assert bool((lg.ndata["part_id"][:ni] == p).all())
        assert torch.equal(b.nid2partid(ids), lg.ndata["part_id"])
        ntype_l = lg.ndata["_TYPE"] if hetero else torch.zeros(lg.num_nodes(), dtype=torch.int64)
        etype_l = lg.edata["_TYPE"] if hetero else torch.zeros(lg.num_edges(), dtype=torch.int64)
        orig_hom = torch.from_numpy(noff)[ntype_l] + lg.ndata["orig_id"]
        # Shuffled -> type-wise new id -> orig id agrees with orig_id.
        tnew = b.map_to_per_ntype(ids)[1] if hetero else ids
        for i, t in enumerate(ntypes):
            sel = ntype_l == i
            assert torch.equal(onids[t][tnew[sel]], lg.ndata["orig_id"][sel])
        # Every local edge maps back to a real edge between the original endpoints.
        s, d = lg.edges()
        eids = lg.edata["_ID"]
        inner_e = lg.edata["inner_edge"].bool()
        ne = int(inner_e.sum())
        assert bool(inner_e[:ne].all()) and not bool(inner_e[ne:].any())
        assert torch.equal(eids[:ne], torch.sort(eids[:ne]).values)
        # A partition owns the in-edges of its inner nodes.
        owned = b.partid2eids(p)
        assert len(owned) == int((owner[dst_all] == p).sum())
        if num_hops == 0:
            # Inner edges: the owned edges whose source is inner too, i.e. every edge of the
            # full graph with both ends in p; local edge ids index the owned range.
            assert ne == int(((owner[src_all] == p) & (owner[dst_all] == p)).sum())
            assert torch.equal(owned[b.eid2localeid(eids[:ne], p)], eids[:ne])
        else:
            # Inner edges: every owned edge, in id order, so local edge id = position.
            assert torch.equal(eids[:ne], owned)
            assert torch.equal(b.eid2localeid(eids[:ne], p), torch.arange(ne))
        # HALO edges are owned by other partitions.
        assert not bool((b.eid2partid(eids[ne:]) == p).any())
        enew = b.map_to_per_etype(eids)[1] if hetero else eids
        for i, e in enumerate(etypes):
            sel = etype_l == i
            oe = lg.edata["orig_id"][sel]
            assert torch.equal(oeids[e][enew[sel]], oe)
            gs, gd = g.edges(e)
            assert torch.equal(gs[oe], lg.ndata["orig_id"][s[sel]])
            assert torch.equal(gd[oe], lg.ndata["orig_id"][d[sel]])
            assert bool((ntype_l[s[sel]] == ntypes.index(e[0])).all())
            assert bool((ntype_l[d[sel]] == ntypes.index(e[2])).all())
        if num_hops == 0:
            assert bool(inner[s].all()) and bool(inner[d].all())
        else:
            # Message passing over the partition equals the full graph at inner nodes.
            loc1 = torch.zeros(lg.num_nodes(), dtype=torch.float64).index_add_(0, d, x[orig_hom][s])
            assert torch.allclose(loc1[:ni], full1[orig_hom[:ni]])
            if num_hops >= 2:
                loc2 = torch.zeros(lg.num_nodes(), dtype=torch.float64).index_add_(0, d, loc1[s])
                assert torch.allclose(loc2[:ni], full2[orig_hom[:ni]])
        # Feature rows equal the original rows; collect them to rebuild.
        for i, t in enumerate(ntypes):
            sel = ntype_l[:ni] == i
            for name, value in g.node_data(t).items():
                rows = nfeat[f"{t}/{name}"]
                assert torch.equal(rows, value[lg.ndata["orig_id"][:ni][sel]])
                rebuilt_n.setdefault((t, name), []).append(rows)
            if trainers > 1:
                assert bool((nfeat[f"{t}/trainer_id"] // trainers == p).all())
        for e in etypes:
            for name, value in g.edge_data(e).items():
                rebuilt_e.setdefault((e, name), []).append(efeat[f"{etype_str(e)}/{name}"])
    # Concatenating partitions and scattering by orig ids rebuilds every feature.
    for (t, name), rows in rebuilt_n.items():
        out = torch.empty_like(g.node_data(t)[name])
        out[onids[t]] = torch.cat(rows)
        assert torch.equal(out, g.node_data(t)[name])
    for (e, name), rows in rebuilt_e.items():
        out = torch.empty_like(g.edge_data(e)[name])
        out[oeids[e]] = torch.cat(rows)
        assert torch.equal(out, g.edge_data(e)[name])


def check_partitioning(p) -> None:
    parts = [
        (p.local_graph(i), p.node_feats(i), p.edge_feats(i), p.book_for(i))
        for i in range(p.num_parts)
    ]
    check_parts(p.graph, parts, p.orig_nids, p.orig_eids, p.num_hops, p.num_trainers_per_machine)
    assert np.array_equal(p.node_part, p.trainer_id // p.num_trainers_per_machine)

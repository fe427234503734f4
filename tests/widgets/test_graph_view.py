"""The WebGL partition views: what they draw equals the partitioning, and selection set from
Python (or in the browser) gives every id of the node; linked views select every copy."""

from __future__ import annotations

import numpy as np
import pytest

import graphpart as gp
from graphpart.lookup import locate_node
from graphpart.palette import CUT_COLOR, lighter_hex, part_hex
from graphpart.views.graph import graph_data
from graphpart.widgets import PartitionGraph, PartitionViews
from graphpart.widgets.sigma_style import legend_html

from ..graphs import hetero_graph


@pytest.fixture(scope="module")
def hetero():
    return gp.partition(hetero_graph(), 3, num_hops=1, seed=0)


def test_the_whole_graph_is_drawn_coloured_by_owner_with_cut_edges_marked(karate3):
    view = PartitionGraph(karate3)
    data = view.sigma.data
    assert len(data["nodes"]) == 34
    owner = {n["key"]: n["attributes"]["owner"] for n in data["nodes"]}
    assert owner == {str(i): f"part {int(karate3.node_part[i])}" for i in range(34)}
    for e in data["edges"]:
        cut = owner[e["source"]] != owner[e["target"]]
        assert (e["attributes"]["color"] == CUT_COLOR) == cut
    assert sum(e["attributes"]["cut"] for e in data["edges"]) * 2 == karate3.metrics.edge_cut


@pytest.mark.parametrize("k", [1, 4, 7, 11, 20, 21, 64])
def test_no_partition_has_the_cut_colour(k):
    # tab10's red was partition 3's colour and the cut edges': an opened partition read as cut
    assert CUT_COLOR not in part_hex(k) + lighter_hex(part_hex(k))


def test_inner_edges_take_their_partitions_colour_lighter(karate3):
    d = graph_data(karate3)
    owner = {k: int(a["owner"].split()[1]) for k, a in d.nodes.items()}
    light = lighter_hex(part_hex(3))
    inner = [(a, e) for a, b, e in d.edges if not e["cut"]]
    assert inner and all(e["color"] == light[owner[a]] for a, e in inner)
    assert len({e["color"] for _, e in inner}) == 3


def test_halo_hops_are_ringed_apart_and_named_in_the_legend():
    p = gp.partition(gp.datasets.load_karate_club(), 3, num_hops=2, seed=0)
    view = PartitionGraph(p, 0)
    ring = {}
    for n in view.sigma.data["nodes"]:
        a = n["attributes"]
        ring.setdefault(a["kind"], set()).add((a["border"], a["border size"]))
    assert set(ring) == {"inner", "HALO (hop 1)", "HALO (hop 2)"}
    assert all(len(r) == 1 for r in ring.values())  # one ring per hop
    assert ring["HALO (hop 1)"] != ring["HALO (hop 2)"]
    assert {size for _, size in ring["inner"]} == {0}
    legend = legend_html(graph_data(p, part=0))
    assert "HALO hop 1" in legend and "HALO hop 2" in legend
    assert "HALO hop" not in legend_html(graph_data(p))  # the whole graph: no copies


def test_a_partition_view_holds_its_inner_nodes_and_halo_copies_ringed(karate3):
    for q in range(3):
        v = karate3.view(q)
        expected = karate3.shuffle.new2old_nid[v.nodes]
        d = graph_data(karate3, part=q)
        assert list(d.nodes) == [str(i) for i in expected]
        kinds = [a["kind"] for a in d.nodes.values()]
        assert kinds.count("inner") == v.num_inner_nodes
        assert {k for k in kinds if k != "inner"} <= {"HALO (hop 1)", "HALO (hop 2)"}


def test_selecting_a_node_gives_every_id_of_it(karate3):
    view = PartitionGraph(karate3)
    for node in (0, 33, 17):
        view.selected = str(node)
        assert view.location == locate_node(karate3, node)
        assert f"<td>{node}</td>" in view.card.value
    view.selected = None
    assert view.location is None and view.card.value == ""


def test_heterograph_nodes_are_keyed_by_type_and_type_wise_id(hetero):
    view = PartitionGraph(hetero)
    keys = {n["key"] for n in view.sigma.data["nodes"]}
    g = hetero.graph
    assert keys == {f"{t}:{i}" for t in g.ntypes for i in range(g.num_nodes(t))}
    t = g.ntypes[-1]
    view.selected = f"{t}:3"
    assert view.location == locate_node(hetero, 3, "typed", ntype=t)


def test_linked_views_select_every_copy_and_only_there():
    from graphpart.datasets import load_karate_club

    karate3 = gp.partition(load_karate_club(), 3, num_hops=1, seed=0)
    views = PartitionViews(karate3)
    new2old = np.asarray(karate3.shuffle.new2old_nid)
    halo_of = {q: set(new2old[karate3.view(q).nodes].tolist()) for q in range(3)}
    node = next(i for i in range(34) if sum(i in halo_of[q] for q in range(3)) == 2)
    views.select(str(node))  # from Python: every view drawn again with it selected
    for q in range(3):
        assert views.views[q].selected == (str(node) if node in halo_of[q] else None)
    assert views.holders == [q for q in range(3) if node in halo_of[q]]
    assert "not in 2" in views.where.value or "not in 0" in views.where.value
    assert views.location == locate_node(karate3, node)
    assert len(views.location.halo) >= 1 and "HALO copies" in views.card.value


def test_linked_views_let_ipysigma_sync_selection_and_hover_over_every_node():
    from graphpart.datasets import load_karate_club

    karate3 = gp.partition(load_karate_club(), 3, num_hops=1, seed=0)
    views = PartitionViews(karate3)
    drawn = {k for v in views.views for k in v.node_ids}
    for v in views.views:  # nodes a view lacks are there, invisible, so sigma's sync finds them
        assert set(v.sigma.layout) == drawn
        assert {"camera", "selection", "hover"} <= set(v.sigma.sync_targets)
        hidden = [n for n in v.sigma.data["nodes"] if n["key"] not in v.node_ids]
        assert all(0 < n["attributes"]["size"] < 0.01 for n in hidden)  # 0 would become 2
    seen = []
    views.on_select(seen.append)
    for v in views.views:  # what the browser does: sigma selects node 5 in every view
        v.sigma.selected_node = "5"
    assert views.location.orig_homo_id == 5 and len(seen) == 1  # one card per selection
    copies = {int(karate3.node_part[5]), *(q for q, _, _ in views.location.halo)}
    assert views.holders == sorted(copies)


def test_a_graph_above_the_limit_is_drawn_as_its_quotient(karate3, monkeypatch):
    import graphpart.views.graph as gd

    monkeypatch.setattr(gd, "MAX_NODES", 20)
    view = PartitionGraph(karate3)
    keys = [n["key"] for n in view.sigma.data["nodes"]]
    assert keys == ["part 0", "part 1", "part 2"]
    q = gp.metrics.quotient_graph(karate3)
    sizes = [n["attributes"]["nodes"] for n in view.sigma.data["nodes"]]
    assert sizes == q.sizes.tolist()
    cut = sum(e["attributes"]["cut edges"] for e in view.sigma.data["edges"])
    assert cut == karate3.metrics.edge_cut
    with pytest.raises(gp.GraphpartError, match="a view draws at most 20 nodes"):
        graph_data(karate3, part=0)
    piece = PartitionGraph(karate3, part=0)  # the view shows a piece of it instead
    assert piece.title.startswith("partition 0 is too big to draw whole; node ")
    chosen = [k for k, a in piece.data.nodes.items() if a["kind"] == "chosen"]
    assert int(karate3.node_part[int(chosen[0])]) == 0
    view.selected = "part 1"  # a partition has no node card
    assert view.location is None


def test_clicking_a_partition_of_the_quotient_opens_it_and_back_returns(karate3, monkeypatch):
    import graphpart.views.graph as gd

    monkeypatch.setattr(gd, "MAX_NODES", 33)
    view = PartitionGraph(karate3)
    assert view.data.nodes["part 1"]["kind"] == "partition"
    view.sigma.selected_node = "part 1"  # what a click in the browser does
    assert view.title.startswith("partition 1:") and view.back in view.children[1].children
    v = karate3.view(1)
    assert set(view.node_ids) == {str(int(i)) for i in karate3.shuffle.new2old_nid[v.nodes]}
    view.back.click()
    assert list(view.data.nodes) == ["part 0", "part 1", "part 2"]


def test_a_partition_too_big_to_open_shows_its_best_connected_nodes_surroundings(
    karate3, monkeypatch
):
    import graphpart.views.graph as gd
    from graphpart.widgets import PartitionExplorer

    monkeypatch.setattr(gd, "MAX_NODES", 5)
    view = PartitionGraph(karate3)
    view.sigma.selected_node = "part 2"
    chosen = [k for k, a in view.data.nodes.items() if a["kind"] == "chosen"]
    assert len(chosen) == 1 and int(karate3.node_part[int(chosen[0])]) == 2
    import networkx as nx

    g = nx.Graph(karate3.graph.to_networkx().to_undirected())
    inner = [i for i in range(34) if int(karate3.node_part[i]) == 2]
    assert int(chosen[0]) in [max(inner, key=g.degree)]
    ex = PartitionExplorer(karate3.graph, num_parts=3, threaded=False)  # too big for both views
    assert ex.task.error is None and list(ex.graph_view.data.nodes)[0] == "part 0"
    assert ex.halo_view.title.startswith("partition 0 is too big to draw whole")


def test_a_nodes_neighbourhood_is_every_node_within_k_hops(karate3):
    import networkx as nx

    from graphpart.views.graph import neighbourhood_data

    g = nx.Graph(karate3.graph.to_networkx().to_undirected())
    for hops in (1, 2):
        d = neighbourhood_data(karate3, 16, hops=hops)
        near = nx.single_source_shortest_path_length(g, 16, cutoff=hops)
        assert set(d.nodes) == {str(i) for i in near}
        pairs = {frozenset((a, b)) for a, b, _ in d.edges}
        assert pairs == {frozenset((str(a), str(b))) for a, b in g.subgraph(near).edges}
    capped = neighbourhood_data(karate3, 0, hops=3, max_nodes=10)
    assert len(capped.nodes) == 10 and capped.nodes["0"]["kind"] == "chosen"
    with pytest.raises(gp.GraphpartError, match="homogeneous id"):
        neighbourhood_data(karate3, 34)


def test_the_hover_card_label_carries_every_id(hetero):
    t = hetero.graph.ntypes[-1]
    view = PartitionGraph(hetero)
    loc = locate_node(hetero, 2, "typed", ntype=t)
    label = view.data.nodes[f"{t}:2"]["label"]
    assert label.startswith(f"node {t}:2 (homogeneous {loc.orig_homo_id}) | part {loc.owner}")
    assert f"(local {loc.local_id})" in label and f"new id {loc.shuffled_id}" in label
    copies = "; ".join(f"part {q}: local {lid}, hop {h}" for q, lid, h in loc.halo) or "none"
    assert f"HALO copies: {copies}" in label


def test_the_hover_card_names_a_node_split_in_words():
    """Notebook 01's card ended in a bare "val"."""
    g = gp.datasets.sbm([20, 20], 0.3, 0.02, seed=0, train_frac=0.5, val_frac=0.5)
    data = PartitionGraph(gp.partition(g, 2, seed=0)).data
    labels = [n["label"] for n in data.nodes.values()]
    assert all(lb.endswith((" | training node", " | validation node")) for lb in labels)
    assert not any(lb.endswith(("| val", "| train")) for lb in labels)


def test_linked_views_span_one_extent_so_their_cameras_line_up(karate3):
    from graphpart.viz.layout import node_positions

    views = PartitionViews(karate3)
    pos = node_positions(karate3.graph)
    for v in views.views:
        layout = v.sigma.layout
        xs = [p["x"] for p in layout.values()]
        ys = [p["y"] for p in layout.values()]
        assert (min(xs), max(xs)) == (pos[:, 0].min(), pos[:, 0].max())
        assert (min(ys), max(ys)) == (pos[:, 1].min(), pos[:, 1].max())


def test_the_degree_a_view_shows_counts_distinct_neighbours(karate3):
    d = graph_data(karate3)
    assert d.nodes["0"]["degree"] == 16 and d.nodes["33"]["degree"] == 17  # friends, not arcs
    assert "| degree 16" in d.nodes["0"]["label"]


def test_a_view_waits_for_the_pages_webgl_budget_then_freezes_and_wakes(karate3):
    """The page's budget (widgets/webgl_budget.js) decides; Python follows: waiting until
    granted, live, a still picture when the page takes the contexts back, live again."""
    view = PartitionGraph(karate3, height=300)
    seat = view.freezer.budget
    assert view.sigma not in view.children and view.freezer.waiting in view.children
    seat.reason, seat.live = "room", True  # the page grants contexts
    first = view.sigma
    assert first in view.children and seat.need == 3
    view.selected = "5"
    seat.reason, seat.live = "budget", False  # out of sight, over the budget
    frozen = view.freezer.frozen
    assert frozen in view.children and view.sigma.comm is None  # closed: contexts released
    (picture,) = frozen.children[1].children
    assert picture.value[:4] == b"\x89PNG"
    assert "gave its WebGL context back" in frozen.children[0].children[1].value
    view.selected = "7"  # selected while frozen: kept for when it is drawn
    assert view.freezer.frozen in view.children
    seat.reason, seat.live = "seen", True
    assert view.sigma is not first and view.sigma in view.children
    assert view.selected == "7"  # selection and camera kept
    seat.reason, seat.live = "lost", False
    assert "lost its WebGL context" in view.freezer.frozen.children[0].children[1].value
    view.freezer.frozen.children[0].children[0].click()  # the button draws it again
    assert seat.live and view.sigma in view.children


def test_a_row_of_linked_views_holds_one_seat_for_all(karate3):
    views = PartitionViews(karate3)
    assert views.freezer.budget.need == 9
    assert all(v.freezer is None for v in views.views)
    seat = views.freezer.budget
    seat.reason, seat.live = "room", True
    assert all(v.sigma in views.children[3].children for v in views.views)
    seat.reason, seat.live = "budget", False
    row = views.freezer.frozen.children[1]
    assert len(row.children) == 3 and all(v.sigma.comm is None for v in views.views)


def test_the_balance_view_colours_by_class_and_tells_each_nodes_class_load():
    from graphpart.datasets import load_karate_club
    from graphpart.palette import part_hex

    g = load_karate_club()
    p = gp.partition(g, 2, balance_ntypes=g.ndata["label"], num_trainers_per_machine=2, seed=0)
    view = PartitionGraph(p, color="balance")
    label = g.ndata["label"].numpy()
    rings = part_hex(2)
    for n in view.sigma.data["nodes"]:
        a, i = n["attributes"], int(n["key"])
        assert a["owner"] == f"class {label[i]}"  # the colour: its class
        assert a["border"] == rings[int(p.node_part[i])] and a["border size"] > 0  # the ring
        part, trainer = int(p.node_part[i]), int(p.trainer_id[i])
        holds = int(((p.node_part == part) & (label == label[i])).sum())
        held_t = int(((p.trainer_id == trainer) & (label == label[i])).sum())
        assert f"part {part}: {holds} of its {int((label == label[i]).sum())} (" in a["label"]
        assert f"trainer {part}.{trainer % 2}: {held_t} (" in a["label"]
    assert "ringed in its partition's colour" in view.caption.value
    with pytest.raises(gp.GraphpartError, match="color must be one of"):
        PartitionGraph(p, color="class")


def test_the_explorers_balance_tab_draws_the_graph_by_balance_class():
    from graphpart.widgets import PartitionExplorer

    from ..graphs import masked_sbm

    ex = PartitionExplorer(masked_sbm(), num_parts=2, balance_ntypes="train_mask", threaded=False)
    owners = {n["attributes"]["owner"] for n in ex.balance_view.sigma.data["nodes"]}
    assert owners == {"class train", "class not train"}
    assert ex.balance_view in ex.tabs.pages[2].children[0].children


def test_a_rows_legend_names_every_views_halo_hops():
    # the path 0-1-2-3-4 split [0,0,0,0 | 1]: partition 0 holds hop 1 only, partition 1 hop 2 too
    g = gp.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 4], num_nodes=5)
    p = gp.partition(g, 2, part_method=np.array([0, 0, 0, 0, 1]), num_hops=2)
    views = PartitionViews(p)
    legend = views.children[1].value
    assert "HALO hop 1" in legend and "HALO hop 2" in legend


def test_a_big_view_sends_edge_colours_as_codes_and_cards_without_copies():
    from graphpart.views.graph import GraphData
    from graphpart.widgets.sigma_style import COMPACT_NODES, sigma_args

    n = COMPACT_NODES + 1
    nodes = {
        str(i): {"x": float(i), "y": 0.0, "owner": f"part {i % 2}", "kind": "inner", "degree": 1,
                 "new id": i, "label": f"node {i} | part {i % 2} | HALO copies: part 1: local 0,"
                 f" hop 1 | degree 1"}
        for i in range(n)
    }  # fmt: skip
    colors = ["#111111", "#aaccee", "#ffddbb"]
    edges = [
        (str(i), str(i + 1), {"cut": i % 3 == 0, "color": colors[i % 3]}) for i in range(n - 1)
    ]
    data = GraphData(nodes, edges, {"part 0": "#1f77b4", "part 1": "#ff7f0e"}, "big")
    g, kw = sigma_args(data, None, 400, False)
    palette = kw["edge_color_palette"]
    assert kw["edge_color"] == "c" and "raw_edge_color" not in kw
    assert all(palette[a["c"]] == colors[int(s) % 3] for s, _, a in g.edges(data=True))
    assert all(len(a["c"]) == 1 for _, _, a in g.edges(data=True))
    assert "new id" not in g.nodes["5"] and "HALO copies" not in g.nodes["5"]["label"]
    assert g.nodes["5"]["label"] == "node 5 | part 1 | degree 1"

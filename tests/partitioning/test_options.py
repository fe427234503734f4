"""PartitionOptions: every option declared and checked once, taken by every entry point."""

from __future__ import annotations

import numpy as np
import pytest

import graphpart as gp
from graphpart import GraphpartError, PartitionOptions
from graphpart.datasets import load_karate_club
from graphpart.partitioning.options import MetisOptions
from graphpart.sweep import grid, sweep


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("part_method", "kway", "part_method must be"),
        ("part_method", 3.5, "part_method must be"),
        ("num_hops", -1, "num_hops"),
        ("num_trainers_per_machine", 0, "num_trainers_per_machine"),
        ("objtype", "edges", "objtype must be"),
        ("balance_edges", "yes", "balance_edges must be True or False"),
        ("recursive", 1, "recursive must be True or False"),
        ("seed", -3, "seed"),
        ("metis_options", {"ufactor": 30}, "metis_options must be a MetisOptions"),
        ("metis_max_edges", -5, "metis_max_edges"),
        ("metis_refine_rounds", 1.5, "metis_refine_rounds"),
    ],
)
def test_a_bad_option_is_refused_where_it_is_declared(field, value, message):
    with pytest.raises(GraphpartError, match=message):
        PartitionOptions(**{field: value})


def test_an_unknown_keyword_is_refused_with_the_nearest_name():
    with pytest.raises(GraphpartError, match=r"'balance_ntype' \(did you mean balance_ntypes\?\)"):
        gp.partition(load_karate_club(), 2, balance_ntype="label")


def test_options_and_keywords_partition_alike():
    g = load_karate_club()
    opts = PartitionOptions(balance_edges=True, num_hops=2, seed=3)
    by_object = gp.partition(g, 2, opts)
    by_keywords = gp.partition(g, 2, balance_edges=True, num_hops=2, seed=3)
    assert np.array_equal(by_object.node_part, by_keywords.node_part)
    assert by_object.num_hops == 2 and by_object.options == opts


def test_keywords_replace_the_fields_of_the_options_object():
    p = gp.partition(
        load_karate_club(), 2, PartitionOptions(part_method="metis"), part_method="random"
    )
    assert p.part_method == "random" and p.options.part_method == "random"


def test_partition_graph_takes_the_same_object(tmp_path):
    g = load_karate_club()
    opts = PartitionOptions(part_method="random", seed=1)
    nmap, _ = gp.partition_graph(g, "k", 2, tmp_path / "out", opts, return_mapping=True)
    assert np.array_equal(nmap.numpy(), gp.partition(g, 2, opts).orig_nids.numpy())


def test_a_grid_shares_its_options_and_each_setting_replaces_what_it_varies():
    shared = PartitionOptions(num_trainers_per_machine=2, metis_options=MetisOptions(niter=3))
    settings = grid(shared, part_method=["random", "metis"], num_parts=2, ufactor=[50])
    opts = settings[1].options
    assert opts.num_trainers_per_machine == 2
    assert opts.metis_options == MetisOptions(niter=3, ufactor=50)
    results = sweep(load_karate_club(), settings)
    assert [r.partitioning.num_trainers_per_machine for r in results] == [2, 2]


def test_objtype_and_seed_are_partition_options_only():
    assert not {"objtype", "seed"} & set(MetisOptions.__dataclass_fields__)
    with pytest.raises(TypeError):
        MetisOptions(objtype="vol")


def test_metis_max_edges_zero_is_refused_in_python():
    with pytest.raises(GraphpartError, match="metis_max_edges"):
        PartitionOptions(metis_max_edges=0)


def test_options_holding_an_array_compare_by_identity():
    opts = PartitionOptions(balance_ntypes=np.zeros(34, dtype=int))
    assert opts == opts and opts != PartitionOptions(balance_ntypes=np.zeros(34, dtype=int))
    assert len({opts, PartitionOptions(), PartitionOptions()}) == 2
    shared = PartitionOptions(num_trainers_per_machine=2)
    settings = grid(shared, num_parts=[2, 3])
    assert len(settings) == 2 and len({hash(s) for s in settings}) == 2

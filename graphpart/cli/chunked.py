"""``graphpart chunk | assign | parmetis-export | parmetis-import | dispatch | verify``: the chunked
pipeline's commands (DGL's flag names)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import GraphpartError
from ..fs.outpath import check_output_path
from ..utils.check import short_repr

if TYPE_CHECKING:
    from ..chunked.cluster import ClusterOptions

__all__ = []


def add_chunked_commands(sub, graph_source) -> None:
    """Add the chunked-pipeline subcommands to ``sub``; ``graph_source`` adds --dataset/--graph.

    The commands: ``chunk``, ``assign``, ``dispatch``, ``parmetis-export``,
    ``parmetis-import``, ``plan`` and ``verify`` (run by :data:`CHUNKED_COMMANDS`).

    Parameters
    ----------
    sub : argparse._SubParsersAction
        What ``ArgumentParser.add_subparsers`` returned.
    graph_source : callable
        ``graph_source(parser, edges=True)`` adds the graph options to ``chunk``
        (:func:`graphpart.cli.args.add_graph_source`).
    """
    c = sub.add_parser(
        "chunk", help="write a graph in the chunked graph format (metadata.json + chunk files)"
    )
    graph_source(c, edges=True)
    c.add_argument(
        "--num-nodes", type=int, help="with --edges: the node count (default: largest id + 1)"
    )
    c.add_argument("--out-dir", required=True)
    c.add_argument("--num-chunks", type=int, required=True)
    c.add_argument("--graph-name", help="default: the output folder's name")
    for kind, default in (("edge", "csv"), ("node-data", "numpy"), ("edge-data", "numpy")):
        c.add_argument(f"--{kind}-format", default=default, choices=["csv", "numpy", "parquet"])
    c.add_argument("--delimiter", default=" ", help="CSV delimiter (default: a space)")
    _cluster_flags(c)  # rmat and dcsbm: blocks drawn and sorted on the workers
    a = sub.add_parser(
        "assign", help="step 1: a partition assignment (<ntype>.txt files) of a chunked graph"
    )
    a.add_argument("--in-dir", required=True, help="the chunked graph (folder of metadata.json)")
    a.add_argument("--out-dir", required=True)
    a.add_argument("--num-parts", type=int, required=True)
    a.add_argument(
        "--algorithm",
        default="metis",
        choices=["metis", "random", "fennel", "ldg"],
        help="metis (the default: every edge where METIS holds them within 8 GB, else the graph "
        "coarsened out of core (or, without communities, a sample), refined over every edge), "
        "random, fennel / ldg (streaming passes, a stream per Dask worker)",
    )
    a.add_argument(
        "--balance-ntypes",
        metavar="FIELD",
        help="metis, fennel, ldg: also balance each value of this node data (e.g. train_mask)",
    )
    a.add_argument(
        "--balance-edges",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also balance each partition's in-degree (its edges). Default: off for metis; for "
        "fennel / ldg on where in-degrees are spread unevenly (power-law graphs), said on stderr",
    )
    a.add_argument(
        "--passes",
        type=int,
        help="fennel / ldg: at most this many passes over the edges, the streaming one and then "
        "refinement until a pass gains under 0.5%% (default 30)",
    )
    a.add_argument(
        "--metis-max-edges",
        type=int,
        help="metis: coarsen the graph to at most this many edges for METIS (a graph without "
        "communities: a sample of about this many, drawn as the chunks stream past), then "
        "refine on every edge",
    )
    a.add_argument("--seed", type=int)
    _cluster_flags(a)
    d = sub.add_parser("dispatch", help="step 2: write the partitions of a chunked graph on Dask")
    d.add_argument("--in-dir", required=True, help="the chunked graph (folder of metadata.json)")
    d.add_argument(
        "--partitions-dir", required=True, help="the assignment written by 'graphpart assign'"
    )
    d.add_argument("--out-dir", required=True)
    d.add_argument("--num-hops", type=int, default=1, choices=[0, 1])
    d.add_argument("--graph-name", help="default: the metadata's graph_name")
    d.add_argument(
        "--save-orig-nids",
        action="store_true",
        help="also write original node ids (per part, merged)",
    )
    d.add_argument(
        "--save-orig-eids",
        action="store_true",
        help="also write original edge ids (per part, merged)",
    )
    d.add_argument(
        "--format",
        default="graphbolt",
        choices=["graphbolt", "dgl", "graphpart"],
        help="partition files: GraphBolt's fused_csc_sampling_graph.pt (DGL 2.x, written out of "
        "core; the default), DGL's .dgl files (built in memory), or graphpart's torch files",
    )
    d.add_argument(
        "--out-edges",
        action="store_true",
        help="also copy into each partition the edges leaving its nodes, as partition_graph "
        "does (default: each edge once, at its destination's owner, as DGL's pipeline)",
    )
    for name, what in (
        ("eids", "edge ids"),
        ("inner-node", "inner_node flags"),
        ("inner-edge", "inner_edge flags"),
    ):
        d.add_argument(
            f"--store-{name}",
            action=argparse.BooleanOptionalAction,
            default=True,
            help=f"GraphBolt: store the {what} (DGL's store_{name.replace('-', '_')}; default yes)",
        )
    d.add_argument(
        "--resume",
        action="store_true",
        help="keep every partition a killed run on --out-dir finished (each file checked "
        "against its recorded SHA-256, the inputs' bytes and options the same) and write only "
        "the rest",
    )
    _cluster_flags(d)
    pe = sub.add_parser(
        "parmetis-export", help="write ParMETIS input files (<name>_nodes/_edges/_stats.txt)"
    )
    pe.add_argument("--in-dir", required=True, help="the chunked graph (folder of metadata.json)")
    pe.add_argument("--out-dir", required=True)
    pe.add_argument("--graph-name", help="default: the metadata's graph_name")
    pi = sub.add_parser(
        "parmetis-import", help="turn ParMETIS output (p<i>-<name>_nodes.txt) into an assignment"
    )
    pi.add_argument(
        "--parmetis-dir", required=True, help="the folder of ParMETIS's p<i>-<name>_nodes.txt files"
    )
    pi.add_argument("--in-dir", required=True, help="the chunked graph (folder of metadata.json)")
    pi.add_argument("--out-dir", required=True)
    pi.add_argument("--graph-name", help="default: the metadata's graph_name")
    pl = sub.add_parser(
        "plan",
        help="before running: each step's peak memory per process and disk, from the metadata",
    )
    pl.add_argument("--in-dir", required=True, help="the chunked graph (folder of metadata.json)")
    pl.add_argument("--num-parts", type=int, required=True)
    pl.add_argument("--algorithm", default="metis", choices=["metis", "random", "fennel", "ldg"])
    pl.add_argument("--workers", type=int, default=2)
    pl.add_argument(
        "--partitions-dir", help="an assignment: use its partition sizes instead of balanced ones"
    )
    pl.add_argument("--out-dir", help="where dispatch will write (default: beside --in-dir)")
    pl.add_argument(
        "--format",
        default="graphbolt",
        choices=["graphbolt", "dgl", "graphpart"],
        help="the files dispatch will write (GraphBolt's and graphpart's out of core)",
    )
    pl.add_argument(
        "--out-edges", action="store_true", help="dispatch will copy the edges leaving each part"
    )
    pl.add_argument(
        "--metis-max-edges", type=int, help="metis: the edges assign's METIS sees (coarsened)"
    )
    v = sub.add_parser("verify", help="check written partitions against their chunked input")
    v.add_argument("config", help="the <graph_name>.json of the partitions")
    v.add_argument("--chunked-dir", required=True)
    v.add_argument(
        "--partitions-dir",
        help="the assignment the partitions were written from: where GraphBolt partitions' "
        "original node ids come from when dispatch did not save them (--save-orig-nids)",
    )
    _cluster_flags(v)


def _cluster_flags(p: argparse.ArgumentParser) -> None:
    from ..chunked.cluster import ADDRESS_RULE

    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=f"a running Dask scheduler: {ADDRESS_RULE}, e.g. tcp://10.0.0.1:8786 (default: "
        "start a LocalCluster)",
    )
    p.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    p.add_argument("--threads-per-worker", type=int, default=1)
    p.add_argument(
        "--memory-limit", default="auto", help="LocalCluster memory per worker, e.g. 3GB"
    )


def cluster_options(args: argparse.Namespace) -> ClusterOptions:
    """The :class:`~graphpart.chunked.ClusterOptions` the cluster flags say.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments of a command with the cluster flags.

    Returns
    -------
    ClusterOptions
        Checked options (a bad value is a one-line error before any work).
    """
    from ..chunked.cluster import ClusterOptions

    return ClusterOptions(
        scheduler=args.scheduler,
        workers=args.workers,
        threads_per_worker=args.threads_per_worker,
        memory_limit=args.memory_limit,
    )


def _chunk(args, load) -> int:
    from ..chunked import write_chunked
    from ..chunked.ingest import dcsbm_chunked, edges_chunked, rmat_chunked, sbm_chunked

    check_output_path(args.out_dir, "--out-dir", keep=[p for p in (args.graph, args.edges) if p])
    formats = {"graph_name": args.graph_name, "edge_format": args.edge_format}
    formats["delimiter"] = args.delimiter
    if args.num_nodes is not None and not args.edges:
        raise GraphpartError("--num-nodes goes with --edges")
    if args.edges:  # read in blocks: the file may be larger than memory
        meta = edges_chunked(
            args.edges, args.out_dir, args.num_chunks, num_nodes=args.num_nodes, **formats
        )
    elif args.dataset in ("rmat", "sbm", "dcsbm"):  # in blocks: the same graph as datasets'
        import inspect

        from .. import datasets

        known = inspect.signature(getattr(datasets, args.dataset)).parameters
        unknown = sorted(set(dict(args.dataset_arg)) - set(known))
        if unknown:
            raise GraphpartError(
                f"{args.dataset} takes no argument {short_repr(unknown[0])}; it takes {list(known)}"
            )
        write = {"rmat": rmat_chunked, "sbm": sbm_chunked, "dcsbm": dcsbm_chunked}[args.dataset]
        if args.dataset != "sbm":
            formats["cluster"] = cluster_options(args)
        given = {"node_data_format": args.node_data_format, **formats, **dict(args.dataset_arg)}
        try:  # a required argument missing (scale=...) is one line, as datasets.load says it
            inspect.signature(write).bind(args.out_dir, args.num_chunks, **given)
        except TypeError as exc:
            raise GraphpartError(
                f"bad arguments for dataset {short_repr(args.dataset)}: {exc}; give it with "
                "--dataset-arg KEY=VALUE"
            ) from None
        meta = write(args.out_dir, args.num_chunks, **given)
    else:
        meta = write_chunked(
            load(args),
            args.out_dir,
            args.num_chunks,
            node_data_format=args.node_data_format,
            edge_data_format=args.edge_data_format,
            **formats,
        )
    sys.stdout.write(f"wrote {meta}\n")
    return 0


def _assign(args, load) -> int:
    from ..chunked import assign

    check_output_path(args.out_dir, "--out-dir", keep=[args.in_dir])
    options: dict = {"cluster": cluster_options(args)}
    # assign checks which options go with the algorithm (the rule plan checks too)
    if args.passes is not None:
        options["passes"] = args.passes
    if args.metis_max_edges is not None:
        options["metis_max_edges"] = args.metis_max_edges
    out = assign(
        args.in_dir,
        args.out_dir,
        args.num_parts,
        args.algorithm,
        balance_ntypes=args.balance_ntypes,
        balance_edges=args.balance_edges,
        seed=args.seed,
        **options,
    )
    sys.stdout.write(f"wrote {out}\n")
    return 0


def _dispatch(args, load) -> int:
    from ..chunked import dispatch
    from ..storage.owned import check_partition_output

    cluster = cluster_options(args)
    out = Path(args.out_dir).absolute()
    target = check_partition_output(out, "--out-dir", keep=[args.in_dir, args.partitions_dir])
    cfg = dispatch(
        args.in_dir,
        args.partitions_dir,
        target,
        num_hops=args.num_hops,
        graph_name=args.graph_name,
        save_orig_nids=args.save_orig_nids,
        save_orig_eids=args.save_orig_eids,
        progress=sys.stderr.isatty(),
        format=args.format,
        resume=args.resume,
        cluster=cluster,
        out_edges=args.out_edges,
        store_eids=args.store_eids,
        store_inner_node=args.store_inner_node,
        store_inner_edge=args.store_inner_edge,
    )
    sys.stdout.write(f"wrote {cfg}\n")
    return 0


def _verify(args, load) -> int:
    from ..chunked import verify

    cluster = cluster_options(args)
    result = verify(args.config, args.chunked_dir, args.partitions_dir, cluster=cluster)
    sys.stdout.write(f"{result}\n")
    return 0 if result.ok else 1


def _parmetis_export(args, load) -> int:
    from ..chunked.parmetis import export_parmetis

    check_output_path(args.out_dir, "--out-dir", keep=[args.in_dir])
    sys.stdout.write(f"wrote {export_parmetis(args.in_dir, args.out_dir, args.graph_name)}\n")
    return 0


def _parmetis_import(args, load) -> int:
    from ..chunked.parmetis import import_parmetis

    check_output_path(args.out_dir, "--out-dir", keep=[args.in_dir, args.parmetis_dir])
    sys.stdout.write(
        f"wrote {import_parmetis(args.parmetis_dir, args.in_dir, args.out_dir, args.graph_name)}\n"
    )
    return 0


def _plan(args, load) -> int:
    from pathlib import Path

    from ..chunked import assignment_loads, format_plan, read_assignment, read_metadata
    from ..chunked.assign import assignment_halo

    meta = read_metadata(args.in_dir)
    out = Path(args.out_dir) if args.out_dir else Path(args.in_dir).absolute().parent
    loads, halo, k = None, None, args.num_parts
    if args.partitions_dir is not None:
        k = read_assignment(args.partitions_dir, meta)[1]
        if k != args.num_parts:
            raise GraphpartError(
                f"--num-parts {args.num_parts}, but the assignment "
                f"{short_repr(args.partitions_dir)} has {k} parts: give --num-parts {k}, or plan "
                "without --partitions-dir"
            )
        loads = assignment_loads(args.partitions_dir, k, meta)
        halo = assignment_halo(args.partitions_dir, k, meta)
        if loads is None:
            raise GraphpartError(
                f"{args.partitions_dir}: records no partition sizes (graphpart assign writes "
                "them); plan without --partitions-dir for balanced partitions"
            )
    sys.stdout.write(
        format_plan(
            meta,
            k,
            args.algorithm,
            workers=args.workers,
            loads=loads,
            out_dir=out,
            format=args.format,
            metis_max_edges=args.metis_max_edges,
            out_edges=args.out_edges,
            halo=halo,
        )
        + "\n"
    )
    return 0


CHUNKED_COMMANDS = {
    "plan": _plan,
    "parmetis-export": _parmetis_export,
    "parmetis-import": _parmetis_import,
    "chunk": _chunk,
    "assign": _assign,
    "dispatch": _dispatch,
    "verify": _verify,
}

"""``graphpart partition`` (like DGL's ``partition_graph``) and ``graphpart inspect``."""

from __future__ import annotations

import argparse
import json
import sys
import time

from ..partitioning.options import (
    DEFAULT_METIS_MAX_EDGES,
    DEFAULT_REFINE_ROUNDS,
    MetisOptions,
    PartitionOptions,
)
from .args import add_graph_source, load_graph_source

__all__ = []


def add_partition_commands(sub) -> None:
    """Add ``partition`` and ``inspect`` to the subparsers ``sub``.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        What ``ArgumentParser.add_subparsers`` returned.
    """
    p = sub.add_parser(
        "partition", help="partition a graph and write it to disk (like DGL's partition_graph)"
    )
    add_graph_source(p)
    p.add_argument("--graph-name", required=True)
    p.add_argument("--num-parts", type=int, required=True)
    p.add_argument("--out-path", required=True)
    p.add_argument("--num-hops", type=int, default=1)
    p.add_argument("--part-method", default="metis", choices=["metis", "random"])
    p.add_argument(
        "--balance-ntypes",
        metavar="FIELD[,FIELD...]",
        help="balance the values of this node data field (e.g. train_mask), or of several at "
        "once (train_mask,val_mask,test_mask: each split per machine and per trainer)",
    )
    p.add_argument("--balance-edges", action="store_true")
    p.add_argument("--num-trainers-per-machine", type=int, default=1)
    p.add_argument("--objtype", default="cut", choices=["cut", "vol"])
    p.add_argument(
        "--recursive", action="store_true", help="METIS recursive bisection instead of k-way"
    )
    p.add_argument("--niter", type=int, help="METIS refinement iterations")
    p.add_argument(
        "--ufactor", type=int, help="METIS imbalance tolerance in thousandths (30 = 1.03)"
    )
    p.add_argument(
        "--metis-max-edges",
        type=int,
        default=DEFAULT_METIS_MAX_EDGES,
        help="METIS sees at most about this many edges: a larger graph is coarsened first "
        "(or, without communities to keep, sampled); 0: METIS on every edge",
    )
    p.add_argument(
        "--metis-refine-rounds",
        type=int,
        default=DEFAULT_REFINE_ROUNDS,
        help="after METIS saw a sample: rounds of refinement on every edge (0: none)",
    )
    p.add_argument("--ctype", choices=["rm", "shem"], help="METIS coarsening matching")
    p.add_argument("--seed", type=int)
    p.add_argument("--mapping-out", help="also write orig_nids / orig_eids to this .pt file")
    p.add_argument(
        "--format",
        default="graphpart",
        choices=["graphpart", "dgl", "graphbolt"],
        help="partition files: graphpart's torch files, DGL's .dgl files (what DGL's "
        "load_partition and DistGraph load), or those plus GraphBolt's",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    i = sub.add_parser(
        "inspect", help="print the metrics of partitions on disk (graphpart, DGL, PyG or GLT)"
    )
    i.add_argument(
        "config",
        help="a partition config (<graph_name>.json, by graphpart or DGL), or a PyG "
        "or GLT partition folder",
    )
    i.add_argument("--json", action="store_true", help="print the metrics as JSON")


def partition_options(args: argparse.Namespace) -> PartitionOptions:
    """The :class:`~graphpart.PartitionOptions` the ``partition`` flags say.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed ``graphpart partition`` arguments.

    Returns
    -------
    PartitionOptions
        Checked options (a bad value is a one-line error before the graph is loaded).
    """
    metis = MetisOptions(niter=args.niter, ufactor=args.ufactor, ctype=args.ctype)
    return PartitionOptions(
        part_method=args.part_method,
        balance_ntypes=args.balance_ntypes,  # field names: classes named after them
        balance_edges=args.balance_edges,
        num_hops=args.num_hops,
        num_trainers_per_machine=args.num_trainers_per_machine,
        objtype=args.objtype,
        seed=args.seed,
        recursive=args.recursive,
        metis_options=metis,
        metis_max_edges=args.metis_max_edges or None,
        metis_refine_rounds=args.metis_refine_rounds,
    )


def partition_command(args: argparse.Namespace) -> int:
    """Run ``graphpart partition``: load the graph, partition it and write the partitions.

    The graph name, format, options, ``--out-path`` and ``--mapping-out`` are checked before
    the graph is loaded. Writes the partitions with
    :func:`~graphpart.storage.save_partitions`, and with ``--mapping-out`` a torch file of
    ``orig_nids`` and ``orig_eids``; prints the config written, the time taken and the
    partitioning's report on stdout (a progress bar on stderr unless ``--quiet``).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed ``graphpart partition`` arguments.

    Returns
    -------
    int
        The exit status, 0.
    """
    import torch

    from ..fs.atomic import atomic_write
    from ..fs.outpath import check_output_path
    from ..partitioning.core import partition
    from ..storage import save_partitions

    steps = ["load graph", "partition", "write"]
    bar = None
    if not args.quiet:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(steps), desc=steps[0], unit="step")

    def advance(label: str | None) -> None:
        if bar is not None:
            bar.update(1)
            if label:
                bar.set_description(label)

    from ..storage.config import check_graph_name
    from ..storage.files import check_format
    from ..storage.owned import check_mapping_out, check_partition_output

    check_graph_name(args.graph_name)
    check_format(args.format)
    options = partition_options(args)
    keep = [args.graph, args.mapping_out]
    target = check_partition_output(args.out_path, "--out-path", keep=keep)
    if args.mapping_out:
        check_output_path(args.mapping_out, "--mapping-out", kind="file", keep=[args.graph])
        check_mapping_out(args.mapping_out)
    t0 = time.perf_counter()
    g = load_graph_source(args)
    advance(steps[1])
    p = partition(g, args.num_parts, options)
    advance(steps[2])
    config = save_partitions(
        p, args.graph_name, target, progress=not args.quiet, format=args.format
    )
    if args.mapping_out:
        with atomic_write(args.mapping_out) as f:
            torch.save({"orig_nids": p.orig_nids, "orig_eids": p.orig_eids}, f)
    advance(None)
    if bar is not None:
        bar.close()
    sys.stdout.write(f"wrote {config} in {time.perf_counter() - t0:.1f} s\n{p.report()}\n")
    return 0


def inspect_command(args: argparse.Namespace) -> int:
    """Run ``graphpart inspect``: print the format and the metrics of partitions on disk.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed ``graphpart inspect`` arguments: ``config`` (anything
        :func:`~graphpart.storage.open_partitions` reads) and ``json`` (print JSON with a
        ``"format"`` key and the metrics, instead of the text report).

    Returns
    -------
    int
        The exit status, 0.
    """
    from ..metrics.disk import metrics_from_disk
    from ..storage.sources import FORMAT_NAMES, detect_format

    fmt = detect_format(args.config)
    m = metrics_from_disk(args.config)
    if args.json:
        sys.stdout.write(json.dumps({"format": fmt, **m.to_dict()}, indent=2) + "\n")
    else:
        sys.stdout.write(f"format: {FORMAT_NAMES[fmt]}\n{m.report()}\n")
    return 0

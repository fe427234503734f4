"""The ``graphpart`` command: ``partition`` and ``inspect`` here, ``cost`` in ``_cli_cost``, the
chunked pipeline in ``_cli_chunked``."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
import warnings
from collections.abc import Sequence

from ._check import short_repr
from ._cli_chunked import CHUNKED_COMMANDS, add_chunked_commands
from ._cli_cost import add_cost_command, cost
from .errors import GraphpartError, one_line
from .partitioning.core import DEFAULT_METIS_MAX_EDGES, DEFAULT_REFINE_ROUNDS

__all__ = ["main", "build_parser"]

logger = logging.getLogger("graphpart.cli")


def _value(text: str):
    if text.startswith("["):  # a list, e.g. block_sizes=[400,400,400]
        import json

        try:
            return json.loads(text)
        except ValueError:
            return text
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def _kv(text: str) -> tuple[str, object]:
    key, sep, val = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {short_repr(text)}")
    return key, _value(val)


class _OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (and exit status 2), like every other error."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="graphpart", description="Partition graphs for distributed GNN training."
    )
    parser.add_argument("--debug", action="store_true", help="on an error, show the full traceback")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "partition", help="partition a graph and write it to disk (like DGL's partition_graph)"
    )
    _graph_source(p)
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
        help="METIS sees a sample of about this many edges (degree-aware when in-degrees are "
        "balanced, else uniform; 0: all)",
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
    add_cost_command(sub)
    add_chunked_commands(sub, _graph_source)
    return parser


def _graph_source(p: argparse.ArgumentParser, edges: bool = False) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--dataset", help="a graphpart.datasets name (karate_club, wordnet, rmat, 4elt, ...)"
    )
    src.add_argument("--graph", help="a graph saved with graphpart (.npz)")
    if edges:
        src.add_argument(
            "--edges",
            metavar="FILE",
            help="an edge list, read in blocks: text (two integers a line, # comments; SNAP, "
            "OGB), .npy of shape (E, 2), or parquet with two integer columns",
        )
    p.add_argument(
        "--dataset-arg",
        action="append",
        type=_kv,
        default=[],
        metavar="KEY=VALUE",
        help="argument for the dataset loader, e.g. scale=16 (repeatable)",
    )


def _load(args):
    from . import datasets
    from ._npz import load_graph

    return (
        datasets.load(args.dataset, **dict(args.dataset_arg))
        if args.dataset
        else load_graph(args.graph)
    )


def _partition(args) -> int:
    import torch

    from ._io import atomic_write
    from ._outpath import check_output_path
    from .partitioning.core import partition
    from .partitioning.metis import MetisOptions
    from .storage import save_partitions

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

    from .storage.config import check_graph_name
    from .storage.files import check_format
    from .storage.owned import check_mapping_out, check_out_path

    check_graph_name(args.graph_name)
    check_format(args.format)
    keep = [args.graph, args.mapping_out]
    check_out_path(check_output_path(args.out_path, "--out-path", keep=keep))
    if args.mapping_out:
        check_output_path(args.mapping_out, "--mapping-out", kind="file", keep=[args.graph])
        check_mapping_out(args.mapping_out)
    t0 = time.perf_counter()
    g = _load(args)
    advance(steps[1])
    options = MetisOptions(niter=args.niter, ufactor=args.ufactor, ctype=args.ctype)
    p = partition(
        g,
        args.num_parts,
        part_method=args.part_method,
        balance_ntypes=args.balance_ntypes,  # a field name: classes named after it
        balance_edges=args.balance_edges,
        num_hops=args.num_hops,
        num_trainers_per_machine=args.num_trainers_per_machine,
        objtype=args.objtype,
        seed=args.seed,
        recursive=args.recursive,
        metis_options=options,
        metis_max_edges=args.metis_max_edges or None,
        metis_refine_rounds=args.metis_refine_rounds,
    )
    advance(steps[2])
    config = save_partitions(
        p, args.graph_name, args.out_path, progress=not args.quiet, format=args.format
    )
    if args.mapping_out:
        with atomic_write(args.mapping_out) as f:
            torch.save({"orig_nids": p.orig_nids, "orig_eids": p.orig_eids}, f)
    advance(None)
    if bar is not None:
        bar.close()
    sys.stdout.write(f"wrote {config} in {time.perf_counter() - t0:.1f} s\n{p.report()}\n")
    return 0


def _inspect(args) -> int:
    from .metrics import metrics_from_disk
    from .storage.sources import FORMAT_NAMES, detect_format

    fmt = detect_format(args.config)
    m = metrics_from_disk(args.config)
    if args.json:
        sys.stdout.write(json.dumps({"format": fmt, **m.to_dict()}, indent=2) + "\n")
    else:
        sys.stdout.write(f"format: {FORMAT_NAMES[fmt]}\n{m.report()}\n")
    return 0


def _quiet_dask(record: logging.LogRecord) -> bool:
    """Dask's own lines below ERROR (scheduler, nanny, comms; a worker slow to close) are not the
    user's news: what fails reaches the user as graphpart's one-line error."""
    return record.levelno >= logging.ERROR or not record.name.startswith("distributed")


#: Options whose value may start with "-" (``--fanouts -1,5``: -1 is "all neighbours"), which
#: argparse would otherwise read as an option of its own.
DASH_VALUED = ("--fanouts",)


def _attach_values(argv: Sequence[str]) -> list[str]:
    """``--fanouts -1,5`` as ``--fanouts=-1,5``, so argparse takes the value as written.

    >>> _attach_values(["cost", "x.json", "--fanouts", "-1,5"])
    ['cost', 'x.json', '--fanouts=-1,5']
    """
    out, it = [], iter(argv)
    for arg in it:
        if arg in DASH_VALUED:
            value = next(it, None)
            out.append(arg if value is None else f"{arg}={value}")
        else:
            out.append(arg)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``graphpart`` command; returns the exit status."""
    args = build_parser().parse_args(_attach_values(sys.argv[1:] if argv is None else argv))
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if not args.debug:  # Dask's own INFO lines (scheduler, nanny, comms) are not the user's news
        for handler in logging.getLogger().handlers:
            handler.addFilter(_quiet_dask)
    if sys.stderr.isatty():  # long steps say how far they are, with an estimate of what is left
        logging.getLogger("graphpart.chunked.progress").setLevel(logging.INFO)
    with warnings.catch_warnings():
        warnings.showwarning = _warn_one_line
        return _run(args)


def _warn_one_line(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning (a balance held as well as possible, ...) as one line, like the errors."""
    sys.stderr.write(f"graphpart: warning: {one_line(str(message))}\n")


def _run(args) -> int:
    try:
        commands = {
            "partition": _partition,
            "inspect": _inspect,
            "cost": cost,
            **CHUNKED_COMMANDS,
        }
        return (
            commands[args.command](args, _load)
            if args.command in CHUNKED_COMMANDS
            else commands[args.command](args)
        )
    except (GraphpartError, OSError, RecursionError, MemoryError) as exc:
        if args.debug:
            raise
        what = "" if isinstance(exc, GraphpartError) else f"{type(exc).__name__}: "
        sys.stderr.write(f"graphpart: error: {one_line(what + str(exc))}\n")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""``graphpart cost``: what a partitioning on disk costs each trainer of an epoch."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields

from ..sampling import parse_fanouts

__all__ = ["cost"]

_HELP = {
    "network_gbit_s": "network link per machine, Gbit/s (shared by its trainers)",
    "rpc_latency_us": "round trip to another machine, microseconds",
    "pcie_gbyte_s": "host-to-GPU copies, GB/s",
    "gather_gbyte_s": "gathering rows from the machine's memory, GB/s",
    "sample_medges_s": "neighbour sampling, million edges/s per trainer",
    "gpu_tflops": "effective GPU rate, TFLOPS",
    "hidden": "hidden width of the GraphSAGE model",
}


def add_cost_command(sub) -> None:
    """Add ``cost`` to the subparsers ``sub``.

    Besides the training setup (``--fanouts``, ``--batch-size``, ...), every field of
    :class:`~graphpart.training.ClusterModel` is an option (``--network-gbit-s``, ...) with the
    model's default.

    Parameters
    ----------
    sub : argparse._SubParsersAction
        What ``ArgumentParser.add_subparsers`` returned.
    """
    from ..training import CACHE_POLICIES, ClusterModel

    c = sub.add_parser(
        "cost",
        help="replay an epoch of distributed training over partitions on disk and estimate "
        "each trainer's time",
    )
    c.add_argument("config", help="partitions on disk (graphpart or DGL config, PyG/GLT folder)")
    c.add_argument(
        "--fanouts",
        required=True,
        help="neighbours per layer from the seeds outwards, e.g. 15,10,5 (-1: all); DGL's "
        "NeighborSampler lists them the other way round",
    )
    c.add_argument("--batch-size", type=int, default=1024)
    c.add_argument(
        "--train",
        default="train_mask",
        metavar="FIELD",
        help="node data field of the training nodes ('all': every node)",
    )
    c.add_argument("--num-trainers-per-machine", type=int, help="default: the partitioning's")
    c.add_argument("--no-force-even", action="store_true", help="node_split(force_even=False)")
    c.add_argument("--by-trainer-id", action="store_true", help="split by the files' trainer ids")
    c.add_argument("--feat-dim", type=int, default=128)
    c.add_argument("--dtype", default="float32")
    c.add_argument("--cache", choices=CACHE_POLICIES, help="a GPU cache per trainer")
    c.add_argument("--cache-ratio", type=float, default=0.1, help="its size, share of all rows")
    c.add_argument("--epochs", type=int, default=1)
    c.add_argument("--seed", type=int, default=0)
    default = ClusterModel()
    for f in fields(ClusterModel):
        c.add_argument(
            f"--{f.name.replace('_', '-')}",
            type=float if f.type in ("float", float) else int,
            default=getattr(default, f.name),
            help=_HELP[f.name],
        )
    c.add_argument(
        "--calibrate", action="store_true", help="measure gather and sampling speed here first"
    )
    c.add_argument("--json", action="store_true", help="print the estimate as JSON")


def cost(args: argparse.Namespace) -> int:
    """Run ``graphpart cost``: estimate an epoch of training over the partitions on disk.

    Prints each trainer's times as a table, or with ``--json`` the epoch time, its breakdown,
    the straggler, the model and each trainer's columns, on stdout.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed ``graphpart cost`` arguments; they fill a
        :class:`~graphpart.training.TrainingSetup` and a
        :class:`~graphpart.training.ClusterModel` (measured here first with ``--calibrate``).

    Returns
    -------
    int
        The exit status, 0.

    Raises
    ------
    GraphpartError
        If ``--fanouts`` is not integers separated by commas, or the setup or the partitions
        are invalid.
    """
    from ..training import ClusterModel, TrainingSetup, calibrate

    model = ClusterModel(**{f.name: getattr(args, f.name) for f in fields(ClusterModel)})
    setup = TrainingSetup(
        fanouts=parse_fanouts(args.fanouts, "--fanouts"),
        batch_size=args.batch_size,
        train=None if args.train == "all" else args.train,
        num_trainers_per_machine=args.num_trainers_per_machine,
        force_even=not args.no_force_even,
        by_trainer_id=args.by_trainer_id,
        feat_dim=args.feat_dim,
        dtype=args.dtype,
        cache=args.cache,
        cache_ratio=args.cache_ratio if args.cache else 0.0,
        epochs=args.epochs,
        seed=args.seed,
        model=calibrate(model) if args.calibrate else model,
    )
    est = setup.estimate(args.config)
    if args.json:
        t = est.table()
        out = {
            "epoch_s": est.epoch_s,
            "breakdown_s": est.breakdown,
            "straggler": est.straggler,
            "straggler_ratio": est.straggler_ratio,
            "why": est.why(),
            "model": vars(setup.model),
            "trainers": {k: [float(x) for x in v] for k, v in t.columns.items()},
        }
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    else:
        sys.stdout.write(f"{est.table()}\n")
    return 0

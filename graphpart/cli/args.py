"""What the commands share: values on the command line, one-line usage errors, the graph a
command reads (``--dataset`` / ``--graph`` / ``--edges``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..errors import one_line
from ..utils.check import short_repr

__all__ = [
    "parse_value",
    "key_value",
    "OneLineParser",
    "add_graph_source",
    "load_graph_source",
    "attach_values",
    "DASH_VALUED",
]


def parse_value(text: str):
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


def key_value(text: str) -> tuple[str, object]:
    key, sep, val = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {short_repr(text)}")
    return key, parse_value(val)


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (and exit status 2), like every other error."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def add_graph_source(p: argparse.ArgumentParser, edges: bool = False) -> None:
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
        type=key_value,
        default=[],
        metavar="KEY=VALUE",
        help="argument for the dataset loader, e.g. scale=16 (repeatable)",
    )


def load_graph_source(args):
    from .. import datasets
    from ..graph.npz import load_graph

    return (
        datasets.load(args.dataset, **dict(args.dataset_arg))
        if args.dataset
        else load_graph(args.graph)
    )


#: Options whose value may start with "-" (``--fanouts -1,5``: -1 is "all neighbours"), which
#: argparse would otherwise read as an option of its own.
DASH_VALUED = ("--fanouts",)


def attach_values(argv: Sequence[str]) -> list[str]:
    """``--fanouts -1,5`` as ``--fanouts=-1,5``, so argparse takes the value as written.

    >>> attach_values(["cost", "x.json", "--fanouts", "-1,5"])
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

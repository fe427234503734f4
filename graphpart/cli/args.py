"""What the commands share: values on the command line, one-line usage errors, the graph a
command reads (``--dataset`` / ``--graph`` / ``--edges``)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..errors import one_line
from ..utils.check import short_repr

__all__ = ["OneLineParser", "add_graph_source", "load_graph_source"]


def parse_value(text: str):
    """A command-line value as the Python value it spells.

    Parameters
    ----------
    text : str
        The value as typed. Text starting with ``[`` is read as JSON (a list such as
        ``[400,400]``), else as an int, else as a float; ``true`` / ``false`` (any case) are
        booleans.

    Returns
    -------
    list, int, float, bool or str
        The value read, or ``text`` unchanged when it is none of these (or invalid JSON).

    Examples
    --------
    >>> parse_value("16"), parse_value("0.5"), parse_value("False"), parse_value("[1,2]")
    (16, 0.5, False, [1, 2])
    >>> parse_value("train_mask")
    'train_mask'
    """
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
    """An argparse ``type`` for ``KEY=VALUE`` options (``--dataset-arg scale=16``).

    Parameters
    ----------
    text : str
        ``KEY=VALUE``; the text up to the first ``=`` is the key (not empty), the rest is
        read by :func:`parse_value`.

    Returns
    -------
    tuple of (str, object)
        The key and its parsed value.

    Raises
    ------
    argparse.ArgumentTypeError
        When there is no ``=`` or the key is empty (argparse reports it as a usage error).

    Examples
    --------
    >>> key_value("scale=16")
    ('scale', 16)
    """
    key, sep, val = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {short_repr(text)}")
    return key, parse_value(val)


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (and exit status 2), like every other error."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def add_graph_source(p: argparse.ArgumentParser, edges: bool = False) -> None:
    """Add the options naming the graph a command reads.

    One of ``--dataset`` (a :mod:`graphpart.datasets` name) or ``--graph`` (a ``.npz`` graph
    file) is required, and ``--dataset-arg KEY=VALUE`` (repeatable) passes arguments to the
    dataset loader.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser.
    edges : bool, default False
        Also offer ``--edges FILE`` (an edge list read in blocks) as a third choice, for
        ``graphpart chunk``.
    """
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


def load_graph_source(args: argparse.Namespace):
    """The graph ``--dataset`` or ``--graph`` names (``--edges`` is read by the command itself).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments of a command with :func:`add_graph_source`'s options.

    Returns
    -------
    Graph
        :func:`graphpart.datasets.load` of ``--dataset`` with the ``--dataset-arg`` values,
        else :func:`graphpart.graph.npz.load_graph` of ``--graph``.
    """
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

    Parameters
    ----------
    argv : sequence of str
        The command-line arguments, without the program name.

    Returns
    -------
    list of str
        ``argv`` with each option of :data:`DASH_VALUED` joined to the argument after it by
        ``=`` (an option that ends ``argv`` is kept as is).

    Examples
    --------
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

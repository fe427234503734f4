"""The ``graphpart`` command's entry point: the parser of every command group, warnings and
errors as one line (exit status 2; ``--debug`` shows the traceback)."""

from __future__ import annotations

import argparse
import errno
import logging
import sys
import warnings
from collections.abc import Sequence

from ..errors import GraphpartError, one_line
from .args import OneLineParser, add_graph_source, attach_values, load_graph_source
from .chunked import CHUNKED_COMMANDS, add_chunked_commands
from .cost import add_cost_command, cost
from .partition import add_partition_commands, inspect_command, partition_command

__all__ = ["main"]

logger = logging.getLogger("graphpart.cli")


def build_parser() -> argparse.ArgumentParser:
    """The ``graphpart`` parser, with every command.

    Returns
    -------
    argparse.ArgumentParser
        A :class:`~graphpart.cli.args.OneLineParser` with ``--debug`` and a required
        subcommand: ``partition``, ``inspect``, ``cost`` and the chunked pipeline's.
    """
    parser = OneLineParser(
        prog="graphpart", description="Partition graphs for distributed GNN training."
    )
    parser.add_argument("--debug", action="store_true", help="on an error, show the full traceback")
    sub = parser.add_subparsers(dest="command", required=True)
    add_partition_commands(sub)
    add_cost_command(sub)
    add_chunked_commands(sub, add_graph_source)
    return parser


def quiet_dask(record: logging.LogRecord) -> bool:
    """False for a record of a ``distributed*`` logger below ERROR: Dask's own lines are not the
    user's news (what fails reaches the user as graphpart's one-line error)."""
    return record.levelno >= logging.ERROR or not record.name.startswith("distributed")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``graphpart`` command; returns the exit status.

    Warnings are printed as one line. A :class:`~graphpart.errors.GraphpartError`, an
    ``OSError``, a ``RecursionError`` or a ``MemoryError`` is printed as one line
    (``graphpart: error: ...``) unless ``--debug`` is given, which lets it propagate.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments, without the program name; ``None`` reads ``sys.argv[1:]``.

    Returns
    -------
    int
        The command's exit status (0 on success; 1 when ``verify`` finds a mismatch), or 2
        after an error.

    Raises
    ------
    SystemExit
        From argparse: status 2 on a usage error, 0 after ``--help``.
    """
    args = build_parser().parse_args(attach_values(sys.argv[1:] if argv is None else argv))
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if not args.debug:  # Dask's own INFO lines (scheduler, nanny, comms) are not the user's news
        for handler in logging.getLogger().handlers:
            handler.addFilter(quiet_dask)
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
            "partition": partition_command,
            "inspect": inspect_command,
            "cost": cost,
            **CHUNKED_COMMANDS,
        }
        return (
            commands[args.command](args, load_graph_source)
            if args.command in CHUNKED_COMMANDS
            else commands[args.command](args)
        )
    except (GraphpartError, OSError, RecursionError, MemoryError) as exc:
        if args.debug:
            raise
        what = "" if isinstance(exc, GraphpartError) else f"{type(exc).__name__}: "
        sys.stderr.write(f"graphpart: error: {one_line(what + str(exc) + _where(exc, args))}\n")
        return 2


def _where(exc: BaseException, args) -> str:
    """For a full disk the system names no file: say which output was being written."""
    out = getattr(args, "out_dir", None) or getattr(args, "out_path", None)
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC and not exc.filename and out:
        return f" (writing {out}: free some space there, or write elsewhere)"
    return ""


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

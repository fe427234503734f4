"""The package's exceptions.

Every check on user input raises :class:`GraphpartError` (a :class:`ValueError`)
or one of its subclasses, with a message that says what was received and what
was expected.
"""

from __future__ import annotations

__all__ = [
    "one_line",
    "GraphpartError",
    "UnknownTypeError",
    "IDRangeError",
    "DataShapeError",
    "FormatError",
    "DatasetNotFoundError",
    "TooBigToDrawError",
    "BalanceWarning",
]


#: The longest message an error keeps (a hostile file must not fill the screen).
MESSAGE_LIMIT = 2000


def one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` safe for a terminal or a notebook: control characters escaped (no ANSI
    sequence reaches the screen, no line break), and cut to ``limit`` characters.

    Parameters
    ----------
    message : str
        The text to clean.
    limit : int, default MESSAGE_LIMIT (2000)
        Characters kept, counted after escaping; a longer text is cut there and ends with
        ``"…"``.

    Returns
    -------
    str
        ``message`` with every non-printable character replaced by its Python escape
        (``\\x1b``, ``\\n``, ...), at most ``limit + 1`` characters long.

    Examples
    --------
    >>> one_line("bad \\x1b[2J file\\nnext")
    'bad \\\\x1b[2J file\\\\nnext'
    >>> len(one_line("x" * 5000))
    2001
    """
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in message)
    return text if len(text) <= limit else text[:limit] + "…"


class GraphpartError(ValueError):
    """Base class of every error graphpart raises on bad input.

    The message is kept as one printable line (see :func:`one_line`): whatever a hostile file
    puts into it, it cannot move the cursor, colour the terminal or fill the screen.

    Parameters
    ----------
    *args : object
        As for :class:`ValueError`; a first argument that is a ``str`` is the message and goes
        through :func:`one_line`, the others are kept as they are.

    Examples
    --------
    >>> str(GraphpartError("got \\x1b[31mred\\n"))
    'got \\\\x1b[31mred\\\\n'
    """

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str):
            args = (one_line(args[0]), *args[1:])
        super().__init__(*args)


class UnknownTypeError(GraphpartError):
    """A node or edge type that the graph or metadata does not have."""


class IDRangeError(GraphpartError):
    """An ID outside the valid range of its node or edge type."""


class DataShapeError(GraphpartError):
    """A data tensor whose length or shape disagrees with what it describes."""


class FormatError(GraphpartError):
    """A file or document that does not follow its format."""


class DatasetNotFoundError(GraphpartError):
    """A dataset's files are missing; the message names what provides them."""


class TooBigToDrawError(GraphpartError):
    """A view asked for more nodes or edges than a browser draws (views fall back to a part)."""


class BalanceWarning(UserWarning):
    """A balance constraint the partitioner could not hold to its tolerance: the best assignment
    found is returned, and ``shortfalls`` names each constraint, its ``max / mean`` load and its
    tolerance (``(name, ratio, tolerance)``; ``p.balance_shortfalls`` keeps them).

    Parameters
    ----------
    message : str
        The warning's text, made one printable line by :func:`one_line`.
    shortfalls : iterable of (str, float, float), default ()
        One ``(name, ratio, tolerance)`` per constraint not held; kept as a tuple in the
        ``shortfalls`` attribute.
    """

    def __init__(self, message: str, shortfalls: tuple = ()) -> None:
        super().__init__(one_line(message))
        self.shortfalls = tuple(shortfalls)

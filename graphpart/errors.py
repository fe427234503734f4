"""The package's exceptions.

Every check on user input raises :class:`GraphpartError` (a :class:`ValueError`)
or one of its subclasses, with a message that says what was received and what
was expected.
"""

from __future__ import annotations

__all__ = [
    "GraphpartError",
    "UnknownTypeError",
    "IDRangeError",
    "DataShapeError",
    "FormatError",
    "DatasetNotFoundError",
]


class GraphpartError(ValueError):
    """Base class of every error graphpart raises on bad input."""


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

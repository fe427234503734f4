"""Input checks that raise :class:`~graphpart.GraphpartError` with clear messages."""

from __future__ import annotations

import math
import numbers
import reprlib
import sys
from collections.abc import Iterable, Sequence

import numpy as np

from ..errors import GraphpartError

__all__ = [
    "replace_options",
    "Options",
    "options_by_name",
    "check_allocation",
    "check_count",
    "check_flag",
    "check_number",
    "check_option_names",
    "check_rate",
    "check_trainers_per_machine",
    "check_feat_dim",
    "check_part_id",
    "check_parts",
    "check_file_name",
    "is_file_name",
    "short_repr",
]


#: The largest count anything may hold: an int64 (torch's and numpy's index type).
INT64_MAX = 2**63 - 1
#: Trainer processes on one machine (one per GPU, or per few CPU cores, in practice).
MAX_TRAINERS_PER_MACHINE = 1024
#: The widest feature row, in values.
MAX_FEAT_DIM = 2**31
#: Bytes an allocation may take without being weighed against the memory available (always there).
SMALL_ALLOCATION = 1 << 26


def is_number(value: object) -> bool:
    """Whether ``value`` is a finite real number that is not a bool, and 0 or normal: a
    subnormal float (under about ``2.2e-308`` in size) is never a meaningful quantity, and
    dividing by one overflows to infinity.

    Parameters
    ----------
    value : object
        Anything (numpy scalars and ints too).

    Returns
    -------
    bool
        True if ``value`` passes every condition above.

    Examples
    --------
    >>> is_number(0.5), is_number(-3), is_number(float("nan")), is_number(5e-324), is_number(True)
    (True, True, False, False, False)
    """
    try:
        return (
            not isinstance(value, (bool, np.bool_))
            and isinstance(value, numbers.Real)
            and math.isfinite(value)
            and (value == 0 or abs(value) >= sys.float_info.min)
        )
    except (OverflowError, TypeError, ValueError):  # an int past the float range
        return False


def check_number(value: object, name: str) -> float:
    """``value`` as a float if it is a finite real number, 0 or normal (:func:`is_number`), of
    either sign, else a one-line error naming ``name``.

    Parameters
    ----------
    value : object
        The number to check (numpy scalars and ints too; bools are refused).
    name : str
        How the message names it.

    Returns
    -------
    float
        ``value``.

    Raises
    ------
    GraphpartError
        If ``value`` is not such a number: NaN, an infinity, a subnormal, a bool, a string.

    Examples
    --------
    >>> check_number(-2, "answer")
    -2.0
    >>> check_number(float("nan"), "answer")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: answer must be a finite number, got nan
    """
    if not is_number(value):
        raise GraphpartError(f"{name} must be a finite number, got {short_repr(value, 60)}")
    return float(value)


#: The rates and latencies a machine model takes (GB/s, microseconds, ...): beyond them a time
#: divided by a rate, or summed over a trace, is no longer a finite float.
RATE_RANGE = (1e-9, 1e12)


def check_rate(value: object, name: str, zero: bool = False) -> float:
    """``value`` as a float if it is a finite real number above 0 (at least 0 with ``zero``): a
    rate or a latency of a machine model, within :data:`RATE_RANGE` (0 allowed with ``zero``),
    else a one-line error naming ``name``: a time divided by a tinier rate is infinite.

    Parameters
    ----------
    value : object
        The number to check (numpy scalars and ints too; bools are refused).
    name : str
        How the message names it.
    zero : bool, default False
        Whether 0 is allowed (a latency).

    Returns
    -------
    float
        ``value``.

    Examples
    --------
    >>> check_rate(12, "pcie_gbyte_s"), check_rate(0, "latency_us", zero=True)
    (12.0, 0.0)
    >>> check_rate(10**400, "pcie_gbyte_s")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: pcie_gbyte_s must be a finite number > 0, got 1000...
    >>> check_rate(1e-300, "pcie_gbyte_s")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: pcie_gbyte_s must lie between 1e-09 and 1e+12, got 1e-300...
    """
    low = 0 if zero else RATE_RANGE[0]
    if not (is_number(value) and (value >= 0 if zero else value > 0)):
        raise GraphpartError(
            f"{name} must be a finite number {'>= 0' if zero else '> 0'}, got "
            f"{short_repr(value, 60)}"
        )
    if not (value == 0 or low <= value <= RATE_RANGE[1]):
        raise GraphpartError(
            f"{name} must lie between {RATE_RANGE[0]:g} and {RATE_RANGE[1]:g}"
            f"{' (or be 0)' if zero else ''}, got {short_repr(value, 60)}"
        )
    return float(value)


def check_flag(value: object, name: str) -> bool:
    """``value`` as a bool if it is one (numpy's too), else a one-line error naming ``name``.

    Parameters
    ----------
    value : object
        The flag to check.
    name : str
        How the message names it.

    Returns
    -------
    bool
        ``value``.

    Raises
    ------
    GraphpartError
        If ``value`` is not ``True`` or ``False``.

    Examples
    --------
    >>> check_flag(np.True_, "out_edges")
    True
    >>> check_flag("no", "out_edges")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: out_edges must be True or False, got 'no'
    """
    if not isinstance(value, (bool, np.bool_)):
        raise GraphpartError(f"{name} must be True or False, got {short_repr(value)}")
    return bool(value)


def check_count(n: object, name: str, low: int = 0, high: int = INT64_MAX) -> int:
    """Return ``n`` as an int in ``[low, high]`` (default: a non-negative int64) or raise.

    Parameters
    ----------
    n : object
        The count to check: a Python or numpy integer, not a bool.
    name : str
        How the error message names ``n``.
    low : int, default 0
        The smallest value accepted.
    high : int, default INT64_MAX
        The largest value accepted.

    Returns
    -------
    int
        ``n`` as a Python int.

    Raises
    ------
    GraphpartError
        If ``n`` is not an integer, or is out of ``[low, high]``.

    Examples
    --------
    >>> import numpy as np
    >>> check_count(np.int64(4), "num_nodes")
    4
    >>> check_count(-1, "num_nodes")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: num_nodes must be a non-negative integer, got -1
    >>> check_count(5, "num_hops", high=3)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: num_hops must be at most 3, got 5
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < low:
        bound = "a non-negative integer" if low == 0 else f"an integer >= {low}"
        raise GraphpartError(f"{name} must be {bound}, got {short_repr(n, 60)}")
    if n > high:
        raise GraphpartError(f"{name} must be at most {high}, got {n}")
    return int(n)


def check_allocation(need: float, what: str, have: int | None = None) -> None:
    """Refuse in one line, before anything is allocated, a result of ``need`` bytes that the
    memory this machine can give now cannot hold: the one check of a count that sizes a tensor
    in memory (rows of a table, nodes of a topology, pairs drawn). Small results pass unweighed.

    Parameters
    ----------
    need : float
        Bytes the result (and what building it holds at once) would take.
    what : str
        How the message names the result.
    have : int, optional
        Bytes free; default: :func:`graphpart.utils.memory.available_memory`, read only when
        ``need`` is over :data:`SMALL_ALLOCATION`.

    Raises
    ------
    GraphpartError
        If ``need`` is more than the memory rule allows
        (:func:`graphpart.utils.memory.check_memory`).

    Examples
    --------
    >>> check_allocation(10**6, "a box of 10 rows")
    >>> check_allocation(8e12, "a box of 10^12 rows", have=2**34)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: a box of 10^12 rows needs about 8.00 TB of memory and ...
    """
    if need <= SMALL_ALLOCATION:
        return
    from .memory import check_memory, usable_memory

    check_memory(
        int(min(need, INT64_MAX)),
        what,
        "ask for less",
        None if have is None else usable_memory(have),
    )


def check_trainers_per_machine(n: object, source: str = "num_trainers_per_machine") -> int:
    """Return ``n`` as a number of trainer processes per machine, ``1 ..`` 1024, or raise.

    Parameters
    ----------
    n : object
        The number to check: a Python or numpy integer.
    source : str, default "num_trainers_per_machine"
        How the error message names ``n`` (an option or a metadata field).

    Returns
    -------
    int
        ``n`` as a Python int, between 1 and :data:`MAX_TRAINERS_PER_MACHINE`.

    Raises
    ------
    GraphpartError
        If ``n`` is not such an integer.

    Examples
    --------
    >>> check_trainers_per_machine(4)
    4
    >>> check_trainers_per_machine(10**8)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: num_trainers_per_machine must be at most 1024, got 100000000
    """
    return check_count(n, source, low=1, high=MAX_TRAINERS_PER_MACHINE)


def check_feat_dim(n: object) -> int:
    """Return ``n`` as the width of a node feature row, ``0 ..`` ``2**31`` values (0: no
    features), or raise: the one check of ``feat_dim``, whether a generator draws rows that wide
    or a replay prices them.

    Parameters
    ----------
    n : object
        The width to check: a Python or numpy integer.

    Returns
    -------
    int
        ``n`` as a Python int, between 0 and :data:`MAX_FEAT_DIM`.

    Raises
    ------
    GraphpartError
        If ``n`` is not such an integer.

    Examples
    --------
    >>> check_feat_dim(128)
    128
    >>> check_feat_dim(-1)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: feat_dim must be a non-negative integer, got -1
    """
    return check_count(n, "feat_dim", high=MAX_FEAT_DIM)


def short_repr(obj: object, limit: int = 200) -> str:
    """A repr of ``obj`` for an error message, in bounded time and length: a few levels deep and
    a few items per container (a hostile object may share one list millions of times), control
    characters escaped, at most ``limit`` characters.

    Parameters
    ----------
    obj : object
        Anything.
    limit : int, default 200
        The most characters returned; a string or other object's own repr is cut at
        ``min(limit, 120)`` by :mod:`reprlib` first.

    Returns
    -------
    str
        The :mod:`reprlib` repr (3 levels, 6 items per container), ending in ``"..."`` where
        cut.

    Examples
    --------
    >>> x = [1]
    >>> for _ in range(50):
    ...     x = [x] * 64
    >>> len(short_repr(x)) <= 200
    True
    >>> short_repr("a\\x1b[2Jb")
    "'a\\\\x1b[2Jb'"
    """
    r = reprlib.Repr()
    r.maxlevel, r.maxlist, r.maxtuple, r.maxdict, r.maxset = 3, 6, 6, 6, 6
    r.maxstring = r.maxother = min(limit, 120)
    text = r.repr(obj)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe_exception(exc: BaseException, limit: int = 200) -> str:
    """``"<type>: <first line of the message>"``, cut to ``limit`` characters: the cause of a
    failure inside a library (torch, json), quoted in one of graphpart's errors without the
    library's paragraphs of advice.

    Examples
    --------
    >>> describe_exception(RuntimeError("Weights only load failed.\\nPlease file an issue"))
    'RuntimeError: Weights only load failed.'
    """
    text = str(exc).strip().split("\n", 1)[0]
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def is_file_name(name: object) -> bool:
    """Whether ``name`` can become (part of) a file name that stays inside its folder: a
    non-empty printable string of at most 200 bytes in UTF-8 (file systems count bytes, at most
    255, and temporary names add to it), without ``/``, ``\\`` or ``..``.

    Parameters
    ----------
    name : object
        The candidate name.

    Returns
    -------
    bool
        True if ``name`` passes every condition above.

    Examples
    --------
    >>> is_file_name("paper"), is_file_name("../NT"), is_file_name("a\\x1b[2J")
    (True, False, False)
    >>> is_file_name("é" * 100), is_file_name("é" * 101)  # two bytes each
    (True, False)
    """
    return (
        isinstance(name, str)
        and 0 < len(name.encode("utf-8", "surrogatepass")) <= 200
        and name.isprintable()
        and not any(c in name for c in "/\\")
        and ".." not in name
    )


def check_file_name(name: object, what: str) -> str:
    """``name`` if :func:`is_file_name`, else a :class:`GraphpartError` naming ``what``.

    Every name that becomes a file name (graph names, node and edge type names) goes through
    here, so nothing is ever written outside the output folder.

    Parameters
    ----------
    name : object
        The candidate name.
    what : str
        How the error message names it (``"graph name"``).

    Returns
    -------
    str
        ``name`` itself.

    Raises
    ------
    GraphpartError
        If ``name`` is not a plain file name (see :func:`is_file_name`).

    Examples
    --------
    >>> check_file_name("../../X", "graph name")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: graph name must be a plain name (printable, at most 200
    bytes in UTF-8, no '/', '\\' or '..'): it becomes a file name; got '../../X'
    """
    if not is_file_name(name):
        shown = short_repr(name, 80)
        raise GraphpartError(
            f"{what} must be a plain name (printable, at most 200 bytes in UTF-8, no '/', '\\' "
            f"or '..'): it becomes a file name; got {shown}"
        )
    return name


def check_part_id(part_id: object, num_parts: int) -> int:
    """``part_id`` as an int if it names one of ``num_parts`` partitions, else raise.

    Parameters
    ----------
    part_id : object
        A Python or numpy integer (not a bool).
    num_parts : int
        The number of partitions.

    Returns
    -------
    int
        ``part_id`` as a Python int in ``[0, num_parts)``.

    Raises
    ------
    GraphpartError
        If ``part_id`` is not such an integer.

    Examples
    --------
    >>> import numpy as np
    >>> check_part_id(np.int64(1), 2)
    1
    >>> check_part_id(2, 2)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: part_id must be an int in [0, 2), got 2
    """
    if (
        isinstance(part_id, bool)
        or not isinstance(part_id, numbers.Integral)
        or not 0 <= part_id < num_parts
    ):
        raise GraphpartError(
            f"part_id must be an int in [0, {num_parts}), got {short_repr(part_id)}"
        )
    return int(part_id)


def check_parts(parts: object, num_parts: int, name: str = "parts") -> list[int]:
    """``parts`` (an iterable of partition ids) as a list of distinct ints, each naming one of
    ``num_parts`` partitions; ``None`` means all of them.

    Parameters
    ----------
    parts : iterable of int or None
        Partition ids (Python or numpy integers, not bools). A string, bytes or a single
        number is refused.
    num_parts : int
        The number of partitions.
    name : str, default "parts"
        How error messages name ``parts``.

    Returns
    -------
    list of int
        The ids in the order given; ``[0, ..., num_parts - 1]`` for None.

    Raises
    ------
    GraphpartError
        If ``parts`` is empty, not iterable, or holds a non-integer, an id out of range or an
        id twice.

    Examples
    --------
    >>> import numpy as np
    >>> check_parts(None, 3), check_parts((np.int64(2), 0), 3)
    ([0, 1, 2], [2, 0])
    >>> check_parts([0.5], 3)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: parts must be partition ids, ints in [0, 3), got [0.5]
    """
    if parts is None:
        return list(range(num_parts))
    bad = GraphpartError(
        f"{name} must be partition ids, ints in [0, {num_parts}), got {short_repr(parts, 80)}"
    )
    if isinstance(parts, (str, bytes, numbers.Number)) or not hasattr(parts, "__iter__"):
        raise bad
    out: list[int] = []
    for q in parts:
        if len(out) >= num_parts or isinstance(q, bool) or not isinstance(q, numbers.Integral):
            raise bad
        if not 0 <= q < num_parts or int(q) in out:
            raise bad
        out.append(int(q))
    if not out:
        raise GraphpartError(f"{name} names no partition; give at least one of 0..{num_parts - 1}")
    return out


def check_option_names(given: Iterable[str], known: Sequence[str], what: str) -> None:
    """Refuse the first of ``given`` that is not in ``known``, naming the nearest known name:
    the one did-you-mean of every options object and of the functions that take several
    families of options by name.

    Parameters
    ----------
    given : iterable of str
        The names a caller typed.
    known : sequence of str
        The names there are, in the order the message lists them.
    what : str
        What an option is called in the message (``"assign option"``).

    Raises
    ------
    GraphpartError
        For an unknown name, with the nearest known one where there is one.

    Examples
    --------
    >>> check_option_names(["pases"], ["passes", "slack"], "stream option")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: unknown stream option 'pases' (did you mean passes?); ...
    """
    import difflib

    for key in given:
        if key not in known:
            near = difflib.get_close_matches(key, list(known), n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise GraphpartError(
                f"unknown {what} {short_repr(key)}{hint}; the options are " + ", ".join(known)
            )


class Options:
    """The base of every options family: a frozen dataclass that checks its fields when made,
    and :meth:`of`, one from another (or the defaults) with fields replaced by their names; a
    misspelt name is refused with the nearest (:func:`check_option_names`)."""

    #: What one option of the family is called in messages.
    option_word = "option"

    @classmethod
    def of(cls, options: object = None, /, **names: object):
        """``options`` (or the defaults) with the fields ``names`` names replaced.

        Parameters
        ----------
        options : an object of this family or None
            The starting point; ``None`` is the defaults.
        **names
            Fields by name.

        Returns
        -------
        object of this family
            A new, checked object (``options`` itself when nothing is replaced).
        """
        return replace_options(cls, options, names, cls.option_word, "options")


def options_by_name(
    names: dict, families: Sequence[tuple[type, object, str]], what: str
) -> list[object]:
    """The options objects of several families, each the one given (or its defaults) with the
    fields ``names`` names replaced: for a function that takes several families by name. A name
    no family declares is refused once, with the nearest name of all of them.

    Parameters
    ----------
    names : dict
        Field name -> value, as a caller typed them; no two families declare the same name.
    families : sequence of (type, object, str)
        Each family's frozen dataclass, the object given for it (or ``None``) and the name of
        the parameter it was given as.
    what : str
        What an option is called in the message (``"assign option"``).

    Returns
    -------
    list
        One checked object per family, in order.

    Raises
    ------
    GraphpartError
        For an unknown name, or an object of the wrong type.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class A:
    ...     hops: int = 1
    >>> @dataclass(frozen=True)
    ... class B:
    ...     passes: int = 1
    >>> options_by_name({"passes": 3}, [(A, None, "a"), (B, None, "b")], "option")
    [A(hops=1), B(passes=3)]
    """
    import dataclasses

    owned = [[f.name for f in dataclasses.fields(cls)] for cls, _, _ in families]
    check_option_names(names, [n for own in owned for n in own], what)
    return [
        replace_options(cls, given, {k: v for k, v in names.items() if k in own}, what, name)
        for (cls, given, name), own in zip(families, owned)
    ]


def replace_options(cls: type, options: object, overrides: dict, what: str, name: str) -> object:
    """``options`` (an instance of the frozen dataclass ``cls``, or ``None`` for its defaults)
    with the fields ``overrides`` names replaced: the one rule of every options object.

    Parameters
    ----------
    cls : type
        A frozen dataclass whose ``__post_init__`` checks its fields.
    options : cls instance or None
        The starting point.
    overrides : dict
        Field name -> new value.
    what : str
        What an option is called in messages (``"partition option"``).
    name : str
        What ``options`` is called in messages (``"options"``, ``"cluster"``).

    Returns
    -------
    cls instance
        ``options`` itself when nothing is overridden, else a new, checked object.

    Raises
    ------
    GraphpartError
        ``options`` of another type, or a name that is not a field (with the nearest one).

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Opts:
    ...     hops: int = 1
    >>> replace_options(Opts, None, {"hops": 2}, "option", "opts")
    Opts(hops=2)
    >>> replace_options(Opts, None, {"hop": 2}, "option", "opts")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: unknown option 'hop' (did you mean hops?); the options are hops
    """
    import dataclasses

    if options is not None and not isinstance(options, cls):
        raise GraphpartError(f"{name} must be a {cls.__name__} or None, got {short_repr(options)}")
    check_option_names(overrides, [f.name for f in dataclasses.fields(cls)], what)
    base = options if options is not None else cls()
    return dataclasses.replace(base, **overrides) if overrides else base

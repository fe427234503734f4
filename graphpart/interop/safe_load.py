"""Loading pickled peer files without running code from them.

- torch files (zip): ``torch.load(weights_only=True)``; a ``collections.defaultdict`` (PyG writes
  them) is read as a plain dict, its factory never called.
- raw pickles (GLT's ``META`` and its appended ``feats.pkl`` / ``ids.pkl`` records): an unpickler
  that resolves exactly three names: torch's tensor rebuild, ``OrderedDict`` and
  ``torch.storage._load_from_bytes``, the last replaced by a weights-only load of the embedded
  storage. Anything else (``os.system``, ``builtins.eval``, any class) is refused.
"""

from __future__ import annotations

import collections
import io
import pickle
import warnings
from pathlib import Path

import torch

from ..errors import FormatError
from ..fs.untrusted import check_regular_file
from ..utils.check import describe_exception

__all__ = ["load_torch", "check_tensors", "weights_only_load"]


def _plain_dict(default_factory=None) -> dict:
    """What a pickled ``defaultdict`` becomes: a plain dict (its factory is never called)."""
    return {}


#: Objects a tensors-only file may hold (dicts, lists and tensors together).
MAX_OBJECTS = 1_000_000
#: A file's tensors, counted wherever they appear, may hold at most this many times its size
#: (plus the slack): tensors that share one storage under many names are refused.
EXPANSION, EXPANSION_SLACK = 4, 64 * 2**20


def check_tensors(obj: object, path: Path, what: str) -> object:
    """``obj`` if every tensor in it (nested in dicts, lists, tuples) is backed by enough bytes,
    and all of them together by the file.

    Weights-only loading accepts a one-element storage viewed with a huge size and stride 0: a
    1 KB file that becomes a 16 GB tensor at the first copy. Such views are refused, and so is a
    file whose tensors, counted at every place they appear, hold far more bytes than the file
    (400 names for one 8 MB tensor become 400 copies at the first reordering).

    Parameters
    ----------
    obj : object
        What was loaded: tensors nested in dicts, lists and tuples (and GraphBolt's stand-ins).
    path : pathlib.Path
        The file ``obj`` came from; its size sets the budget (``EXPANSION`` times it plus
        ``EXPANSION_SLACK`` bytes; no budget when it cannot be read).
    what : str
        What the file is, for error messages.

    Returns
    -------
    object
        ``obj`` itself, unchanged.

    Raises
    ------
    FormatError
        A tensor is larger than its storage, the tensors exceed the budget, or ``obj`` holds
        more than ``MAX_OBJECTS`` objects.
    """
    stack, seen, total = [obj], set(), 0
    try:
        budget = EXPANSION * Path(path).stat().st_size + EXPANSION_SLACK
    except (OSError, TypeError, ValueError):
        budget = None
    while stack:
        x = stack.pop()
        if isinstance(x, torch.Tensor):
            if id(x) not in seen and x.numel():
                if x.untyped_storage().nbytes() < x.numel() * x.element_size():
                    raise FormatError(
                        f"{what}: {path} holds a tensor of shape {tuple(x.shape)} over only "
                        f"{x.untyped_storage().nbytes()} bytes (a strided view; refused)"
                    )
            total += x.numel() * x.element_size()
            if budget is not None and total > budget:
                raise FormatError(
                    f"{what}: {path} holds tensors of {total:,} bytes or more in "
                    f"{Path(path).stat().st_size:,} bytes of file: one tensor appears under "
                    "many names; refused"
                )
        if id(x) in seen:  # shared references are walked once (a tiny pickle can share a lot)
            continue
        seen.add(id(x))
        if len(seen) > MAX_OBJECTS:
            raise FormatError(f"{what}: {path} holds more than {MAX_OBJECTS:,} objects; refused")
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif hasattr(x, "__dict__") and "_state" in x.__dict__:  # GraphBolt's inert stand-ins
            stack.append(x.__dict__["_state"])
    return obj


def weights_only_load(f, mmap: bool = False, safe: list | None = None) -> object:
    """``torch.load(f, weights_only=True)``, allowing the ``safe`` globals, with torch's warnings
    about the file (old pickle protocols and the like) kept off the user's screen: the file is
    judged by what it holds.

    Parameters
    ----------
    f : str, os.PathLike or file object
        What ``torch.load`` reads.
    mmap : bool, default False
        Map the file instead of reading it (``f`` must then be a path).
    safe : list, optional
        Extra globals the unpickler may resolve (classes, or ``(object, "module.name")`` pairs),
        as ``torch.serialization.safe_globals`` takes them; default none.

    Returns
    -------
    object
        What ``torch.load`` returns. Nothing is checked here beyond what the weights-only
        unpickler refuses.
    """
    with warnings.catch_warnings(), torch.serialization.safe_globals(safe or []):
        warnings.simplefilter("ignore")
        return torch.load(f, weights_only=True, mmap=mmap)


def load_torch(path: Path, what: str) -> object:
    """A weights-only ``torch.load`` (memory-mapped); a clear :class:`FormatError` on anything
    else.

    A pickled ``collections.defaultdict`` is read as a plain dict; the tensors are checked by
    :func:`check_tensors`.

    Parameters
    ----------
    path : pathlib.Path
        A regular file written by ``torch.save``.
    what : str
        What the file is, for error messages.

    Returns
    -------
    object
        The loaded object: plain data and tensors only.

    Raises
    ------
    FormatError
        The file is missing, not a regular file, not a weights-only torch file, or fails
        :func:`check_tensors`.
    """
    check_regular_file(path, what)
    try:
        safe = [(_plain_dict, "collections.defaultdict"), dict]
        return check_tensors(weights_only_load(path, mmap=True, safe=safe), path, what)
    except FormatError:
        raise
    except FileNotFoundError:
        raise FormatError(f"{what}: {path} is missing") from None
    except Exception as exc:  # torch raises several types for damaged or hostile files
        raise FormatError(
            f"{what}: {path} is not a weights-only torch file ({describe_exception(exc)})"
        ) from None


def _storage_from_bytes(data: bytes):
    return weights_only_load(io.BytesIO(data))


class _Unpickler(
    pickle._Unpickler
):  # the Python one: its memo is a dict, not a table a hostile index sizes
    _ALLOWED = {
        ("torch._utils", "_rebuild_tensor_v2"): torch._utils._rebuild_tensor_v2,
        ("collections", "OrderedDict"): collections.OrderedDict,
        ("torch.storage", "_load_from_bytes"): _storage_from_bytes,
    }

    def __init__(self, f, allow_tensors: bool) -> None:
        super().__init__(f)
        self.allow_tensors = allow_tensors

    def find_class(self, module: str, name: str):
        fn = self._ALLOWED.get((module, name)) if self.allow_tensors else None
        if fn is None:
            raise pickle.UnpicklingError(
                f"refusing to load {module}.{name}: only tensors and plain data are read"
            )
        return fn


def load_pickle_records(
    path: Path, what: str, allow_tensors: bool = True, limit: int = 1 << 20
) -> list:
    """Every pickle record appended to ``path`` (GLT appends one per chunk), restricted as above.

    Parameters
    ----------
    path : pathlib.Path
        A regular file of pickle records written one after another.
    what : str
        What the file is, for error messages.
    allow_tensors : bool, default True
        Resolve the three names tensors need; when False, any global is refused (plain data
        only).
    limit : int, default 1 << 20
        Read at most this many records; any further records are not read.

    Returns
    -------
    list
        The records in file order, each checked by :func:`check_tensors`.

    Raises
    ------
    FormatError
        The file is missing or not a regular file, or a record is not a plain pickle of data
        and tensors.
    """
    records, at = [], 0
    check_regular_file(path, what)
    try:
        with open(path, "rb") as f:
            size = path.stat().st_size
            while at < size and len(records) < limit:
                records.append(check_tensors(_Unpickler(f, allow_tensors).load(), path, what))
                at = f.tell()
    except FileNotFoundError:
        raise FormatError(f"{what}: {path} is missing") from None
    except FormatError:
        raise
    except Exception as exc:  # UnpicklingError, EOFError, and whatever a damaged stream raises
        raise FormatError(
            f"{what}: {path}, the record at byte {at} is not a plain pickle of tensors "
            f"({describe_exception(exc)})"
        ) from None
    return records

"""The memory rule every step follows, and what this machine can give it now.

**The rule.** Before it starts, a step adds up the peak of every process it starts on this
machine (its main process, and each Dask worker at its largest phase) and refuses in one line
when that passes :func:`usable_memory`: what is free less a headroom (:data:`HEADROOM` of it, at
least :data:`HEADROOM_MIN`) -- never all that is free. A main process that sizes its own work
(METIS's sample, the coarse route) takes :func:`process_budget`: at most
:data:`PROCESS_BUDGET`, and never what the step's other processes need.

**What is free** (:func:`available_memory`): the kernel's available memory, or, where less, what
the memory cgroups of this process leave -- each from its own up to the root, v2 or v1 (found
through ``/proc/self/mountinfo``, co-mounted controllers included), its limit (v2: the lower of
``memory.max`` and ``memory.high``) less what it holds that it cannot give back: its usage less
the page cache it can drop (file pages not mapped, dirty or under writeback).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import GraphpartError
from .units import fmt_bytes

__all__ = [
    "PROCESS_BUDGET",
    "HEADROOM",
    "HEADROOM_MIN",
    "available_memory",
    "cgroup_room",
    "usable_memory",
    "process_budget",
    "check_memory",
]

#: The most memory one process of a step takes, however much is free: another job on the machine,
#: or a worker of the same run, needs the rest.
PROCESS_BUDGET = 8 * 10**9
#: What every step leaves of the memory free, whatever its processes need: this share of it, at
#: least :data:`HEADROOM_MIN` bytes (the estimates' error, the page cache, the rest of the machine).
HEADROOM, HEADROOM_MIN = 0.15, 256 << 20
#: A cgroup limit at or above this means none ("max" in v2, a page-rounded 2**63 in v1).
_NO_LIMIT = 1 << 60
#: Per cgroup version: the limit files (the lowest counts), the usage file, and memory.stat's names
#: of (file pages on the LRU lists) and of (those among them it cannot drop: mapped, dirty,
#: under writeback).
_FILES = {
    2: (
        ("memory.max", "memory.high"),
        "memory.current",
        ("active_file", "inactive_file"),
        ("file_mapped", "file_dirty", "file_writeback"),
    ),
    1: (
        ("memory.limit_in_bytes",),
        "memory.usage_in_bytes",
        ("total_active_file", "total_inactive_file"),
        ("total_mapped_file", "total_dirty", "total_writeback"),
    ),
}


def available_memory() -> int:
    """Memory this machine can give a new process now (bytes): what the kernel calls available,
    within the room of every memory cgroup of this process (:func:`cgroup_room`).

    Returns
    -------
    int
        Bytes: the kernel's available memory, or what a cgroup leaves where less.
    """
    import psutil

    free = int(psutil.virtual_memory().available)
    room = cgroup_room()
    return free if room is None else min(free, room)


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _cgroup_used(folder: Path, version: int) -> int:
    """What a cgroup holds that it cannot give back: its usage less the file pages it can drop."""
    _, usage_name, lru, pinned = _FILES[version]
    used = _read_int(folder / usage_name)
    if used is None:
        return 0
    stat = {}
    try:
        for line in (folder / "memory.stat").read_text().splitlines():
            name, _, value = line.partition(" ")
            if value.strip().isdigit():
                stat[name] = int(value)
    except OSError:
        return used
    droppable = sum(stat.get(k, 0) for k in lru) - sum(stat.get(k, 0) for k in pinned)
    return max(used - max(droppable, 0), 0)


def _limit(folder: Path, version: int) -> int | None:
    limits = [_read_int(folder / name) for name in _FILES[version][0]]
    limits = [x for x in limits if x is not None and x < _NO_LIMIT]
    return min(limits) if limits else None


def _mounts(mountinfo: str) -> list[tuple[int, Path, str]]:
    """``(version, mount point, root of the mount)`` of the cgroup2 and v1 memory mounts."""
    try:
        lines = Path(mountinfo).read_text().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        fields, _, tail = line.partition(" - ")
        fields, tail = fields.split(), tail.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        root, point = fields[3].replace("\\040", " "), fields[4].replace("\\040", " ")
        if tail[0] == "cgroup2":
            out.append((2, Path(point), root))
        elif tail[0] == "cgroup" and "memory" in tail[2].split(","):
            out.append((1, Path(point), root))
    return out


def _guess_mounts(root: str) -> list[tuple[int, Path, str]]:
    """The mounts where ``mountinfo`` is not read: v2 at ``root`` or ``root/unified``, v1's memory
    controller in a folder of ``root`` whose name lists it (``memory``, ``cpu,memory``, ...)."""
    base = Path(root)
    out = [(2, base if (base / "cgroup.controllers").is_file() else base / "unified", "/")]
    try:
        names = sorted(p.name for p in base.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        names = []
    out += [(1, base / n, "/") for n in names if "memory" in n.split(",")]
    return out


def _inside(path: str, mount_root: str) -> list[str] | None:
    """The folders of cgroup ``path`` below a mount of ``mount_root``; ``None`` when it is not
    below it, or names ``.`` or ``..`` (read nothing outside the mount)."""
    parts = [p for p in path.split("/") if p]
    top = [p for p in mount_root.split("/") if p]
    if any(p in (".", "..") for p in parts) or parts[: len(top)] != top:
        return None
    return parts[len(top) :]


def cgroup_room(
    proc: str = "/proc/self/cgroup",
    root: str | None = None,
    mountinfo: str = "/proc/self/mountinfo",
) -> int | None:
    """What the memory cgroups of this process leave: the least, over its own cgroup and each
    one above it (v2, and v1's memory hierarchy), of its limit less what it holds and cannot give
    back; ``None`` where no cgroup sets a limit (or none can be read).

    Parameters
    ----------
    proc : str, default "/proc/self/cgroup"
        The process's cgroup membership (``hierarchy:controllers:path`` lines).
    root : str or None, default None
        Where the cgroup filesystems are mounted, when not read from ``mountinfo``: v2 there or
        in ``unified/``, v1's memory controller in a folder whose name lists it.
    mountinfo : str, default "/proc/self/mountinfo"
        The process's mounts (read when ``root`` is None).

    Returns
    -------
    int or None
        Bytes, at least 0.
    """
    try:
        lines = Path(proc).read_text().splitlines()
    except OSError:
        return None
    mounts = _mounts(mountinfo) if root is None else _guess_mounts(root)
    paths = {}
    for line in lines:
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and not controllers:
            paths[2] = path
        elif "memory" in controllers.split(","):
            paths[1] = path
    room = None
    for version, point, mount_root in mounts:
        if version not in paths:
            continue
        parts = _inside(paths[version], mount_root)
        if parts is None:
            continue
        for depth in range(len(parts), -1, -1):  # the process's own cgroup, then each above it
            folder = point.joinpath(*parts[:depth])
            limit = _limit(folder, version)
            if limit is not None:
                left = max(limit - _cgroup_used(folder, version), 0)
                room = left if room is None else min(room, left)
    return room


def usable_memory(have: int | None = None) -> int:
    """What a step may take, all its processes together: the memory free (``have``, default
    :func:`available_memory`) less the headroom (:data:`HEADROOM` of it, at least
    :data:`HEADROOM_MIN`).

    Parameters
    ----------
    have : int or None, default None
        Bytes free; default: :func:`available_memory`.

    Returns
    -------
    int
        Bytes, at least 0.

    Examples
    --------
    >>> usable_memory(10 * 2**30) / 2**30
    8.5
    """
    have = available_memory() if have is None else int(have)
    return max(have - max(int(HEADROOM * have), HEADROOM_MIN), 0)


def process_budget(others: int = 0, have: int | None = None) -> int:
    """The most memory a step's main process may take: :data:`PROCESS_BUDGET`, within what the
    step may take (:func:`usable_memory`) less what its other processes on this machine need.

    Parameters
    ----------
    others : int, default 0
        Bytes the step's other processes take (its local Dask workers, all of them).
    have : int or None, default None
        Bytes free; default: :func:`available_memory`.

    Returns
    -------
    int
        Bytes, at least 0.

    Examples
    --------
    >>> round(process_budget(others=2 * 2**30, have=4 * 2**30) / 2**30, 2)
    1.4
    """
    return max(min(PROCESS_BUDGET, usable_memory(have) - int(others)), 0)


def check_memory(need: int, what: str, instead: str, budget: int | None = None) -> None:
    """Refuse in one line, before any work, when ``need`` bytes exceed what the step may take.

    Parameters
    ----------
    need : int
        Bytes the step needs: every process it starts on this machine, together.
    what : str
        How the message names the step.
    instead : str
        What the message advises doing instead.
    budget : int or None, default None
        Bytes the step may take; default: :func:`usable_memory` (what is free, less the
        headroom).

    Raises
    ------
    GraphpartError
        If ``need`` exceeds ``budget``.

    Examples
    --------
    >>> check_memory(2**30, "a step", "use less", budget=2**20)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: a step needs about ... of memory and its budget is ...
    """
    if budget is None:
        have = available_memory()
        budget = usable_memory(have)
        of = f"{fmt_bytes(have)} is free, {fmt_bytes(budget)} of it past the headroom"
    else:
        of = f"its budget is {fmt_bytes(budget)}"
    if need > budget:
        raise GraphpartError(f"{what} needs about {fmt_bytes(need)} of memory and {of}: {instead}")

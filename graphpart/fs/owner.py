"""Who is building an atomic output: a marker in its work folder, and whether that owner is gone.

A work folder of :func:`graphpart.fs.atomic.atomic_dir` holds two files of graphpart's own:

* ``graphpart-owner.json`` (:data:`MARKER`): graphpart's marker, naming the output it is for
  and the process building it (host name, boot id and pid namespace, pid, process start time);
* ``graphpart-owner.lock`` (:data:`LOCK`): held with ``fcntl.lockf`` by that process, and
  touched every :data:`HEARTBEAT_S` seconds while it lives.

On the owner's own machine (same host name, boot and pid namespace) the owner is gone when its
pid is gone, a zombie, or a later process with another start time. On another machine (an NFS
share) it is gone only when its lock can be taken *and* the lock file has been quiet for
:data:`QUIET_S` seconds: a mount without locking cannot make a live owner look gone by itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock, owners elsewhere never look gone
    fcntl = None

__all__ = ["Claim"]

MARKER = "graphpart-owner.json"
LOCK = "graphpart-owner.lock"
#: How often a live owner touches its lock file.
HEARTBEAT_S = 60.0
#: How long the lock file of an owner on another machine must have been quiet (and its lock
#: free) before that owner counts as gone.
QUIET_S = 900.0


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


def _proc_stat(pid: int) -> tuple[str, int] | None:
    """``(state, start time in clock ticks since boot)`` of ``pid`` from ``/proc``, if readable."""
    text = _read(f"/proc/{pid}/stat")
    try:
        fields = text[text.rindex(")") + 2 :].split()
        return fields[0], int(fields[19])
    except (ValueError, IndexError):
        return None


def identity() -> dict:
    """This process: its machine (host name, boot id, pid namespace), pid and start time.

    Returns
    -------
    dict
        ``"machine"``: ``"<host name>|<boot id>|<pid namespace inode>"`` (an empty boot id and
        namespace ``0`` where ``/proc`` does not say); ``"pid"``: :func:`os.getpid`;
        ``"start"``: the process start time in clock ticks since boot, or ``None`` without
        ``/proc``.

    Examples
    --------
    >>> me = identity()
    >>> me["pid"] == os.getpid() and isinstance(me["machine"], str)
    True
    """
    try:
        pid_ns = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        pid_ns = 0
    boot = _read("/proc/sys/kernel/random/boot_id")
    stat = _proc_stat(os.getpid())
    return {
        "machine": f"{socket.gethostname()}|{boot}|{pid_ns}",
        "pid": os.getpid(),
        "start": stat[1] if stat else None,
    }


class Claim:
    """Mark the folder ``work`` as this process's, building the output named ``target``, until
    :meth:`release`: the lock file is locked and touched in a background thread, then the
    marker is written (complete or absent, never half-written).

    Parameters
    ----------
    work : pathlib.Path
        An existing work folder; :data:`LOCK` and :data:`MARKER` are written in it.
    target : str
        The name of the output the folder is building, stored in the marker.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> work = pathlib.Path(tempfile.mkdtemp())
    >>> claim = Claim(work, "out")
    >>> info = read_owner(work)
    >>> info["target"], owner_gone(work, info)
    ('out', False)
    >>> claim.release()
    """

    def __init__(self, work: Path, target: str) -> None:
        self.work = Path(work)
        self._fd = os.open(self.work / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if fcntl is not None:
                with contextlib.suppress(OSError):  # no locks here: the pid and heartbeat tell
                    fcntl.lockf(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            part = self.work / f"{MARKER}.part"
            part.write_text(json.dumps({"graphpart": "atomic_dir", "target": target, **identity()}))
            os.replace(part, self.work / MARKER)
            self._stop = threading.Event()
            self._beat = threading.Thread(
                target=self._heartbeat, name="graphpart-owner", daemon=True
            )
            self._beat.start()
        except BaseException:
            os.close(self._fd)
            raise

    def _heartbeat(self) -> None:
        while not self._stop.wait(HEARTBEAT_S):
            with contextlib.suppress(OSError):
                os.utime(self.work / LOCK)

    def release(self) -> None:
        """Stop the heartbeat and drop the lock (the files stay until the folder goes)."""
        self._stop.set()
        self._beat.join()
        os.close(self._fd)


def read_owner(work: Path) -> dict | None:
    """The marker in ``work`` if graphpart wrote it there, else ``None`` (then leave it alone).

    Parameters
    ----------
    work : pathlib.Path
        A work folder.

    Returns
    -------
    dict or None
        The parsed :data:`MARKER`: ``"graphpart"`` (``"atomic_dir"``), ``"target"``, and the
        owner's ``"machine"``, ``"pid"`` and ``"start"`` as :func:`identity` gives them.
        ``None`` if the file is missing, unreadable, or lacks any of these with its type.
    """
    try:
        info = json.loads((Path(work) / MARKER).read_text())
    except (OSError, ValueError, RecursionError):
        return None
    valid = (
        isinstance(info, dict)
        and info.get("graphpart") == "atomic_dir"
        and isinstance(info.get("target"), str)
        and isinstance(info.get("machine"), str)
        and type(info.get("pid")) is int
        and info["pid"] > 0
        and (info.get("start") is None or type(info["start"]) is int)
    )
    return info if valid else None


def _alive(pid: int, start: int | None) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process (PermissionError): it exists
        pass
    stat = _proc_stat(pid)
    if stat is None:  # no /proc, or it just ended: take it as alive
        return True
    state, now = stat
    return state not in ("Z", "X") and (start is None or now == start)


def _lock_free(lock: Path) -> bool:
    if fcntl is None:
        return False
    try:
        fd = os.open(lock, os.O_RDWR)
    except FileNotFoundError:  # the owner was removing its folder
        return True
    except OSError:
        return False
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # held (EAGAIN, EACCES), or no locks on this file system (ENOLCK)
        return False
    finally:
        os.close(fd)  # also drops the lock just taken
    return True


def _quiet(work: Path) -> bool:
    times = []
    for name in (LOCK, MARKER):
        with contextlib.suppress(OSError):
            times.append(os.stat(work / name).st_mtime)
    return bool(times) and time.time() - max(times) > QUIET_S


def owner_gone(work: Path, info: dict) -> bool:
    """Whether the process named by ``info`` (:func:`read_owner` of ``work``) has ended.

    In doubt (another machine that may still live, a file system without locks) the answer is
    ``False``: a live run's folder is never taken for a dead one's.

    Parameters
    ----------
    work : pathlib.Path
        The work folder; its :data:`LOCK` file is tried when the owner ran on another machine.
    info : dict
        The folder's marker, as :func:`read_owner` returns it (not ``None``).

    Returns
    -------
    bool
        On this machine: True if the pid is gone, a zombie, or a process with another start
        time. On another: True only if the lock can be taken and neither file has changed for
        :data:`QUIET_S` seconds.
    """
    if info["machine"] == identity()["machine"]:
        return not _alive(info["pid"], info.get("start"))
    return _lock_free(Path(work) / LOCK) and _quiet(Path(work))

"""The Dask cluster the chunked pipeline runs on: an embedded ``LocalCluster`` or a running one."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import GraphpartError
from ..fs.atomic import remove_ended
from ..fs.atomic import work_dir as scratch_dir
from ..utils.check import short_repr
from ..utils.units import fmt_bytes
from ._eta import Progress
from .cluster import CONNECT_S, ClusterOptions, reach_scheduler

__all__ = [
    "dask_client",
    "run_tasks",
    "worker_memory_limit",
    "Runner",
    "SharedFile",
    "runner",
    "open_shared",
]

logger = logging.getLogger(__name__)
#: The name of the LocalCluster workers' scratch folders in the temporary folder
#: (``.graphpart-dask.<random>.tmp``, graphpart's owner marker in each).
DASK_SCRATCH = "graphpart-dask"


class _DaskLog(logging.Handler):
    """Dask's warnings into a file of their own, opened at the first one (not a StreamHandler, so
    the LocalCluster's ``silence_logs`` leaves it be); the terminal keeps graphpart's lines."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        self.path: str | None = None
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self.path is None:
                fd, self.path = tempfile.mkstemp(prefix="graphpart-dask-", suffix=".log")
                os.close(fd)
            with open(self.path, "a") as f:
                f.write(self.format(record) + "\n")
            self.count += 1
        except Exception:  # a log line must never fail the run
            self.handleError(record)


@contextlib.contextmanager
def _dask_log() -> Iterator[None]:
    """Route the ``distributed`` logger's warnings (restarts, memory, lost workers) to a file and
    name it at the end when anything was written."""
    handler, dlog = _DaskLog(), logging.getLogger("distributed")
    dlog.addHandler(handler)
    try:
        yield
    finally:
        dlog.removeHandler(handler)
        if handler.count:
            logger.warning(
                "Dask logged %d warning(s) (worker restarts, memory): see %s",
                handler.count,
                handler.path,
            )


@contextlib.contextmanager
def dask_client(cluster: ClusterOptions) -> Iterator:
    """A ``distributed.Client``: ``cluster.client`` as given, one connected to
    ``cluster.scheduler``, or a new LocalCluster configured by ``cluster``.

    Only what this function starts is closed on exit.
    """
    client, scheduler = cluster.client, cluster.scheduler
    if client is not None:
        yield client
        return
    from distributed import Client

    if scheduler is not None:
        reach_scheduler(scheduler)  # one line in bounded time when no scheduler answers there
        try:
            c = Client(scheduler, timeout=f"{CONNECT_S}s")
        except (OSError, TimeoutError) as e:
            raise GraphpartError(
                f"cannot reach a Dask scheduler at {short_repr(scheduler)} ({e}); start one with "
                "`dask scheduler` and give its tcp://host:port"
            ) from None
        try:
            logger.info(
                "connected to Dask scheduler %s (%d workers)",
                scheduler,
                len(c.scheduler_info()["workers"]),
            )
            yield c
        finally:
            c.close()
        return
    with _dask_log():
        yield from _local(
            cluster.workers, cluster.threads_per_worker, cluster.memory_limit, cluster.processes
        )


#: glibc's allocator in the LocalCluster's worker processes (environment variables a nanny sets
#: before it starts its worker; the user's own, where exported, win). Dask sets only
#: ``MALLOC_TRIM_THRESHOLD_=65536``, which also fixes the mmap threshold at its 128 KiB start:
#: every temporary array over 128 KiB is then mapped afresh and page-faulted in, and numpy in a
#: worker ran 1.3x (4M-edge chunks) to 3x (64K-edge chunks) slower than in the driver (verify's
#: sums over R-MAT 22, measured). Arrays up to 32 MiB come from the heap here, larger ones are
#: mapped and returned when freed, and at most 64 MiB of free heap is kept.
WORKER_MALLOC = {"MALLOC_MMAP_THRESHOLD_": 1 << 25, "MALLOC_TRIM_THRESHOLD_": 1 << 26}


def _local(workers, threads_per_worker, memory_limit, processes):
    import dask
    from distributed import Client, LocalCluster

    # the workers' scratch space (spilled data, locks) in a folder of this run's own, marked as
    # graphpart's, removed with the cluster or, after a kill, by the next step (runner):
    # Dask's default, <tmp>/dask-scratch-space, is left behind
    with scratch_dir(Path(tempfile.gettempdir()) / DASK_SCRATCH) as scratch:
        environ = {f"distributed.nanny.pre-spawn-environ.{k}": v for k, v in WORKER_MALLOC.items()}
        with dask.config.set({"temporary-directory": str(scratch), **environ}):  # nannies too
            cluster = LocalCluster(
                n_workers=int(workers),
                threads_per_worker=int(threads_per_worker),
                memory_limit=memory_limit,
                processes=processes,
                dashboard_address=":0",
                local_directory=str(scratch),
                silence_logs=logging.ERROR,  # workers' memory warnings are not the user's news
            )
        try:
            with Client(cluster) as c:
                logger.info(
                    "Dask LocalCluster: %d workers, dashboard %s", int(workers), c.dashboard_link
                )
                yield c
        finally:
            cluster.close()


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    ip = shell.get_ipython() if shell is not None else None
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


def _guarded(fn, *args):
    """``fn(*args)`` on a worker; a GraphpartError comes back as a value (bad input is the
    user's news, told once on the client, not a worker traceback in the log)."""
    try:
        return True, fn(*args)
    except GraphpartError as exc:
        return False, exc


def worker_memory_limit(client) -> int:
    """The smallest memory limit of the cluster's workers, in bytes (0: none set)."""
    limits = [w.get("memory_limit") or 0 for w in client.scheduler_info()["workers"].values()]
    return int(min(limits, default=0))


def run_tasks(
    client,
    fn,
    args: Sequence[tuple],
    progress: bool,
    what: str,
    killed: Callable[[int, int], str] | None = None,
) -> list:
    """Submit ``fn(*a)`` for every ``a`` in ``args``, wait for all, return results in order.

    With ``progress`` a terminal gets progress lines with an estimate of the time left (logged
    as tasks end) and Jupyter a link to the Dask dashboard. Tasks are pure (their outputs are
    files written through temporary names), so Dask may rerun them on another worker after a
    failure.
    A task's :class:`GraphpartError` is raised here; a task that kept killing its workers
    (out of memory) is a :class:`GraphpartError` too, worded by ``killed(i, memory_limit)``
    for task ``i`` when given.
    """
    from distributed import KilledWorker

    run = uuid.uuid4().hex[:8]
    keys = [f"{what}-{run}-{i}" for i in range(len(args))]
    futures = [client.submit(_guarded, fn, *a, key=key, retries=1) for key, a in zip(keys, args)]
    if progress and futures:
        if _in_notebook():
            from IPython.display import HTML, display

            display(
                HTML(
                    f'{what}: {len(futures)} tasks &mdash; <a href="{client.dashboard_link}" '
                    'target="_blank">Dask dashboard</a>'
                )
            )
    from distributed import as_completed

    index = {key: i for i, key in enumerate(keys)}
    results: list = [None] * len(futures)
    killed_at = None
    try:
        # Each result comes to the client as its task ends and the future is released, so a worker
        # that dies later takes no finished result with it (Dask would run that task again). Every
        # task, failed or not, ends before anything is raised: no task may still be writing into
        # the temporary output when the caller removes it.
        failure = None
        bar = Progress(what, len(futures)) if progress and not _in_notebook() else None
        # the client's own loop: as_completed takes the default client's, and with two clients in
        # one process the futures of the other were awaited on the wrong loop (a RuntimeError)
        for fut in as_completed(futures, loop=client.loop):
            try:
                results[index[fut.key]] = fut.result()
            except KilledWorker:
                killed_at = index[fut.key] if killed_at is None else killed_at
            except Exception as exc:  # raised once every task has ended
                failure = failure or exc
            fut.release()
            if bar is not None:
                bar.advance()
        if killed_at is not None:
            limit = worker_memory_limit(client)
            if killed is not None:
                raise GraphpartError(killed(killed_at, limit)) from None
            raise GraphpartError(
                f"a Dask worker died running {what} task {killed_at} (out of memory, most "
                f"likely; worker memory limit {fmt_bytes(limit)}): give the workers more "
                "memory (--memory-limit) or split the work finer"
            ) from None
        if failure is not None:
            raise failure
    finally:
        for f in futures:
            f.release()
    for ok, value in results:
        if not ok:
            raise value
    return [value for _, value in results]


#: Below this many edges a step's tasks run in this process: a LocalCluster takes longer to start
#: than they take (the answer is the same: it depends on the number of tasks, not where they run).
LOCAL_EDGES = 1 << 22


@dataclass(frozen=True)
class SharedFile:
    """A driver's array as a task finds it: the ``.npy`` file it was shared through.

    ``keep`` where every task runs on the driver's machine (a LocalCluster it started): a
    worker then keeps the file mapped from task to task, and sees the driver's writes through
    the page cache, without a flush. Re-mapping an array of ``N`` nodes for every task faulted
    its pages in again each time: work of order ``N`` per chunk, whatever the chunk's size.
    """

    path: str
    keep: bool


#: This process's kept mappings (:attr:`SharedFile.keep`), by file.
_KEPT: dict[str, np.ndarray] = {}
#: Kept mappings a worker holds at most (the oldest is let go first).
KEPT_MAPPINGS = 16


def open_shared(handle):
    """The array a task was handed: as is in this process, or read-only from the ``.npy`` file
    a :class:`Runner` on Dask shared it through (mapped, so only the pages read are loaded; kept
    mapped between tasks where :attr:`SharedFile.keep`)."""
    if isinstance(handle, SharedFile):
        if not handle.keep:
            return _mapped(handle.path)
        array = _KEPT.pop(handle.path, None)
        if array is None:
            array = _mapped(handle.path)
            while len(_KEPT) >= KEPT_MAPPINGS:
                _KEPT.pop(next(iter(_KEPT)))
        _KEPT[handle.path] = array  # the newest last
        return array
    return _mapped(handle) if isinstance(handle, str) else handle


def _mapped(path: str) -> np.ndarray:
    """The ``.npy`` file at ``path`` mapped read-only, as a plain array (numpy's memmap class
    checks every index it takes: three times slower to gather from)."""
    return np.load(path, mmap_mode="r").view(np.ndarray)


def _on_this_machine(client) -> bool:
    """Whether every worker of ``client`` runs on this machine: its cluster a ``LocalCluster``
    (one this step started, or a caller's client of one), whose workers share the page cache."""
    from distributed import LocalCluster

    return isinstance(getattr(client, "cluster", None), LocalCluster)


class Runner:
    """Where a step's tasks run, and how they see the driver's arrays.

    In this process (``client=None``) tasks run one after another and see the arrays
    themselves; on Dask they run on the workers and see them as ``.npy`` files in ``work_dir``
    (a folder every worker can read: the machine's, or the cluster's shared filesystem), mapped
    read-only, which the driver writes through before each round.

    Parameters
    ----------
    client : distributed.Client or None
        The cluster, or None for this process.
    work_dir : Path or None
        The folder of the shared arrays (Dask only).
    tasks : int
        How many tasks a step runs at once: the cluster's workers, or any number in this
        process (the same tasks give the same answer wherever they run).
    """

    def __init__(self, client, work_dir: Path | None, tasks: int, local: bool = False) -> None:
        self.client, self.work_dir, self.tasks = client, work_dir, max(int(tasks), 1)
        self.local = bool(local)  # every worker on this machine: mappings kept, no flush
        self._files = 0

    def shares(self, items: Sequence) -> list[list]:
        """``items`` dealt out among the tasks (item ``i`` to task ``i % tasks``), one non-empty
        share per task."""
        return [list(items[w :: self.tasks]) for w in range(min(self.tasks, len(items)))]

    def map(self, fn, args: Sequence[tuple], what: str, here: bool = False) -> list:
        """``[fn(*a) for a in args]``, run at once on the cluster, or one after another in this
        process (``here``, or without a cluster): the same answer either way."""
        if self.client is None or here:
            return [fn(*a) for a in args]
        return run_tasks(self.client, fn, args, False, what)

    def _file(self, name: str) -> Path:
        """A new file for ``name``: an array shared again gets a file of its own (a worker's
        mapping of the earlier one stays valid), the earlier one unlinked."""
        self._files += 1
        for old in self.work_dir.glob(f"{name}.*.npy"):
            old.unlink()
        return self.work_dir / f"{name}.{self._files}.npy"

    def broadcast(self, obj: object) -> object:
        """``obj`` as tasks take it: itself in this process, else sent to every worker once (a
        Dask future tasks resolve there), not pickled again with every task."""
        if self.client is None:
            return obj
        return self.client.scatter(obj, broadcast=True, hash=False)

    def share(self, name: str, array: np.ndarray):
        """A handle for tasks to read ``array`` by (:func:`open_shared`)."""
        if self.client is None:
            return array
        path = self._file(name)
        np.save(path, array)
        return SharedFile(str(path), self.local)

    def shared(self, name: str, length: int, dtype, fill) -> tuple[np.ndarray, object]:
        """A new array the driver writes and tasks read: ``(array, handle)``; call :meth:`sync`
        after writing."""
        if self.client is None:
            array = np.full(length, fill, dtype=dtype)
            return array, array
        path = self._file(name)
        array = np.lib.format.open_memmap(path, mode="w+", dtype=dtype, shape=(length,))
        array[:] = fill
        return array, SharedFile(str(path), self.local)

    def sync(self, array: np.ndarray) -> None:
        """Make the driver's writes to a :meth:`shared` array visible to every worker: written
        through to its file for workers elsewhere (on this machine they share its pages)."""
        if isinstance(array, np.memmap) and not self.local:
            array.flush()


@contextlib.contextmanager
def runner(
    cluster: ClusterOptions | None, edges: int, work_dir: str | os.PathLike | None = None
) -> Iterator[Runner]:
    """A :class:`Runner` for a step over ``edges`` edges: in this process without a cluster or
    for a small graph on a LocalCluster (:data:`LOCAL_EDGES`), else on the cluster, with a
    folder of its own in ``work_dir`` (default: the system's temporary folder) removed at the
    end."""
    remove_ended(Path(tempfile.gettempdir()) / DASK_SCRATCH)  # a killed step's
    if cluster is None:
        yield Runner(None, None, 1)
        return
    if cluster.client is None and cluster.scheduler is None and edges < LOCAL_EDGES:
        yield Runner(None, None, cluster.workers)
        return
    with dask_client(cluster) as client:
        workers = len(client.scheduler_info()["workers"]) or cluster.workers
        place = Path(tempfile.gettempdir() if work_dir is None else work_dir)
        local = _on_this_machine(client)
        with scratch_dir(place / "graphpart-tasks") as d:
            yield Runner(client, d, workers, local)

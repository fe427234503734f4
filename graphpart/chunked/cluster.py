"""Where the chunked pipeline runs: the Dask settings :func:`~graphpart.chunked.assign`,
:func:`~graphpart.chunked.dispatch` and the CLI share, declared and checked once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import GraphpartError
from ..utils.check import Options, check_count, check_flag, short_repr
from ..utils.units import fmt_bytes

__all__ = ["ClusterOptions"]

#: A Python process with graphpart (numpy, torch, pyarrow) imported: what a Dask worker holds
#: before its first task (every step's memory formula starts from it).
BASE = 300 << 20


def check_memory_limit(memory_limit: object) -> None:
    """Refuse a worker memory limit no task can run under (a worker with graphpart imported
    holds about :data:`BASE`): the LocalCluster would restart its
    workers for ever instead of failing.

    Parameters
    ----------
    memory_limit : str, int or None
        ``"4GB"``, bytes, ``"auto"``, ``0`` or ``None`` (no limit).

    Raises
    ------
    GraphpartError
        When the value is not a size, or is below what a worker needs to start.
    """
    from dask.utils import parse_bytes

    if memory_limit in (None, "auto", 0, "0"):
        return
    try:
        limit = parse_bytes(memory_limit) if isinstance(memory_limit, str) else int(memory_limit)
    except (ValueError, TypeError):
        raise GraphpartError(
            f"memory_limit must be a size such as '4GB' or 'auto', got {short_repr(memory_limit)}"
        ) from None
    if limit < BASE:
        raise GraphpartError(
            f"memory_limit {short_repr(memory_limit)} is below what a Dask worker needs to start "
            f"(about {fmt_bytes(BASE)} with graphpart imported); `graphpart plan` says what "
            "each step needs"
        )


@dataclass(frozen=True)
class ClusterOptions(Options):
    """The Dask cluster a pipeline step runs on: a client, a running scheduler, or an embedded
    ``LocalCluster`` started (and closed) by the step.

    Parameters
    ----------
    scheduler : str or None, default None
        Address of a running Dask scheduler (``tcp://host:port``).
    client : distributed.Client or None, default None
        A client to use as is (never closed by graphpart).
    workers : int, default 2
        The LocalCluster's worker processes, when neither ``scheduler`` nor ``client`` is given.
    threads_per_worker : int, default 1
        Threads of each LocalCluster worker.
    memory_limit : str, int or None, default "auto"
        Each LocalCluster worker's memory limit (``"4GB"``, bytes, ``"auto"``: the machine's
        memory shared; ``None``: none). A limit below what a worker needs to start is refused.
    processes : bool, default True
        LocalCluster workers as processes (``False``: threads of this process).

    Examples
    --------
    >>> ClusterOptions(workers=4, memory_limit="6GB").workers
    4
    >>> ClusterOptions(workers=0)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: workers must be ...
    >>> ClusterOptions.of(None, worker=3)
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: unknown cluster option 'worker' (did you mean workers?)...
    """

    option_word = "cluster option"

    scheduler: str | None = None
    client: Any = None
    workers: int = 2
    threads_per_worker: int = 1
    memory_limit: str | int | None = "auto"
    processes: bool = True

    def __post_init__(self) -> None:
        if self.scheduler is not None and not isinstance(self.scheduler, str):
            raise GraphpartError(
                f"scheduler must be an address such as 'tcp://host:port', got "
                f"{short_repr(self.scheduler)}"
            )
        if self.scheduler is not None and self.client is not None:
            raise GraphpartError(
                "give a scheduler's address or a client, not both (the client would be used)"
            )
        if self.client is not None and not hasattr(self.client, "scheduler_info"):
            raise GraphpartError(
                f"client must be a distributed.Client, got {short_repr(self.client)}"
            )
        for name in ("workers", "threads_per_worker"):
            object.__setattr__(self, name, check_count(getattr(self, name), name, low=1))
        check_flag(self.processes, "processes")
        check_memory_limit(self.memory_limit)

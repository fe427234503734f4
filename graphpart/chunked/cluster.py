"""Where the chunked pipeline runs: the Dask settings :func:`~graphpart.chunked.assign`,
:func:`~graphpart.chunked.dispatch` and the CLI share, declared and checked once."""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from typing import Any

from ..errors import GraphpartError
from ..utils.check import Options, check_count, check_flag, describe_exception, short_repr
from ..utils.units import fmt_bytes

__all__ = ["ClusterOptions"]

#: Seconds a step waits for a Dask scheduler to answer before it gives up with one line.
CONNECT_S = 20.0
#: What a scheduler address may be, in words (errors and the CLI's help say it).
ADDRESS_RULE = (
    "tcp://HOST:PORT or HOST:PORT (HOST a name, an IPv4 address or an [IPv6] one in brackets, "
    "PORT 1-65535; tls://, ucx:// and inproc:// are not supported)"
)
_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9_-]{1,63}(?<!-))*\.?")
_ADDRESS = re.compile(r"(?P<host>\[[^\]]*\]|[^:\[\]]*):(?P<port>[^:]*)")

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
        When the value is not a size, is below what a worker needs to start, or is more than
        this machine has.
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
    import psutil

    total = int(psutil.virtual_memory().total)
    if limit > total:  # Dask would never pause or spill: no limit at all
        raise GraphpartError(
            f"memory_limit {short_repr(memory_limit)} is more than this machine has "
            f"({fmt_bytes(total)}): a worker's limit must be one it can reach; each step checks "
            "what its workers need against the memory free"
        )


def check_scheduler_address(address: object) -> str:
    """The Dask scheduler address ``address``, checked and written as ``tcp://HOST:PORT``: the
    one rule for what graphpart connects to (:data:`ADDRESS_RULE`), before any connection.

    Parameters
    ----------
    address : object
        What was given: ``"tcp://HOST:PORT"`` or ``"HOST:PORT"``.

    Returns
    -------
    str
        ``"tcp://HOST:PORT"`` (an IPv6 host in brackets), the port without leading zeros.

    Raises
    ------
    GraphpartError
        When ``address`` is not such a string: another protocol, no port, a port that is not
        a number in 1-65535, a host that is not a name or an IP address.

    Examples
    --------
    >>> check_scheduler_address("10.0.0.1:8786")
    'tcp://10.0.0.1:8786'
    >>> check_scheduler_address("tcp://[::1]:8786")
    'tcp://[::1]:8786'
    >>> check_scheduler_address("tcp://h:notaport")
    Traceback (most recent call last):
    ...
    graphpart.errors.GraphpartError: scheduler address 'tcp://h:notaport': the port must be ...
    """
    if not isinstance(address, str):
        raise GraphpartError(
            f"scheduler must be an address, {ADDRESS_RULE}; got {short_repr(address)}"
        )
    given = short_repr(address)
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme.lower() != "tcp":
        raise GraphpartError(
            f"scheduler address {given}: protocol {short_repr(scheme)} is not supported; "
            f"expected {ADDRESS_RULE}"
        )
    match = _ADDRESS.fullmatch(rest)
    if match is None:
        raise GraphpartError(f"scheduler address {given}: expected {ADDRESS_RULE}")
    host, port = match["host"], match["port"]
    if not (port.isascii() and port.isdigit() and len(port) <= 5 and 0 < int(port) < 65536):
        raise GraphpartError(
            f"scheduler address {given}: the port must be a number in 1-65535, got "
            f"{short_repr(port)}; expected {ADDRESS_RULE}"
        )
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise GraphpartError(
                f"scheduler address {given}: {short_repr(host)} is not an IPv6 address; "
                f"expected {ADDRESS_RULE}"
            ) from None
    elif not (host.isascii() and len(host) <= 253 and _HOST_NAME.fullmatch(host)):
        raise GraphpartError(
            f"scheduler address {given}: the host must be a name or an IP address, got "
            f"{short_repr(host)}; expected {ADDRESS_RULE}"
        )
    return f"tcp://{host}:{int(port)}"


def reach_scheduler(address: str, timeout: float | None = None) -> dict:
    """Ask the Dask scheduler at ``address`` who it is, all of it within ``timeout`` seconds:
    nothing listening, a host that does not resolve, or a server that is not a Dask scheduler
    (which can keep ``distributed.Client`` waiting for ever) is one line, in bounded time.

    Parameters
    ----------
    address : str
        An address :func:`check_scheduler_address` returned.
    timeout : float or None, default None
        Seconds, at most; default :data:`CONNECT_S`.

    Returns
    -------
    dict
        The scheduler's ``identity`` (``"type"``: ``"Scheduler"``, ``"workers"``, ...).

    Raises
    ------
    GraphpartError
        When no Dask scheduler answers at ``address`` in time.
    """
    import asyncio
    import concurrent.futures
    import time

    timeout = CONNECT_S if timeout is None else float(timeout)
    host, port = address.removeprefix("tcp://").rsplit(":", 1)
    start = time.monotonic()
    hint = "start one with `dask scheduler` and give its tcp://host:port"
    try:  # a refused connection or an unknown host fail at once, not after Dask's retries
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        why = "timed out" if isinstance(e, TimeoutError) else describe_exception(e)
        raise GraphpartError(
            f"cannot reach a Dask scheduler at {short_repr(address)} ({why}); {hint}"
        ) from None

    async def ask(left: float) -> object:
        from distributed.comm import connect

        comm = await connect(address, timeout=left)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    left = max(timeout - (time.monotonic() - start), 0.1)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # its own loop, wherever called
        job = pool.submit(asyncio.run, asyncio.wait_for(ask(left), left))
        try:
            info = job.result()
        except Exception as e:
            why = "no answer in time" if isinstance(e, TimeoutError) else describe_exception(e)
            info = why
    if not (isinstance(info, dict) and info.get("type") == "Scheduler"):
        what = info if isinstance(info, str) else f"it answered {short_repr(info)}"
        raise GraphpartError(
            f"no Dask scheduler answers at {short_repr(address)} ({what}, after "
            f"{time.monotonic() - start:.0f} s); {hint}"
        )
    return info


@dataclass(frozen=True)
class ClusterOptions(Options):
    """The Dask cluster a pipeline step runs on: a client, a running scheduler, or an embedded
    ``LocalCluster`` started (and closed) by the step.

    Parameters
    ----------
    scheduler : str or None, default None
        Address of a running Dask scheduler: ``tcp://HOST:PORT`` or ``HOST:PORT``
        (:func:`check_scheduler_address`; kept as ``tcp://HOST:PORT``).
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
        if self.scheduler is not None:
            object.__setattr__(self, "scheduler", check_scheduler_address(self.scheduler))
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

"""A Dask scheduler address is checked in one place (cluster.check_scheduler_address) before any
connection, and a well-formed one nobody answers at fails in bounded time (issue 61 item 7)."""

from __future__ import annotations

import socket
import string
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphpart import GraphpartError
from graphpart.chunked import ClusterOptions
from graphpart.chunked.cluster import check_scheduler_address, reach_scheduler
from graphpart.cli import main

MALFORMED = [
    "foo",
    "tcp://",
    "tcp://h:notaport",
    "tcp://h:0",
    "tcp://h:65536",
    "tcp://h:",
    "tcp://:8786",
    "tcp://a:b:c",
    "tcp://[zz]:8786",
    "tcp://h_ost-:8786",
    "tcp://h\x1b[31m:8786",
    "inproc://x",
    "ucx://10.0.0.1:8786",
    "tls://10.0.0.1:8786",
    "ws://h:1",
    "",
]


@pytest.mark.parametrize("address", MALFORMED)
def test_a_malformed_address_is_one_line_naming_what_is_accepted(address):
    with pytest.raises(GraphpartError, match="tcp://HOST:PORT") as info:
        ClusterOptions(scheduler=address)
    assert "\n" not in str(info.value) and str(info.value).isprintable()


@pytest.mark.parametrize(
    "given, kept",
    [
        ("tcp://10.0.0.1:8786", "tcp://10.0.0.1:8786"),
        ("10.0.0.1:08786", "tcp://10.0.0.1:8786"),
        ("TCP://node-3.cluster.local:1", "tcp://node-3.cluster.local:1"),
        ("tcp://[::1]:65535", "tcp://[::1]:65535"),
    ],
)
def test_a_good_address_is_kept_as_tcp_host_port(given, kept):
    assert ClusterOptions(scheduler=given).scheduler == kept


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40),
        st.builds(
            lambda scheme, host, port: f"{scheme}{host}:{port}",
            st.sampled_from(["", "tcp://", "tls://", "inproc://", "TCP://", "tcp:/"]),
            st.text(string.ascii_letters + string.digits + ".-_[]:", max_size=20),
            st.one_of(st.integers(-5, 70000).map(str), st.text(max_size=6)),
        ),
    )
)
def test_fuzz_the_parser_accepts_tcp_or_says_one_line(address):
    try:
        kept = check_scheduler_address(address)
    except GraphpartError as e:
        message = str(e)
        assert message.isprintable() and len(message) < 1000
        assert "expected tcp://HOST:PORT" in message or "must be an address" in message
        return
    assert kept.startswith("tcp://") and check_scheduler_address(kept) == kept
    port = int(kept.rsplit(":", 1)[1])
    assert 0 < port < 65536


@settings(max_examples=200, deadline=None)
@given(
    st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?(\.[a-z0-9]{1,8}){0,3}", fullmatch=True),
    st.integers(1, 65535),
)
def test_fuzz_every_host_name_and_port_is_accepted(host, port):
    assert check_scheduler_address(f"{host}:{port}") == f"tcp://{host}:{port}"


@pytest.mark.parametrize("address", ["foo", "tcp://h:notaport", "inproc://x", "tls://h:1"])
def test_the_cli_says_one_line_and_exits_2(address, tmp_path, capsys):
    for command in (
        ["assign", "--in-dir", str(tmp_path / "in"), "--out-dir", str(tmp_path / "o"),
         "--num-parts", "2"],
        ["dispatch", "--in-dir", str(tmp_path / "in"), "--partitions-dir", str(tmp_path / "p"),
         "--out-dir", str(tmp_path / "o")],
    ):  # fmt: skip
        assert main([*command, "--scheduler", address]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and "tcp://HOST:PORT" in err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_nothing_listening_fails_at_once():
    start = time.monotonic()
    with pytest.raises(GraphpartError, match="cannot reach a Dask scheduler") as info:
        reach_scheduler(f"tcp://127.0.0.1:{free_port()}", timeout=30)
    assert time.monotonic() - start < 10 and "\n" not in str(info.value)


def test_a_server_that_is_not_a_scheduler_fails_in_bounded_time():
    # accepts and never answers: distributed.Client alone waited for ever on such a server
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        start = time.monotonic()
        with pytest.raises(GraphpartError, match="no Dask scheduler answers"):
            reach_scheduler(f"tcp://127.0.0.1:{server.getsockname()[1]}", timeout=2)
        assert time.monotonic() - start < 8
    finally:
        stop.set()
        thread.join()
        for s in held:
            s.close()
        server.close()


def test_a_running_scheduler_answers():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:
        address = ClusterOptions(scheduler=cluster.scheduler_address).scheduler
        assert reach_scheduler(address, timeout=20)["type"] == "Scheduler"

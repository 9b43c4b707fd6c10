"""``--cluster`` pointed at something that is not a Dask scheduler gives up with one line
(issue 23, defect 3): an HTTP server (it hung 11 minutes), a silent listener (it hung until the
listener closed), a server whose first bytes are text (a MemoryError traceback: Dask read them as
a frame length), a closed port, and an address that never answers (connect mocked: no packet
leaves this machine). Only 127.0.0.1 listeners started here are used."""
from __future__ import annotations

import http.server
import socket
import threading

import pytest

from referee.api import UsageError
from tests.conftest import run_cli

pytest.importorskip("distributed", reason="optional: Dask cluster tests skipped: distributed is "
                    "not installed (pip install 'botarena[cluster]')")

GIVE_UP = "no Dask scheduler answers there"


@pytest.fixture
def http_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def silent_listener():
    """Connections are accepted by the kernel (the backlog) and never answered."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"


@pytest.fixture
def banner_server():
    """Says something first, as many servers do: Dask took its first 8 bytes for a frame's size."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    connections = []

    def serve():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            connections.append(connection)
            connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for connection in connections:
        connection.close()


def _closed_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{probe.getsockname()[1]}"


@pytest.mark.parametrize("where", ["http_server", "silent_listener", "banner_server", "closed"])
def test_a_cluster_address_that_is_no_scheduler_is_one_line_and_exit_2(request, where):
    address = _closed_port() if where == "closed" else request.getfixturevalue(where)
    done = run_cli("match", "tictactoe", "random", "random", "-n", "2", "--cluster", address,
                   timeout=90)
    assert done.returncode == 2 and done.stdout == "", done.stderr[-3000:]
    assert done.stderr.count("\n") == 1, done.stderr[-3000:]
    assert done.stderr.startswith(f"botarena: --cluster {address}: {GIVE_UP} ("), done.stderr
    assert "start one with: dask scheduler" in done.stderr


def test_an_address_that_never_answers_gives_up(monkeypatch):
    """An unroutable address: the TCP connect never completes (mocked here, and any real
    connect fails the test, so nothing is sent off this machine)."""
    import asyncio

    from distributed.comm.tcp import TCPConnector

    from tools.arena import cluster

    async def never(self, address, deserialize=True, **kwargs):
        await asyncio.sleep(3600)

    def no_real_connect(*args, **kwargs):
        raise AssertionError("a real connection was attempted")

    monkeypatch.setattr(TCPConnector, "connect", never)
    monkeypatch.setattr(socket.socket, "connect", no_real_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", no_real_connect)
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 1)
    with pytest.raises(UsageError, match=f"--cluster tcp://192.0.2.1:8786: {GIVE_UP} "):
        cluster._connect("tcp://192.0.2.1:8786")

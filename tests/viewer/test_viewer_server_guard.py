"""The viewer's server refuses foreign Host headers (DNS rebinding) and closes idle connections."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from devicesworld.viewer import ViewerServer, make_server, serve_in_thread
from devicesworld.viewer import server as viewer_server
from tests.analysis.dw_run_fixtures import make_viewer_run

CLIENT_TIMEOUT_S = 30.0
"""Generous: a test fails only if the server never answers, not because the machine is slow."""


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ViewerServer]:
    monkeypatch.setattr(viewer_server._Handler, "timeout", 0.5)
    srv = make_server([make_viewer_run(tmp_path / "run", n=1)], port=0)
    serve_in_thread(srv)
    yield srv
    srv.shutdown()
    srv.server_close()


def _get(server: ViewerServer, host: str | None, path: str = "/api/runs") -> tuple[int, bytes]:
    lines = [f"GET {path} HTTP/1.1", "Connection: close"]
    if host is not None:
        lines.insert(1, f"Host: {host}")
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=CLIENT_TIMEOUT_S) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"])
def test_local_names_with_the_right_port_are_served(server: ViewerServer, name: str) -> None:
    status, body = _get(server, f"{name}:{server.server_address[1]}")
    assert status == 200 and body.startswith(b"[")


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:{port}",
        "localhost.evil.example:{port}",
        "127.0.0.1:{other}",
        "localhost",
        "127.0.0.1",
        "",
        None,
    ],
)
def test_any_other_host_header_is_refused(server: ViewerServer, host: str | None) -> None:
    port = server.server_address[1]
    header = None if host is None else host.format(port=port, other=port + 1 if port < 65535 else port - 1)
    for path in ("/api/runs", "/", "/files/0/t/a.png"):
        status, body = _get(server, header, path)
        assert status == 403 and b"answers only to localhost" in body


def test_the_bind_address_is_an_allowed_host(tmp_path: Path) -> None:
    from devicesworld.viewer import RunStore

    srv = ViewerServer(RunStore([make_viewer_run(tmp_path / "run", n=1)]), 0, host="127.0.0.2")
    try:
        assert f"127.0.0.2:{srv.server_address[1]}" in srv.allowed_hosts
        assert f"evil.example:{srv.server_address[1]}" not in srv.allowed_hosts
    finally:
        srv.server_close()


def test_an_idle_connection_is_closed(server: ViewerServer) -> None:
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=CLIENT_TIMEOUT_S) as sock:
        assert sock.recv(1024) == b""  # closed by the server, not held open forever
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=CLIENT_TIMEOUT_S) as sock:
        sock.sendall(b"GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1")  # a request that never ends
        assert sock.recv(1024) == b""

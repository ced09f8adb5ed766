"""The relay that gives a GUI desktop's Chromium the task's sites: it adds the secret, and only it can."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

from devicesworld.devices.linux.gui.sites_relay import SitesRelay
from devicesworld.devices.linux.sites import presets
from devicesworld.devices.linux.sites.server import TOKEN_HEADER, SiteService


def _ask(path: Path, request: bytes) -> bytes:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(30)
        s.connect(str(path))
        s.sendall(request)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


def test_a_proxy_request_through_the_relay_reaches_the_site_with_the_secret(tmp_path: Path) -> None:
    service = SiteService(tmp_path / "sites")
    service.add(presets.site("club.test", "Club", [presets.registration_page()]))
    relay = SitesRelay(tmp_path / "relay", lambda: service)
    try:
        forged = f"{TOKEN_HEADER}: not-the-secret\r\n".encode()
        reply = _ask(
            relay.path,
            b"GET http://club.test/register HTTP/1.1\r\nHost: club.test\r\n"
            + forged
            + b"Connection: keep-alive\r\n\r\n",
        )
        assert reply.startswith(b"HTTP/1.") and b" 200 " in reply.split(b"\r\n", 1)[0]
        assert b"Create an account" in reply
        assert [v["path"] for v in service.visits("club.test")] == ["/register"]
        body = b"full_name=Zo%C3%AB+M&email=z%40example.org"
        post = (
            b"POST http://club.test/register HTTP/1.1\r\nHost: club.test\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )
        assert b" 200 " in _ask(relay.path, post).split(b"\r\n", 1)[0]
        [sub] = service.submissions("club.test")
        assert sub["fields"]["full_name"] == "Zoë M" and sub["accepted"]
    finally:
        relay.close()
        service.shutdown()


def test_without_sites_the_relay_answers_502(tmp_path: Path) -> None:
    relay = SitesRelay(tmp_path / "relay", lambda: None)
    try:
        reply = _ask(relay.path, b"GET http://x.test/ HTTP/1.1\r\nHost: x.test\r\n\r\n")
        assert reply.startswith(b"HTTP/1.1 502")
    finally:
        relay.close()


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_closing_the_relay_leaves_no_thread_or_socket_behind(tmp_path: Path) -> None:
    threads, fds = threading.active_count(), _fds()
    for i in range(6):  # as six GUI episodes in one process
        relay = SitesRelay(tmp_path / f"relay{i}", lambda: None)
        idle = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        idle.connect(str(relay.path))  # a connection still open (no request yet) when the episode ends
        deadline = time.monotonic() + 30
        while threading.active_count() < threads + 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        relay.close()
        idle.close()
        relay.close()  # idempotent
    assert threading.active_count() == threads
    assert _fds() == fds
    assert not any(t.name.startswith("sites-relay") for t in threading.enumerate())

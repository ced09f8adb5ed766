"""Helpers for server tests: free loopback ports and waiting for a server to listen."""

from __future__ import annotations

import socket
import time

import pytest


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(n: int) -> int:
    """The first of ``n`` consecutive free loopback ports."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            first = int(s.getsockname()[1])
        if first + n < 65535 and all(_free(first + i) for i in range(n)):
            return first
    raise RuntimeError("no free ports")


def wait_listening(port: int, timeout: float = 90.0) -> None:
    """Wait (generously: a loaded machine starts Python slowly) until ``port`` accepts connections."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    pytest.fail(f"nothing listened on port {port} within {timeout:.0f} s")

"""The task's local sites for the Chromium *inside* a GUI desktop, which has no network.

Why a relay: the sites are served by the harness on the host's loopback and refuse any
request without the task's secret header (:mod:`..sites.server`), while the desktop's
sandbox has its own, empty network namespace. So the desktop's Chromium uses
``--proxy-server=http://127.0.0.1:8080``; the in-sandbox controller forwards that port
to a Unix socket bound in from the host (``/run/dw-sites/sock``), and this relay, on the
host, adds the secret header to each request (and ``Connection: close``, so every
request gets it) before passing it to the site server. Nothing else is reachable: the
relay only ever connects to the task's site server.

:meth:`SitesRelay.close` leaves nothing behind in the harness: closing a listening
socket does not wake a thread blocked in its ``accept()`` on Linux, so every GUI
episode used to leave a thread and a listening socket. ``close`` shuts the socket
down (which does wake it), shuts down the connections still open, and joins every
thread it started.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from devicesworld.devices.linux.sites.server import TOKEN_HEADER, SiteService

SOCKET_DIR = "/run/dw-sites"
PROXY_PORT = 8080
MAX_HEAD = 64 * 1024
_DROP = (b"connection:", b"proxy-connection:", b"keep-alive:", TOKEN_HEADER.lower().encode() + b":")


class SitesRelay:
    """A Unix-socket listener that forwards HTTP proxy requests to the task's site server."""

    def __init__(self, folder: Path, sites: Callable[[], SiteService | None]) -> None:
        self.folder = folder
        self.sites = sites
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o755)
        self.path = folder / "sock"
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.bind(str(self.path))
        os.chmod(self.path, 0o777)
        self._sock.listen(32)
        self._closed = False
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._workers: set[threading.Thread] = set()
        self._thread = threading.Thread(target=self._serve, name="sites-relay", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._closed:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            with self._lock:
                if self._closed:
                    conn.close()
                    return
                self._open.add(conn)
                worker = threading.Thread(
                    target=self._one_tracked, args=(conn,), name="sites-relay-conn", daemon=True
                )
                self._workers.add(worker)
            worker.start()

    def _one_tracked(self, conn: socket.socket) -> None:
        try:
            self._one(conn)
        finally:
            with self._lock:
                self._open.discard(conn)
                self._workers.discard(threading.current_thread())

    def _one(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(30)
            head = b""
            try:
                while b"\r\n\r\n" not in head and len(head) < MAX_HEAD:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    head += chunk
            except OSError:
                return
            service = self.sites()
            if service is None or b"\r\n\r\n" not in head:
                with contextlib.suppress(OSError):
                    conn.sendall(
                        b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    )
                return
            raw, _, rest = head.partition(b"\r\n\r\n")
            lines = raw.split(b"\r\n")
            kept = [lines[0], *(ln for ln in lines[1:] if not ln.lower().startswith(_DROP))]
            kept += [f"{TOKEN_HEADER}: {service.token}".encode(), b"Connection: close"]
            try:
                up = socket.create_connection(("127.0.0.1", service.port), timeout=30)
            except OSError:
                return
            with self._lock:
                self._open.add(up)
            with up:
                up.sendall(b"\r\n".join(kept) + b"\r\n\r\n" + rest)
                t = threading.Thread(target=_pump, args=(conn, up), name="sites-relay-pump", daemon=True)
                t.start()
                _pump(up, conn)
                t.join(timeout=30)
            with self._lock:
                self._open.discard(up)

    def close(self, timeout: float = 10.0) -> None:
        """Stop listening, end open connections and wait for every relay thread (idempotent)."""
        with self._lock:
            self._closed = True
            conns = list(self._open)
            workers = list(self._workers)
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)  # wakes the accept() that close() alone would not
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout)
        for worker in workers:
            worker.join(timeout)
        with contextlib.suppress(OSError):
            self._sock.close()
        with contextlib.suppress(OSError):
            self.path.unlink()


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        dst.shutdown(socket.SHUT_WR)

"""One HTTP server per task on 127.0.0.1 that serves every site of the task by Host name.

Why one server for all sites: the browser maps every ``*.test`` host to this one
port (Chromium through ``--host-resolver-rules``, the built-in engine directly), so a
task may have any number of sites for the price of one thread and one socket. The
server starts on the first ``add_site`` and stops when the last device using it
closes; tasks without sites pay nothing.

Every page view and every form submission is written to a SQLite file, which is what
verifiers read (``form_submitted``, ``page_visited``), so the record survives the
browser and does not depend on which backend drove it.

Only the device's own browsers may add to that record. The sandboxes have no network,
but any other process on the host can reach 127.0.0.1; so every request must carry
the task's secret in the :data:`TOKEN_HEADER` header, which only the harness's
browsers add (Chromium through its context's extra headers, the built-in engine
itself). A request without it is refused with 403 and leaves no trace. The server
also protects itself: a POST body over :data:`MAX_BODY_BYTES` is refused with 413
before it is read, a missing, malformed or negative ``Content-Length`` is a 400 (never
a traceback, never a read that blocks), and a connection idle for
:data:`IDLE_TIMEOUT_S` is closed.
"""

from __future__ import annotations

import hmac
import json
import secrets
import sqlite3
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from devicesworld.devices.base import DeviceContext
from devicesworld.devices.linux.sites.model import Form, Page, Site
from devicesworld.devices.linux.sites.render import not_found_html, page_html

SITES_KEY = "linux_sites"
TOKEN_HEADER = "X-DevicesWorld-Site-Token"
"""The header carrying the task's secret; requests without it are refused."""
MAX_BODY_BYTES = 256 * 1024
"""The largest form submission accepted (the task's forms are a few fields of text)."""
IDLE_TIMEOUT_S = 15.0
"""A connection that sends nothing for this long is closed (a browser never waits that long)."""
_SCHEMA = """
CREATE TABLE IF NOT EXISTS visits (id INTEGER PRIMARY KEY, host TEXT, path TEXT, method TEXT);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY, host TEXT, path TEXT, form TEXT, fields TEXT, accepted INTEGER, message TEXT
);
"""


class SiteService:
    """The task's sites, their server and their SQLite record."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.db_path = folder / "sites.sqlite"
        # One connection for all server threads; the record lives only as long as the task,
        # so it is written without fsync (synchronous=OFF), which keeps resets fast.
        self._conn = sqlite3.connect(self.db_path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=MEMORY")
        self._conn.execute("PRAGMA synchronous=OFF")
        self._conn.executescript(_SCHEMA)
        self._db_lock = threading.Lock()
        self.sites: dict[str, Site] = {}
        self.token = secrets.token_urlsafe(32)
        """The task's secret; only the device's browsers send it (see :data:`TOKEN_HEADER`)."""
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._users = 0
        self._lock = threading.Lock()
        self._stopped = False

    # -------------------------------------------------------------- lifecycle
    def acquire(self) -> None:
        with self._lock:
            self._users += 1

    def release(self) -> None:
        with self._lock:
            self._users -= 1
            last = self._users <= 0
        if last:
            self.shutdown()

    def add(self, site: Site) -> None:
        self.sites[site.host] = site
        self._start()

    @property
    def port(self) -> int:
        server = self._start()
        if server is None:  # a late request (the GUI relay's) while the device closes
            raise OSError("the local sites service is shut down")
        return int(server.server_address[1])

    def _start(self) -> ThreadingHTTPServer | None:
        with self._lock:
            if self._server is not None or self._stopped:
                return self._server
            server = _QuietServer(("127.0.0.1", 0), _handler_for(self))
            server.daemon_threads = True
            self._server = server
            self._thread = threading.Thread(
                target=server.serve_forever, kwargs={"poll_interval": 0.02}, name="dw-sites", daemon=True
            )
            self._thread.start()
            return server

    def shutdown(self) -> None:
        # under the lock: a late _start (the GUI relay serving one more request) neither
        # restarts the server nor leaves a thread that is made but not yet started
        with self._lock:
            self._stopped = True
            server, self._server = self._server, None
            thread, self._thread = self._thread, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join(timeout=5)
        with self._db_lock:
            self._conn.close()

    # -------------------------------------------------------------- records
    def record_visit(self, host: str, path: str, method: str) -> None:
        with self._db_lock:
            self._conn.execute(
                "INSERT INTO visits (host, path, method) VALUES (?, ?, ?)", (host, path, method)
            )

    def record_submission(
        self, host: str, path: str, form: str, fields: dict[str, str], accepted: bool, message: str
    ) -> None:
        with self._db_lock:
            self._conn.execute(
                "INSERT INTO submissions (host, path, form, fields, accepted, message) VALUES (?, ?, ?, ?, ?, ?)",
                (host, path, form, json.dumps(fields, sort_keys=True), int(accepted), message),
            )

    def visits(self, host: str | None = None, path: str | None = None) -> list[dict[str, Any]]:
        rows = self._query("SELECT host, path, method FROM visits ORDER BY id")
        return [
            {"host": h, "path": p, "method": m}
            for h, p, m in rows
            if (host is None or h == host) and (path is None or p == path)
        ]

    def submissions(
        self, host: str | None = None, form: str | None = None, path: str | None = None
    ) -> list[dict[str, Any]]:
        rows = self._query("SELECT host, path, form, fields, accepted, message FROM submissions ORDER BY id")
        return [
            {
                "host": h,
                "path": p,
                "form": f,
                "fields": json.loads(fields),
                "accepted": bool(acc),
                "message": msg,
            }
            for h, p, f, fields, acc, msg in rows
            if (host is None or h == host) and (form is None or f == form) and (path is None or p == path)
        ]

    def _query(self, sql: str) -> list[tuple[Any, ...]]:
        with self._db_lock:
            return list(self._conn.execute(sql))

    # -------------------------------------------------------------- forms
    def handle_form(self, host: str, path: str, form: Form, raw: dict[str, list[str]]) -> tuple[bool, str]:
        fields = {f.name: (raw.get(f.name) or [""])[-1].strip() for f in form.fields}
        problems: list[str] = []
        for f in form.fields:
            value = fields[f.name]
            if f.required and not value and f.type != "checkbox":
                problems.append(f"{f.label} is required")
            elif f.options and value and value not in f.options:
                problems.append(f"{f.label}: choose one of {', '.join(f.options)}")
            elif f.expected is not None and value != f.expected:
                problems.append(f"{f.label} is incorrect")
        accepted = not problems
        message = form.success_message if accepted else "Please correct: " + "; ".join(problems)
        self.record_submission(host, path, form.id, fields, accepted, message)
        return accepted, message


def _handler_for(service: SiteService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "DevicesWorldSites/1"
        timeout = IDLE_TIMEOUT_S  # socket timeout: idle connections and stalled bodies end

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def _authorised(self) -> bool:
            """The request carries the task's secret; otherwise a 403 is sent and nothing recorded."""
            sent = self.headers.get(TOKEN_HEADER) or ""
            if hmac.compare_digest(sent.encode(), service.token.encode()):
                return True
            self._refuse(403, "Forbidden: only the device's browsers may use the task's sites.")
            return False

        def _refuse(self, status: int, message: str) -> None:
            self.close_connection = True
            self._send(status, f"<!DOCTYPE html><html><body><p>{message}</p></body></html>")

        def _body(self) -> bytes | None:
            """The request body, or ``None`` after refusing a bad or oversized one."""
            raw = self.headers.get("Content-Length", "0").strip()  # absent: no body; blank: malformed
            if not raw.isdigit():
                self._refuse(400, "Bad Request: Content-Length must be a non-negative integer.")
                return None
            length = int(raw)
            if length > MAX_BODY_BYTES:
                self._refuse(413, f"Payload Too Large: at most {MAX_BODY_BYTES} bytes.")
                return None
            try:
                body = self.rfile.read(length)
            except TimeoutError:
                self.close_connection = True
                return None
            if len(body) < length:
                self.close_connection = True
                return None
            return body

        def _site(self) -> tuple[Site | None, str]:
            host = (self.headers.get("Host") or "").split(":")[0].lower()
            return service.sites.get(host), host

        def _send(self, status: int, body: str) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def _path(self) -> str | None:
            try:
                return urlsplit(self.path).path or "/"
            except ValueError:
                self._refuse(400, "Bad Request: the request target is not a URL.")
                return None

        def _target(self, *, form: bool) -> tuple[Site, str, str, Page] | None:
            """The site, host, path and page a request is for, or ``None`` once it is refused or
            answered 404 (no such site or page; for a form post, a page without a form)."""
            if not self._authorised():
                return None
            site, host = self._site()
            path = self._path()
            if path is None:
                return None
            page = site.page(path) if site else None
            if site is None or page is None or (form and page.form is None):
                self._send(404, not_found_html(host, path))
                return None
            return site, host, path, page

        def do_GET(self) -> None:
            target = self._target(form=False)
            if target is None:
                return
            site, host, path, page = target
            if self.headers.get("Purpose") != "prefetch":
                service.record_visit(host, path, "GET")
            self._send(200, page_html(site, page))

        def do_POST(self) -> None:
            target = self._target(form=True)
            if target is None:
                return
            site, host, path, page = target
            assert page.form is not None  # _target answered 404 for a page without a form
            body = self._body()
            if body is None:
                return
            try:
                fields = parse_qs(body.decode(errors="replace"), keep_blank_values=True, max_num_fields=1000)
            except ValueError:
                self._refuse(400, "Bad Request: too many form fields.")
                return
            accepted, message = service.handle_form(host, path, page.form, fields)
            service.record_visit(host, path, "POST")
            self._send(200 if accepted else 400, page_html(site, page, message, error=not accepted))

    return Handler


def get_sites(context: DeviceContext) -> SiteService:
    """The task's site service, created on first use beside the devices' work folders."""
    service = context.shared.get(SITES_KEY)
    if service is None:
        service = SiteService(context.workdir.parent / "_linux_sites")
        context.shared[SITES_KEY] = service
    assert isinstance(service, SiteService)
    return service


class _QuietServer(ThreadingHTTPServer):
    """A browser that drops a connection (a closed page or context) is not an error worth a traceback."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError | TimeoutError):
            return
        super().handle_error(request, client_address)

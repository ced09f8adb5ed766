"""The viewer's HTTP server: a JSON API over :class:`RunStore` plus three static files.

Why the standard library: the viewer serves a handful of JSON routes and files to
one person on 127.0.0.1; ``http.server.ThreadingHTTPServer`` does that with no
dependency and no build step, and the page is plain HTML/JS shipped in the package.

Routes::

    GET /                                   the single-page app (static/index.html)
    GET /static/<file>                      app.js, style.css
    GET /api/runs                           one summary per run
    GET /api/runs/<r>/tasks                 compact task rows (from results.jsonl only)
    GET /api/runs/<r>/metrics               metrics with CIs (computed on first request)
    GET /api/runs/<r>/diagnoses             failure diagnosis (reads failed step logs once)
    GET /api/runs/<r>/episodes/<episode>    one episode (task id, ~N for trial N > 1) with its steps
    GET /api/pairwise/<a>/<b>               two runs task by task (both / only A / only B / neither)
    GET /files/<r>/<episode>/<name>.png     a screenshot
    GET /files/<r>/<episode>/images/<sha>.png  an image the model saw (llm agent, vision)

Bound to 127.0.0.1, the server is still reachable from any web page the person has
open, through DNS rebinding (a hostile name that resolves to 127.0.0.1). So every
request must name this server in its ``Host`` header: ``localhost``, ``127.0.0.1``
or ``[::1]`` (or the bind address) with this port; any other is refused with 403
before a route runs. A connection that sends nothing for :data:`IDLE_TIMEOUT_S`
is closed, so idle or half-sent requests cannot hold the server's threads.
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from devicesworld.analysis.errors import ReportError
from devicesworld.viewer.store import RunStore, ViewerError

HOST = "127.0.0.1"
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
IDLE_TIMEOUT_S = 30.0
"""Seconds a connection may stay silent before the server closes it."""
STATIC_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}


def _static(name: str) -> bytes | None:
    if name not in {"index.html", "app.js", "style.css"}:
        return None
    return resources.files("devicesworld.viewer").joinpath("static", name).read_bytes()


class _Handler(BaseHTTPRequestHandler):
    server: ViewerServer
    timeout = IDLE_TIMEOUT_S  # socket timeout: an idle or stalled connection is closed

    def log_message(self, format: str, *args: Any) -> None:  # quiet: one person, local
        return

    def _send(self, status: int, body: bytes, content_type: str, *, cache: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=3600" if cache else "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, obj: Any, status: int = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(obj, allow_nan=False).encode("utf-8"), "application/json")

    def _error(self, status: int, message: str) -> None:
        self._json({"error": message}, status)

    def _host_allowed(self) -> bool:
        """The ``Host`` header names this server; otherwise a 403 is sent (DNS rebinding)."""
        host = (self.headers.get("Host") or "").strip().lower()
        if host in self.server.allowed_hosts:
            return True
        self.close_connection = True
        self._error(
            HTTPStatus.FORBIDDEN, "this viewer answers only to localhost, 127.0.0.1 or [::1] on its port"
        )
        return False

    def do_GET(self) -> None:
        if not self._host_allowed():
            return
        try:
            parts = [unquote(p) for p in urlsplit(self.path).path.split("/") if p]
            self._route(parts)
        except (ViewerError, ReportError) as exc:
            self._error(HTTPStatus.NOT_FOUND, str(exc))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:  # a viewer bug must not kill the server
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"{type(exc).__name__}: {exc}")

    def _route(self, parts: list[str]) -> None:
        store = self.server.store
        if not parts or parts == ["index.html"]:
            body = _static("index.html")
            assert body is not None
            self._send(HTTPStatus.OK, body, STATIC_TYPES[".html"])
            return
        if parts[0] == "static" and len(parts) == 2:
            body = _static(parts[1])
            if body is None:
                raise ViewerError(f"no static file {parts[1]!r}")
            self._send(HTTPStatus.OK, body, STATIC_TYPES[Path(parts[1]).suffix])
            return
        if parts[0] == "files" and len(parts) in (4, 5):
            sub = parts[3] if len(parts) == 5 else None
            path = store.get(_int(parts[1])).file(parts[2], parts[-1], sub)
            self._send(HTTPStatus.OK, path.read_bytes(), "image/png", cache=True)
            return
        if parts[0] == "api" and len(parts) == 4 and parts[1] == "pairwise":
            self._json(store.pairwise(_int(parts[2]), _int(parts[3])))
            return
        if parts[0] != "api" or len(parts) < 2 or parts[1] != "runs":
            raise ViewerError(f"no such page: /{'/'.join(parts)}")
        if len(parts) == 2:
            self._json([entry.summary() for entry in store.runs])
            return
        entry = store.get(_int(parts[2]))
        rest = parts[3:]
        if rest == ["tasks"]:
            self._json(entry.tasks())
        elif rest == ["metrics"]:
            self._json(entry.metrics())
        elif rest == ["diagnoses"]:
            self._json(entry.diagnoses())
        elif len(rest) == 2 and rest[0] == "episodes":
            self._json(entry.episode(rest[1]))
        elif not rest:
            self._json(entry.summary())
        else:
            raise ViewerError(f"no such page: /{'/'.join(parts)}")


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ViewerError(f"not a run number: {text!r}") from None


class ViewerServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, store: RunStore, port: int = 0, host: str = HOST) -> None:
        self.store = store
        super().__init__((host, port), _Handler)
        self.bind_host = host

    @property
    def allowed_hosts(self) -> frozenset[str]:
        """``Host`` header values this server answers to: local names (and the bind address) with its port."""
        port = self.server_address[1]
        names = {*LOCAL_NAMES, self.bind_host.lower() if ":" not in self.bind_host else f"[{self.bind_host}]"}
        allowed = {f"{name}:{port}" for name in names}
        if port == 80:
            allowed |= names
        return frozenset(allowed)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"


def make_server(run_dirs: list[Path], port: int = 0) -> ViewerServer:
    """Check the run directories and bind 127.0.0.1:``port`` (0 picks a free port)."""
    store = RunStore(run_dirs)
    store.check()
    return ViewerServer(store, port)


def serve_in_thread(server: ViewerServer) -> threading.Thread:
    """Serve in a daemon thread (tests, notebooks); stop with ``server.shutdown()``."""
    thread = threading.Thread(target=server.serve_forever, name="devicesworld-viewer", daemon=True)
    thread.start()
    return thread

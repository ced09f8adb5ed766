"""The local sites server under hostile clients: secrets, sizes, bad headers, idle connections.

These talk to :class:`SiteService` over raw sockets, as any other local process could;
no sandbox or browser is needed.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from devicesworld.devices.linux.sites import server as sites_server
from devicesworld.devices.linux.sites.model import Form, FormField, Page, Site
from devicesworld.devices.linux.sites.server import MAX_BODY_BYTES, TOKEN_HEADER, SiteService

CLIENT_TIMEOUT_S = 30.0
"""Generous: a test fails only if the server never answers, never because the machine is slow."""


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SiteService]:
    monkeypatch.setattr(sites_server, "IDLE_TIMEOUT_S", 0.5)
    svc = SiteService(tmp_path / "sites")
    form = Form(id="signup", fields=[FormField(name="name", label="Name")])
    svc.add(Site(host="shop.test", title="Shop", pages=[Page(path="/", title="Home", form=form)]))
    try:
        yield svc
    finally:
        svc.shutdown()


def _exchange(service: SiteService, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", service.port), timeout=CLIENT_TIMEOUT_S) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _request(
    method: str, token: str | None, body: bytes = b"", length: str | None = None, close: bool = True
) -> bytes:
    head = [f"{method} / HTTP/1.1", "Host: shop.test"]
    if token is not None:
        head.append(f"{TOKEN_HEADER}: {token}")
    if method == "POST":
        head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {length or len(body)}"]
    if close:
        head.append("Connection: close")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def _status(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


def test_the_browsers_secret_opens_pages_and_records_visits(service: SiteService) -> None:
    response = _exchange(service, _request("GET", service.token))
    assert _status(response) == 200 and b"Home" in response
    assert service.visits() == [{"host": "shop.test", "path": "/", "method": "GET"}]
    accepted = _exchange(service, _request("POST", service.token, b"name=Ada"))
    assert _status(accepted) == 200
    assert [s["fields"] for s in service.submissions()] == [{"name": "Ada"}]


@pytest.mark.parametrize("token", [None, "", "guess", "x" * 43])
def test_forged_requests_are_refused_and_leave_no_trace(service: SiteService, token: str | None) -> None:
    assert _status(_exchange(service, _request("POST", token, b"name=Mallory"))) == 403
    assert _status(_exchange(service, _request("GET", token))) == 403
    assert service.submissions() == [] and service.visits() == []


def test_each_task_has_its_own_secret(tmp_path: Path) -> None:
    a, b = SiteService(tmp_path / "a"), SiteService(tmp_path / "b")
    try:
        assert a.token != b.token and len(a.token) >= 32
    finally:
        a.shutdown()
        b.shutdown()


@pytest.mark.parametrize("length", ["abc", "-5", "1e3", "", " 12x"])
def test_a_bad_content_length_is_a_400_without_a_traceback(
    service: SiteService, length: str, capsys: pytest.CaptureFixture[str]
) -> None:
    response = _exchange(service, _request("POST", service.token, b"name=Ada", length=length or " "))
    assert _status(response) == 400
    assert service.submissions() == []
    assert "Traceback" not in capsys.readouterr().err


def test_an_oversized_post_is_refused_with_413_before_it_is_read(service: SiteService) -> None:
    size = 20 * 1024 * 1024
    response = _exchange(service, _request("POST", service.token, b"", length=str(size)))
    assert _status(response) == 413 and str(MAX_BODY_BYTES).encode() in response
    assert service.submissions() == []


def test_idle_and_stalled_connections_are_closed(
    service: SiteService, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.create_connection(("127.0.0.1", service.port), timeout=CLIENT_TIMEOUT_S) as idle:
        assert idle.recv(1024) == b""  # the server hung up; it did not wait for a request forever
    stalled = _request("POST", service.token, b"name=", length="100", close=False)
    with socket.create_connection(("127.0.0.1", service.port), timeout=CLIENT_TIMEOUT_S) as sock:
        sock.sendall(stalled)
        assert sock.recv(1024) == b""
    assert service.submissions() == []
    assert "Traceback" not in capsys.readouterr().err


def test_too_many_form_fields_is_a_400(service: SiteService) -> None:
    body = b"&".join(b"f%d=1" % i for i in range(2000))
    assert _status(_exchange(service, _request("POST", service.token, body))) == 400


def test_a_late_request_while_the_service_shuts_down_neither_restarts_it_nor_breaks_the_close(
    service: SiteService,
) -> None:
    """The GUI relay asks for the port from its own threads; one asking while the device closes
    used to start a new server thread that shutdown then joined before it had started."""

    stop = threading.Event()
    unexpected: list[BaseException] = []

    def ask() -> None:
        while not stop.is_set():
            try:
                _ = service.port
            except OSError:
                pass
            except BaseException as exc:  # any other error is the failure
                unexpected.append(exc)

    askers = [threading.Thread(target=ask) for _ in range(4)]
    for t in askers:
        t.start()
    service.shutdown()
    stop.set()
    for t in askers:
        t.join(timeout=CLIENT_TIMEOUT_S)
    assert not unexpected
    with pytest.raises(OSError, match="shut down"):
        _ = service.port


def test_a_host_name_alone_opens_a_front_page_linking_every_page_when_the_site_has_none(
    service: SiteService,
) -> None:
    """A shop whose pages are all deeper (/checkout, /faq) still answers at /: a person who types
    only the host lands on its pages' links, not on a 404 whose Home link loops to itself."""
    pages = [Page(path="/checkout", title="Checkout"), Page(path="/faq", title="Delivery FAQ")]
    service.add(Site(host="deep.test", title="Deep Shop", pages=pages))
    request = (
        f"GET / HTTP/1.1\r\nHost: deep.test\r\n{TOKEN_HEADER}: {service.token}\r\nConnection: close\r\n\r\n"
    )
    response = _exchange(service, request.encode())
    assert _status(response) == 200
    assert b'<a href="/checkout">Checkout</a>' in response and b'<a href="/faq">Delivery FAQ</a>' in response
    assert b"Welcome to Deep Shop." in response
    assert service.visits(host="deep.test") == [{"host": "deep.test", "path": "/", "method": "GET"}]
    own = Site(host="shop.test", title="Shop", pages=[Page(path="/", title="Our own home")])
    assert own.page("/") == own.pages[0] and Site(host="deep.test", title="D", pages=pages).page("/x") is None

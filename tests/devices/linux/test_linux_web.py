"""Local sites and both browser backends: the same page text, the same records for verifiers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from devicesworld.devices.linux.sites import presets
from tests.devices.linux.linux_harness import Desktop, require_bwrap, require_chromium

BACKENDS = ["builtin", "chromium"]


def _shop() -> dict[str, object]:
    s = presets.site(
        "shop.test",
        "Corner Shop",
        [
            presets.product_list_page([["Product", "Price"], ["Kettle", "24.90"], ["Toaster", "31.00"]]),
            presets.order_page(["Kettle", "Toaster"]),
            presets.verification_page("483920"),
            presets.feedback_page(),
        ],
    )
    return s.model_dump()


@pytest.fixture(params=BACKENDS)
def web(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Desktop]:
    require_bwrap()
    if request.param == "chromium":
        require_chromium()
    d = Desktop(tmp_path, profile={"browser": request.param})
    d.setup("add_site", site=_shop())
    yield d
    d.close()


def _index(text: str, needle: str) -> int:
    """The element number on the line that mentions ``needle``."""
    for part in text.split("["):
        if "]" in part and needle in part.split("]", 1)[1].split("[")[0]:
            return int(part.split("]", 1)[0])
    raise AssertionError(f"{needle!r} not in page:\n{text}")


def test_read_and_follow_links(web: Desktop) -> None:
    page = web.ok("browser_open", url="shop.test")
    assert page["url"] == "http://shop.test/" and "Welcome to Corner Shop" in page["text"]
    page = web.ok("browser_click", index=_index(page["text"], 'link "Products"'))
    assert page["url"] == "http://shop.test/products"
    assert "Kettle | 24.90" in page["text"]
    back = web.ok("browser_back")
    assert back["url"] == "http://shop.test/"
    assert web.check("page_visited", host="shop.test", path="/products").passed
    assert not web.check("page_visited", host="shop.test", path="/order").passed
    assert web.get("browser")["url"] == "http://shop.test/"
    png = web.device.screenshot()
    assert png is not None and png.startswith(b"\x89PNG")
    shot = web.ok("browser_screenshot")
    assert shot["path"] == "~/Pictures/Screenshots/screenshot-001.png"
    assert web.check("image_size", path=shot["path"], format="PNG").passed


def test_order_form_is_recorded(web: Desktop) -> None:
    text = web.ok("browser_open", url="http://shop.test/order")["text"]
    web.ok("browser_select", index=_index(text, 'select "Product"'), option="toaster")
    web.ok("browser_type", index=_index(text, 'number field "Quantity"'), text="2")
    web.ok("browser_type", index=_index(text, 'text field "Name"'), text="Ann Lee")
    web.ok("browser_type", index=_index(text, 'text area "Delivery address"'), text="1 Main St")
    text = web.ok("browser_click", index=_index(text, 'radio "express"'))["text"]
    assert 'radio "express" (checked)' in text and 'select "Product" = "Toaster"' in text
    done = web.ok("browser_submit")
    assert "your order was placed" in done["text"]
    subs = web.get("site_submissions", {"host": "shop.test", "form": "order"})
    assert subs[-1]["fields"] == {
        "product": "Toaster",
        "quantity": "2",
        "name": "Ann Lee",
        "address": "1 Main St",
        "delivery": "express",
    }
    assert web.check(
        "form_submitted", host="shop.test", form="order", fields={"product": "toaster", "quantity": "2"}
    ).passed
    assert not web.check("form_submitted", host="shop.test", form="order", fields={"quantity": "3"}).passed


def test_verification_code_is_checked_by_the_site(web: Desktop) -> None:
    text = web.ok("browser_open", url="http://shop.test/verify")["text"]
    web.ok("browser_type", index=_index(text, '"Email"'), text="a@b.test")
    web.ok("browser_type", index=_index(text, '"Verification code"'), text="000000")
    wrong = web.act("browser_click", index=_index(text, 'button "Verify"'))
    assert wrong.ok and "incorrect" in wrong.data["text"]
    assert not web.check("form_submitted", host="shop.test", form="verification").passed
    assert web.check("form_submitted", host="shop.test", form="verification", accepted=False).passed
    text = wrong.data["text"]
    web.ok("browser_type", index=_index(text, '"Email"'), text="a@b.test")
    web.ok("browser_type", index=_index(text, '"Verification code"'), text="483920")
    ok = web.ok("browser_submit", index=_index(text, '"Verification code"'))
    assert "verified" in ok["text"]
    assert web.check(
        "form_submitted", host="shop.test", form="verification", fields={"code": "483920"}
    ).passed


def test_only_task_sites_are_reachable(web: Desktop) -> None:
    for url in ("http://example.com/", "https://1.1.1.1/", "file:///etc/passwd", "other.test"):
        r = web.act("browser_open", url=url)
        assert not r.ok and r.error_code == "NETWORK_BLOCKED" and "shop.test" in r.message, url
    page = web.ok("browser_open", url="http://shop.test/missing")
    assert page["title"] == "Not found"


def test_bad_element_indices_fail_cleanly(web: Desktop) -> None:
    assert web.act("browser_read").error_code == "NO_PAGE"
    text = web.ok("browser_open", url="http://shop.test/feedback")["text"]
    assert web.act("browser_click", index=99).error_code == "STALE_ELEMENT"
    assert (
        web.act("browser_type", index=_index(text, 'select "Topic"'), text="x").error_code == "NOT_EDITABLE"
    )
    r = web.act("browser_select", index=_index(text, 'select "Topic"'), option="weather")
    assert r.error_code == "NO_SUCH_OPTION" and "website" in r.message


def test_backends_show_the_same_page(tmp_path: Path) -> None:
    require_bwrap()
    require_chromium()
    shared: dict[str, object] = {}
    a = Desktop(tmp_path, "linux_0", shared, {"browser": "builtin"})
    b = Desktop(tmp_path, "linux_1", shared, {"browser": "chromium"})
    try:
        a.setup("add_site", site=_shop())
        for path in ("/", "/order", "/products", "/feedback"):
            ta = a.ok("browser_open", url=f"http://shop.test{path}")["text"]
            tb = b.ok("browser_open", url=f"http://shop.test{path}")["text"]
            assert ta == tb, path
        assert len(a.get("site_visits", {"host": "shop.test"})) == 8
    finally:
        a.close()
        b.close()
    assert "linux_sites" in shared


def test_sandbox_cannot_reach_the_sites(web: Desktop) -> None:
    port = web.device.sites.port
    out = web.sh(
        f"python3 -c \"import urllib.request as u; u.urlopen('http://127.0.0.1:{port}/', timeout=2)\" 2>&1 | tail -1"
    )
    assert "refused" in out["stdout"].lower() or "error" in out["stdout"].lower()


def test_chromium_failure_falls_back_or_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_bwrap()
    from devicesworld.devices.linux import browser as browser_pkg

    def broken(sites: object) -> None:
        raise RuntimeError("libfoo.so missing")

    monkeypatch.setattr(browser_pkg, "ChromiumBrowser", broken)
    monkeypatch.setattr(browser_pkg, "chromium_path", lambda: "/usr/bin/chromium")
    auto = Desktop(tmp_path, "linux_0", profile={"browser": "auto"})
    forced = Desktop(tmp_path, "linux_1", profile={"browser": "chromium"})
    try:
        auto.setup("add_site", site=_shop())
        monkeypatch.delenv("DEVICESWORLD_BROWSER", raising=False)
        assert auto.ok("browser_open", url="http://shop.test/")["title"].startswith("Corner Shop")
        assert auto.device.browser().backend == "builtin"
        r = forced.act("browser_open", url="http://shop.test/")
        assert not r.ok and r.error_code == "NO_BROWSER" and "libfoo" in r.message
    finally:
        auto.close()
        forced.close()

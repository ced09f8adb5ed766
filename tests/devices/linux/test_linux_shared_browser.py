"""One Chromium per process: devices get isolated contexts, a lost browser is relaunched, threads are safe."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

from devicesworld.devices.linux.browser.chromium import ChromiumBrowser
from devicesworld.devices.linux.sites import presets
from tests.devices.linux.linux_harness import Desktop, require_bwrap, require_chromium


def _desk(root: Path, device_id: str, host: str) -> Desktop:
    d = Desktop(root, device_id, profile={"browser": "chromium"})
    d.setup("add_site", site=presets.site(host, f"Site {host}", [presets.feedback_page()]).model_dump())
    return d


def _chromium(d: Desktop) -> ChromiumBrowser:
    browser = d.device.browser()
    assert isinstance(browser, ChromiumBrowser)
    return browser


def test_devices_share_one_browser_with_isolated_contexts(tmp_path: Path) -> None:
    require_bwrap()
    require_chromium()
    a = _desk(tmp_path / "a", "linux_0", "one.test")
    b = _desk(tmp_path / "b", "linux_0", "two.test")
    try:
        a.ok("browser_open", url="http://one.test/")
        b.ok("browser_open", url="http://two.test/")
        ca, cb = _chromium(a), _chromium(b)
        assert ca._shared is cb._shared
        launches = ca._shared.launches
        assert ca._ctx is not cb._ctx
        # Storage and cookies set in one episode are invisible to the other.
        ca._call(lambda: ca._page.evaluate("document.cookie = 'who=a'; localStorage.setItem('k', 'a')"))
        assert cb._call(lambda: cb._page.evaluate("document.cookie")) == ""
        assert cb._call(lambda: cb._page.evaluate("localStorage.getItem('k')")) is None
        # Each context reaches only its own task's sites.
        assert b.act("browser_open", url="http://one.test/").ok is False
        assert a.check("page_visited", host="one.test", path="/").passed
        assert not b.check("page_visited", host="one.test", path="/").passed
    finally:
        a.close()
        b.close()
    c = _desk(tmp_path / "c", "linux_0", "three.test")
    try:
        assert "Site three.test" in c.ok("browser_open", url="http://three.test/")["title"]
        assert _chromium(c)._shared.launches == launches, "a new device must not launch a new browser"
    finally:
        c.close()


def test_a_closed_shared_browser_is_relaunched(tmp_path: Path) -> None:
    require_bwrap()
    require_chromium()
    a = _desk(tmp_path / "a", "linux_0", "one.test")
    try:
        a.ok("browser_open", url="http://one.test/")
        shared = _chromium(a)._shared
        before = shared.launches
        shared.call(lambda: shared.browser().close())  # as if Chromium crashed
        r = a.act("browser_read")
        assert not r.ok and r.error_code == "BROWSER_RESTARTED"
        assert a.device.observe()["browser"] is None
        assert a.ok("browser_open", url="http://one.test/feedback")["url"] == "http://one.test/feedback"
        assert shared.launches == before + 1
    finally:
        a.close()
    later = _desk(tmp_path / "later", "linux_0", "two.test")
    try:
        assert later.ok("browser_open", url="http://two.test/")["url"] == "http://two.test/"
    finally:
        later.close()


def test_devices_used_from_several_threads(tmp_path: Path) -> None:
    """Pre-warming and the episode loop call from different threads; every call lands on one thread."""
    require_bwrap()
    require_chromium()
    desks = [_desk(tmp_path / f"d{i}", "linux_0", f"t{i}.test") for i in range(3)]
    errors: list[str] = []

    def drive(i: int) -> None:
        try:
            for _ in range(3):
                page = desks[i].ok("browser_open", url=f"http://t{i}.test/feedback")
                assert page["url"] == f"http://t{i}.test/feedback"
        except AssertionError as exc:
            errors.append(f"{i}: {exc}")

    threads = [threading.Thread(target=drive, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == []
        assert all(len(d.get("site_visits", {})) == 3 for d in desks)
    finally:
        for d in desks:
            d.close()


def _children(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of the processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append((int(entry.name), cmd))
    return out


def test_a_killed_browser_is_relaunched(tmp_path: Path) -> None:
    """A real crash (SIGKILL of the browser process): the episode is told, later ones just work."""
    require_bwrap()
    require_chromium()
    a = _desk(tmp_path / "a", "linux_0", "one.test")
    try:
        a.ok("browser_open", url="http://one.test/")
        shared = _chromium(a)._shared
        before = shared.launches
        drivers = [pid for pid, cmd in _children(os.getpid()) if "playwright" in cmd]
        browsers = [pid for d in drivers for pid, cmd in _children(d) if "chromium" in cmd]
        assert browsers, "the browser process was not found"
        for pid in browsers:
            os.kill(pid, signal.SIGKILL)
        codes = [a.act("browser_read").error_code for _ in range(2)]
        assert "BROWSER_RESTARTED" in codes, codes
        assert a.ok("browser_open", url="http://one.test/feedback")["url"] == "http://one.test/feedback"
        assert shared.launches == before + 1
    finally:
        a.close()
    later = _desk(tmp_path / "later", "linux_0", "two.test")
    try:
        assert later.ok("browser_open", url="http://two.test/")["url"] == "http://two.test/"
    finally:
        later.close()

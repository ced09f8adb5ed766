"""Linux devices through the real controller: reset, observe, screenshots, cleanup, fallback sandbox."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from devicesworld.devices.linux.sandbox import Sandbox
from devicesworld.devices.linux.sites import presets
from devicesworld.env import CrossDeviceEnv
from devicesworld.spec.models import Condition, DeviceOp, DeviceSpec, Evaluation, Task
from tests.devices.linux.linux_harness import Desktop, require_bwrap


def _task() -> Task:
    site = presets.site("news.test", "Daily News", [presets.policy_page("Privacy", ["We keep nothing."])])
    return Task(
        id="lx-env",
        instruction="Read the privacy page.",
        devices=[
            DeviceSpec(id="linux_0", kind="linux", profile={"browser": "builtin"}),
            DeviceSpec(id="linux_1", kind="linux"),
        ],
        setup=[
            DeviceOp(device="linux_0", op="add_site", args={"site": site.model_dump()}),
            DeviceOp(
                device="linux_0",
                op="write_text",
                args={"path": "~/Drive/shared.txt", "content": "on the drive"},
            ),
        ],
        evaluation=Evaluation(
            conditions=[
                Condition(
                    id="seen",
                    device="linux_0",
                    check="page_visited",
                    args={"host": "news.test", "path": "/policy"},
                )
            ]
        ),
    )


def _site_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "dw-sites")


def test_episode_through_the_controller_leaves_nothing(tmp_path: Path) -> None:
    require_bwrap()
    before = _site_threads()
    env = CrossDeviceEnv(_task())
    obs = env.reset()
    assert obs["linux_0"]["kind"] == "linux" and obs["linux_0"]["sites"] == ["http://news.test/"]
    assert obs["linux_1"]["hostname"] == "linux-1"
    workdir = env._workdir
    assert workdir is not None and workdir.exists()
    assert (
        env.step(
            {"device": "linux_1", "action": "read_file", "args": {"path": "~/Drive/shared.txt"}}
        ).result.data
        == "on the drive"
    )
    assert env.screenshots() == {}
    out = env.step(
        {"device": "linux_0", "action": "browser_open", "args": {"url": "http://news.test/policy"}}
    )
    assert out.result.ok and "We keep nothing." in out.result.data["text"]
    assert set(env.screenshots()) == {"linux_0"}
    bad = env.step({"device": "linux_0", "action": "browser_click", "args": {"index": "first"}})
    assert not bad.result.ok and bad.result.error_code == "INVALID_ARGS"
    assert env.evaluate().success
    env.reset()  # a second reset starts clean
    assert not env.evaluate().success
    env.close()
    assert not workdir.exists() and env.cleanup_errors == []
    assert _site_threads() == before


def test_fallback_device_works_without_bwrap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("devicesworld.devices.linux.sandbox.bwrap_path", lambda: None)
    d = Desktop(tmp_path)
    try:
        assert d.device.observe()["sandbox"].startswith("process (NOT isolated")
        d.ok("write_file", path="~/Drive/x.txt", content="hello")
        assert d.sh("cat ~/Drive/x.txt")["stdout"] == "hello"
        d.sh("mkdir -p a/b && cd a/b")
        assert d.device.sandbox.cwd == "/home/user/a/b"
        d.ok("write_file", path="rel.txt", content="r")
        assert d.get("text", {"path": "~/a/b/rel.txt"}) == "r"
        assert d.get("drive") == ["x.txt"]
    finally:
        d.close()
    assert not d.context.workdir.exists()
    assert (tmp_path / "_shared_drive" / "x.txt").exists()  # the drive belongs to the task, not the device


def test_sandbox_paths_map_both_ways(tmp_path: Path) -> None:
    sb = Sandbox(tmp_path / "dev", drive=tmp_path / "drive", use_bwrap=False)
    (tmp_path / "drive").mkdir(exist_ok=True)
    assert sb.to_host("~/a.txt") == tmp_path / "dev" / "home" / "a.txt"
    assert sb.to_host("/tmp/x") == tmp_path / "dev" / "tmp" / "x"
    assert sb.to_host("~/Drive/r.txt") == tmp_path / "drive" / "r.txt"
    assert sb.to_host("/home/user/../user/./b") == tmp_path / "dev" / "home" / "b"
    assert sb.from_host(tmp_path / "dev" / "home" / "q") == "/home/user/q"
    for bad in ("/etc/passwd", "/home/other/x", "/"):
        with pytest.raises(PermissionError):
            sb.to_host(bad)
    sb.close()

"""The sandbox holds: no host files, no network, no other device, nothing left after cleanup."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from devicesworld.devices.linux.sandbox import Sandbox, truncate
from tests.devices.linux.linux_harness import Desktop, require_bwrap


def test_commands_run_as_user_in_home(desk: Desktop) -> None:
    out = desk.sh("id -un; pwd; hostname; echo $HOME")
    assert out["stdout"].split() == ["user", "/home/user", "linux-0", "/home/user"]
    assert out["exit_code"] == 0


def test_cannot_read_host_files_outside_home(desk: Desktop, tmp_path: Path) -> None:
    secret = tmp_path / f"secret-{uuid.uuid4().hex}.txt"
    secret.write_text("TOP-SECRET")
    out = desk.sh(f"cat {secret}; cat /etc/shadow; ls /root; ls /work /srv /var 2>&1 | head -3")
    assert "TOP-SECRET" not in out["stdout"]
    assert out["stderr"].count("No such file") >= 3
    # /usr is visible but read-only
    bad = desk.sh("touch /usr/dw-test 2>&1; echo $?")
    assert bad["stdout"].strip().splitlines()[-1] != "0"
    assert not Path("/usr/dw-test").exists()


def test_file_actions_cannot_escape_home(desk: Desktop, tmp_path: Path) -> None:
    (tmp_path / "host.txt").write_text("host")
    for path in ("/etc/passwd", "../../../../etc/hostname", str(tmp_path / "host.txt")):
        r = desk.act("read_file", path=path)
        assert not r.ok and r.error_code in ("PERMISSION_DENIED", "NOT_FOUND"), (path, r)
    desk.sh(f"ln -s {tmp_path / 'host.txt'} ~/link.txt; ln -s /etc/hostname ~/h")
    for path in ("~/link.txt", "~/h"):
        r = desk.act("read_file", path=path)
        assert not r.ok and r.error_code == "PERMISSION_DENIED", r.message


def test_host_processes_are_invisible(desk: Desktop) -> None:
    out = desk.sh("ls /proc | grep -c '^[0-9]'; ps -e 2>/dev/null | wc -l")
    visible = int(out["stdout"].split()[0])
    assert visible < 8, out  # bwrap's init, bash and its children only


def test_no_network(desk: Desktop) -> None:
    code = (
        "import socket\n"
        "for host, port in [('1.1.1.1', 53), ('8.8.8.8', 443)]:\n"
        "    try:\n"
        "        socket.create_connection((host, port), timeout=2)\n"
        "        print('CONNECTED')\n"
        "    except OSError as e:\n"
        "        print('blocked', e.errno)\n"
    )
    desk.setup("write_text", path="~/net.py", content=code)
    out = desk.sh("python3 net.py; cat /sys/class/net/*/address 2>/dev/null | wc -l")
    assert "CONNECTED" not in out["stdout"]
    assert out["stdout"].count("blocked") == 2


def test_two_devices_are_separate_machines(tmp_path: Path) -> None:
    require_bwrap()
    shared: dict[str, object] = {}
    a, b = Desktop(tmp_path, "linux_0", shared), Desktop(tmp_path, "linux_1", shared)
    try:
        a.setup("write_text", path="~/only-a.txt", content="A's file")
        assert a.sh("cat only-a.txt")["stdout"] == "A's file"
        out = b.sh(f"cat ~/only-a.txt; ls {tmp_path}; find / -name only-a.txt 2>/dev/null")
        assert "A's file" not in out["stdout"] and "only-a.txt" not in out["stdout"]
        assert a.sh("hostname")["stdout"].strip() != b.sh("hostname")["stdout"].strip()
        # but both see the shared drive
        a.sh("echo shared > ~/Drive/note.txt")
        assert b.sh("cat ~/Drive/note.txt")["stdout"].strip() == "shared"
        assert b.get("drive") == ["note.txt"]
    finally:
        a.close()
        b.close()


def _processes_with(marker: str) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline:
                pids.append(int(entry))
    return pids


def test_no_process_or_file_left_after_cleanup(tmp_path: Path) -> None:
    require_bwrap()
    d = Desktop(tmp_path)
    marker = f"dw{uuid.uuid4().hex[:8]}"
    d.sh(
        f"(exec -a {marker} sleep 300) & nohup bash -c 'exec -a {marker}x sleep 300' >/dev/null 2>&1 & echo started"
    )
    d.sh("mkdir -p deep/er && echo x > deep/er/f.txt")
    assert _processes_with(marker) == []  # background jobs die with their command
    root = d.context.workdir
    assert any(d.device.sandbox.paths.home.rglob("f.txt"))
    d.close()
    assert not root.exists()
    assert _processes_with(marker) == []
    r = d.act("run_command", command="true")
    assert not r.ok


def test_timeout_kills_the_command(desk: Desktop) -> None:
    r = desk.act("run_command", command="echo before; sleep 30", timeout_s=3)  # room for a slow start
    assert not r.ok and r.error_code == "TIMEOUT"
    assert "before" in r.data["stdout"] and "timed out" in r.data["stderr"]


def test_long_output_is_truncated_with_a_note(desk: Desktop) -> None:
    r = desk.act("run_command", command="seq 1 50000")
    assert r.ok and "truncated" in r.message
    assert "truncated" in r.data["stdout"]
    assert r.data["stdout"].rstrip().endswith("50000")


def test_endless_output_is_bounded(desk: Desktop) -> None:
    r = desk.act("run_command", command="yes hello", timeout_s=1.0)
    assert not r.ok and r.error_code == "TIMEOUT"
    out = r.data["stdout"]
    assert len(out) < 10_000 and out.startswith("hello\nhello") and "output truncated" in out
    big = desk.sh("head -c 3000000 /dev/zero | tr '\\0' 'a'; echo; echo END")
    assert big["stdout"].rstrip().endswith("END") and "bytes in all" in big["stdout"]


def test_cwd_carries_over_between_commands(desk: Desktop) -> None:
    desk.sh("mkdir -p work/sub && cd work/sub")
    assert desk.sh("pwd")["stdout"].strip() == "/home/user/work/sub"
    assert desk.device.observe()["cwd"] == "/home/user/work/sub"
    desk.ok("write_file", path="rel.txt", content="here")
    assert desk.get("text", {"path": "~/work/sub/rel.txt"}) == "here"


def test_unusable_bwrap_falls_back_with_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An installed bwrap that cannot make namespaces; neither is real, so this runs anywhere.
    monkeypatch.setattr("devicesworld.devices.linux.sandbox.bwrap_path", lambda: "/opt/fake/bwrap")
    monkeypatch.setattr(
        "devicesworld.devices.linux.sandbox.bwrap_problem",
        lambda path: "No permissions to creating new namespace",
    )
    monkeypatch.setattr("devicesworld.devices.linux.sandbox._WARNED", set())
    with pytest.raises(RuntimeError, match="namespace"):
        Sandbox(tmp_path / "a", use_bwrap=True)
    with caplog_of("devicesworld.devices.linux.sandbox") as records:
        sb = Sandbox(tmp_path / "b")
    assert not sb.isolated and sb.run("echo ok").stdout == "ok\n"
    assert any("namespace" in r.getMessage() for r in records)


def test_truncate_keeps_head_and_tail() -> None:
    text, cut = truncate("a" * 100 + "b" * 100, 40)
    assert cut and text.startswith("a") and text.endswith("b")
    assert "[cut: 160 of 200 characters not shown;" in text  # the cut says what it cut and how to see more
    assert truncate("short", 40) == ("short", False)


def test_fallback_sandbox_still_runs(tmp_path: Path) -> None:
    sb = Sandbox(tmp_path / "dev", use_bwrap=False)
    assert not sb.isolated
    r = sb.run("echo $HOME; pwd")
    assert r.exit_code == 0 and str(tmp_path / "dev" / "home") in r.stdout
    r = sb.run("mkdir d && cd d")
    assert sb.cwd == "/home/user/d"
    sb.close()
    assert not (tmp_path / "dev").exists()


def test_the_bwrap_override_picks_the_binary_or_hides_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from devicesworld.devices.linux.sandbox import BWRAP_ENV, bwrap_path

    monkeypatch.setenv(BWRAP_ENV, "/nonexistent/bwrap")
    assert bwrap_path() is None
    monkeypatch.setenv(BWRAP_ENV, "/bin/sh")  # any executable: the override is taken as given
    assert bwrap_path() == "/bin/sh"


def test_missing_bwrap_is_a_clear_error_when_required(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("devicesworld.devices.linux.sandbox.bwrap_path", lambda: None)
    monkeypatch.setattr("devicesworld.devices.linux.sandbox._WARNED", set())
    with pytest.raises(RuntimeError, match="bubblewrap"):
        Sandbox(tmp_path / "x", use_bwrap=True)
    with caplog_of("devicesworld.devices.linux.sandbox") as records:
        sb = Sandbox(tmp_path / "y")
    assert not sb.isolated and any("NOT isolate" in r.getMessage() for r in records)


def test_the_fallback_warning_is_logged_once_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("devicesworld.devices.linux.sandbox.bwrap_path", lambda: None)
    monkeypatch.setattr("devicesworld.devices.linux.sandbox._WARNED", set())
    with caplog_of("devicesworld.devices.linux.sandbox") as records:
        boxes = [Sandbox(tmp_path / f"d{i}") for i in range(3)]
    assert len(records) == 1 and "NOT isolate" in records[0].getMessage()
    for box in boxes:
        box.close()


class caplog_of:
    """A tiny log capture usable alongside monkeypatch."""

    def __init__(self, name: str) -> None:
        import logging

        self.logger = logging.getLogger(name)
        self.records: list[object] = []

        class _H(logging.Handler):
            def emit(h, record: logging.LogRecord) -> None:
                self.records.append(record)

        self.handler = _H()

    def __enter__(self) -> list:  # type: ignore[type-arg]
        self.logger.addHandler(self.handler)
        return self.records

    def __exit__(self, *exc: object) -> None:
        self.logger.removeHandler(self.handler)

"""Hostile-agent probes from a Windows PC's cmd: limits end in RESOURCE_LIMIT (or a capped result),
the device keeps answering, nothing outlives its command, and Wine's Unix side is out of reach.

One device is shared by the module (a Wine desktop takes seconds to start)."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import pytest

from devicesworld.devices.base import ActionResult, DeviceContext, VirtualClock, get_kind
from devicesworld.devices.windows.device import WindowsDevice
from tests.devices.windows.windows_harness import require_windows_stack


class _Pc:
    def __init__(self, root: Path) -> None:
        kind = get_kind("windows")
        assert kind is not None
        self.kind = kind
        for folder in (root, *root.parents):
            if folder.stat().st_uid == 0:
                folder.chmod(folder.stat().st_mode | 0o001)
        ctx = DeviceContext(
            task_id="t", clock=VirtualClock(datetime(2026, 3, 2, 9)), workdir=root / "windows_0"
        )
        self.dev = cast(WindowsDevice, kind.factory("windows_0", {"desktop": "hybrid"}, ctx))

    def act(self, action: str, **args: Any) -> ActionResult:
        return self.dev.act(action, self.kind.actions_for({"desktop": "hybrid"})[action].parse_args(args))

    def cmd(self, command: str, timeout_s: float = 120) -> ActionResult:
        return self.act("run_command", command=command, timeout_s=timeout_s)

    def answers(self) -> None:
        """The device answers the next step normally."""
        r = self.cmd("echo still-here")
        assert r.ok and "still-here" in str(r.data["stdout"]), r


@pytest.fixture(scope="module")
def pc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Pc]:
    require_windows_stack()
    p = _Pc(tmp_path_factory.mktemp("winescape"))
    try:
        yield p
    finally:
        p.dev.close()


def _is_limit(r: ActionResult, name: str) -> bool:
    return not r.ok and r.error_code == "RESOURCE_LIMIT" and name in r.message


def test_start_unix_cannot_run_a_linux_program(pc: _Pc) -> None:
    r = pc.cmd('start /wait /unix /bin/sh -c "echo escaped > /home/user/escaped.txt"')
    assert "escaped" not in str(r.data["stdout"])
    assert not pc.cmd("type C:\\users\\user\\..\\..\\..\\..\\home\\user\\escaped.txt").data["stdout"]
    assert not (pc.dev.home / "escaped.txt").exists()
    pc.answers()


def test_the_unix_namespace_does_not_map_the_sandbox(pc: _Pc) -> None:
    listing = pc.cmd("dir \\\\?\\unix\\")
    assert "opt" not in str(listing.data["stdout"]) and "usr" not in str(listing.data["stdout"]), listing
    ctl = pc.cmd("type \\\\?\\unix\\opt\\dw\\ctl.py")
    assert "def main" not in str(ctl.data["stdout"]), ctl
    pc.answers()


@pytest.mark.parametrize(
    "path",
    [
        "etc\\passwd",
        "etc\\hostname",
        "usr\\share\\common-licenses\\GPL-3",
        "usr\\bin\\..\\share\\common-licenses\\GPL-3",
        "proc\\self\\status",
        "proc\\cpuinfo",
        "proc\\1\\cmdline",
    ],
)
def test_the_linux_files_are_not_readable_through_the_unix_namespace(pc: _Pc, path: str) -> None:
    # Wine's server opens every file for its clients: its fence (only what Wine uses of /usr and
    # /etc) and its namespace (an empty /proc) decide, whatever the Windows program
    r = pc.cmd(f"type \\\\?\\unix\\{path}\necho rc=%errorlevel%")
    out = str(r.data["stdout"])
    assert out.strip().startswith("rc=") and "\n" not in out.strip(), r  # nothing printed but the code
    got = str(pc.cmd(_script("read.js", _read_js(path))).data["stdout"])
    assert "refused" in got and "read " not in got, got


def _read_js(path: str) -> str:
    """JScript that reads ``\\\\?\\unix\\<path>`` with the FileSystemObject and says what it got."""
    return (
        'try { var f = new ActiveXObject("Scripting.FileSystemObject").OpenTextFile("\\\\\\\\?\\\\unix\\\\'
        + path.replace("\\", "\\\\")
        + '"); WScript.Echo("read " + f.ReadAll().length); } catch (e) { WScript.Echo("refused " + e.number); }'
    )


def test_the_read_probe_reads_what_wine_itself_needs(pc: _Pc) -> None:
    # the control for the probes above: the same script reads Wine's own data through the namespace
    got = str(pc.cmd(_script("ok.js", _read_js("usr\\share\\wine\\wine.inf"))).data["stdout"])
    assert "read " in got, got


def _ran(pc: _Pc, command: str) -> str:
    """``command``'s output once it ran to its end: the line ``rc=<code>`` it ends with printed. A
    run that did not get there (Wine's ``cmd`` stalled or failed to start, seen once in a loaded CI
    run: nothing printed at all) is reported as a warning with its whole result and run once more,
    so a stall of the harness is told apart from what the namespace shows."""
    line = f"{command}\necho rc=%errorlevel%"
    r = pc.cmd(line, timeout_s=300)
    if not (r.ok and "rc=" in str(r.data["stdout"])):
        warnings.warn(f"cmd did not run to its end, running it again: {r!r}", stacklevel=2)
        r = pc.cmd(line, timeout_s=300)
    assert r.ok and "rc=" in str(r.data["stdout"]), r
    return str(r.data["stdout"])


def test_the_unix_namespace_lists_nothing_of_the_system(pc: _Pc) -> None:
    for folder in ("usr", "usr\\share", "etc", "proc"):
        out = _ran(pc, f"dir /b \\\\?\\unix\\{folder}")
        assert out.strip().startswith("rc=") and "\n" not in out.strip(), (folder, out)  # nothing listed
    # the device itself still reads what Wine needs and the PC's own files
    assert "hi" in _ran(pc, "echo hi> C:\\users\\user\\t.txt\ntype C:\\users\\user\\t.txt")
    pc.answers()


def _script(name: str, js: str) -> str:
    """A cmd line that writes JScript ``js`` (one line) to ``name`` and runs it with Wine's cscript."""
    return f"echo {js.replace('<', '^<')} > {name}\ncscript //nologo {name}\necho rc=%errorlevel%"


def test_a_2_gib_allocation_is_refused_and_the_pc_answers(pc: _Pc) -> None:
    # a JScript string doubled up to 2^30 UTF-16 units (2 GiB): Wine's script engine really
    # allocates it, and the command's private-memory limit (RLIMIT_DATA, 1 GiB) refuses it
    assert pc.dev.desktop.config.limits.memory_mb < 2048
    js = (
        'try { var s = "xxxxxxxxxxxxxxxx"; for (var i = 0; i < 26; i++) s = s + s; WScript.Echo("got " + s.length); }'
        ' catch (e) { WScript.Echo("refused " + e.number); WScript.Quit(3); }'
    )
    r = pc.cmd(_script("alloc.js", js))
    out = str(r.data["stdout"])
    assert "got " not in out, r
    assert "refused -2147024882" in out, r  # E_OUTOFMEMORY: a capped result, not the host's memory
    small = js.replace("i < 26", "i < 4")  # the same script within the limit works
    assert "got 256" in str(pc.cmd(_script("small.js", small)).data["stdout"])
    pc.answers()


def test_1000_processes_are_a_resource_limit(pc: _Pc) -> None:
    # each ping lives far longer than the loop needs, so the tree only grows until fork fails; then
    # the loop's remaining starts fail at once and the command ends by itself (no speed assumed)
    r = pc.cmd("for /l %%i in (1,1,1000) do @start /b ping -n 3600 127.0.0.1 >nul", timeout_s=300)
    assert _is_limit(r, "processes"), r
    pc.answers()


def test_a_2_gb_file_stops_at_the_file_limit(pc: _Pc) -> None:
    # 2,048 writes of 1 MiB through the FileSystemObject: the file stops at the file-size limit
    js = (
        'var fso = new ActiveXObject("Scripting.FileSystemObject");'
        ' var f = fso.CreateTextFile("C:\\\\users\\\\user\\\\big.txt", true);'
        ' var s = "x"; for (var i = 0; i < 20; i++) s = s + s;'
        " for (var j = 0; j < 2048; j++) f.Write(s); f.Close();"
    )
    r = pc.cmd(_script("write.js", js), timeout_s=240)
    big = pc.dev.home / ".wine/drive_c/users/user/big.txt"
    limit = pc.dev.desktop.config.limits.file_mb << 20
    assert big.is_file() and 0 < big.stat().st_size <= limit, r
    assert r.ok or r.error_code == "RESOURCE_LIMIT", r
    pc.cmd("del C:\\users\\user\\big.txt")
    assert not big.exists()
    pc.answers()


def test_150_mb_of_output_is_capped_and_the_pc_answers(pc: _Pc) -> None:
    # a 6,400-character line printed 23,000 times: ~150 MB through cmd's echo (the command is a
    # batch file, so its loop variables are %%i)
    line = "x" * 100
    script = f"set s={line}\nfor /l %%i in (1,1,6) do @call set s=%%s%%%%s%%\nfor /l %%i in (1,1,23000) do @echo %s%"
    r = pc.cmd(script, timeout_s=300)
    out = str(r.data["stdout"])
    assert r.ok and "output cut" in r.message, r
    assert len(out) < 20_000 and out.startswith("x" * 5000), len(out)
    cut = int(r.message.split("output cut: ")[1].split(" bytes")[0].replace(",", ""))
    assert cut > 140_000_000, r.message
    pc.answers()


def test_a_cold_started_pc_has_a_sized_home(pc: _Pc) -> None:
    if pc.dev.spare is not None:
        pytest.skip("this device adopted a pooled spare (sized by the pool)")
    if pc.dev.home_mount is None:
        pytest.skip(f"no sized home on this host: {pc.dev.home_problem}")
    r = pc.cmd('dir C:\\users\\user | find "bytes free"')
    free = int(str(r.data["stdout"]).split("directories")[1].split("bytes")[0].replace(",", ""))
    assert free <= pc.dev.desktop.config.limits.home_bytes, r
    pc.answers()


def test_a_started_program_does_not_outlive_its_command(pc: _Pc) -> None:
    assert pc.cmd("start notepad & echo started").ok
    titles = [w["title"] for w in pc.dev.observe()["windows"]]
    assert not any("Notepad" in t for t in titles), titles
    pc.answers()


def test_a_window_the_agent_started_does_not_count_for_window_title(pc: _Pc) -> None:
    # a window from the agent's cmd lives only while its command runs: even then it is not launched
    r = pc.dev.desktop.windows()
    assert all(w.launched for w in r if w.mapped)
    got = pc.dev.get("windows", pc.kind.getters["windows"].parse_args({}))
    assert isinstance(got, list)


def _check(pc: _Pc, name: str, **args: Any) -> Any:
    spec = pc.kind.checks[name]
    return spec.fn(lambda g, a: pc.dev.get(g, pc.kind.getters[g].parse_args(a)), spec.parse_args(args))


def test_a_title_or_text_forged_in_the_launched_cmd_window_does_not_count(pc: _Pc) -> None:
    # the console the device launched stays open (its cmd alive) while the checks run: the agent
    # sets its title with ``title`` and echoes the text a check looks for
    assert pc.act("launch_app", app="cmd").ok
    assert pc.act("type_text", text="title todo.txt - Notepad\necho FORGED-VALUE-7731\n").ok
    end = time.monotonic() + 60
    while time.monotonic() < end and not any(
        w.mapped and "todo.txt - Notepad" in w.title for w in pc.dev.desktop.windows()
    ):
        time.sleep(0.5)
    assert any(w.mapped and "todo.txt - Notepad" in w.title for w in pc.dev.desktop.windows())
    title = _check(pc, "window_title", contains="todo.txt - Notepad")
    assert not title.passed, title.detail
    text = _check(pc, "element_text", contains="FORGED-VALUE-7731")
    assert not text.passed, text.detail
    pc.answers()

"""type_text types any Unicode into Wine apps: non-Latin-1 text goes through the helper (SendInput), ASCII through XTest."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from devicesworld.devices.base import DeviceContext, VirtualClock, get_kind
from devicesworld.devices.windows.device import WindowsDevice
from devicesworld.devices.windows.session import KEYMAP_SAFE
from tests.devices.windows.windows_harness import require_windows_stack

PATH = r"C:\Users\user\Documents\unicode.txt"
TEXT = "✓ Ω € 中文 ß 😀\nzweite Zeile: naïve — «ok»"


def test_the_keymap_safe_set_is_ascii_and_the_prebound_letters() -> None:
    assert set("Hello, world!\n\t~") <= KEYMAP_SAFE and set("Zürich café ß") <= KEYMAP_SAFE
    assert not {"✓", "Ω", "€", "中", "—"} & KEYMAP_SAFE


def _pick(obs: dict[str, Any], role: str, name: str | None = None) -> int:
    found = [e["index"] for e in obs["elements"] if e["role"] == role and (name is None or e["name"] == name)]
    assert found, [(e["role"], e["name"]) for e in obs["elements"]]
    return int(found[0])


def test_notepad_gets_any_unicode_and_saves_it_as_utf8(tmp_path: Path) -> None:
    require_windows_stack()
    kind = get_kind("windows")
    assert kind is not None
    for folder in (tmp_path, *tmp_path.parents):
        if folder.stat().st_uid == 0:
            folder.chmod(folder.stat().st_mode | 0o001)
    ctx = DeviceContext(task_id="t", clock=VirtualClock(datetime(2026, 3, 2, 9)), workdir=tmp_path / "w")
    dev = kind.factory("windows_0", {}, ctx)
    assert isinstance(dev, WindowsDevice)

    def act(action: str, **args: Any) -> None:
        r = dev.act(action, kind.actions[action].parse_args(args))
        assert r.ok, (action, r.message)

    try:
        act("launch_app", app="notepad")
        act("type_text", text="plain ")
        assert dev.session.helper_typed == 0  # ASCII stays on XTest
        act("type_text", text=TEXT)
        assert dev.session.helper_typed == 1
        edit = next(e for e in dev.observe()["elements"] if e["role"] == "Edit" and e["app"] == "notepad")
        assert edit["text"] == "plain " + TEXT.replace("\n", "\r\n")
        # save as UTF-8: ctrl+s, the Save As dialog's encoding box to its last entry (UTF-8), the path
        act("hotkey", keys=["ctrl", "s"])
        act("wait", seconds=1.0)
        act("click", element=_pick(dev.observe(), "ComboBox", "ANSI Latin 1"))
        act("hotkey", keys=["End"])
        act("hotkey", keys=["Return"])
        act("click", element=_pick(dev.observe(), "Edit"))
        act("hotkey", keys=["ctrl", "a"])
        act("type_text", text=PATH)
        act("click", element=_pick(dev.observe(), "Button", "&Save"))
        assert dev.get("text", kind.getters["text"].parse_args({"path": PATH})) == "plain " + TEXT
    finally:
        dev.close()

"""The template home every Linux GUI device's home is copied from.

Why: LibreOffice creates its user profile on the first start (113 files, 2-3 s quiet,
15 s loaded, 3 CPU-s), and GUI agents must not see first-start dialogs. The template is
made once per machine — a desktop is started on an empty home, Writer is opened and quit
so its profile is written — then a few settings are fixed so that replays are
deterministic and the first window is the app itself:

* LibreOffice: no tip of the day, no "keep current format" prompt when saving Word or
  Excel files, no word completion in Writer and no AutoInput in Calc (both would accept
  a suggestion on Enter), no autosave or recovery;
* Thunar opens in the details view (the icon view exposes no file items to AT-SPI);
* Claws Mail has its account and its local mailbox (:mod:`.mail_client`).

The result lives in ``/dev/shm/devicesworld-gui/<key>/home`` (``key`` changes with the
LibreOffice build, :data:`VERSION` and the mail client's settings), is built under a lock so parallel workers build
it once, and is copied into a device home in ~10 ms.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import time
from pathlib import Path

from devicesworld.devices.desktop.client import Desktop, DesktopConfig
from devicesworld.devices.desktop.sysroot import let_others_pass
from devicesworld.devices.linux.gui import mail_client, shell
from devicesworld.devices.safefs import sandbox_host_ids

VERSION = "2"
CACHE_ROOT = Path(os.environ.get("DEVICESWORLD_GUI_CACHE", "/dev/shm/devicesworld-gui"))

_LO_SETTINGS = {
    "/org.openoffice.Office.Common/Misc": {"ShowTipOfTheDay": "false", "FirstRun": "false"},
    "/org.openoffice.Office.Common/Save/Document": {"WarnAlienFormat": "false", "AutoSave": "false"},
    "/org.openoffice.Office.Recovery/AutoSave": {"Enabled": "false"},
    "/org.openoffice.Office.Recovery/RecoveryInfo": {"Enabled": "false"},
    "/org.openoffice.Office.Writer/AutoFunction/Completion": {"Enable": "false"},
    "/org.openoffice.Office.Calc/Input": {"AutoInput": "false"},
    "/org.openoffice.Setup/Product": {
        "LastTimeDonateShown": "9999999999",
        "LastTimeGetInvolvedShown": "9999999999",
    },
}
"""LibreOffice settings fused into the profile: configuration node -> property -> value."""

_THUNAR = """<?xml version="1.0" encoding="UTF-8"?>
<channel name="thunar" version="1.0">
  <property name="last-view" type="string" value="ThunarDetailsView"/>
  <property name="misc-single-click" type="bool" value="false"/>
  <property name="last-show-hidden" type="bool" value="false"/>
  <property name="misc-confirm-close-multiple-tabs" type="bool" value="false"/>
</channel>
"""


def _key() -> str:
    """The template's name: it changes with :data:`VERSION`, the LibreOffice and Thunar builds and
    the mail client's settings (a changed setting makes a new template, never a stale one)."""
    parts = [VERSION, hashlib.sha256(repr(sorted(mail_client.FILES.items())).encode()).hexdigest()[:12]]
    for marker in ("/usr/lib/libreoffice/program/versionrc", "/usr/bin/thunar"):
        with contextlib.suppress(OSError):
            st = os.stat(marker)
            parts.append(f"{marker}:{st.st_size}:{int(st.st_mtime)}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:12]


def template_home() -> Path:
    """The template home, built now if this machine has none yet."""
    final = CACHE_ROOT / _key()
    home = final / "home"
    if (final / "done").exists():
        return home
    CACHE_ROOT.mkdir(parents=True, exist_ok=True)
    with open(CACHE_ROOT / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (final / "done").exists():
            return home
        building = CACHE_ROOT / f"{final.name}.building-{os.getpid()}"
        shutil.rmtree(building, ignore_errors=True)
        _build(building)
        shutil.rmtree(final, ignore_errors=True)
        building.rename(final)
        (final / "done").write_text(time.strftime("%Y-%m-%dT%H:%M:%S\n"))
    return home


def _build(root: Path) -> None:
    ids = sandbox_host_ids()
    home, tmp = root / "home", root / "tmp"
    for p in (home, tmp):
        p.mkdir(parents=True)
        if ids:
            os.chown(p, *ids)
    let_others_pass([root])
    desk = Desktop(DesktopConfig(home=home, tmp=tmp, run_as=ids, start_timeout_s=300, request_timeout_s=300))
    desk.start()
    try:
        if shutil.which("soffice"):
            desk.launch(["soffice", "--writer", "--norestore", "--nologo"])
            win = desk.wait_window(lambda w: "LibreOffice" in w.title, timeout_s=300)
            if win is not None:
                desk.wait_idle(timeout_s=120, quiet_s=1.5)
                desk.keys(["ctrl", "q"])
            profile = home / ".config/libreoffice/4/user/registrymodifications.xcu"
            end = time.monotonic() + 120
            while time.monotonic() < end and not profile.exists():
                time.sleep(0.2)
            time.sleep(1.0)
        desk.kill_apps()
    finally:
        desk.close()
    xcu = home / ".config/libreoffice/4/user/registrymodifications.xcu"
    if xcu.exists():
        text = xcu.read_text("utf-8")
        items = "".join(
            f'<item oor:path="{path}"><prop oor:name="{name}" oor:op="fuse"><value>{value}</value></prop></item>\n'
            for path, props in _LO_SETTINGS.items()
            for name, value in props.items()
        )
        xcu.write_text(text.replace("</oor:items>", items + "</oor:items>"), "utf-8")
    thunar = home / ".config/xfce4/xfconf/xfce-perchannel-xml/thunar.xml"
    thunar.parent.mkdir(parents=True, exist_ok=True)
    thunar.write_text(_THUNAR)
    mail_client.write_config(home)
    for lock in home.rglob(".~lock*"):
        lock.unlink()
    shutil.rmtree(home / ".cache", ignore_errors=True)
    shutil.rmtree(tmp, ignore_errors=True)
    for p in (home, *home.rglob("*")):
        if not p.is_symlink():
            p.chmod(0o755 if p.is_dir() else 0o644)


def copy_template(dest: Path, owner: tuple[int, int] | None) -> None:
    """Copy the template home's contents into ``dest`` (an empty device home), owned by ``owner``."""
    src = template_home()
    shutil.copytree(src, dest, symlinks=True, dirs_exist_ok=True)
    shell.write_config(dest, None)  # the panel's and the desktop's settings (owned below)
    if owner is not None:
        for p in (dest, *dest.rglob("*")):
            with contextlib.suppress(OSError):
                os.chown(p, *owner, follow_symlinks=False)

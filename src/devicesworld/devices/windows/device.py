"""One Windows device: a Wine desktop in its own sandbox, with its own slim prefix.

Construction does the slow part, so the runner's pre-warming hides it: copy the
machine's template prefix (:mod:`.prefix`) and the element-tree helper into a fresh
home, start the shared desktop layer's sandbox (Xvfb, openbox, controller) with Wine's
environment, and start ``wineserver`` and Wine's services so the first app opens fast.
Setup ops write files by Windows path on the host side (:mod:`.files`); getters read
files, window titles and the element tree; actions go to :class:`.session.WineSession`.
Every action, op and getter is declared on its handler in the tables below
(:mod:`devicesworld.devices.declare`); the actions are the shared GUI table.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from devicesworld.devices.base import ActionResult, Args, DeviceContext, DeviceError, NoArgs
from devicesworld.devices.declare import GetterTable, OpTable
from devicesworld.devices.desktop.actions import gui_action_table
from devicesworld.devices.desktop.client import Desktop, DesktopConfig, DesktopError, missing_stack
from devicesworld.devices.desktop.clock import MOUNT as CLOCK_MOUNT
from devicesworld.devices.desktop.clock import DesktopClock
from devicesworld.devices.desktop.sysroot import let_others_pass
from devicesworld.devices.drive import get_drive
from devicesworld.devices.homefs import HomeMount, take_home
from devicesworld.devices.limits import default_limits
from devicesworld.devices.safefs import sandbox_host_ids
from devicesworld.devices.windows import args as wa
from devicesworld.devices.windows import pool, prefix
from devicesworld.devices.windows import shell as win_shell
from devicesworld.devices.windows.docs import Run, decode_text, encode_text, read_rtf, write_rtf
from devicesworld.devices.windows.files import WinFiles
from devicesworld.devices.windows.helper.build import HelperUnavailable, helper_exe
from devicesworld.devices.windows.session import HELPER, WineSession, desktop_fence, element_texts

DRIVE_MOUNT = pool.DRIVE_MOUNT

ACTIONS = gui_action_table("windows", list(wa.APPS))
"""The shared GUI action space (``desktop: gui``, the default), with the four Wine apps as
``launch_app``'s choices: no shell action, cmd is an app whose window is typed into."""
HYBRID_ACTIONS = gui_action_table(
    "windows",
    list(wa.APPS),
    shell_doc=r"Run a cmd.exe command line in C:\Users\user (e.g. 'move Desktop\a.txt Documents'); returns exit code and output.",
)
"""``desktop: hybrid``: the same plus ``run_command`` running cmd.exe (what every Windows device
had before the GUI-only profile; a ``schema_version: 1`` task reads as this)."""
LAUNCH_MODEL = ACTIONS["launch_app"].args_model
SETUP_OPS: OpTable[WindowsDevice] = OpTable("windows")
GETTERS: GetterTable[WindowsDevice] = GetterTable("windows")


def _paragraph(p: wa.Paragraph) -> list[Run]:
    if isinstance(p, str):
        return [Run(p)]
    return [Run(r.text, r.bold, r.italic, r.underline) for r in p]


class WindowsDevice:
    """A ``windows_<n>`` device."""

    def __init__(self, device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> None:
        self.device_id = device_id
        self.profile = wa.WindowsProfile.model_validate(dict(profile))
        prefix.require_wine()
        problem = missing_stack()
        if problem is not None:
            raise DeviceError("UNAVAILABLE", f"Windows devices need a GUI desktop: {problem}")
        try:
            helper_exe()  # built (or its absence reported) before anything starts
        except HelperUnavailable as exc:
            raise DeviceError(
                "UNAVAILABLE", f"the Windows element-tree helper is unavailable: {exc}"
            ) from None
        self.ids = sandbox_host_ids()
        self.root = context.workdir
        self.drive = get_drive(context)
        hostname = device_id.replace("_", "-")
        self.spare = pool.take(hostname, self.profile.width, self.profile.height, self.drive.root)
        """A pooled desktop this device adopted (home, prefix and desktop made ahead of time), if any."""
        self.home_mount: HomeMount | None = None
        """A cold start's sized home (a holder from :mod:`..homefs`'s own pool, not the desktop pool's key)."""
        self.home_problem: str | None = None
        """Why a cold start's home is a plain folder (no root harness, sized homes turned off)."""
        wrapper: list[str] = []
        if self.spare is not None:
            self.home, self.tmp = self.spare.home, self.spare.tmp
            self.root.mkdir(parents=True, exist_ok=True)
        else:
            self.root.mkdir(parents=True, exist_ok=True)
            self.home_mount, self.home_problem = cold_home(self.root, self.ids)
            if self.home_mount is not None:
                self.home, self.tmp = self.home_mount.view / "home", self.home_mount.view / "tmp"
                wrapper = self.home_mount.nsenter(self.ids) if self.ids is not None else []
            else:
                self.home, self.tmp = self.root / "home", self.root / "tmp"
                self.tmp.mkdir(parents=True, exist_ok=True)
            pool.prepare_home(self.home, self.ids)
        if self.ids is not None:
            places = [self.drive.root] if self.spare is not None else [self.root, self.tmp, self.drive.root]
            for place in places:
                os.lchown(place, *self.ids)
            let_others_pass([self.root, self.drive.root])
        self.files = WinFiles(self.home, self.drive.root, self.ids)
        # the task's clock (docs/gui.md): Wine's apps and cmd read it through libfaketime, as a Linux
        # desktop's do; a spare binds its folder when it starts, so it follows the task that takes it
        self.clock = DesktopClock(
            self.spare.clock_folder if self.spare is not None else self.root / "clock", context.clock.now
        )
        context.clock.subscribe(self.clock.on_advance)
        self.clock.watch(self.home, self.tmp, self.drive.root)  # dated by the task's clock (docs/gui.md)
        if self.spare is not None:
            self.desktop = self.spare.desktop
        else:
            on_store = self.home_mount is not None
            cfg = DesktopConfig(
                home=self.home_mount.store / "home" if self.home_mount is not None else self.home,
                tmp=self.home_mount.store / "tmp" if self.home_mount is not None else self.tmp,
                binds=[(self.drive.root, DRIVE_MOUNT)],
                width=self.profile.width,
                height=self.profile.height,
                hostname=hostname,
                env=dict(prefix.WINE_ENV),
                ro_binds=[(self.clock.folder, CLOCK_MOUNT)],
                memory_kind="data",
                fence=desktop_fence(),
                wrapper=wrapper,
                run_as=None if on_store else self.ids,  # nsenter --setuid is the user on a sized home
            )
            self.desktop = Desktop(cfg)
        self.session = WineSession(
            self.desktop,
            tree=self.profile.tree,
            write_script=self.files.write_bytes,
            env=self.clock.env,
            pinned_env=self.clock.pinned_env,
        )
        self._closed = False
        self.setup_settled = False
        """The setup's files were dated by the task's clock (at the first action)."""
        self._unsettled = False
        """An action ran since the desktop was last waited for: getters wait for it to go idle first
        (Notepad or WordPad may still be writing the file a check is about to read)."""
        if self.spare is None:  # a cold start: the sized home above, or (no root) a plain folder
            try:
                self.desktop.start()
                pool.warm_up(self.desktop)
            except BaseException:
                self.close()
                raise
        self.shell_up = False
        """The taskbar, Start menu and desktop icons (``shell.py``) are shown."""
        try:
            self.shell_up = win_shell.start(self.desktop, self.clock.env)
        except DesktopError:
            self.shell_up = False  # the desktop stays bare; the apps work as before
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ protocol
    def setup(self, op: str, args: Args) -> None:
        SETUP_OPS.call(self, op, args)

    def act(self, action: str, args: Args) -> ActionResult:
        if self._closed:
            return ActionResult.failure("DEVICE_CLOSED", "this device is closed")
        table = HYBRID_ACTIONS if self.profile.desktop == "hybrid" else ACTIONS
        if not self.setup_settled:
            self.setup_settled = True
            self.clock.settle_files()  # the setup's files, on the first action
        try:
            return table.act(self, action, args)
        finally:
            self.clock.settle_files()

    def gui_act(self, action: str, args: Args) -> ActionResult:
        """A GUI action, run by the Wine session; the GUI table's handlers call it."""
        self._unsettled = True
        return self.session.act(action, args)

    def observe(self) -> dict[str, Any]:
        obs = self.session.observe()
        obs["drives"] = {"C:": "the computer's disk", "N:": "the shared network drive"}
        return obs

    def screenshot(self) -> bytes | None:
        return self.session.screenshot()

    def get(self, getter: str, args: Args) -> object:
        GETTERS.parse(getter, args)  # an unknown getter or bad arguments fail before any wait
        if self._unsettled and not self._closed:
            self._unsettled = False
            with contextlib.suppress(DesktopError):
                self.session.settle(quiet_s=0.6, timeout_s=20)
        self.clock.settle_files()
        return GETTERS.call(self, getter, args)

    # ------------------------------------------------------------------ setup ops
    @SETUP_OPS.register(
        "write_text",
        doc="A text file (encoding ansi|utf-8|utf-8-bom|utf-16, CRLF line ends by default).",
        args=wa.WriteTextOp,
    )
    def _write_text(self, o: wa.WriteTextOp) -> None:
        try:
            data = encode_text(o.content, o.encoding, o.crlf)
        except UnicodeEncodeError as exc:
            raise DeviceError(
                "INVALID_ARGS", f"{o.path}: text cannot be saved as {o.encoding}: {exc.reason}"
            ) from None
        self.files.write_bytes(o.path, data)

    @SETUP_OPS.register(
        "write_rtf", doc="A WordPad RTF document: paragraphs of text or styled runs.", args=wa.WriteRtfOp
    )
    def _write_rtf(self, o: wa.WriteRtfOp) -> None:
        self.files.write_bytes(o.path, write_rtf([_paragraph(p) for p in o.paragraphs], o.font, o.size_pt))

    @SETUP_OPS.register("make_dir", doc="A folder.", args=wa.PathArgs)
    def _make_dir(self, o: wa.PathArgs) -> None:
        self.files.mkdir(o.path)

    @SETUP_OPS.register(
        "launch", doc="Open an app (optionally on a file) before the task starts.", args=wa.LaunchOp
    )
    def _launch(self, o: wa.LaunchOp) -> None:
        result = self.session.act("launch_app", _launch_args(o.app, o.path))
        if not result.ok:
            raise OSError(f"{o.app} did not start: {result.message}")

    # ------------------------------------------------------------------ getters
    @GETTERS.register("file_info", doc="exists / is_dir / size of a Windows path.", args=wa.PathArgs)
    def _file_info(self, g: wa.PathArgs) -> object:
        return self.files.info(g.path)

    @GETTERS.register(
        "text", doc="A text file's content in any Notepad encoding (None if missing).", args=wa.PathArgs
    )
    def _text(self, g: wa.PathArgs) -> str | None:
        data = self.files.read_bytes(g.path)
        return None if data is None else decode_text(data)

    @GETTERS.register(
        "raw_encoding", doc="ascii / ansi / utf-8 / utf-8-bom / utf-16 of a text file.", args=wa.PathArgs
    )
    def _encoding(self, g: wa.PathArgs) -> str | None:
        data = self.files.read_bytes(g.path)
        if data is None:
            return None
        if data.startswith(b"\xef\xbb\xbf"):
            return "utf-8-bom"
        if data.startswith(b"\xff\xfe"):
            return "utf-16"
        try:
            data.decode("ascii")
            return "ascii"
        except UnicodeDecodeError:
            pass
        try:
            data.decode("utf-8")
            return "utf-8"
        except UnicodeDecodeError:
            return "ansi"

    @GETTERS.register("rtf", doc="An RTF document's paragraphs and styled runs.", args=wa.PathArgs)
    def _rtf(self, g: wa.PathArgs) -> dict[str, Any] | None:
        data = self.files.read_bytes(g.path)
        if data is None:
            return None
        try:
            return read_rtf(data).as_json()
        except ValueError as exc:
            return {"error": str(exc), "paragraphs": [], "runs": []}

    @GETTERS.register("listing", doc="Every file under a folder, relative.", args=wa.ListingArgs)
    def _listing(self, g: wa.ListingArgs) -> object:
        return self.files.listing(g.path)

    @GETTERS.register("windows", doc="The open windows: title, app, focused.", args=NoArgs)
    def _windows(self, g: NoArgs) -> list[dict[str, Any]]:
        try:
            return [
                {"title": w.title, "app": w.app, "focused": w.focused}
                # launched by the device (a window the agent's own process made does not count), and
                # not a console, whose title ``title`` sets
                for w in self.session.checkable_windows()
            ]
        except DesktopError:
            return []

    @GETTERS.register(
        "element_texts",
        doc="Texts of the element tree's windows (optionally of a class / window).",
        args=wa.ElementTextsArgs,
    )
    def _element_texts(self, g: wa.ElementTextsArgs) -> list[str]:
        try:
            return element_texts(self.session, g.role, g.window_title_contains)
        except DesktopError:
            return []

    @GETTERS.register("drive", doc="Every file on the shared drive (N:).", args=NoArgs)
    def _drive(self, g: NoArgs) -> object:
        return self.drive.listing()

    @GETTERS.register("files", doc="Every user file on C: and N: by Windows path.", args=NoArgs)
    def _files(self, g: NoArgs) -> object:
        return sorted(self.files.user_files())

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            self.desktop.close()
        if self.spare is not None:
            self.spare.close()  # the tmpfs goes with its holder
            shutil.rmtree(self.root, ignore_errors=True)
            return
        if self.home_mount is not None:
            self.home_mount.close(wait=True)  # the tmpfs goes with its holder
            shutil.rmtree(self.root, ignore_errors=True)
            return
        shutil.rmtree(self.home, ignore_errors=True)
        shutil.rmtree(self.tmp, ignore_errors=True)


def cold_home(root: Path, ids: tuple[int, int] | None) -> tuple[HomeMount | None, str | None]:
    """A cold-started device's home and ``/tmp`` on a tmpfs of ``Limits.home_mb`` (as a spare's), when this
    host allows one (a root harness with ``unshare``/``nsenter``); else ``(None, why)``.

    The holder comes from :func:`devicesworld.devices.homefs.take_home` — a pool of bare sized
    tmpfs holders keyed by size and user — not from the Wine desktop pool, so a cold start never
    competes with that pool's background refill of the same key (making a whole spare on the
    caller's thread did, and the pool stopped handing out spares)."""
    lim = default_limits()
    if not lim.sized_home:
        return None, "turned off (DEVICESWORLD_LIMIT_SIZED_HOME=0)"
    mount, problem = take_home(root / "store", lim.home_bytes, ids)
    if mount is None:
        return None, problem
    with contextlib.suppress(FileNotFoundError):
        (mount.view / "home" / "Drive").rmdir()  # a Windows home has no ~/Drive (N: is the drive)
    return mount, None


def _launch_args(app: str, path: str | None) -> Args:
    return LAUNCH_MODEL.model_validate({"app": app, **({"path": path} if path else {})})


def factory(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> WindowsDevice:
    return WindowsDevice(device_id, profile, context)


__all__ = ["ACTIONS", "GETTERS", "HELPER", "HYBRID_ACTIONS", "SETUP_OPS", "WindowsDevice", "factory"]

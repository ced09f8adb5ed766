"""The Linux device: a sandboxed machine with a shell, files, office documents, mail drafts and a browser.

It adapts :class:`~devicesworld.devices.linux.sandbox.Sandbox` (the machine), the
resource writers/readers (the office suite) and a browser (the web) to the device
protocol. Everything heavy is lazy: the browser starts on the first browser action,
the site server on the first site, document libraries on the first document; a
device that is created, set up with a few files and closed costs a few file writes.

Every file the harness touches for this device (actions, screenshots, setup ops,
getters) is reached through :meth:`Sandbox.locate` and
:mod:`devicesworld.devices.safefs` — relative to the device's folders, never through a
link — and every document is opened through :mod:`.resources.isolate` (size, time and
memory caps).
"""

from __future__ import annotations

import codecs
import contextlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from devicesworld.devices.base import ActionResult, Args, DeviceContext, DeviceError, NoArgs
from devicesworld.devices.declare import ActionTable
from devicesworld.devices.desktop.actions import RunCommandArgs as TerminalArgs
from devicesworld.devices.desktop.actions import gui_action_table
from devicesworld.devices.desktop.client import DesktopError
from devicesworld.devices.desktop.clock import DesktopClock
from devicesworld.devices.drive import get_drive
from devicesworld.devices.linux import args as a
from devicesworld.devices.linux.browser import Browser, BrowserError, PageView, make_browser
from devicesworld.devices.linux.getters import GETTERS
from devicesworld.devices.linux.gui.apps import APPS
from devicesworld.devices.linux.gui.mail_client import ACCOUNT
from devicesworld.devices.linux.resources import isolate, readers, writers
from devicesworld.devices.linux.resources.check import check_tree
from devicesworld.devices.linux.resources.readers import Blob, FormatError
from devicesworld.devices.linux.sandbox import HOME, Sandbox, truncate
from devicesworld.devices.linux.setup import SETUP_OPS, slug
from devicesworld.devices.linux.sites.server import SiteService, get_sites
from devicesworld.devices.listing import cut_note
from devicesworld.devices.safefs import FsError, RootedPath

if TYPE_CHECKING:
    from devicesworld.devices.linux.gui.session import LinuxDesktop

_DOC_SUFFIXES = (
    ".xlsx",
    ".docx",
    ".pdf",
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".bmp",
    ".wav",
    ".zip",
    ".tar",
    ".tgz",
    ".gz",
    ".eml",
)
MAX_LISTING = 200
READ_WHOLE_BYTES = 4 * 1024 * 1024
"""read_file reads a file whole up to this size; past it only the head and the tail are read."""


ACTIONS: ActionTable[LinuxDevice] = ActionTable("linux")
"""The desktop's actions (``desktop: api``); setup ops are in :mod:`.setup`, getters in :mod:`.getters`."""

GUI_ACTIONS = gui_action_table("linux", list(APPS))
"""The action space of a ``desktop: gui`` device: JarvisGUI's unified space (docs/gui.md), no shell."""
HYBRID_ACTIONS = gui_action_table(
    "linux",
    list(APPS),
    shell_doc="Run a bash command in the desktop's terminal session; returns exit code, stdout and stderr.",
)
"""``desktop: hybrid``: the GUI space plus ``run_command`` (the paper's Linux setting)."""


class LinuxDevice:
    """One ``linux_<n>`` desktop of a task."""

    def __init__(self, device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> None:
        self.device_id = device_id
        self.profile = a.LinuxProfile.model_validate(dict(profile))
        self.context = context
        self.owner_address = ACCOUNT
        """The user's own address, the From of the mail they write: their world's (``world.apply``), else
        the mail client's account (issue #33: never a placeholder such as ``user@example.com``)."""
        self.drive = get_drive(context)
        hostname = device_id.replace("_", "-")
        ready = None
        if self.profile.desktop != "api":
            from devicesworld.devices.linux.gui import pool

            screen = self.profile.screen
            ready = pool.take(hostname, screen.width, screen.height, self.drive.root)
        clock_folder = ready.clock_folder if ready is not None else context.workdir / "clock"
        self.clock = DesktopClock(clock_folder, context.clock.now)
        context.clock.subscribe(self.clock.on_advance)
        self.sandbox = Sandbox(
            context.workdir,
            hostname=hostname,
            drive=self.drive.root,
            home_mount=ready.mount if ready is not None else None,
            clock=self.clock,
        )
        if self.sandbox.bwrap is not None:  # the unsandboxed fallback runs on the host's clock
            self.clock.watch(self.sandbox.paths.home, self.sandbox.paths.tmp, self.drive.root)
        self._browser: Browser | None = None
        self._sites: SiteService | None = None
        self.history: list[dict[str, Any]] = []
        self._closed = False
        self.gui: LinuxDesktop | None = None
        self.setup_settled = False
        """The setup's files were dated by the task's clock (at the first action; after each action
        the action's own files are: :meth:`act`)."""
        self._unsettled = False
        """An action ran since the desktop was last waited for: getters wait for it to go idle first
        (an app may still be writing the file a check is about to read)."""
        if self.profile.desktop != "api":
            from devicesworld.devices.linux.gui.session import LinuxDesktop

            self.gui = LinuxDesktop(
                self.sandbox,
                width=self.profile.screen.width,
                height=self.profile.screen.height,
                sites=lambda: self.sites if self.sites_started() else None,
                ready=ready,
            )

    # ---------------------------------------------------------------- protocol
    def setup(self, op: str, args: Args) -> None:
        try:
            SETUP_OPS.call(self, op, args)
        except FsError as exc:
            raise DeviceError(exc.code, exc.message) from None
        except (PermissionError, ValueError) as exc:
            raise DeviceError("INVALID_ARGS", str(exc)) from None

    def _episode_starts(self) -> None:
        if self.gui is not None:
            self.gui.end_setup()

    def _settle_files(self) -> None:
        """Files written since the last call are dated by the task's clock (docs/gui.md)."""
        if not self._closed:
            self.clock.settle_files()

    def act(self, action: str, args: Args) -> ActionResult:
        if self._closed:
            return ActionResult.failure("INVALID_IN_STATE", "this desktop has been shut down")
        self._episode_starts()
        if not self.setup_settled:
            self.setup_settled = True
            self._settle_files()  # the setup's files, on the first action
        try:
            return self._act(action, args)
        finally:
            self._settle_files()

    def _act(self, action: str, args: Args) -> ActionResult:
        if self.gui is not None:
            table = HYBRID_ACTIONS if self.profile.desktop == "hybrid" else GUI_ACTIONS
            return table.act(self, action, args)
        try:
            return ACTIONS.act(self, action, args)
        except FsError as exc:
            return ActionResult.failure(exc.code, exc.message)
        except BrowserError as exc:
            return ActionResult.failure(exc.code, exc.message)
        except PermissionError as exc:
            return ActionResult.failure("PERMISSION_DENIED", str(exc))
        except FormatError as exc:
            return ActionResult.failure("INVALID_FORMAT", str(exc))
        except FileNotFoundError as exc:
            return ActionResult.failure("NOT_FOUND", f"{self._as_seen(exc.filename)}: no such file or folder")
        except IsADirectoryError as exc:
            return ActionResult.failure("IS_A_DIRECTORY", f"{self._as_seen(exc.filename)}: is a folder")
        except NotADirectoryError as exc:
            return ActionResult.failure("NOT_A_DIRECTORY", f"{self._as_seen(exc.filename)}: is not a folder")
        except OSError as exc:
            if exc.filename is not None:
                return ActionResult.failure("INVALID_ARGS", f"{self._as_seen(exc.filename)}: {exc.strerror}")
            return ActionResult.failure("INVALID_ARGS", str(exc))
        except ValueError as exc:
            return ActionResult.failure("INVALID_ARGS", str(exc))

    def _as_seen(self, filename: object) -> str:
        """A host file name as the agent knows it (``/home/user/...``); host paths never leak."""
        if filename is None:
            return "(unknown path)"
        shown = self.sandbox.from_host(Path(str(filename)))
        return shown if shown is not None else Path(str(filename)).name

    def gui_act(self, action: str, args: Args) -> ActionResult:
        """A GUI action (``desktop: gui``), run by the desktop's session; the GUI table's handlers call it."""
        if self.gui is None:
            return ActionResult.failure(
                "UNSUPPORTED", f"{action} needs a GUI desktop (profile desktop: gui or hybrid)"
            )
        try:
            session = self.gui.session
        except DesktopError as exc:
            return ActionResult.failure(exc.code, f"the desktop is not available: {exc.message}")
        self._unsettled = True
        result = session.act(action, args)
        if isinstance(args, TerminalArgs) and result.data is not None:
            self.history.append({"command": args.command, "exit_code": result.data.get("exit_code")})
        return result

    def _gui_observe(self) -> dict[str, Any]:
        assert self.gui is not None
        obs: dict[str, Any] = {
            "hostname": self.sandbox.hostname,
            "user": "user",
            "desktop": self.profile.desktop,
        }
        try:
            obs.update(self.gui.session.observe())
        except DesktopError as exc:
            obs["error"] = f"the desktop is not available: {exc.message}"
        if self.sites_started():
            obs["sites"] = [f"http://{h}/" for h in sorted(self.sites.sites)]
        return obs

    def observe(self) -> dict[str, Any]:
        self._episode_starts()
        if self.gui is not None:
            return self._gui_observe()
        try:
            entries = [
                e.name + ("/" if e.kind == "dir" or e.name == "Drive" else "")
                for e in self._host("~").root.listdir()
                if not e.name.startswith(".")
            ]
        except FsError:
            entries = []
        obs: dict[str, Any] = {
            "hostname": self.sandbox.hostname,
            "user": "user",
            "cwd": self.sandbox.cwd,
            "home": entries[:MAX_LISTING],
            "browser": self._browser.current() if self._browser else None,
            "sandbox": "bubblewrap"
            if self.sandbox.isolated
            else "process (NOT isolated: bubblewrap missing)",
        }
        if self.sites_started():
            obs["sites"] = [f"http://{h}/" for h in sorted(self.sites.sites)]
        return obs

    def get(self, getter: str, args: Args) -> object:
        self._episode_starts()
        if self._unsettled and self.gui is not None and self.gui.started:
            self._unsettled = False
            with contextlib.suppress(DesktopError):
                self.gui.session.settle(quiet_s=0.6, timeout_s=20)
        self._settle_files()
        try:
            return GETTERS.call(self, getter, args)
        except FsError as exc:
            raise DeviceError(exc.code, exc.message) from None
        except FormatError as exc:
            raise DeviceError("INVALID_FORMAT", str(exc)) from None
        except PermissionError as exc:
            raise DeviceError("PERMISSION_DENIED", str(exc)) from None

    def screenshot(self) -> bytes | None:
        """The desktop's screen (GUI mode); else the browser page when one is open, or nothing."""
        self._episode_starts()
        if self.gui is not None:
            try:
                return self.gui.session.screenshot()
            except DesktopError:
                return None
        if self._browser is None or self._browser.current() is None:
            return None
        return self._browser.screenshot()

    def take_phases(self) -> dict[str, float]:
        """Seconds per GUI phase (input, settle, tree, screenshot, encode) since the last call."""
        if self.gui is None or not self.gui.started:
            return {}
        return self.gui.session.take_phases()

    def check_resources(self) -> list[str]:
        """Quality control after setup: one problem per document under the home that fails to open.

        Every file the setup wrote under ``/home/user`` (the shared ``~/Drive`` is left to
        the drive) is opened with its format's reader (openpyxl, python-docx, pypdf,
        Pillow, wave, zipfile/tarfile, json, csv, email); ``[]`` means all open.
        """
        app_state = (".config", ".cache", ".local", ".pki") if self.gui is not None else ()
        # the apps' own dot-folders are no task resources
        return check_tree(self._host("~").root, skip=("Drive", *app_state))

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        errors: list[str] = []
        if self._browser is not None:
            try:
                self._browser.close()
            except Exception as exc:
                errors.append(f"browser: {exc}")
            self._browser = None
        if self._sites is not None:
            self._sites.release()
            self._sites = None
        if self.gui is not None:
            try:
                self.gui.close()
            except Exception as exc:
                errors.append(f"desktop: {exc}")
        self.sandbox.close()
        if errors:
            raise RuntimeError("; ".join(errors))

    # ---------------------------------------------------------------- helpers
    @property
    def sites(self) -> SiteService:
        if self._sites is None:
            self._sites = get_sites(self.context)
            self._sites.acquire()
        return self._sites

    def sites_started(self) -> bool:
        return self._sites is not None and bool(self._sites.sites)

    def _host(self, path: str) -> RootedPath:
        """Where ``path`` is among the device's places (its name for the agent: ``.shown``)."""
        return self.sandbox.locate(path)

    def _shown(self, path: str) -> str:
        return self.sandbox.normalize(path)

    def _blob(self, at: RootedPath) -> Blob:
        return Blob(at.name, at.read_bytes(self.sandbox.limits.read_bytes))

    def _read(self, path: str, kind: str, sheet: str | None = None) -> Any:
        at = self._host(path)
        if at.kind() != "file":
            return None
        return isolate.parse(kind, self._blob(at), sheet, limits=self.sandbox.limits)

    def _file_info(self, path: str) -> dict[str, Any]:
        at = self._host(path)
        st = at.root.lstat(at.rel)
        kind = at.kind()
        if st is None or kind is None:
            return {"exists": False}
        return {
            "exists": True,
            "is_dir": kind == "dir",
            "size": st.st_size if kind == "file" else None,
            **({"is_link": True} if kind == "link" else {}),
        }

    def _listing(self, path: str) -> list[str] | None:
        at = self._host(path)
        if at.kind() != "dir":
            return None
        return at.root.walk_files(at.rel)

    def _drafts(self, folder: str) -> list[dict[str, Any]]:
        """The drafts in ``folder``: ``.eml`` files, and the numbered message files a mail
        client keeps in an MH folder (the GUI desktop's Claws Mail saves drafts that way)."""
        at = self._host(folder)
        if at.kind() != "dir":
            return []
        out: list[dict[str, Any]] = []
        for e in at.root.listdir(at.rel):
            if e.kind != "file" or not (e.name.endswith(".eml") or e.name.isdigit()):
                continue
            try:
                out.append(
                    {
                        "file": e.name,
                        "modified_ns": e.mtime_ns,
                        **readers.read_eml(self._blob(at.joinpath(e.name))),
                    }
                )
            except (FormatError, FsError) as exc:
                out.append({"file": e.name, "error": str(exc)})
        return out

    # ---------------------------------------------------------------- actions
    @ACTIONS.register(
        "run_command",
        doc="Run a bash command in the current folder; returns exit code, stdout, stderr.",
        args=a.RunCommandArgs,
    )
    def _run_command(self, g: a.RunCommandArgs) -> ActionResult:
        r = self.sandbox.run(g.command, timeout=g.timeout_s)
        self.history.append({"command": g.command, "exit_code": r.exit_code})
        data = {"exit_code": r.exit_code, "stdout": r.stdout, "stderr": r.stderr, "cwd": r.cwd}
        if r.timed_out:
            return ActionResult.failure("TIMEOUT", f"timed out after {g.timeout_s:g} s", data)
        if r.limit is not None:
            return ActionResult.failure(
                "RESOURCE_LIMIT", self.sandbox.limits.hit_message(r.limit, r.exit_code), data
            )
        msg = f"exit code {r.exit_code}" + (" (output truncated)" if r.truncated else "")
        if r.exit_code != 0:
            return ActionResult(ok=True, message=msg + " (the command failed)", data=data)
        return ActionResult.success(msg, data)

    @ACTIONS.register("read_file", doc="Read a text file.", args=a.ReadFileArgs)
    def _read_file(self, g: a.ReadFileArgs) -> ActionResult:
        at = self._host(g.path)
        if at.suffix.lower() in _DOC_SUFFIXES and at.kind() == "file":
            return ActionResult.failure(
                "BINARY_FILE", f"{at.shown} is a {at.suffix} file; open it with read_document instead"
            )
        budget = g.max_chars * 4  # bytes enough for max_chars characters of UTF-8
        head, tail, size = at.root.read_ends(at.rel, max(budget, READ_WHOLE_BYTES), budget)
        if not tail:  # the whole file
            try:
                text = head.decode("utf-8")
            except UnicodeDecodeError:
                return ActionResult.failure("BINARY_FILE", f"{at.shown} is not a text file ({size} bytes)")
            shown, cut = truncate(text, g.max_chars, READ_REST)
            return ActionResult.success(
                f"{at.shown}: {len(text)} characters" + (" (truncated)" if cut else ""), shown
            )
        first, last = _utf8_part(head[:budget], at_start=True), _utf8_part(tail, at_start=False)
        if first is None or last is None:
            return ActionResult.failure("BINARY_FILE", f"{at.shown} is not a text file ({size:,} bytes)")
        keep_head, keep_tail = g.max_chars * 3 // 4, g.max_chars // 4
        note = cut_note(f"{size:,} bytes in all; only the start and the end are shown", READ_REST)
        shown = f"{first[:keep_head]}\n{note}\n"
        shown += last[-keep_tail:] if keep_tail else ""
        return ActionResult.success(f"{at.shown}: {size:,} bytes (truncated)", shown)

    @ACTIONS.register(
        "write_file",
        doc="Write (or append to) a text file, creating folders as needed.",
        args=a.WriteFileArgs,
    )
    def _write_file(self, g: a.WriteFileArgs) -> ActionResult:
        at = self._host(g.path)
        at.root.write_bytes(at.rel, g.content.encode("utf-8"), append=g.append)
        return ActionResult.success(
            f"{'appended to' if g.append else 'wrote'} {at.shown} ({len(g.content)} characters)"
        )

    @ACTIONS.register("list_dir", doc="List a folder.", args=a.ListDirArgs)
    def _list_dir(self, g: a.ListDirArgs) -> ActionResult:
        at = self._host(g.path)
        if at.kind() != "dir":
            code = "PERMISSION_DENIED" if at.kind() == "link" else "NOT_FOUND"
            why = "is a symbolic link; links are not followed" if code != "NOT_FOUND" else "no such folder"
            return ActionResult.failure(code, f"{at.shown}: {why}")
        entries: list[dict[str, Any]] = []
        for e in at.root.listdir(at.rel):
            if e.kind == "dir":
                entries.append({"name": e.name + "/", "type": "folder"})
            elif e.kind == "file":
                entries.append({"name": e.name, "type": "file", "size": e.size})
            else:
                entries.append({"name": e.name, "type": e.kind})
        more = len(entries) > MAX_LISTING
        return ActionResult.success(
            f"{at.shown}: {len(entries)} entries" + (f" (first {MAX_LISTING} shown)" if more else ""),
            entries[:MAX_LISTING],
        )

    @ACTIONS.register("delete_file", doc="Delete a file or folder.", args=a.DeleteArgs)
    def _delete(self, g: a.DeleteArgs) -> ActionResult:
        at = self._host(g.path)
        shown = at.shown
        if shown in (HOME, "/tmp", f"{HOME}/Drive"):
            return ActionResult.failure("PERMISSION_DENIED", f"refusing to delete {shown} itself")
        kind = at.kind()
        if kind is None:
            return ActionResult.failure("NOT_FOUND", f"{shown}: no such file or folder")
        if kind == "dir" and not g.recursive and at.root.listdir(at.rel):
            return ActionResult.failure("NOT_EMPTY", f"{shown} is a non-empty folder; pass recursive=true")
        at.root.remove(at.rel, recursive=g.recursive)
        return ActionResult.success(f"deleted {shown}")

    @ACTIONS.register(
        "read_document",
        doc="Open a document and show its content: xlsx sheets, docx paragraphs, PDF text, CSV/JSON, image/audio info, archive members, .eml.",
        args=a.PathArgs,
    )
    def _read_document(self, g: a.PathArgs) -> ActionResult:
        at = self._host(g.path)
        kind = at.kind()
        if kind == "link":
            return ActionResult.failure(
                "PERMISSION_DENIED", f"{at.shown}: is a symbolic link; links are not followed"
            )
        if kind != "file":
            return ActionResult.failure("NOT_FOUND", f"{at.shown}: no such file")
        lower = at.name.lower()
        suffix = ".tar.gz" if lower.endswith(".tar.gz") else at.suffix.lower()
        reader = _DOCUMENT_READERS.get(suffix, "text")
        data = isolate.parse(reader, self._blob(at), limits=self.sandbox.limits)
        return ActionResult.success(f"opened {at.shown}", data)

    @ACTIONS.register(
        "write_document",
        doc="Save a document; the format follows the extension (.xlsx/.csv rows, .docx/.pdf paragraphs, .json data).",
        args=a.WriteDocumentArgs,
    )
    def _write_document(self, g: a.WriteDocumentArgs) -> ActionResult:
        host = self._host(g.path)
        suffix = host.suffix.lower()
        if suffix == ".xlsx":
            if g.rows is None:
                return ActionResult.failure("INVALID_ARGS", "an xlsx needs rows")
            writers.write_xlsx(host, {g.sheet: g.rows})
        elif suffix == ".csv":
            if g.rows is None:
                return ActionResult.failure("INVALID_ARGS", "a csv needs rows")
            writers.write_csv(host, g.rows)
        elif suffix == ".docx":
            writers.write_docx(host, g.paragraphs or [], g.title, [[str(c) for c in r] for r in g.rows or []])
        elif suffix == ".pdf":
            writers.write_pdf(host, g.paragraphs or [], g.title)
        elif suffix == ".json":
            writers.write_json(host, g.data)
        else:
            return ActionResult.failure(
                "UNSUPPORTED", "write_document saves .xlsx, .docx, .pdf, .csv or .json"
            )
        return ActionResult.success(f"saved {self._shown(g.path)}")

    @ACTIONS.register(
        "write_email_draft", doc="Save an email draft (.eml) in ~/Mail/Drafts.", args=a.WriteEmailArgs
    )
    def _write_email(self, g: a.WriteEmailArgs) -> ActionResult:
        name = g.filename or f"{slug(g.subject)}.eml"
        if not name.endswith(".eml"):
            name += ".eml"
        path = f"~/Mail/Drafts/{name}"
        message = writers.email_bytes(g.to, g.subject, g.body, self.owner_address, g.cc)
        writers.write_bytes(self._host(path), message)
        return ActionResult.success(f"draft saved as {path}")

    # ---------------------------------------------------------------- browser
    def browser_page(self) -> dict[str, Any] | None:
        """The open page's URL and title; ``None`` before any page (the browser is not started for it)."""
        return self._browser.current() if self._browser else None

    def browser(self) -> Browser:
        if self._browser is None:
            self._browser = make_browser(self.sites, self.profile.browser)
        return self._browser

    def _page(self, fn: Callable[[Browser], PageView]) -> ActionResult:
        view = fn(self.browser())
        data = {"url": view.url, "title": view.title, "text": view.text}
        if view.status >= 400:
            return ActionResult(ok=True, message=f"{view.title} (HTTP {view.status})", data=data)
        return ActionResult.success(view.title, data)

    @ACTIONS.register(
        "browser_open",
        doc="Open a URL in the browser (only the task's local sites are reachable).",
        args=a.OpenUrlArgs,
    )
    def _browser_open(self, g: a.OpenUrlArgs) -> ActionResult:
        return self._page(lambda b: b.open(g.url))

    @ACTIONS.register(
        "browser_read", doc="Read the current page as text; interactive elements are numbered [n]."
    )
    def _browser_read(self, g: NoArgs) -> ActionResult:
        return self._page(lambda b: b.read())

    @ACTIONS.register(
        "browser_click",
        doc="Click element [n] (follow a link, press a button, tick a box).",
        args=a.ElementArgs,
    )
    def _browser_click(self, g: a.ElementArgs) -> ActionResult:
        return self._page(lambda b: b.click(g.index))

    @ACTIONS.register(
        "browser_type",
        doc="Type text into field [n] (replacing its content unless clear=false).",
        args=a.TypeArgs,
    )
    def _browser_type(self, g: a.TypeArgs) -> ActionResult:
        return self._page(lambda b: b.type(g.index, g.text, g.clear))

    @ACTIONS.register("browser_select", doc="Choose an option of select [n].", args=a.SelectArgs)
    def _browser_select(self, g: a.SelectArgs) -> ActionResult:
        return self._page(lambda b: b.select(g.index, g.option))

    @ACTIONS.register(
        "browser_submit",
        doc="Submit the form that holds element [n] (or the page's only form).",
        args=a.SubmitArgs,
    )
    def _browser_submit(self, g: a.SubmitArgs) -> ActionResult:
        return self._page(lambda b: b.submit(g.index))

    @ACTIONS.register("browser_back", doc="Go back to the previous page.")
    def _browser_back(self, g: NoArgs) -> ActionResult:
        return self._page(lambda b: b.back())

    @ACTIONS.register(
        "browser_screenshot",
        doc="Take a screenshot of the browser page; it is saved in ~/Pictures/Screenshots.",
    )
    def _browser_screenshot(self, g: NoArgs) -> ActionResult:
        """Like a desktop's screenshot tool: the PNG lands in ~/Pictures/Screenshots."""
        browser = self.browser()
        if browser.current() is None:
            return ActionResult.failure("NO_PAGE", "no page is open; use browser_open first")
        png = browser.screenshot()
        folder = self._host("~/Pictures/Screenshots")
        folder.root.mkdir(folder.rel)
        taken = [e for e in folder.root.listdir(folder.rel) if e.name.startswith("screenshot-")]
        n = 1 + sum(1 for e in taken if e.name.endswith(".png"))
        name = f"screenshot-{n:03d}.png"
        folder.joinpath(name).write_bytes(png)  # replaces whatever stands there; never writes through a link
        path = f"~/Pictures/Screenshots/{name}"
        return ActionResult.success(f"screenshot saved as {path}", {"path": path, "bytes": len(png)})


_DOCUMENT_READERS = {
    ".xlsx": "workbook",
    ".xlsm": "workbook",
    ".docx": "docx",
    ".pdf": "pdf",
    ".csv": "csv",
    ".json": "json",
    ".png": "image",
    ".jpg": "image",
    ".jpeg": "image",
    ".gif": "image",
    ".bmp": "image",
    ".wav": "wav",
    ".zip": "archive",
    ".tar": "archive",
    ".tgz": "archive",
    ".tar.gz": "archive",
    ".eml": "eml",
}


READ_REST = "raise max_chars (up to 100,000) or read parts with run_command (sed -n, grep)"
"""How to get the rest of a file ``read_file`` cut."""


def _utf8_part(data: bytes, *, at_start: bool) -> str | None:
    """Decode a slice cut out of a UTF-8 file (a character may be split at either cut); ``None`` if binary."""
    if not at_start:
        skip = 0
        while skip < min(3, len(data)) and 0x80 <= data[skip] <= 0xBF:
            skip += 1
        data = data[skip:]
    try:
        return codecs.getincrementaldecoder("utf-8")().decode(data, final=False)
    except UnicodeDecodeError:
        return None


def factory(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> LinuxDevice:
    return LinuxDevice(device_id, profile, context)

"""The Linux device: a sandboxed machine with a shell, files, office documents, mail drafts and a browser.

It adapts :class:`~devicesworld.devices.linux.sandbox.Sandbox` (the machine), the
resource writers/readers (the office suite) and a browser (the web) to the device
protocol. Everything heavy is lazy: the browser starts on the first browser action,
the site server on the first site, document libraries on the first document; a
device that is created, set up with a few files and closed costs a few file writes.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from devicesworld.devices.base import ActionResult, DeviceContext, DeviceError
from devicesworld.devices.drive import get_drive
from devicesworld.devices.linux import args as a
from devicesworld.devices.linux.browser import Browser, BrowserError, PageView, make_browser
from devicesworld.devices.linux.resources import readers, writers
from devicesworld.devices.linux.resources.check import check_tree
from devicesworld.devices.linux.resources.readers import FormatError
from devicesworld.devices.linux.sandbox import HOME, Sandbox, truncate
from devicesworld.devices.linux.sites.server import SiteService, get_sites

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


class LinuxDevice:
    """One ``linux_<n>`` desktop of a task."""

    def __init__(self, device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> None:
        self.device_id = device_id
        self.profile = a.LinuxProfile.model_validate(dict(profile))
        self.context = context
        self.drive = get_drive(context)
        self.sandbox = Sandbox(context.workdir, hostname=device_id.replace("_", "-"), drive=self.drive.root)
        self._browser: Browser | None = None
        self._sites: SiteService | None = None
        self.history: list[dict[str, Any]] = []
        self._closed = False
        self._actions: dict[str, Callable[[Any], ActionResult]] = {
            "run_command": self._run_command,
            "read_file": self._read_file,
            "write_file": self._write_file,
            "list_dir": self._list_dir,
            "delete_file": self._delete,
            "read_document": self._read_document,
            "write_document": self._write_document,
            "write_email_draft": self._write_email,
            "browser_open": lambda g: self._page(lambda b: b.open(g.url)),
            "browser_read": lambda g: self._page(lambda b: b.read()),
            "browser_click": lambda g: self._page(lambda b: b.click(g.index)),
            "browser_type": lambda g: self._page(lambda b: b.type(g.index, g.text, g.clear)),
            "browser_select": lambda g: self._page(lambda b: b.select(g.index, g.option)),
            "browser_submit": lambda g: self._page(lambda b: b.submit(g.index)),
            "browser_back": lambda g: self._page(lambda b: b.back()),
            "browser_screenshot": self._browser_screenshot,
        }
        self._ops: dict[str, Callable[[Any], None]] = {
            "write_text": lambda o: writers.write_text(self._host(o.path), o.content),
            "write_csv": lambda o: writers.write_csv(self._host(o.path), o.rows),
            "write_json": lambda o: writers.write_json(self._host(o.path), o.data),
            "write_xlsx": lambda o: writers.write_xlsx(self._host(o.path), o.sheets),
            "write_docx": lambda o: writers.write_docx(self._host(o.path), o.paragraphs, o.title, o.table),
            "write_pdf": lambda o: writers.write_pdf(self._host(o.path), o.paragraphs, o.title),
            "write_image": lambda o: writers.write_image(
                self._host(o.path), o.width, o.height, o.color, o.text, o.description
            ),
            "write_wav": lambda o: writers.write_wav(
                self._host(o.path), o.seconds, o.frequency, o.sample_rate, o.channels
            ),
            "write_archive": lambda o: writers.write_archive(self._host(o.path), o.files),
            "write_project": lambda o: writers.write_tree(self._host(o.path), o.files),
            "write_eml": self._op_eml,
            "make_dir": lambda o: self._host(o.path).mkdir(parents=True, exist_ok=True),
            "run": self._op_run,
            "add_site": self._op_site,
        }
        self._getters: dict[str, Callable[[Any], Any]] = {
            "file_info": lambda g: self._file_info(g.path),
            "text": lambda g: self._read(g.path, readers.read_text),
            "json": lambda g: self._read(g.path, readers.read_json),
            "csv": lambda g: self._read(g.path, readers.read_csv),
            "xlsx": lambda g: self._read(g.path, lambda p: readers.read_xlsx(p, g.sheet)),
            "docx": lambda g: self._read(g.path, readers.read_docx),
            "pdf_text": lambda g: self._read(g.path, readers.read_pdf),
            "image": lambda g: self._read(g.path, readers.image_info),
            "wav": lambda g: self._read(g.path, readers.wav_info),
            "archive": lambda g: self._read(g.path, readers.archive_names),
            "email_drafts": lambda g: self._drafts(g.folder),
            "listing": lambda g: self._listing(g.path),
            "run": self._get_run,
            "site_submissions": lambda g: self.sites.submissions(g.host, g.form, g.path),
            "site_visits": lambda g: self.sites.visits(g.host, g.path),
            "browser": lambda g: self._browser.current() if self._browser else None,
            "shell_history": lambda g: list(self.history),
            "drive": lambda g: self.drive.listing(),
        }

    # ---------------------------------------------------------------- protocol
    def setup(self, op: str, args: Any) -> None:
        handler = self._ops.get(op)
        if handler is None:
            raise DeviceError("UNSUPPORTED", f"unknown linux setup op {op!r}")
        try:
            handler(args)
        except (PermissionError, ValueError) as exc:
            raise DeviceError("INVALID_ARGS", str(exc)) from None

    def act(self, action: str, args: Any) -> ActionResult:
        if self._closed:
            return ActionResult.failure("INVALID_IN_STATE", "this desktop has been shut down")
        handler = self._actions.get(action)
        if handler is None:
            return ActionResult.failure("UNSUPPORTED", f"linux has no action {action!r}")
        try:
            return handler(args)
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

    def observe(self) -> dict[str, Any]:
        home = self.sandbox.paths.home
        try:
            entries = sorted(
                e.name + ("/" if e.is_dir() else "") for e in home.iterdir() if not e.name.startswith(".")
            )
        except OSError:
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

    def get(self, getter: str, args: Any) -> Any:
        fn = self._getters.get(getter)
        if fn is None:
            raise DeviceError("UNSUPPORTED", f"unknown linux getter {getter!r}")
        try:
            return fn(args)
        except FormatError as exc:
            raise DeviceError("INVALID_FORMAT", str(exc)) from None
        except PermissionError as exc:
            raise DeviceError("PERMISSION_DENIED", str(exc)) from None

    def screenshot(self) -> bytes | None:
        """The browser page when one is open; a desktop without a browser has nothing to show."""
        if self._browser is None or self._browser.current() is None:
            return None
        return self._browser.screenshot()

    def check_resources(self) -> list[str]:
        """Quality control after setup: one problem per document under the home that fails to open.

        Every file the setup wrote under ``/home/user`` (the shared ``~/Drive`` is left to
        the drive) is opened with its format's reader (openpyxl, python-docx, pypdf,
        Pillow, wave, zipfile/tarfile, json, csv, email); ``[]`` means all open.
        """
        home = self.sandbox.paths.home
        return check_tree(
            home,
            lambda p: self.sandbox.from_host(p) or p.name,
            skip=(home / "Drive",),
        )

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

    def _host(self, path: str) -> Path:
        return self.sandbox.to_host(path)

    def _shown(self, path: str) -> str:
        host = self._host(path)
        return self.sandbox.from_host(host) or path

    def _read(self, path: str, reader: Callable[[Path], Any]) -> Any:
        host = self._host(path)
        if not host.is_file():
            return None
        return reader(host)

    def _file_info(self, path: str) -> dict[str, Any]:
        host = self._host(path)
        if not host.exists():
            return {"exists": False}
        return {
            "exists": True,
            "is_dir": host.is_dir(),
            "size": host.stat().st_size if host.is_file() else None,
        }

    def _listing(self, path: str) -> list[str] | None:
        host = self._host(path)
        if not host.is_dir():
            return None
        return sorted(str(p.relative_to(host)) for p in host.rglob("*") if p.is_file())

    def _drafts(self, folder: str) -> list[dict[str, Any]]:
        host = self._host(folder)
        if not host.is_dir():
            return []
        out: list[dict[str, Any]] = []
        for p in sorted(host.glob("*.eml")):
            try:
                out.append({"file": p.name, "modified_ns": p.stat().st_mtime_ns, **readers.read_eml(p)})
            except FormatError as exc:
                out.append({"file": p.name, "error": str(exc)})
        return out

    # ---------------------------------------------------------------- ops
    def _op_eml(self, o: a.WriteEmlOp) -> None:
        path = o.path or f"~/Mail/Drafts/{_slug(o.subject)}.eml"
        writers.write_eml(self._host(path), o.to, o.subject, o.body, o.sender, o.cc)

    def _op_run(self, o: a.RunOp) -> None:
        result = self.sandbox.run(o.command, timeout=o.timeout_s, keep_cwd=False)
        if result.exit_code != 0:
            raise DeviceError(
                "SETUP_COMMAND_FAILED",
                f"`{o.command}` exited {result.exit_code}: {result.stderr.strip()[-500:]}",
            )

    def _op_site(self, o: a.AddSiteOp) -> None:
        self.sites.add(o.site)

    def _get_run(self, g: a.CommandGetterArgs) -> dict[str, Any]:
        saved = self.sandbox.cwd
        try:
            self.sandbox.cwd = self._shown(g.cwd)
            result = self.sandbox.run(g.command, timeout=g.timeout_s, keep_cwd=False)
        finally:
            self.sandbox.cwd = saved
        return {"exit_code": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}

    # ---------------------------------------------------------------- actions
    def _run_command(self, g: a.RunCommandArgs) -> ActionResult:
        r = self.sandbox.run(g.command, timeout=g.timeout_s)
        self.history.append({"command": g.command, "exit_code": r.exit_code})
        data = {"exit_code": r.exit_code, "stdout": r.stdout, "stderr": r.stderr, "cwd": r.cwd}
        if r.timed_out:
            return ActionResult.failure("TIMEOUT", f"timed out after {g.timeout_s:g} s", data)
        msg = f"exit code {r.exit_code}" + (" (output truncated)" if r.truncated else "")
        if r.exit_code != 0:
            return ActionResult(ok=True, message=msg + " (the command failed)", data=data)
        return ActionResult.success(msg, data)

    def _read_file(self, g: a.ReadFileArgs) -> ActionResult:
        host = self._host(g.path)
        if host.suffix.lower() in _DOC_SUFFIXES and host.is_file():
            return ActionResult.failure(
                "BINARY_FILE", f"{g.path} is a {host.suffix} file; open it with read_document instead"
            )
        raw = host.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return ActionResult.failure("BINARY_FILE", f"{g.path} is not a text file ({len(raw)} bytes)")
        shown, cut = truncate(text, g.max_chars)
        return ActionResult.success(
            f"{self._shown(g.path)}: {len(text)} characters" + (" (truncated)" if cut else ""), shown
        )

    def _write_file(self, g: a.WriteFileArgs) -> ActionResult:
        host = self._host(g.path)
        host.parent.mkdir(parents=True, exist_ok=True)
        with host.open("a" if g.append else "w", encoding="utf-8") as fh:
            fh.write(g.content)
        return ActionResult.success(
            f"{'appended to' if g.append else 'wrote'} {self._shown(g.path)} ({len(g.content)} characters)"
        )

    def _list_dir(self, g: a.ListDirArgs) -> ActionResult:
        host = self._host(g.path)
        if not host.is_dir():
            return ActionResult.failure("NOT_FOUND", f"{g.path}: no such folder")
        entries: list[dict[str, Any]] = []
        for e in sorted(host.iterdir(), key=lambda p: p.name):
            if e.is_dir():
                entries.append({"name": e.name + "/", "type": "folder"})
            else:
                entries.append({"name": e.name, "type": "file", "size": e.stat().st_size})
        more = len(entries) > MAX_LISTING
        return ActionResult.success(
            f"{self._shown(g.path)}: {len(entries)} entries"
            + (f" (first {MAX_LISTING} shown)" if more else ""),
            entries[:MAX_LISTING],
        )

    def _delete(self, g: a.DeleteArgs) -> ActionResult:
        host = self._host(g.path)
        shown = self._shown(g.path)
        if shown in (HOME, "/tmp", f"{HOME}/Drive"):
            return ActionResult.failure("PERMISSION_DENIED", f"refusing to delete {shown} itself")
        if host.is_symlink() or host.is_file():
            host.unlink()
        elif host.is_dir():
            if any(host.iterdir()) and not g.recursive:
                return ActionResult.failure(
                    "NOT_EMPTY", f"{shown} is a non-empty folder; pass recursive=true"
                )
            shutil.rmtree(host)
        else:
            return ActionResult.failure("NOT_FOUND", f"{g.path}: no such file or folder")
        return ActionResult.success(f"deleted {shown}")

    def _read_document(self, g: a.PathArgs) -> ActionResult:
        host = self._host(g.path)
        if not host.is_file():
            return ActionResult.failure("NOT_FOUND", f"{g.path}: no such file")
        suffix = (
            "".join(host.suffixes[-2:]).lower()
            if host.name.lower().endswith(".tar.gz")
            else host.suffix.lower()
        )
        data: Any
        if suffix in (".xlsx", ".xlsm"):
            data = {name: readers.read_xlsx(host, name) for name in readers.xlsx_sheets(host)}
        elif suffix == ".docx":
            data = readers.read_docx(host)
        elif suffix == ".pdf":
            data = readers.read_pdf(host)
        elif suffix == ".csv":
            data = readers.read_csv(host)
        elif suffix == ".json":
            data = readers.read_json(host)
        elif suffix in (".png", ".jpg", ".jpeg", ".gif", ".bmp"):
            data = readers.image_info(host)
        elif suffix == ".wav":
            data = readers.wav_info(host)
        elif suffix in (".zip", ".tar", ".tgz", ".tar.gz"):
            data = readers.archive_names(host)
        elif suffix == ".eml":
            data = readers.read_eml(host)
        else:
            data = readers.read_text(host)
        return ActionResult.success(f"opened {self._shown(g.path)}", data)

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

    def _write_email(self, g: a.WriteEmailArgs) -> ActionResult:
        name = g.filename or f"{_slug(g.subject)}.eml"
        if not name.endswith(".eml"):
            name += ".eml"
        path = f"~/Mail/Drafts/{name}"
        writers.write_eml(self._host(path), g.to, g.subject, g.body, "user@example.com", g.cc)
        return ActionResult.success(f"draft saved as {path}")

    # ---------------------------------------------------------------- browser
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

    def _browser_screenshot(self, g: Any) -> ActionResult:
        """Like a desktop's screenshot tool: the PNG lands in ~/Pictures/Screenshots."""
        browser = self.browser()
        if browser.current() is None:
            return ActionResult.failure("NO_PAGE", "no page is open; use browser_open first")
        png = browser.screenshot()
        folder = self._host("~/Pictures/Screenshots")
        folder.mkdir(parents=True, exist_ok=True)
        n = 1 + sum(1 for _ in folder.glob("screenshot-*.png"))
        name = f"screenshot-{n:03d}.png"
        (folder / name).write_bytes(png)
        path = f"~/Pictures/Screenshots/{name}"
        return ActionResult.success(f"screenshot saved as {path}", {"path": path, "bytes": len(png)})


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")[:60] or "draft"


def factory(device_id: str, profile: Mapping[str, Any], context: DeviceContext) -> LinuxDevice:
    return LinuxDevice(device_id, profile, context)

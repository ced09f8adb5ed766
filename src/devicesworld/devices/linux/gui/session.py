"""One Linux device's desktop: its sandbox's home and ``/tmp`` under a long-lived X desktop.

The desktop shares the device's folders with the per-command sandbox (setup ops and
verifier getters write and read the same files), so the only new state is the running
desktop itself. The home is filled from the template (:mod:`.template`) before the
task's setup writes its files; the desktop starts lazily, on the first observation,
action or ``open_app`` op, so a pre-warming reset (the runner resets the next episode
while the current one runs) hides its start and LibreOffice's. Given a
:class:`~.pool.ReadyDesktop` (a spare from the pool: home, template and desktop made
ahead of time) it adopts that instead, and nothing starts on the episode's path.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable

from devicesworld.devices.desktop.client import Desktop, DesktopConfig, DesktopError
from devicesworld.devices.desktop.clock import MOUNT as CLOCK_MOUNT
from devicesworld.devices.desktop.clock import offset_spec
from devicesworld.devices.desktop.gui import GuiSession, TreeBudget
from devicesworld.devices.linux.gui import mail_inbox, shell, warm_office
from devicesworld.devices.linux.gui.apps import APPS
from devicesworld.devices.linux.gui.pool import ReadyDesktop, spare_key
from devicesworld.devices.linux.gui.sites_relay import PROXY_PORT, SOCKET_DIR, SitesRelay
from devicesworld.devices.linux.gui.template import copy_template
from devicesworld.devices.linux.sandbox import HOME, Sandbox
from devicesworld.devices.linux.sites.server import SiteService
from devicesworld.devices.safefs import FsError


class LinuxDesktop:
    """The GUI half of a Linux device in ``desktop: gui`` mode."""

    def __init__(
        self,
        sandbox: Sandbox,
        *,
        width: int,
        height: int,
        sites: Callable[[], SiteService | None] = lambda: None,
        ready: ReadyDesktop | None = None,
    ) -> None:
        """``ready``: a pooled spare whose home ``sandbox`` already uses (its template is in)."""
        self.sandbox = sandbox
        self.sites = sites
        self._relay: SitesRelay | None = None
        self.width, self.height = width, height
        self._desktop: Desktop | None = None
        self._session: GuiSession | None = None
        self._lock = threading.Lock()
        self.problem: str | None = None
        self.ready = ready
        self._office: str | None = None
        """The LibreOffice app the task's setup opened (what the next spares keep warm)."""
        self._set_up = False
        if ready is None:
            copy_template(sandbox.paths.home, sandbox.host_ids)
        else:
            self._relay = SitesRelay(ready.relay_folder, self.sites)
            self._desktop = ready.desktop
            self._session = self._new_session(ready.desktop)
            clock = sandbox.clock
            if clock is not None and clock.env:  # the spare's panel is up: its clock shows the task's
                shell.show_clock(ready.desktop, sandbox.paths.tmp, clock.path)

    def _start_shell(self, desk: Desktop) -> None:
        """The desktop icons and the panel (its clock on the task's clock): the first screenshot shows
        a desktop a person would recognise."""
        clock = self.sandbox.clock
        shell.start(desk, clock.env if clock is not None else {})

    def _new_session(self, desk: Desktop) -> GuiSession:
        clock = self.sandbox.clock
        return GuiSession(
            desk,
            APPS,
            to_sandbox_path=self.sandbox.normalize,
            budget=TreeBudget(),
            env=clock.env if clock is not None else {},
            warm=self.ready.warm if self.ready is not None and desk is self.ready.desktop else None,
            pinned_env=clock.pinned_env if clock is not None else None,
        )

    def opened(self, app: str, path: str | None = None) -> None:
        """The task's setup opens ``app`` (``open_app``, told before the launch), on ``path`` if given."""
        document = None
        if app in warm_office.OFFICE_APPS:
            self._office = app
            document = self._document(path)
            key = spare_key(self.sandbox.hostname, self.width, self.height)
            if key is not None:  # now: the spare the pool is starting meanwhile checks once it is up
                warm_office.note(key, app, document)
        self._check_preloaded(app, document)

    def _document(self, path: str | None) -> warm_office.Document | None:
        """The file ``open_app`` opens, if a spare could pre-open it: written by this setup (dated by
        the host's clock, not a file carrying its own date: see :func:`.warm_office.dates_agree`)."""
        if path is None or "://" in path:
            return None
        try:
            norm = self.sandbox.normalize(path)
            shift = self._shift_ns()
            found = warm_office.read_document(self.sandbox.locate(norm), norm, shift)
        except (ValueError, FsError):
            return None
        if found is None or abs(found.mtime_ns - shift - time.time_ns()) > warm_office.FRESH_WRITE_NS:
            return None
        return found

    def _shift_ns(self) -> int:
        """How far the apps' clock is from the host's, as libfaketime applies it (whole seconds)."""
        clock = self.sandbox.clock
        if clock is None or not clock.env or clock.offset_s is None:
            return 0
        return int(offset_spec(clock.offset_s)) * 1_000_000_000

    def _check_preloaded(self, app: str, document: warm_office.Document | None) -> None:
        """The spare's LibreOffice runs on a document of its own (:mod:`.warm_office`): keep it for the
        launch if the setup wrote that very file again and opens it with that app (the file then gets
        the date LibreOffice read), else stop it now and undo what it changed in the home."""
        pre = self.ready.preloaded if self.ready is not None else None
        session = self._session
        if pre is None or session is None or session.warm is None or session.warm.document is None:
            return
        try:
            place = self.sandbox.locate(pre.document.path)
            same = (
                app == session.warm.app
                and document is not None
                and document.same_file(pre.document)
                and warm_office.rewritten(place, pre)
                and warm_office.dates_agree(document, pre.document)
            )
            if same:
                warm_office.take_preloaded(place, pre, self._shift_ns())
                return
        except FsError:
            pass
        self._drop_warm()

    def _drop_warm(self) -> None:
        """Stop a warm LibreOffice no launch took (and undo a pre-opened document's traces)."""
        session = self._session
        if session is None or session.warm is None:
            return
        with contextlib.suppress(DesktopError):
            session.drop_warm()
        pre = self.ready.preloaded if self.ready is not None else None
        if pre is not None and self.ready is not None:
            self.ready.preloaded = None
            home = self.sandbox.locate("~").root
            warm_office.undo_preload(home, pre, self.sandbox.host_ids)

    def end_setup(self) -> None:
        """Once, when the episode starts (the first observation, action or check): the mail client's
        Inbox gets the task's received mail (:mod:`.mail_inbox`), a warm LibreOffice the setup did
        not take is stopped, and the pool learns that the task opened no LibreOffice, if so
        (:mod:`.warm_office`; an office it opened was noted at its ``open_app``)."""
        if self._set_up:
            return
        self._set_up = True
        with contextlib.suppress(FsError):  # a home the setup made unreadable: the Inbox stays empty
            mail_inbox.fill_inbox(self.sandbox.locate("~"), self.sandbox.limits.read_bytes)
        key = spare_key(self.sandbox.hostname, self.width, self.height)
        if key is not None and self._office is None:
            warm_office.note(key, None)
        self._drop_warm()

    def config(self) -> DesktopConfig:
        sb = self.sandbox
        if sb.bwrap is None:
            raise DesktopError("DESKTOP_FAILED", "a GUI desktop needs bubblewrap")
        mount = sb.home_mount
        ids = sb.host_ids
        wrapper = mount.nsenter(ids) if mount is not None and ids is not None else []
        binds = [(src, dest) for src, dest in sb._binds() if dest not in (HOME, "/tmp")]
        if self._relay is not None:
            binds.append((self._relay.folder, SOCKET_DIR))
        ro_binds = [(sb.clock.folder, CLOCK_MOUNT)] if sb.clock is not None and sb.clock.env else []
        sb._open_the_way()
        return DesktopConfig(
            home=sb.paths.bind_home,
            tmp=sb.paths.bind_tmp,
            binds=binds,
            ro_binds=ro_binds,
            width=self.width,
            height=self.height,
            hostname=sb.hostname,
            wrapper=wrapper,
            run_as=None if wrapper else ids,
            bwrap=sb.bwrap,
        )

    @property
    def session(self) -> GuiSession:
        """The running desktop's session, started on first use (raises DesktopError if it cannot)."""
        with self._lock:
            if self._session is None:
                if self.problem is not None:
                    raise DesktopError("DESKTOP_FAILED", self.problem)
                if self._relay is None:
                    self._relay = SitesRelay(self.sandbox.paths.root / "sites-relay", self.sites)
                desk = Desktop(self.config())
                try:
                    desk.start()
                    desk.forward(PROXY_PORT, f"{SOCKET_DIR}/sock")
                    self._start_shell(desk)
                except DesktopError as exc:
                    desk.close()
                    self.problem = exc.message
                    raise
                self._desktop = desk
                self._session = self._new_session(desk)
            return self._session

    @property
    def started(self) -> bool:
        return self._session is not None

    def close(self) -> None:
        with self._lock:
            if self._desktop is not None:
                self._desktop.close()
            if self._relay is not None:
                self._relay.close()
            if self.ready is not None:
                self.ready.close()  # its home's holder is the sandbox's: closing it twice is harmless
            self._desktop, self._session, self._relay, self.ready = None, None, None, None

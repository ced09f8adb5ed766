"""Music (Retro Music): songs from the media store, playlists, play/pause/next, a now-playing screen.

Playback state (``now_playing`` title, ``playing``) is kept in the app's preferences;
playlists live in the media store's ``audio_playlists`` tables as on Android.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps.base import App, Dialog, Screen
from devicesworld.devices.android.media import write_wav
from devicesworld.devices.android.providers import MEDIA_DB
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View
from devicesworld.devices.base import DeviceError

if TYPE_CHECKING:
    from devicesworld.devices.android.device import AndroidDevice
    from devicesworld.devices.android.setup import PlaylistArgs, SongArgs

PACKAGE = "code.name.monkey.retromusic"


def songs(app: App) -> list[dict[str, Any]]:
    """The library: audio files under /sdcard/Music, by title."""
    return [m for m in p.media(app.storage, "audio/") if str(m["_data"]).startswith("/sdcard/Music/")]


def playlists(storage: Any) -> dict[str, list[str]]:
    conn = storage.db(*MEDIA_DB)
    out: dict[str, list[str]] = {
        r[0]: [] for r in conn.execute("SELECT name FROM audio_playlists ORDER BY name")
    }
    rows = conn.execute(
        "SELECT pl.name, f.title FROM audio_playlists_map m JOIN audio_playlists pl ON pl._id = m.playlist_id "
        "JOIN files f ON f._id = m.audio_id ORDER BY pl.name, m.play_order"
    )
    for name, title in rows:
        out[name].append(title)
    return out


def add_to_playlist(storage: Any, playlist: str, title: str) -> bool:
    conn = storage.db(*MEDIA_DB)
    pl = conn.execute("SELECT _id FROM audio_playlists WHERE name=?", (playlist,)).fetchone()
    song = conn.execute(
        "SELECT _id FROM files WHERE title=? AND mime_type LIKE 'audio/%'", (title,)
    ).fetchone()
    if pl is None or song is None:
        return False
    if conn.execute(
        "SELECT 1 FROM audio_playlists_map WHERE playlist_id=? AND audio_id=?", (pl[0], song[0])
    ).fetchone():
        return True
    n = conn.execute("SELECT COUNT(*) FROM audio_playlists_map WHERE playlist_id=?", (pl[0],)).fetchone()[0]
    conn.execute(
        "INSERT INTO audio_playlists_map (playlist_id, audio_id, play_order) VALUES (?,?,?)",
        (pl[0], song[0], n),
    )
    return True


def setup_song(device: AndroidDevice, args: SongArgs) -> None:
    """What the ``add_song`` setup op does (declared in :mod:`devicesworld.devices.android.setup`)."""
    title, artist, album, seconds = args.title, args.artist, args.album, args.seconds
    rel = f"Music/{title}.wav"
    write_wav(device.resolve("sdcard", rel), seconds)
    p.add_media(
        device.storage,
        "/sdcard/" + rel,
        "audio/wav",
        device.context.clock.now,
        title,
        artist,
        album,
        seconds * 1000,
    )


def setup_playlist(device: AndroidDevice, args: PlaylistArgs) -> None:
    """What the ``add_playlist`` setup op does (declared in :mod:`devicesworld.devices.android.setup`)."""
    name, titles = args.name, args.songs
    device.storage.execute(*MEDIA_DB, "INSERT OR IGNORE INTO audio_playlists (name) VALUES (?)", (name,))
    for title in titles:
        if not add_to_playlist(device.storage, name, title):
            raise DeviceError("NOT_FOUND", f"no song titled {title!r} for playlist {name!r}")


class MusicApp(App):
    package = PACKAGE
    label_key = "app.music"
    permission = "media"
    tabs = (("songs", "mu.songs"), ("playlists", "mu.playlists"))

    def play(self, title: str) -> None:
        self.storage.put_pref(PACKAGE, "now_playing", title)
        self.storage.put_pref(PACKAGE, "playing", True)
        self.phone.start(PACKAGE, "player")

    def screen_main(self, screen: Screen) -> View:
        if self.tab(screen) == "playlists":
            rows = [
                v.item(
                    name,
                    f"{len(titles)} ♪",
                    rid=self.rid("playlist"),
                    on_click=partial(self.phone.start, PACKAGE, "playlist", name=name),
                )
                for name, titles in playlists(self.storage).items()
            ]
            return self.page(
                self.appbar(self.t("app.music"), up=False),
                self.tab_row(screen),
                self.scroll("pls", rows, screen.state, rid="recycler_view", empty="mu.no_songs"),
                v.button(
                    self.t("mu.new_playlist"),
                    self._new_playlist,
                    rid=self.rid("new_playlist"),
                    style="primary",
                ),
            )
        rows = [
            v.item(
                s["title"],
                s["artist"],
                on_click=partial(self.play, s["title"]),
                on_long_click=partial(self._add_dialog, s["title"]),
                rid=self.rid("song"),
            )
            for s in songs(self)
        ]
        return self.page(
            self.appbar(self.t("app.music"), up=False),
            self.tab_row(screen),
            self.scroll("songs", rows, screen.state, rid="recycler_view", empty="mu.no_songs"),
        )

    def screen_playlist(self, screen: Screen) -> View:
        name = str(screen.state["name"])
        rows = [
            v.item(t, on_click=partial(self.play, t), rid=self.rid("song"))
            for t in playlists(self.storage).get(name, [])
        ]
        return self.page(
            self.appbar(name),
            self.scroll("songs", rows, screen.state, rid="recycler_view", empty="mu.no_songs"),
        )

    def screen_player(self, screen: Screen) -> View:
        title = self.storage.pref(PACKAGE, "now_playing", "")
        playing = bool(self.storage.pref(PACKAGE, "playing", False))

        def toggle() -> None:
            self.storage.put_pref(PACKAGE, "playing", not playing)

        def next_song() -> None:
            titles = [s["title"] for s in songs(self)]
            if titles:
                i = titles.index(title) + 1 if title in titles else 0
                self.storage.put_pref(PACKAGE, "now_playing", titles[i % len(titles)])
                self.storage.put_pref(PACKAGE, "playing", True)

        artist = next((s["artist"] for s in songs(self) if s["title"] == title), "")
        return self.page(
            self.appbar(self.t("mu.now_playing")),
            v.column(
                v.text(title, rid=self.rid("title"), height=64, style="headline"),
                v.text(artist, rid=self.rid("text"), height=40, style="dim"),
                fill=True,
            ),
            v.row(
                v.icon_button(
                    self.t("mu.pause") if playing else self.t("mu.play"),
                    toggle,
                    rid=self.rid("playPauseButton"),
                ),
                v.icon_button(self.t("mu.next"), next_song, rid=self.rid("nextButton")),
                height=64,
            ),
        )

    def _new_playlist(self) -> None:
        def ok(d: Dialog) -> None:
            name = str(d.state.get("name", "")).strip()
            if name:
                self.storage.execute(
                    *MEDIA_DB, "INSERT OR IGNORE INTO audio_playlists (name) VALUES (?)", (name,)
                )
                self.phone.dismiss()

        self.ask_name(self.t("mu.new_playlist"), "playlist_name", ok)

    def _add_dialog(self, title: str) -> None:
        def add(name: str) -> None:
            add_to_playlist(self.storage, name, title)
            self.phone.dismiss()
            self.phone.show_toast(self.t("mu.added", name=name))

        self.phone.show_dialog(
            Dialog(
                title=self.t("mu.add_to_playlist"),
                body=lambda d: [
                    v.button(name, partial(add, name), rid=self.rid("playlist_choice"))
                    for name in playlists(self.storage)
                ],
                buttons=lambda d: v.dialog_buttons(self.t("sys.cancel"), self.phone.dismiss),
            )
        )

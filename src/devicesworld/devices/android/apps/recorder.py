"""Audio Recorder: Record starts, Stop saves ``/sdcard/Recordings/Record-N.wav`` with the elapsed virtual time.

Time passes only through ``wait`` (or another device advancing the clock), so an agent
must record, wait, then stop — as a person would.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps.base import App, Screen
from devicesworld.devices.android.media import write_wav
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

PACKAGE = "com.dimowner.audiorecorder"


class RecorderApp(App):
    package = PACKAGE
    label_key = "app.recorder"
    permission = "microphone"

    def recordings(self) -> list[dict[str, Any]]:
        return [
            m for m in p.media(self.storage, "audio/") if str(m["_data"]).startswith("/sdcard/Recordings/")
        ]

    def screen_main(self, screen: Screen) -> View:
        started = self.storage.pref(PACKAGE, "recording_since")

        def record() -> None:
            self.storage.put_pref(PACKAGE, "recording_since", self.phone.clock.now.isoformat())

        def stop() -> None:
            since = datetime.fromisoformat(str(self.storage.pref(PACKAGE, "recording_since")))
            seconds = max((self.phone.clock.now - since).total_seconds(), 0.0)
            n = len(self.recordings()) + 1
            rel = f"Recordings/Record-{n}.wav"
            write_wav(self.phone.locate("sdcard", rel), seconds)
            p.add_media(
                self.storage,
                "/sdcard/" + rel,
                "audio/wav",
                self.phone.clock.now,
                f"Record-{n}",
                duration=round(seconds * 1000),
            )
            self.storage.put_pref(PACKAGE, "recording_since", None)
            self.storage.put_pref(PACKAGE, "last_recording", {"path": rel, "seconds": round(seconds, 1)})
            self.phone.show_toast(self.t("rec.saved", name=f"Record-{n}.wav"))

        rows = [
            v.item(str(m["_display_name"]), f"{int(m['duration']) // 1000} s", rid=self.rid("list_item"))
            for m in self.recordings()
        ]
        if started:
            elapsed = int((self.phone.clock.now - datetime.fromisoformat(str(started))).total_seconds())
            status = v.text(
                f"{self.t('rec.recording')} {elapsed // 60:02d}:{elapsed % 60:02d}",
                rid=self.rid("txt_progress"),
                height=64,
                style="headline",
            )
            control = v.button(self.t("rec.stop"), stop, rid=self.rid("btn_stop"), style="danger")
        else:
            status = v.text("00:00", rid=self.rid("txt_progress"), height=64, style="headline")
            control = v.button(
                self.t("rec.record"), record, rid=self.rid("btn_record_start"), style="primary"
            )
        return self.page(
            self.appbar(self.t("app.recorder"), up=False),
            status,
            v.text(self.t("rec.list"), height=32, style="label"),
            self.scroll("recs", rows, screen.state, rid="recycler_view"),
            control,
        )

"""Maps (OsmAnd): search places by name, category or address; details with address and coordinates; saved places.

Places come from the task (setup op ``add_place``) into the app's own database; the
saved list is the app preference ``saved_places`` (names, in saving order).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from devicesworld.devices.android.apps.base import App, Screen
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

if TYPE_CHECKING:
    from devicesworld.devices.android.device import AndroidDevice
    from devicesworld.devices.android.setup import PlaceArgs

PACKAGE = "net.osmand"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS places (_id INTEGER PRIMARY KEY, name TEXT, address TEXT, lat REAL, "
    "lon REAL, category TEXT)"
)


def places(storage: Any) -> list[dict[str, Any]]:
    conn = storage.db(PACKAGE, "app.db")
    conn.execute(_SCHEMA)
    return [dict(r) for r in conn.execute("SELECT * FROM places ORDER BY name")]


def setup_place(device: AndroidDevice, args: PlaceArgs) -> None:
    """What the ``add_place`` setup op does (declared in :mod:`devicesworld.devices.android.setup`)."""
    conn = device.storage.db(PACKAGE, "app.db")
    conn.execute(_SCHEMA)
    a = args
    conn.execute(
        "INSERT INTO places (name, address, lat, lon, category) VALUES (?,?,?,?,?)",
        (a.name, a.address, a.lat, a.lon, a.category),
    )
    if a.saved:
        saved = list(device.storage.pref(PACKAGE, "saved_places", []))
        device.storage.put_pref(PACKAGE, "saved_places", [*saved, a.name])


class MapsApp(App):
    package = PACKAGE
    label_key = "app.maps"

    def screen_main(self, screen: Screen) -> View:
        st = screen.state
        query = str(st.get("applied", "")).strip().casefold()

        def search() -> None:
            st["applied"] = st.get("q", "")
            self.phone.keyboard = False

        rows: list[View] = []
        if query:
            for pl in places(self.storage):
                hay = f"{pl['name']} {pl['address']} {pl['category']}".casefold()
                if query in hay:
                    rows.append(
                        v.item(
                            pl["name"],
                            pl["address"],
                            rid=self.rid("search_result"),
                            on_click=partial(self.phone.start, PACKAGE, "place", pid=pl["_id"]),
                        )
                    )
        return self.page(
            self.appbar(
                self.t("app.maps"),
                up=False,
                actions=[
                    v.icon_button(
                        self.t("mp.saved"),
                        partial(self.phone.start, PACKAGE, "saved"),
                        rid=self.rid("favorites"),
                    )
                ],
            ),
            v.row(
                self.edit_field(
                    st, "q", hint="mp.search_hint", rid="searchEditText", on_enter=search, weight=5
                ),
                v.icon_button(self.t("sys.search"), search, rid=self.rid("search_button")),
                height=56,
            ),
            self.scroll("results", rows, st, rid="search_results", empty="mp.no_results" if query else ""),
        )

    def screen_place(self, screen: Screen) -> View:
        pl = next((x for x in places(self.storage) if x["_id"] == screen.state["pid"]), None)
        if pl is None:
            return self.page(self.appbar(""), v.text(self.t("mp.no_results"), style="dim"))
        saved = list(self.storage.pref(PACKAGE, "saved_places", []))
        is_saved = pl["name"] in saved

        def toggle() -> None:
            new = [n for n in saved if n != pl["name"]] if is_saved else [*saved, pl["name"]]
            self.storage.put_pref(PACKAGE, "saved_places", new)

        return self.page(
            self.appbar(pl["name"]),
            v.column(
                v.text(pl["name"], rid=self.rid("title"), height=56, style="headline"),
                v.item(pl["address"], self.t("mp.address"), rid=self.rid("address")),
                v.item(f"{pl['lat']:.5f}, {pl['lon']:.5f}", self.t("mp.coords"), rid=self.rid("coordinates")),
                v.text(pl["category"], rid=self.rid("category"), height=32, style="dim"),
                fill=True,
            ),
            View(
                v.BUTTON,
                text=self.t("mp.unsave") if is_saved else self.t("mp.save"),
                on_click=toggle,
                checkable=True,
                checked=is_saved,
                resource_id=self.rid("save_button"),
                height=56,
                style="primary",
            ),
        )

    def screen_saved(self, screen: Screen) -> View:
        by_name = {pl["name"]: pl for pl in places(self.storage)}
        rows = [
            v.item(
                name,
                by_name[name]["address"] if name in by_name else "",
                rid=self.rid("favorite_item"),
                on_click=partial(self.phone.start, PACKAGE, "place", pid=by_name[name]["_id"])
                if name in by_name
                else None,
            )
            for name in self.storage.pref(PACKAGE, "saved_places", [])
        ]
        return self.page(
            self.appbar(self.t("mp.saved")),
            self.scroll("saved", rows, screen.state, rid="favorites_list", empty="mp.no_results"),
        )

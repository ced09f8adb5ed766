"""File actions, text/CSV/JSON resources and their checks."""

from __future__ import annotations

from tests.devices.linux.linux_harness import Desktop


def test_write_read_list_delete(desk: Desktop) -> None:
    desk.ok("write_file", path="~/notes/todo.txt", content="milk\n")
    desk.ok("write_file", path="~/notes/todo.txt", content="eggs\n", append=True)
    assert desk.ok("read_file", path="/home/user/notes/todo.txt") == "milk\neggs\n"
    assert desk.sh("cat notes/todo.txt")["stdout"] == "milk\neggs\n"
    listing = desk.ok("list_dir", path="~/notes")
    assert listing == [{"name": "todo.txt", "type": "file", "size": 10}]
    r = desk.act("delete_file", path="~/notes")
    assert not r.ok and r.error_code == "NOT_EMPTY"
    desk.ok("delete_file", path="~/notes", recursive=True)
    assert desk.get("file_info", {"path": "~/notes"}) == {"exists": False}
    assert not desk.act("delete_file", path="~").ok


def test_missing_and_binary_files_give_clear_errors(desk: Desktop) -> None:
    r = desk.act("read_file", path="~/nope.txt")
    assert not r.ok and r.error_code == "NOT_FOUND"
    desk.setup("write_image", path="~/pic.png", width=10, height=10)
    r = desk.act("read_file", path="~/pic.png")
    assert not r.ok and "read_document" in r.message
    r = desk.act("list_dir", path="~/nothing")
    assert not r.ok and r.error_code == "NOT_FOUND"


def test_text_checks(desk: Desktop) -> None:
    desk.setup("write_text", path="~/policy.txt", content="Quiet hours: 22:00-07:00.\nMax temperature 24 C.")
    assert desk.check("file_contains", path="~/policy.txt", contains=["quiet HOURS", "24 c"]).passed
    bad = desk.check("file_contains", path="~/policy.txt", contains=["25 C"])
    assert not bad.passed and "missing" in bad.detail
    assert not desk.check("file_contains", path="~/policy.txt", contains=["Quiet"], absent=["Max"]).passed
    assert not desk.check("file_contains", path="~/none.txt", contains=["x"]).passed
    assert desk.check("file_exists", path="~/policy.txt").passed
    assert desk.check("file_exists", path="~/gone.txt", exists=False).passed
    desk.ok("write_file", path="~/answer.txt", content="  42\n")
    assert desk.check("file_equals", path="~/answer.txt", text="42").passed
    assert not desk.check("file_equals", path="~/answer.txt", text="41").passed


def test_csv_and_json_checks(desk: Desktop) -> None:
    desk.setup("write_csv", path="~/data/sales.csv", rows=[["region", "units"], ["north", 12], ["south", 7]])
    assert desk.get("csv", {"path": "~/data/sales.csv"}) == [
        ["region", "units"],
        ["north", "12"],
        ["south", "7"],
    ]
    assert desk.check("table_cell_equals", path="~/data/sales.csv", row=2, column="units", equals=7).passed
    assert desk.check("table_cell_equals", path="~/data/sales.csv", row=1, column=0, equals="NORTH").passed
    assert not desk.check(
        "table_cell_equals", path="~/data/sales.csv", row=1, column="price", equals=1
    ).passed
    assert desk.check("table_has_row", path="~/data/sales.csv", row={"region": "south", "units": "7"}).passed
    assert desk.check("table_has_row", path="~/data/sales.csv", row=["north", 12]).passed
    assert not desk.check("table_has_row", path="~/data/sales.csv", row={"region": "east"}).passed
    assert desk.check("table_row_count", path="~/data/sales.csv", rows=2).passed

    desk.setup(
        "write_json", path="~/cfg.json", data={"order": {"items": [{"sku": "A1", "qty": 2}]}, "ok": True}
    )
    assert desk.check("json_field_equals", path="~/cfg.json", field="order.items.0.qty", equals=2).passed
    assert desk.check("json_field_equals", path="~/cfg.json", field="ok", equals=True).passed
    wrong = desk.check("json_field_equals", path="~/cfg.json", field="order.total", equals=3)
    assert not wrong.passed and "total" in wrong.detail
    desk.ok("write_file", path="~/broken.json", content="{not json")
    broken = desk.check("json_field_equals", path="~/broken.json", field="a", equals=1)
    assert not broken.passed and "not valid JSON" in broken.detail


def test_shell_edits_are_seen_by_checks(desk: Desktop) -> None:
    desk.setup("write_csv", path="~/in.csv", rows=[["name", "score"], ["ann", 3], ["bob", 9]])
    desk.sh("awk -F, 'NR==1 || $2 > 5' in.csv > high.csv")
    assert desk.check("table_row_count", path="~/high.csv", rows=1).passed
    assert desk.get("shell_history")[-1]["exit_code"] == 0


def test_observation_shows_home_and_sandbox(desk: Desktop) -> None:
    desk.setup("write_text", path="~/a.txt", content="x")
    desk.setup("make_dir", path="~/Documents")
    obs = desk.device.observe()
    assert obs["home"] == ["Documents/", "Drive/", "a.txt"]
    assert obs["sandbox"] == "bubblewrap" and obs["browser"] is None
    assert desk.device.screenshot() is None


def test_setup_command_failure_is_a_device_error(desk: Desktop) -> None:
    import pytest

    from devicesworld.devices.base import DeviceError

    desk.setup("run", command="mkdir -p ~/repo && cd ~/repo && echo ok > f")
    assert desk.get("text", {"path": "~/repo/f"}) == "ok\n"
    with pytest.raises(DeviceError, match="exited 3"):
        desk.setup("run", command="exit 3")
    with pytest.raises(DeviceError):
        desk.setup("write_text", path="/etc/evil", content="x")

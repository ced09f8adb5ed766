"""``devicesworld tasks compile`` on malformed data files: exit 2, file:line and field named, no traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main

GOOD = """\
format: 1
defaults:
  devices: [smarthome_0]
tasks:
  - id: ok-1
    instruction: Turn on the lamp.
    setup:
      - add_room: {name: hall}
      - add_device: {device_id: lamp, category: light, room: hall, name: Lamp, state: {}}
    conditions: [{id: on, device_power: {device_id: lamp, on: true}}]
    solution: [{control_device: {device_id: lamp, command: turn_on, params: {}}}]
"""

PHONE = """\
format: 1
tasks:
  - id: ph-1
    instruction: Turn on Bluetooth.
    devices: [android_0]
    conditions: [{id: bt, setting_is: {table: global, name: bluetooth_on, value: '1'}}]
    solution: [{open: Settings}, {press: connected_devices}, {press: bluetooth_switch}]
"""

CASES = [
    ("syntax", "format: 1\ntasks: [\n", r"t\.yaml:3:1: .*expected"),
    (
        "duplicate key",
        GOOD.replace("    solution:", "    instruction: again\n    solution:"),
        r"t\.yaml:11:5: key 'instruction' is given twice",
    ),
    ("not a mapping", "- 1\n- 2\n", r"t\.yaml:1:1: a task data file is a mapping"),
    ("wrong format", GOOD.replace("format: 1", "format: 9"), r"t\.yaml:1:9: format: must be 1"),
    ("unknown top key", GOOD.replace("defaults:", "default:"), r"t\.yaml:3:3: default: unknown key"),
    (
        "unknown task field",
        GOOD.replace("    setup:", "    stup:"),
        r"t\.yaml:8:7: tasks\[0\] \(ok-1\)\.stup: unknown task field",
    ),
    (
        "no id",
        GOOD.replace("  - id: ok-1\n    instruction", "  - instruction"),
        r"t\.yaml:5:5: tasks\[0\]\.id: every task needs an explicit `id`",
    ),
    (
        "unknown op",
        GOOD.replace("add_room:", "add_rooms:"),
        r"t\.yaml:8:9: tasks\[0\] \(ok-1\)\.setup\.0\.op: 'smarthome' has no setup op 'add_rooms'",
    ),
    (
        "bad args",
        GOOD.replace("command: turn_on", "command: 7"),
        r"t\.yaml:11:16: tasks\[0\] \(ok-1\)\.solution\[0\]\.args\.command: Input should be a valid string",
    ),
    (
        "unknown element",
        PHONE.replace("bluetooth_switch", "bluetooth_swich"),
        r"t\.yaml:7:62: .*solution\[2\]: unknown phone element 'bluetooth_swich'",
    ),
    (
        "macro args",
        PHONE.replace("{open: Settings}", "{open: [Settings]}"),
        r"t\.yaml:7:16: .*solution\[0\]: open must be a string",
    ),
    (
        "missing import",
        GOOD.replace("defaults:", "imports: [nowhere.yaml]\ndefaults:"),
        r"t\.yaml:2:11: imports\[0\]: cannot import: .*nowhere\.yaml: no such file",
    ),
    (
        "bad device",
        GOOD.replace("[smarthome_0]", "[toaster]"),
        r"t\.yaml:3:13: .*devices\[0\]: cannot tell the kind of device 'toaster'",
    ),
]


@pytest.mark.parametrize(("name", "text", "expect"), CASES, ids=[c[0] for c in CASES])
def test_a_malformed_data_file_is_named_by_line_and_field(
    tmp_path: Path, name: str, text: str, expect: str
) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["tasks", "compile", str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and len(result.output.splitlines()) <= 20
    assert re.search(expect, result.output), result.output


def test_a_good_file_compiles_and_is_written(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(GOOD, encoding="utf-8")
    result = CliRunner().invoke(main, ["tasks", "compile", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "compiled 1 file(s): 1 tasks" in result.output
    lines = (tmp_path / "out" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and '"id":"ok-1"' in lines[0] and '"action":"finish"' in lines[0]


def test_usage_mistakes_exit_2_with_a_message() -> None:
    runner = CliRunner()
    assert "nothing to compile" in runner.invoke(main, ["tasks", "compile"]).output
    result = runner.invoke(main, ["tasks", "compile", "--suite", "full"])
    assert result.exit_code == 2 and "no handwritten suite 'full'" in result.output

"""``devicesworld tasks scenarios check`` on malformed family files: one ``FILE:LINE:COL: field: message``
line per mistake and exit 1, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main

GOOD = """\
family: mini
title: A lamp to a stated brightness
pattern: device_state_control
category: single_device_dependent
roles:
  home: smarthome
params:
  level: {type: percentage, range: [30, 80, 5]}
  room: {type: name, pool: [study, den]}
phrasings:
  - style: polite
    text: Could you set the {room} lamp to {level:percentage}, please?
  - style: terse
    text: "{room} lamp at {level}."
  - style: indirect
    text: The {room} is too dark for reading; {level} on the lamp would do.
  - style: context
    text: I'm working in the {room} tonight, so put its lamp at {level}.
setup:
  - {role: home, op: add_room, args: {name: "{room}"}}
  - {role: home, op: add_device, args: {device_id: "{room}_lamp", category: dimmable_light, room: "{room}", state: {power: true, brightness: 100}}}
solution:
  - {role: home, action: control_device, args: {device_id: "{room}_lamp", command: set_brightness, params: {brightness: "{level}"}}}
evaluation:
  conditions:
    - id: dimmed
      role: home
      check: device_attribute
      args: {device_id: "{room}_lamp", attribute: brightness, equals: "{level}"}
      expects: {level: percentage}
"""


def _check(tmp_path: Path, text: str, *extra: str, name: str = "mini.yaml") -> tuple[int, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["tasks", "scenarios", "check", *extra, str(path)])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def _at(text: str, marker: str) -> str:
    """``LINE:COL`` of the first character of ``marker`` in ``text``."""
    offset = text.index(marker)
    line = text.count("\n", 0, offset) + 1
    return f"{line}:{offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


def test_a_good_file_passes_and_compiles(tmp_path: Path) -> None:
    code, out = _check(tmp_path, GOOD, "--compile", "1")
    assert code == 0, out
    assert "ok   mini (1 compiled)" in out


# (what is changed, into what, the field named, words of the message, marker of the position)
CASES = [
    (
        "bad_yaml",
        "  home: smarthome\n",
        "  home: [smarthome\n",
        "",
        "not valid YAML",
        ":\n  level:",
    ),
    (
        "unknown_op",
        "op: add_room",
        "op: add_rooom",
        "setup.0.op",
        "smarthome has no setup op 'add_rooom'",
        "add_rooom",
    ),
    (
        "unknown_arg",
        'args: {name: "{room}"}',
        'args: {name: "{room}", colour: red}',
        "setup.0.args.colour",
        "unknown field",
        "red}",
    ),
    (
        "bad_arg_value",
        "state: {power: true, brightness: 100}",
        "state: bright",
        "setup.1.args.state",
        "valid dictionary",
        "bright}",
    ),
    (
        "unknown_param_in_phrasing",
        '"{room} lamp at {level}."',
        '"{room} lamp at {lvl}."',
        "phrasings.1.text",
        "{lvl} names no parameter",
        '"{room} lamp at {lvl}."',
    ),
    (
        "unknown_param_in_check",
        'equals: "{level}"',
        'equals: "{levle}"',
        "evaluation.conditions.0",
        "{levle} names no parameter or derived value",
        "id: dimmed",
    ),
    (
        "bad_slot_type",
        "type: percentage, range",
        "type: percent, range",
        "params.level.type",
        "unknown slot type 'percent'",
        "percent, range",
    ),
    (
        "phrasing_without_text",
        "  - style: terse\n    text:",
        "  - style: terse\n    words:",
        "phrasings.1.text",
        "Field required",
        "style: terse",
    ),
    (
        "bad_phrasing_style",
        "style: indirect",
        "style: sideways",
        "phrasings.2.style",
        "'polite', 'terse', 'indirect' or 'context'",
        "sideways",
    ),
    (
        "unknown_role",
        "{role: home, op: add_room",
        "{role: house, op: add_room",
        "setup.0.role",
        "unknown role 'house'",
        "house",
    ),
    (
        "unknown_check",
        "check: device_attribute",
        "check: device_atribute",
        "evaluation.conditions.0.check",
        "smarthome has no check 'device_atribute'",
        "device_atribute",
    ),
    (
        "unknown_top_field",
        "title: A lamp",
        "titel: oops\ntitle: A lamp",
        "titel",
        "unknown field",
        "oops",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "field", "words", "marker"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_malformed_file_is_one_located_line(
    tmp_path: Path, old: str, new: str, field: str, words: str, marker: str
) -> None:
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    code, out = _check(tmp_path, text)
    assert code == 1, out
    where = f"{tmp_path / 'mini.yaml'}:{_at(text, marker)}: "
    line = next((ln for ln in out.splitlines() if ln.startswith(str(tmp_path / "mini.yaml") + ":")), "")
    assert line.startswith(where + (f"{field}: " if field else "")), out
    assert words in line, out
    assert f"FAIL {tmp_path / 'mini.yaml'}" in out


def test_a_setup_value_that_is_wrong_once_drawn_is_located_by_compile(tmp_path: Path) -> None:
    # "{room}" renders as a room's name, which is no device category: only a draw can tell
    text = GOOD.replace("category: dimmable_light", 'category: "{room}"', 1)
    code, out = _check(tmp_path, text)
    assert code == 0, out  # statically fine: the value is a template
    code, out = _check(tmp_path, text, "--compile", "1")
    assert code == 1, out
    where = f"{tmp_path / 'mini.yaml'}:{_at(text, '{device_id:')}: setup.1.args: draw 0 "
    assert where in out, out
    assert "add_device" in out


def test_a_file_named_for_another_family_and_a_list_file_are_located(tmp_path: Path) -> None:
    code, out = _check(tmp_path, GOOD, name="other.yaml")
    assert code == 1
    assert f"{tmp_path / 'other.yaml'}:{_at(GOOD, 'mini')}: family: " in out
    assert "must be named mini.yaml" in out
    code, out = _check(tmp_path, "- one\n- two\n")
    assert code == 1
    assert f"{tmp_path / 'mini.yaml'}:1:1: a family file holds one mapping" in out


def test_every_bad_file_is_reported_not_only_the_first(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "mini.yaml").write_text(GOOD.replace("op: add_room", "op: nope", 1), encoding="utf-8")
    (tmp_path / "b" / "mini.yaml").write_text(
        GOOD.replace("style: terse", "style: loud", 1), encoding="utf-8"
    )
    result = CliRunner().invoke(
        main,
        ["tasks", "scenarios", "check", str(tmp_path / "a" / "mini.yaml"), str(tmp_path / "b" / "mini.yaml")],
    )
    assert result.exit_code == 1
    assert "setup.0.op" in result.output and "phrasings.1.style" in result.output

"""The data-file compiler: defaults, groups, fragments, items, macros, finish, and errors at their lines."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from devicesworld import macros
from devicesworld.devices.base import get_kind, kind_names
from devicesworld.tasks.handwritten import (
    DataFileErrors,
    compile_files,
    compile_task,
    draft_file,
    read_fragments,
)

HOME = """\
format: 1
fragments:
  flat:
    - configure_home: {name: Flat}
    - add_room: {name: hall, temperature: 20.0}
    - add_device: {device_id: lamp, category: light, room: hall, name: Hall lamp, state: {}}
"""


def _write(tmp_path: Path, text: str, name: str = "t.yaml") -> Path:
    (tmp_path / "home.yaml").write_text(HOME)
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


TASKS = """\
format: 1
imports: [home.yaml]
defaults:
  devices: [smarthome_0]
  metadata: {split: test, origin: handwritten, tags: [base]}
tasks:
  - group: control
    defaults: {metadata: {pattern: device_state_control, difficulty: medium}}
    tasks:
      - id: t-on
        instruction: Turn on the hall lamp.
        setup: [{use: flat}]
        conditions: [{id: on, device_power: {device_id: lamp, on: true}}]
        metadata: {tags: [light]}
        solution:
          - list_devices
          - control_device: {device_id: lamp, command: turn_on, params: {}}
  - id: t-none
    instruction: Turn on the garage heater.
    setup: [{use: flat}]
    conditions:
      - {id: reported, infeasible_reported: {keywords: [garage]}, on: env}
      - {id: untouched, no_agent_commands: {}, scored: false}
    metadata: {pattern: infeasible_request_reporting}
    solution: [{report_infeasible: {reason: There is no garage.}}]
"""


def test_a_file_compiles_with_defaults_groups_fragments_and_finish(tmp_path: Path) -> None:
    on, none = compile_files([_write(tmp_path, TASKS)])
    assert (
        on.id == "t-on"
        and [d.id for d in on.devices] == ["smarthome_0"]
        and on.devices[0].kind == "smarthome"
    )
    assert [op.op for op in on.setup] == ["configure_home", "add_room", "add_device"]
    assert all(op.device == "smarthome_0" for op in on.setup)
    md = on.metadata
    assert (md.pattern, md.difficulty, md.tags, md.origin) == (
        "device_state_control",
        "medium",
        ["light"],
        "handwritten",
    )
    assert [(s.device, s.action) for s in on.solution] == [
        ("smarthome_0", "list_devices"),
        ("smarthome_0", "control_device"),
        (None, "finish"),  # finish: auto
    ]
    assert none.metadata.difficulty == "easy" and none.metadata.tags == [
        "base"
    ]  # the group's defaults stop at it
    assert [s.action for s in none.solution] == ["report_infeasible"]  # no finish after a report
    assert [c.device for c in none.evaluation.conditions] == ["env", "smarthome_0"]
    # a condition that holds after setup alone stays required but is no longer scored
    assert [(c.id, c.scored) for c in none.evaluation.conditions] == [
        ("reported", True),
        ("untouched", False),
    ]


def test_fragments_take_the_device_given_with_use(tmp_path: Path) -> None:
    task = compile_task(
        {
            "id": "t-two",
            "instruction": "Turn on the hall lamp.",
            "devices": ["linux_0", "smarthome_0"],
            "setup": [{"use": "flat", "on": "smarthome_0"}, {"make_dir": {"path": "~/x"}}],
            "conditions": [
                {"id": "on", "device_power": {"device_id": "lamp", "on": True}, "on": "smarthome_0"}
            ],
            "solution": [
                {"control_device": {"device_id": "lamp", "command": "turn_on"}, "on": "smarthome_0"}
            ],
        },
        fragments=read_fragments(_write(tmp_path, HOME, "home.yaml")),
    )
    assert [op.device for op in task.setup] == ["smarthome_0"] * 3 + ["linux_0"]
    assert task.solution[0].device == "smarthome_0" and task.solution[-1].action == "finish"


@pytest.mark.parametrize(
    ("change", "expect"),
    [
        (("format: 1", "format: 2"), r"t\.yaml:1:9: format: must be 1"),
        (("imports:", "import:"), r"t\.yaml:2:9: import: unknown key"),
        (
            ("      - id: t-on\n", "      - name: t-on\n"),
            r"t\.yaml:10:15: tasks\[0\]\.tasks\[0\]\.name: unknown task field",
        ),
        (
            ("      - id: t-on\n", "      - id:\n"),
            r"t\.yaml:10:9: tasks\[0\]\.tasks\[0\]\.id: every task needs an explicit `id`",
        ),
        (("id: t-none", "id: t-on"), r"t\.yaml:\d+:\d+: tasks\[1\] \(t-on\): task id 't-on' is used twice"),
        (
            ("{use: flat}]\n        conditions", "{use: flats}]\n        conditions"),
            r"t\.yaml:12:17: tasks\[0\]\.tasks\[0\] \(t-on\)\.setup\[0\]: no fragment 'flats'",
        ),
        (
            ("- list_devices", "- list_device"),
            r"t\.yaml:16:13: .*solution\[0\]\.action: 'smarthome' has no action 'list_device'",
        ),
        (
            ("device_power: {device_id: lamp, on: true}", "device_powr: {device_id: lamp, on: true}"),
            r"t\.yaml:13:\d+: .*has no check 'device_powr'",
        ),
        (("{id: reported,", "{id: reported, on: android_7,"), r"t\.yaml:\d+:\d+: .*key 'on' is given twice"),
        (
            ("difficulty: medium", "difficulty: medium-rare"),
            r"t\.yaml:\d+:\d+: .*metadata\.difficulty: Input should be",
        ),
        (
            (
                "        metadata: {tags: [light]}\n",
                "        metadata: {tags: [light]}\n        finish: never\n",
            ),
            r"finish: finish is `auto`",
        ),
        (
            (
                "{report_infeasible: {reason: There is no garage.}}",
                "{report_infeasible: {reason: x}, on: linux_0}",
            ),
            r"'linux_0' is not one of the task's devices",
        ),
    ],
)
def test_mistakes_are_named_by_file_line_and_field(
    tmp_path: Path, change: tuple[str, str], expect: str
) -> None:
    assert change[0] in TASKS
    path = _write(tmp_path, TASKS.replace(change[0], change[1], 1))
    with pytest.raises(DataFileErrors) as err:
        draft_file(path)
    assert any(re.search(expect, line) for line in str(err.value).splitlines()), str(err.value)


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    text = TASKS.replace("- list_devices", "- list_device").replace(
        "[{report_infeasible", "[{report_infeasibl"
    )
    with pytest.raises(DataFileErrors) as err:
        draft_file(_write(tmp_path, text))
    assert len(err.value.errors) == 2


def test_no_macro_shadows_an_op_or_action_of_its_kind() -> None:
    for name in kind_names():
        kind = get_kind(name)
        assert kind is not None
        for macro in macros.macros_of(name):
            declared = kind.setup_ops if macro.section == "setup" else kind.actions
            assert macro.name not in declared, f"{name} macro {macro.name!r} hides its {macro.section} name"
    assert {"android", "linux"} <= set(macros.kinds_with_macros())

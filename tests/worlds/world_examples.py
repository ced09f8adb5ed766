"""The example tasks of ``examples/world_tasks.json``, built from the world API.

They show a task naming its world, reading values through picks and declaring
the twins as distractors. Regenerate the file after a change to the generator::

    .venv/bin/python -m tests.worlds.world_examples
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from devicesworld.worlds import DEFAULT_START, build_world

SEED = 7
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "world_tasks.json"


def _answer_task(task_id: str, devices: list[str], instruction: str, key: str, pick: Any) -> dict[str, Any]:
    return {
        "id": task_id,
        "instruction": instruction,
        "devices": [{"id": f"{k}_0", "kind": k} for k in devices],
        "world": {"persona_seed": SEED, "size": "lived", "reads": [key]},
        "evaluation": {
            "conditions": [
                {
                    "id": "answered",
                    "device": "env",
                    "check": "answer_contains",
                    "args": {"values": [pick.target.expected()], "distractors": pick.distractors()},
                }
            ]
        },
        "solution": [{"action": "answer", "args": {"text": str(pick.target.value)}}, {"action": "finish"}],
        "metadata": {
            "pattern": "information_retrieval",
            "difficulty": "medium",
            "origin": "world-example",
            "tags": ["world"],
            "sources": [
                {"device": f"{devices[0]}_0", "value": pick.target.value, "description": pick.target.label}
            ],
        },
    }


def example_tasks() -> list[dict[str, Any]]:
    world = build_world(SEED, "lived", DEFAULT_START)
    tasks: list[dict[str, Any]] = []

    code = world.pick("verification_code", 1)
    service = code.target.fields["service"]
    tasks.append(
        _answer_task(
            "world.code.latest",
            ["android"],
            f"A {service} verification code reached my phone a few minutes ago. What is it? Answer with the code.",
            code.target.key,
            code,
        )
    )

    event = world.pick("event_time", 0)
    title, day = event.target.fields["title"], event.target.fields["date"]
    tasks.append(
        _answer_task(
            "world.event.time",
            ["android"],
            f"What time is my '{title}' on {day}? Answer with the time.",
            event.target.key,
            event,
        )
    )

    person = world.pick("contact_phone", 0)
    heater = next(p for p in world.values("home_device") if p.target.fields["category"] == "heater")
    name, first = person.target.fields["name"], person.target.fields["first"]
    room = heater.target.fields["room"].replace("_", " ")
    device_id = str(heater.target.value)
    note = f"~/Desktop/{first.lower()}.txt"
    tasks.append(
        {
            "id": "world.contact.phone.three_devices",
            "instruction": (
                f"Find {name}'s mobile number on my phone and save it in {note} on my computer. "
                f"Then turn on the heater in the {room}."
            ),
            "devices": [{"id": f"{k}_0", "kind": k} for k in ("android", "linux", "smarthome")],
            "world": {"persona_seed": SEED, "size": "lived", "reads": [person.target.key, heater.target.key]},
            "setup": [
                {
                    "device": "smarthome_0",
                    "op": "set_state",
                    "args": {"device_id": device_id, "attributes": {"power": False}},
                }
            ],
            "evaluation": {
                "conditions": [
                    {
                        "id": "number_saved",
                        "device": "linux_0",
                        "check": "file_contains",
                        "args": {
                            "path": note,
                            "contains": [person.target.expected()],
                            "distractors": person.distractors(),
                        },
                    },
                    {
                        "id": "heater_on",
                        "device": "smarthome_0",
                        "check": "device_power",
                        "args": {"device_id": device_id, "on": True},
                    },
                ]
            },
            "solution": [
                {
                    "device": "linux_0",
                    "action": "write_file",
                    "args": {"path": note, "content": str(person.target.value) + "\n"},
                },
                {
                    "device": "smarthome_0",
                    "action": "control_device",
                    "args": {"device_id": device_id, "command": "turn_on"},
                },
                {"action": "finish"},
            ],
            "metadata": {
                "pattern": "cross_device_transfer",
                "difficulty": "medium",
                "origin": "world-example",
                "tags": ["world"],
                "sources": [
                    {"device": "android_0", "value": person.target.value, "description": person.target.label}
                ],
            },
        }
    )

    report = world.pick("file", 0)
    budgets = [
        {"value": t.fields["budget"], "type": "money"}
        for t in report.twins
        if t.fields["budget"] != report.target.fields["budget"]
    ]
    tasks.append(
        {
            "id": "world.report.budget",
            "instruction": (
                f"Open the latest version of the {report.target.fields['project']} report in ~/Documents and write its "
                "approved budget into ~/Desktop/budget.txt."
            ),
            "devices": [{"id": "linux_0", "kind": "linux"}],
            "world": {"persona_seed": SEED, "size": "lived", "reads": [report.target.key]},
            "evaluation": {
                "conditions": [
                    {
                        "id": "budget_written",
                        "device": "linux_0",
                        "check": "file_contains",
                        "args": {
                            "path": "~/Desktop/budget.txt",
                            "contains": [{"value": report.target.fields["budget"], "type": "money"}],
                            "distractors": budgets,
                        },
                    }
                ]
            },
            "solution": [
                {
                    "device": "linux_0",
                    "action": "read_document",
                    "args": {"path": "~/" + str(report.target.value)},
                },
                {
                    "device": "linux_0",
                    "action": "write_file",
                    "args": {
                        "path": "~/Desktop/budget.txt",
                        "content": report.target.fields["budget"] + "\n",
                    },
                },
                {"action": "finish"},
            ],
            "metadata": {
                "pattern": "information_retrieval",
                "difficulty": "medium",
                "origin": "world-example",
                "tags": ["world"],
            },
        }
    )

    heater = [p for p in world.values("home_device") if p.target.fields["category"] == "heater"][-1]
    room = heater.target.fields["room"].replace("_", " ")
    device_id = str(heater.target.value)
    tasks.append(
        {
            "id": "world.home.heater",
            "instruction": f"Turn on the heater in the {room}.",
            "devices": [{"id": "smarthome_0", "kind": "smarthome"}],
            "world": {"persona_seed": SEED, "size": "lived", "reads": [heater.target.key]},
            "setup": [
                {
                    "device": "smarthome_0",
                    "op": "set_state",
                    "args": {"device_id": device_id, "attributes": {"power": False}},
                }
            ],
            "evaluation": {
                "conditions": [
                    {
                        "id": "heater_on",
                        "device": "smarthome_0",
                        "check": "device_power",
                        "args": {"device_id": device_id, "on": True},
                    }
                ]
            },
            "solution": [
                {
                    "device": "smarthome_0",
                    "action": "control_device",
                    "args": {"device_id": device_id, "command": "turn_on"},
                },
                {"action": "finish"},
            ],
            "metadata": {
                "pattern": "device_state_control",
                "difficulty": "easy",
                "origin": "world-example",
                "tags": ["world"],
            },
        }
    )
    return tasks


def render() -> str:
    return json.dumps(example_tasks(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    EXAMPLES.write_text(render(), encoding="utf-8")
    print(f"wrote {EXAMPLES}")

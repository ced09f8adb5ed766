"""The ``smoke`` suite: small, deterministic SmartHome tasks that exercise the whole stack.

Each task builds its own home with setup ops, states its goal in plain words, and is
verified by SmartHome checks (plus the ``env`` infeasibility checks). Together the
tasks cover state queries that feed a decision, immediate control of all 11
categories, schedules (absolute, delay, after an appliance event), conditional
decisions in both branches, and infeasible requests. Invariants, enforced by tests:
the reference solution passes every condition, and neither setup alone nor an agent
that only says ``finish`` succeeds.
"""

from __future__ import annotations

from typing import Any

from devicesworld.spec.models import (
    Condition,
    DeviceOp,
    DeviceSpec,
    Evaluation,
    Metadata,
    Step,
    Task,
)
from devicesworld.tasks.guards import unscore_setup_satisfied

SH = "smarthome_0"


# --- builders ----------------------------------------------------------------------------


def _op(op: str, **args: Any) -> DeviceOp:
    return DeviceOp(device=SH, op=op, args=args)


def _home(name: str, outdoor: tuple[float, float, float] = (15.0, 60.0, 25.0)) -> DeviceOp:
    t, h, pm = outdoor
    return _op("configure_home", name=name, outdoor_temperature=t, outdoor_humidity=h, outdoor_pm25=pm)


def _room(name: str, temperature: float = 22.0, humidity: float = 45.0, pm25: float = 12.0) -> DeviceOp:
    return _op("add_room", name=name, temperature=temperature, humidity=humidity, pm25=pm25)


def _dev(device_id: str, category: str, room: str, name: str, **state: Any) -> DeviceOp:
    return _op("add_device", device_id=device_id, category=category, room=room, name=name, state=state)


def _c(cid: str, check: str, *, scored: bool = True, required: bool = True, **args: Any) -> Condition:
    return Condition(id=cid, device=SH, check=check, args=args, scored=scored, required=required)


def _s(action: str, **args: Any) -> Step:
    return Step(device=SH, action=action, args=args)


def _ctl(device_id: str, command: str, **params: Any) -> Step:
    return _s("control_device", device_id=device_id, command=command, params=params)


FINISH = Step(action="finish")


def _report(reason: str) -> Step:
    return Step(action="report_infeasible", args={"reason": reason})


def _infeasible(*keywords: str) -> list[Condition]:
    return [
        Condition(
            id="reported", device="env", check="infeasible_reported", args={"keywords": list(keywords)}
        ),
        _c("untouched", "no_agent_commands", scored=False),
    ]


def _task(
    n: int,
    instruction: str,
    setup: list[DeviceOp],
    conditions: list[Condition],
    solution: list[Step],
    pattern: str,
    difficulty: str = "easy",
    tags: tuple[str, ...] = (),
) -> Task:
    task = Task(
        id=f"smoke-sh-{n:03d}",
        instruction=instruction,
        devices=[DeviceSpec(id=SH, kind="smarthome")],
        setup=setup,
        evaluation=Evaluation(conditions=conditions),
        solution=solution,
        metadata=Metadata(
            pattern=pattern,
            difficulty=difficulty,
            apps=["smarthome"],
            split="test",
            origin="handwritten",
            tags=list(tags),
        ),
    )
    return unscore_setup_satisfied(task)


# --- homes -------------------------------------------------------------------------------


def _maple_flat() -> list[DeviceOp]:
    """Three rooms, five devices."""
    return [
        _home("Maple Flat", (18.0, 65.0, 30.0)),
        _room("living_room", 23.0, 48.0, 20.0),
        _room("bedroom", 25.0, 55.0, 15.0),
        _room("hallway", 20.0, 50.0, 18.0),
        _dev("hall_light", "light", "hallway", "Hallway light"),
        _dev("living_lamp", "dimmable_light", "living_room", "Living room lamp", brightness=80),
        _dev("bedroom_curtain", "curtain", "bedroom", "Bedroom curtains", position=0),
        _dev("ac_bedroom", "air_conditioner", "bedroom", "Bedroom AC", mode="heat", target_temperature=26.0),
        _dev("living_purifier", "air_purifier", "living_room", "Living room purifier", fan_speed="low"),
    ]


def _oak_house() -> list[DeviceOp]:
    """Five rooms, eight devices, including the laundry appliances and a vacuum."""
    return [
        _home("Oak House", (8.0, 70.0, 40.0)),
        _room("living_room", 21.0, 50.0, 22.0),
        _room("bathroom", 19.0, 68.6, 10.0),
        _room("nursery", 21.5, 35.0, 12.0),
        _room("basement", 16.0, 78.0, 15.0),
        _room("utility", 19.0, 60.0, 14.0),
        _dev("bath_heater", "heater", "bathroom", "Bathroom heater", target_temperature=20.0),
        _dev("nursery_humidifier", "humidifier", "nursery", "Nursery humidifier", target_humidity=40),
        _dev(
            "basement_dehumidifier", "dehumidifier", "basement", "Basement dehumidifier", target_humidity=60
        ),
        _dev("washer", "washing_machine", "utility", "Washing machine", power=True),
        _dev("dryer", "dryer", "utility", "Dryer"),
        _dev("robovac", "robot_vacuum", "living_room", "Robot vacuum"),
        _dev("living_light", "light", "living_room", "Living room ceiling light"),
        _dev("living_curtain", "curtain", "living_room", "Living room curtains", position=100),
    ]


def _study_loft() -> list[DeviceOp]:
    """Four rooms, ten devices: an AC per room, purifiers, lamps and curtains."""
    return [
        _home("Study Loft", (29.0, 55.0, 45.0)),
        _room("living_room", 24.1, 50.0, 18.0),
        _room("bedroom", 27.2, 62.4, 52.0),
        _room("study", 25.0, 47.0, 31.0),
        _room("kitchen", 23.0, 58.0, 26.0),
        _dev("ac_living", "air_conditioner", "living_room", "Living room AC"),
        _dev("ac_bedroom", "air_conditioner", "bedroom", "Bedroom AC"),
        _dev("ac_study", "air_conditioner", "study", "Study AC"),
        _dev("purifier_living", "air_purifier", "living_room", "Living room purifier"),
        _dev("purifier_bedroom", "air_purifier", "bedroom", "Bedroom purifier"),
        _dev("purifier_study", "air_purifier", "study", "Study purifier"),
        _dev("desk_lamp", "dimmable_light", "study", "Desk lamp", brightness=100),
        _dev("study_curtain", "curtain", "study", "Study curtains", position=0),
        _dev("bedroom_curtain", "curtain", "bedroom", "Bedroom curtains", position=100),
        _dev("kitchen_light", "light", "kitchen", "Kitchen light"),
    ]


def _cottage() -> list[DeviceOp]:
    """Two rooms, four devices."""
    return [
        _home("Cottage", (12.0, 75.0, 20.0)),
        _room("bedroom", 19.5, 58.0, 14.0),
        _room("laundry", 18.0, 66.0, 12.0),
        _dev("bed_lamp", "dimmable_light", "bedroom", "Bedside lamp", brightness=50),
        _dev("bed_heater", "heater", "bedroom", "Bedroom heater"),
        _dev("washer", "washing_machine", "laundry", "Washer", power=True, program="cotton"),
        _dev("dryer", "dryer", "laundry", "Dryer", power=True),
    ]


# --- tasks -------------------------------------------------------------------------------


def _control_tasks() -> list[Task]:
    ctl = "device_state_control"
    return [
        _task(
            1,
            "Turn on the hallway light.",
            _maple_flat(),
            [_c("light_on", "device_power", device_id="hall_light", on=True)],
            [_s("list_devices"), _ctl("hall_light", "turn_on"), FINISH],
            ctl,
            tags=("light",),
        ),
        _task(
            2,
            "Turn on the living room lamp and dim it to 30%.",
            _maple_flat(),
            [
                _c("lamp_on", "device_power", device_id="living_lamp", on=True),
                _c("lamp_30", "device_attribute", device_id="living_lamp", attribute="brightness", equals=30),
            ],
            [_ctl("living_lamp", "turn_on"), _ctl("living_lamp", "set_brightness", brightness=30), FINISH],
            ctl,
            tags=("dimmable_light",),
        ),
        _task(
            3,
            "Open the bedroom curtains halfway (50%).",
            _maple_flat(),
            [
                _c(
                    "half_open",
                    "device_attribute",
                    device_id="bedroom_curtain",
                    attribute="position",
                    equals=50,
                )
            ],
            [_ctl("bedroom_curtain", "set_position", position=50), FINISH],
            ctl,
            tags=("curtain",),
        ),
        _task(
            4,
            "Cool the bedroom: switch the bedroom AC on in cool mode at 22 °C with the fan on high.",
            _maple_flat(),
            [
                _c("ac_on", "device_power", device_id="ac_bedroom", on=True),
                _c("ac_cool", "device_attribute", device_id="ac_bedroom", attribute="mode", equals="cool"),
                _c(
                    "ac_22",
                    "device_attribute",
                    device_id="ac_bedroom",
                    attribute="target_temperature",
                    equals=22,
                ),
                _c(
                    "ac_high",
                    "device_attribute",
                    device_id="ac_bedroom",
                    attribute="fan_speed",
                    equals="high",
                ),
            ],
            [
                _ctl("ac_bedroom", "turn_on"),
                _ctl("ac_bedroom", "set_mode", mode="cool"),
                _ctl("ac_bedroom", "set_target_temperature", temperature=22),
                _ctl("ac_bedroom", "set_fan_speed", speed="high"),
                FINISH,
            ],
            ctl,
            "medium",
            tags=("air_conditioner",),
        ),
        _task(
            5,
            "Turn on the bathroom heater and set it to 24 °C.",
            _oak_house(),
            [
                _c("heater_on", "device_power", device_id="bath_heater", on=True),
                _c(
                    "heater_24",
                    "device_attribute",
                    device_id="bath_heater",
                    attribute="target_temperature",
                    equals=24,
                ),
            ],
            [
                _ctl("bath_heater", "turn_on"),
                _ctl("bath_heater", "set_target_temperature", temperature=24),
                FINISH,
            ],
            ctl,
            tags=("heater",),
        ),
        _task(
            6,
            "Run the living room air purifier on high.",
            _maple_flat(),
            [
                _c("purifier_on", "device_power", device_id="living_purifier", on=True),
                _c(
                    "purifier_high",
                    "device_attribute",
                    device_id="living_purifier",
                    attribute="fan_speed",
                    equals="high",
                ),
            ],
            [
                _ctl("living_purifier", "turn_on"),
                _ctl("living_purifier", "set_fan_speed", speed="high"),
                FINISH,
            ],
            ctl,
            tags=("air_purifier",),
        ),
        _task(
            7,
            "Switch on the nursery humidifier with a 55% humidity target.",
            _oak_house(),
            [
                _c("hum_on", "device_power", device_id="nursery_humidifier", on=True),
                _c(
                    "hum_55",
                    "device_attribute",
                    device_id="nursery_humidifier",
                    attribute="target_humidity",
                    equals=55,
                ),
            ],
            [
                _ctl("nursery_humidifier", "turn_on"),
                _ctl("nursery_humidifier", "set_target_humidity", humidity=55),
                FINISH,
            ],
            ctl,
            tags=("humidifier",),
        ),
        _task(
            8,
            "The basement is damp. Turn on the dehumidifier there and make it dry the air down to 45%.",
            _oak_house(),
            [
                _c("dehum_on", "device_power", device_id="basement_dehumidifier", on=True),
                _c(
                    "dehum_45",
                    "device_attribute",
                    device_id="basement_dehumidifier",
                    attribute="target_humidity",
                    equals=45,
                ),
            ],
            [
                _s("list_devices", room="basement"),
                _ctl("basement_dehumidifier", "turn_on"),
                _ctl("basement_dehumidifier", "set_target_humidity", humidity=45),
                FINISH,
            ],
            ctl,
            tags=("dehumidifier",),
        ),
        _task(
            9,
            "Start the washing machine on the quick program.",
            _oak_house(),
            [
                _c("quick", "device_attribute", device_id="washer", attribute="program", equals="quick"),
                _c("running", "appliance_phase", device_id="washer", operational_state="running"),
            ],
            [_ctl("washer", "set_program", program="quick"), _ctl("washer", "start"), FINISH],
            ctl,
            tags=("washing_machine",),
        ),
        _task(
            10,
            "Start the dryer on its delicate program.",
            _oak_house(),
            [
                _c("delicate", "device_attribute", device_id="dryer", attribute="program", equals="delicate"),
                _c("running", "appliance_phase", device_id="dryer", operational_state="running"),
            ],
            [
                _ctl("dryer", "turn_on"),
                _ctl("dryer", "set_program", program="delicate"),
                _ctl("dryer", "start"),
                FINISH,
            ],
            ctl,
            "medium",
            tags=("dryer", "power_off_recovery"),
        ),
        _task(
            11,
            "Have the robot vacuum mop the floors now (mopping only, no vacuuming).",
            _oak_house(),
            [
                _c("mop", "device_attribute", device_id="robovac", attribute="clean_mode", equals="mop"),
                _c("cleaning", "appliance_phase", device_id="robovac", operational_state="cleaning"),
            ],
            [_ctl("robovac", "set_clean_mode", mode="mop"), _ctl("robovac", "start"), FINISH],
            ctl,
            tags=("robot_vacuum",),
        ),
        _task(
            12,
            "Pause the washing machine; I need to add a sock.",
            [*_cottage(), _op("start_cycle", device_id="washer", elapsed_minutes=10)],
            [_c("paused", "appliance_phase", device_id="washer", operational_state="paused")],
            [_ctl("washer", "pause"), FINISH],
            ctl,
            tags=("washing_machine",),
        ),
        _task(
            13,
            "Send the robot vacuum back to its dock and wait until it has docked.",
            [*_oak_house(), _op("start_cycle", device_id="robovac")],
            [
                _c("docked", "appliance_phase", device_id="robovac", operational_state="docked"),
                _c("sent_home", "command_issued", device_id="robovac", command="return_to_dock"),
            ],
            [_ctl("robovac", "return_to_dock"), _s("advance_time", minutes=3), FINISH],
            ctl,
            "medium",
            tags=("robot_vacuum", "time"),
        ),
        _task(
            14,
            "Get the bedroom ready for sleep: close the curtains, set the AC to auto mode at 25 °C "
            "with a low fan, and switch the living room purifier off.",
            [*_maple_flat(), _op("set_state", device_id="living_purifier", attributes={"power": True})],
            [
                _c(
                    "curtain_closed",
                    "device_attribute",
                    device_id="bedroom_curtain",
                    attribute="position",
                    equals=0,
                ),
                _c("ac_on", "device_power", device_id="ac_bedroom", on=True),
                _c("ac_auto", "device_attribute", device_id="ac_bedroom", attribute="mode", equals="auto"),
                _c(
                    "ac_25",
                    "device_attribute",
                    device_id="ac_bedroom",
                    attribute="target_temperature",
                    equals=25,
                ),
                _c("ac_low", "device_attribute", device_id="ac_bedroom", attribute="fan_speed", equals="low"),
                _c("purifier_off", "device_power", device_id="living_purifier", on=False),
            ],
            [
                _s("set_device_attribute", device_id="bedroom_curtain", attribute="position", value=0),
                _ctl("ac_bedroom", "turn_on"),
                _ctl("ac_bedroom", "set_mode", mode="auto"),
                _ctl("ac_bedroom", "set_target_temperature", temperature=25),
                _ctl("ac_bedroom", "set_fan_speed", speed="low"),
                _ctl("living_purifier", "turn_off"),
                FINISH,
            ],
            ctl,
            "medium",
            tags=("multi_part",),
        ),
        _task(
            15,
            "Wash a load on the quick program and, once the wash has completed, dry it on the dryer's "
            "quick program.",
            _oak_house(),
            [
                _c("washed", "appliance_phase", device_id="washer", phase="completed"),
                _c(
                    "washer_quick",
                    "command_issued",
                    device_id="washer",
                    command="set_program",
                    params={"program": "quick"},
                ),
                _c("dryer_quick", "device_attribute", device_id="dryer", attribute="program", equals="quick"),
                _c("drying", "appliance_phase", device_id="dryer", operational_state="running"),
            ],
            [
                _ctl("washer", "set_program", program="quick"),
                _ctl("washer", "start"),
                _s("advance_time", minutes=30),
                _ctl("dryer", "turn_on"),
                _ctl("dryer", "set_program", program="quick"),
                _ctl("dryer", "start"),
                FINISH,
            ],
            ctl,
            "hard",
            tags=("washing_machine", "dryer", "time"),
        ),
    ]


def _schedule_tasks() -> list[Task]:
    sched = "device_state_control"
    return [
        _task(
            16,
            "Turn on the bedroom AC at 18:30 today.",
            _maple_flat(),
            [
                _c(
                    "sched",
                    "schedule_exists",
                    device_id="ac_bedroom",
                    command="turn_on",
                    due_at="2026-03-02T18:30:00",
                )
            ],
            [_s("create_schedule", device_id="ac_bedroom", command="turn_on", at="18:30"), FINISH],
            sched,
            tags=("schedule_at",),
        ),
        _task(
            17,
            "Tomorrow at 07:00, open the study curtains to 30%.",
            _study_loft(),
            [
                _c(
                    "sched",
                    "schedule_exists",
                    device_id="study_curtain",
                    command="set_position",
                    params={"position": 30},
                    due_at="2026-03-03T07:00:00",
                ),
                _c(
                    "still_closed",
                    "device_attribute",
                    device_id="study_curtain",
                    attribute="position",
                    equals=0,
                ),
            ],
            [
                _s(
                    "create_schedule",
                    device_id="study_curtain",
                    command="set_position",
                    params={"position": 30},
                    at="2026-03-03T07:00",
                ),
                FINISH,
            ],
            sched,
            tags=("schedule_at",),
        ),
        _task(
            18,
            "In 45 minutes, turn off the living room lamp.",
            [*_maple_flat(), _op("set_state", device_id="living_lamp", attributes={"power": True})],
            [
                _c(
                    "sched",
                    "schedule_exists",
                    device_id="living_lamp",
                    command="turn_off",
                    due_at="2026-03-02T09:45:00",
                ),
                _c("still_on", "device_power", device_id="living_lamp", on=True),
            ],
            [_s("create_schedule", device_id="living_lamp", command="turn_off", delay_minutes=45), FINISH],
            sched,
            tags=("schedule_delay",),
        ),
        _task(
            19,
            "20 minutes after the washing machine finishes, start the dryer. Make sure the dryer is "
            "switched on so the schedule can run.",
            [*_oak_house(), _op("start_cycle", device_id="washer", elapsed_minutes=15)],
            [
                _c(
                    "sched",
                    "schedule_exists",
                    device_id="dryer",
                    command="start",
                    trigger="after_event",
                    event_device="washer",
                    event="completed",
                    delay_minutes=20,
                ),
                _c("dryer_on", "device_power", device_id="dryer", on=True),
            ],
            [
                _ctl("dryer", "turn_on"),
                _s(
                    "create_schedule",
                    device_id="dryer",
                    command="start",
                    after_event={"device_id": "washer", "event": "completed", "delay_minutes": 20},
                ),
                FINISH,
            ],
            sched,
            "medium",
            tags=("schedule_after_event",),
        ),
        _task(
            20,
            "When the robot vacuum gets back to its dock, turn on the living room ceiling light.",
            [*_oak_house(), _op("start_cycle", device_id="robovac")],
            [
                _c(
                    "sched",
                    "schedule_exists",
                    device_id="living_light",
                    command="turn_on",
                    trigger="after_event",
                    event_device="robovac",
                    event="docked",
                ),
                _c("light_off_now", "device_power", device_id="living_light", on=False, scored=False),
            ],
            [
                _s("get_capabilities", device_id="robovac"),
                _s(
                    "create_schedule",
                    device_id="living_light",
                    command="turn_on",
                    after_event={"device_id": "robovac", "event": "docked"},
                ),
                FINISH,
            ],
            sched,
            "medium",
            tags=("schedule_after_event",),
        ),
        _task(
            21,
            "The bathroom heater is set to switch off at 22:00. Move that to 23:00 instead, so there is only "
            "one pending switch-off.",
            [
                *_oak_house(),
                _op("set_state", device_id="bath_heater", attributes={"power": True}),
                _op("add_schedule", device_id="bath_heater", command="turn_off", at="22:00"),
            ],
            [
                _c(
                    "new",
                    "schedule_exists",
                    device_id="bath_heater",
                    command="turn_off",
                    due_at="2026-03-02T23:00:00",
                ),
                _c(
                    "old_gone", "no_schedule", device_id="bath_heater", command="turn_off", created_by="setup"
                ),
            ],
            [
                _s("list_schedules"),
                _s("cancel_schedule", schedule_id="sched_1"),
                _s("create_schedule", device_id="bath_heater", command="turn_off", at="23:00"),
                FINISH,
            ],
            "conflict_resolution",
            "medium",
            tags=("schedule_at", "cancel"),
        ),
        _task(
            22,
            "In two hours, switch the bedside lamp on at 40% brightness.",
            _cottage(),
            [
                _c(
                    "on",
                    "schedule_exists",
                    device_id="bed_lamp",
                    command="turn_on",
                    due_at="2026-03-02T11:00:00",
                ),
                _c(
                    "level",
                    "schedule_exists",
                    device_id="bed_lamp",
                    command="set_brightness",
                    params={"brightness": 40},
                    due_at="2026-03-02T11:00:00",
                ),
            ],
            [
                _s("create_schedule", device_id="bed_lamp", command="turn_on", delay_minutes=120),
                _s(
                    "create_schedule",
                    device_id="bed_lamp",
                    command="set_brightness",
                    params={"brightness": 40},
                    delay_minutes=120,
                ),
                FINISH,
            ],
            sched,
            "hard",
            tags=("schedule_delay", "power_ordering"),
        ),
    ]


def _query_tasks() -> list[Task]:
    info = "information_extraction"
    return [
        _task(
            23,
            "Turn on the bedroom AC in cool mode and set its target to the living room's current "
            "temperature, rounded to the nearest 0.5 °C.",
            _study_loft(),
            [
                _c("ac_on", "device_power", device_id="ac_bedroom", on=True),
                _c("ac_cool", "device_attribute", device_id="ac_bedroom", attribute="mode", equals="cool"),
                _c(
                    "ac_target",
                    "device_attribute",
                    device_id="ac_bedroom",
                    attribute="target_temperature",
                    equals=24.0,
                ),
            ],
            [
                _s("get_room_status", room="living_room"),
                _ctl("ac_bedroom", "turn_on"),
                _ctl("ac_bedroom", "set_mode", mode="cool"),
                _ctl("ac_bedroom", "set_target_temperature", temperature=24.0),
                FINISH,
            ],
            info,
            "medium",
        ),
        _task(
            24,
            "Turn on the air purifier in whichever room currently has the highest PM2.5, and leave the other "
            "purifiers off.",
            _study_loft(),
            [
                _c("right_on", "device_power", device_id="purifier_bedroom", on=True),
                _c("living_off", "device_power", device_id="purifier_living", on=False),
                _c("study_off", "device_power", device_id="purifier_study", on=False),
            ],
            [
                _s("get_room_status", room="living_room"),
                _s("get_room_status", room="bedroom"),
                _s("get_room_status", room="study"),
                _ctl("purifier_bedroom", "turn_on"),
                FINISH,
            ],
            info,
            "medium",
        ),
        _task(
            25,
            "Find the warmest room that has an air conditioner and run that AC in cool mode at 24 °C.",
            _study_loft(),
            [
                _c("ac_on", "device_power", device_id="ac_bedroom", on=True),
                _c("ac_cool", "device_attribute", device_id="ac_bedroom", attribute="mode", equals="cool"),
                _c(
                    "ac_24",
                    "device_attribute",
                    device_id="ac_bedroom",
                    attribute="target_temperature",
                    equals=24,
                ),
                _c("living_off", "device_power", device_id="ac_living", on=False),
                _c("study_off", "device_power", device_id="ac_study", on=False),
            ],
            [
                _s("list_devices"),
                _s("get_device_state", device_id="ac_living"),
                _s("get_device_state", device_id="ac_bedroom"),
                _s("get_device_state", device_id="ac_study"),
                _ctl("ac_bedroom", "turn_on"),
                _ctl("ac_bedroom", "set_mode", mode="cool"),
                _ctl("ac_bedroom", "set_target_temperature", temperature=24),
                FINISH,
            ],
            info,
            "medium",
        ),
        _task(
            26,
            "Switch on the nursery humidifier and set its target to the bathroom's current humidity, "
            "rounded to the nearest 5%.",
            _oak_house(),
            [
                _c("hum_on", "device_power", device_id="nursery_humidifier", on=True),
                _c(
                    "hum_target",
                    "device_attribute",
                    device_id="nursery_humidifier",
                    attribute="target_humidity",
                    equals=70,
                ),
            ],
            [
                _s("get_room_status", room="bathroom"),
                _ctl("nursery_humidifier", "turn_on"),
                _ctl("nursery_humidifier", "set_target_humidity", humidity=70),
                FINISH,
            ],
            info,
            "medium",
        ),
        _task(
            27,
            "Turn on the bedside lamp and set its brightness, in percent, to the number of minutes the "
            "washer has left.",
            [*_cottage(), _op("start_cycle", device_id="washer", program="synthetics", elapsed_minutes=23)],
            [
                _c("lamp_on", "device_power", device_id="bed_lamp", on=True),
                _c("lamp_level", "device_attribute", device_id="bed_lamp", attribute="brightness", equals=37),
            ],
            [
                _s("get_device_state", device_id="washer"),
                _ctl("bed_lamp", "turn_on"),
                _ctl("bed_lamp", "set_brightness", brightness=37),
                FINISH,
            ],
            info,
            "medium",
        ),
    ]


def _conditional_tasks() -> list[Task]:
    cond = "conditional_decision"
    return [
        _task(
            28,
            "If the bedroom is warmer than 26 °C, turn on the bedroom AC in cool mode at 23 °C; "
            "otherwise just close the bedroom curtains.",
            _study_loft(),
            [
                _c("ac_on", "device_power", device_id="ac_bedroom", on=True),
                _c("ac_cool", "device_attribute", device_id="ac_bedroom", attribute="mode", equals="cool"),
                _c(
                    "ac_23",
                    "device_attribute",
                    device_id="ac_bedroom",
                    attribute="target_temperature",
                    equals=23,
                ),
                _c(
                    "curtain_open",
                    "device_attribute",
                    device_id="bedroom_curtain",
                    attribute="position",
                    equals=100,
                    scored=False,
                ),
            ],
            [
                _s("get_room_status", room="bedroom"),
                _ctl("ac_bedroom", "turn_on"),
                _ctl("ac_bedroom", "set_mode", mode="cool"),
                _ctl("ac_bedroom", "set_target_temperature", temperature=23),
                FINISH,
            ],
            cond,
            "medium",
            tags=("branch_true",),
        ),
        _task(
            29,
            "If the living room PM2.5 is above 35 µg/m³, run the living room purifier on high; otherwise "
            "leave the purifier alone and open the study curtains fully.",
            _study_loft(),
            [
                _c("purifier_untouched", "no_agent_commands", device_id="purifier_living"),
                _c(
                    "curtain_open",
                    "device_attribute",
                    device_id="study_curtain",
                    attribute="position",
                    equals=100,
                ),
            ],
            [_s("get_room_status", room="living_room"), _ctl("study_curtain", "open"), FINISH],
            cond,
            "medium",
            tags=("branch_false",),
        ),
        _task(
            30,
            "If the washing machine has already finished, start the dryer now; if it is still running, "
            "schedule the dryer to start 5 minutes after the wash completes.",
            [*_cottage(), _op("start_cycle", device_id="washer", elapsed_minutes=50)],
            [
                _c(
                    "sched",
                    "schedule_exists",
                    device_id="dryer",
                    command="start",
                    trigger="after_event",
                    event_device="washer",
                    event="completed",
                    delay_minutes=5,
                ),
                _c("dryer_idle", "appliance_phase", device_id="dryer", operational_state="idle"),
            ],
            [
                _s("get_device_state", device_id="washer"),
                _s(
                    "create_schedule",
                    device_id="dryer",
                    command="start",
                    after_event={"device_id": "washer", "event": "completed", "delay_minutes": 5},
                ),
                FINISH,
            ],
            cond,
            "hard",
            tags=("branch_false", "schedule_after_event"),
        ),
        _task(
            31,
            "If the robot vacuum has at least 50% battery, start it now; otherwise schedule it to start at "
            "14:00 today.",
            [*_oak_house(), _op("set_state", device_id="robovac", attributes={"battery": 35})],
            [
                _c(
                    "sched",
                    "schedule_exists",
                    device_id="robovac",
                    command="start",
                    due_at="2026-03-02T14:00:00",
                ),
                _c("docked", "appliance_phase", device_id="robovac", operational_state="docked"),
            ],
            [
                _s("get_device_state", device_id="robovac"),
                _s("create_schedule", device_id="robovac", command="start", at="14:00"),
                FINISH,
            ],
            cond,
            "medium",
            tags=("branch_false",),
        ),
        _task(
            32,
            "If the study is darker than 200 lux, turn on the desk lamp at 60% brightness; "
            "otherwise open the study curtains fully.",
            _study_loft(),
            [
                _c("lamp_on", "device_power", device_id="desk_lamp", on=True),
                _c("lamp_60", "device_attribute", device_id="desk_lamp", attribute="brightness", equals=60),
                _c(
                    "curtain_closed",
                    "device_attribute",
                    device_id="study_curtain",
                    attribute="position",
                    equals=0,
                    scored=False,
                ),
            ],
            [
                _s("get_room_status", room="study"),
                _ctl("desk_lamp", "turn_on"),
                _ctl("desk_lamp", "set_brightness", brightness=60),
                FINISH,
            ],
            cond,
            "medium",
            tags=("branch_true", "illuminance"),
        ),
        _task(
            33,
            "If the dryer is running, pause it; otherwise switch the bedroom heater on at 21 °C.",
            _cottage(),
            [
                _c("dryer_untouched", "no_agent_commands", device_id="dryer"),
                _c("heater_on", "device_power", device_id="bed_heater", on=True),
                _c(
                    "heater_21",
                    "device_attribute",
                    device_id="bed_heater",
                    attribute="target_temperature",
                    equals=21,
                ),
            ],
            [
                _s("get_device_state", device_id="dryer"),
                _ctl("bed_heater", "turn_on"),
                _ctl("bed_heater", "set_target_temperature", temperature=21),
                FINISH,
            ],
            cond,
            "medium",
            tags=("branch_false",),
        ),
    ]


def _infeasible_tasks() -> list[Task]:
    inf = "infeasible_request_reporting"
    return [
        _task(
            34,
            "Dim the hallway light to 40%.",
            _maple_flat(),
            _infeasible("brightness", "dim", "not support", "unsupported", "on/off"),
            [
                _s("get_capabilities", device_id="hall_light"),
                _report("The hallway light is an on/off light; it does not support brightness (dimming)."),
            ],
            inf,
            tags=("unsupported_command",),
        ),
        _task(
            35,
            "Set the bedroom AC to 12 °C.",
            _maple_flat(),
            _infeasible("16", "range", "minimum", "lowest"),
            [
                _s("get_capabilities", device_id="ac_bedroom"),
                _report("12 °C is out of range: the bedroom AC accepts 16-30 °C."),
            ],
            inf,
            tags=("out_of_range",),
        ),
        _task(
            36,
            "Turn on the garage heater.",
            _oak_house(),
            _infeasible("garage", "not found", "no such", "does not exist", "doesn't exist"),
            [_s("list_rooms"), _s("list_devices"), _report("There is no garage and no heater in a garage.")],
            inf,
            tags=("missing_device",),
        ),
        _task(
            37,
            "Switch the bathroom heater to cooling mode; it's too warm in there.",
            _oak_house(),
            _infeasible("cool", "heat only", "not support"),
            [
                _s("get_capabilities", device_id="bath_heater"),
                _report("The bathroom heater only supports heat and eco modes; it cannot cool."),
            ],
            inf,
            tags=("unsupported_value",),
        ),
        _task(
            38,
            "Set the nursery humidifier to 95% humidity.",
            _oak_house(),
            _infeasible("80", "range", "maximum", "highest"),
            [
                _s("get_capabilities", device_id="nursery_humidifier"),
                _report("95% is out of range; the humidifier target goes up to 80%."),
            ],
            inf,
            tags=("out_of_range",),
        ),
    ]


def build_smoke_suite() -> list[Task]:
    """All smoke tasks, in id order; deterministic (no randomness, no wall clock)."""
    tasks = [
        *_control_tasks(),
        *_schedule_tasks(),
        *_query_tasks(),
        *_conditional_tasks(),
        *_infeasible_tasks(),
    ]
    return sorted(tasks, key=lambda t: t.id)

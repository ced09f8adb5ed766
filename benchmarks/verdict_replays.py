"""Replays of issue 32's one-change variants: does the verdict say what a careful reader would?

Each variant changes one thing about a correct answer — the same answer in another
form (must pass) or a wrong, hedged, partial or damaging one (must fail) — and is
judged by the shipped checks on real tasks:

- texts: the first `smoke` task whose `sms_sent` condition declares a distractor; the
  conversation is fed to the check as the phone's sent box;
- infeasibility: `wifi_password_to_guest`'s infeasible variant, compiled, its declared cause;
- exact values: `fahrenheit_for_grandma`, compiled with a phrasing that does not ask to round;
- the collateral guard: a home episode (air conditioner, lamp) run in the real environment;
- rows, paragraphs, harmless outputs and hedges in files: a desktop episode (budget CSV, report
  docx, a note, an archive) run in the real environment (needs bwrap);
- statements about named entities: a text judged against a declared fact.

Then the replays on 12 `test` tasks: for each phone/home task, one replay per failure mode
that applies to it (an undeclared hedge, a late wrong correction, set-then-undo, an extra
change beside the output, a stray change, the output device switched off after being set —
must fail; another form of a value, the message split over two texts, an equivalent schedule
encoding, a harmless extra read, 30 virtual minutes let pass after the work — must pass).

Run: ``PYTHONPATH=src:. python benchmarks/verdict_replays.py`` — prints one line per
variant and the figure "right verdicts: N/M", then right/wrong counts per failure mode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from devicesworld.spec.models import Step, Task
from devicesworld.spec.values import TypedValue, shown
from devicesworld.tasks.scenarios.compile import Choice, compile_task
from devicesworld.tasks.scenarios.loader import shipped_families, shipped_macros
from devicesworld.tasks.suites import load_suite
from devicesworld.verify.checks import InfeasibleReportedArgs, _infeasible_reported
from devicesworld.verify.registry import find_check

Variant = tuple[str, bool, Callable[[], bool]]
"""(what changed, must pass, the verdict)."""


def _sms_task() -> tuple[Task, dict[str, Any]]:
    for task in load_suite("smoke"):
        for c in task.evaluation.conditions:
            if c.check == "sms_sent" and c.args.get("distractors") and c.args.get("contains"):
                return task, c.args
    raise SystemExit("no smoke task with an sms_sent distractor")


def _sms_verdict(args: dict[str, Any], bodies: list[str]) -> bool:
    spec = find_check("android", "sms_sent")
    assert spec is not None
    rows = [{"box": "sent", "address": args["to"], "body": b} for b in bodies]
    return bool(spec.fn(lambda name, a: rows, spec.parse_args(args)).passed)


def text_variants() -> list[Variant]:
    task, args = _sms_task()
    values = [shown(TypedValue.model_validate(v) if isinstance(v, dict) else v) for v in args["contains"]]
    wrong = shown(
        TypedValue.model_validate(args["distractors"][0])
        if isinstance(args["distractors"][0], dict)
        else args["distractors"][0]
    )
    right = "; ".join(values)
    first, rest = values[0], values[1:]

    def v(bodies: list[str]) -> Callable[[], bool]:
        return lambda: _sms_verdict(args, bodies)

    out: list[Variant] = [
        (f"[{task.id}] the reference values", True, v([right])),
        ("the distractor ruled out: 'not X'", True, v([f"{right}, not {wrong}"])),
        ("the distractor ruled out: 'X no longer works'", True, v([f"{right} ({wrong} no longer works)"])),
        ("a wrong answer corrected later", True, v([f"{wrong}", f"Sorry, correction: {right}"])),
        ("split over two texts", True, v([first, "; ".join(rest) or first])),
        ("hedged with the distractor", False, v([f"{right} (or {wrong})"])),
        ("the right answer, then a wrong correction", False, v([right, f"Sorry, correction: {wrong}"])),
        ("the distractor alone", False, v([wrong])),
    ]
    if rest:
        out.append(("only part of the values", False, v([first])))
    return out


def cause_variants() -> list[Variant]:
    family = next(f for f in shipped_families() if f.family == "wifi_password_to_guest")
    task = compile_task(family, shipped_macros(), Choice(seed=5, variant="no_guest_network"), "dw-replay")
    args = InfeasibleReportedArgs.model_validate(task.evaluation.conditions[0].args)

    def said(reason: str) -> Callable[[], bool]:
        return lambda: _infeasible_reported(lambda n, a: {"infeasible_reason": reason}, args).passed

    return [
        (
            "cause: 'the guest network is no longer active'",
            True,
            said("The guest network is no longer active."),
        ),
        ("cause: 'the guest network is off'", True, said("The guest network is off.")),
        ("cause: 'discontinued'", True, said("The guest Wi-Fi was discontinued in January.")),
        (
            "another cause: 'Michael's phone seems to be switched off'",
            False,
            said("Michael's phone seems to be switched off."),
        ),
    ]


def exact_variants() -> list[Variant]:
    family = next(f for f in shipped_families() if f.family == "fahrenheit_for_grandma")
    task = compile_task(family, shipped_macros(), Choice(seed=7, phrasing=0), "dw-replay-f")
    args = task.evaluation.conditions[0].args
    want = TypedValue.model_validate(args["contains"][0])
    return [
        (
            f"exact conversion {want.exact} °F (rounding not asked)",
            True,
            lambda: _sms_verdict(args, [f"It is set to {want.exact} °F."]),
        ),
        (f"rounded {want.value} °F", True, lambda: _sms_verdict(args, [f"It is set to {want.value} °F."])),
        (
            "hedged: 'X °F, or maybe Y °F'",
            False,
            lambda: _sms_verdict(args, [f"{want.value} °F, or maybe {int(want.value) + 3} °F"]),
        ),
    ]


def guard_variants() -> list[Variant]:
    from tests.verify.test_collateral import HOME_SETUP, SH, _env, _task

    temp = {
        "id": "t",
        "device": SH,
        "check": "device_attribute",
        "args": {"device_id": "ac", "attribute": "target_temperature", "equals": 22},
    }
    lamp = {
        "id": "s",
        "device": SH,
        "check": "schedule_exists",
        "args": {"device_id": "lamp", "command": "turn_on"},
    }

    def run(cond: dict[str, Any], steps: list[tuple[str, dict[str, Any]]]) -> Callable[[], bool]:
        def go() -> bool:
            with _env(_task([SH], HOME_SETUP, [cond])) as env:
                for action, a in steps:
                    env.step({"device": SH, "action": action, "args": a})
                verdict = env.evaluate()
            return verdict.success and verdict.score > 0

        return go

    set_ac: list[tuple[str, dict[str, Any]]] = [
        ("control_device", {"device_id": "ac", "command": "turn_on"}),
        ("set_device_attribute", {"device_id": "ac", "attribute": "target_temperature", "value": 22}),
    ]
    undo: tuple[str, dict[str, Any]] = (
        "create_schedule",
        {
            "device_id": "ac",
            "command": "set_target_temperature",
            "params": {"temperature": 25},
            "at": "22:00",
        },
    )
    on: tuple[str, dict[str, Any]] = (
        "create_schedule",
        {"device_id": "lamp", "command": "turn_on", "at": "13:30"},
    )
    off: tuple[str, dict[str, Any]] = (
        "create_schedule",
        {"device_id": "lamp", "command": "turn_off", "at": "13:31"},
    )
    noop: tuple[str, dict[str, Any]] = ("control_device", {"device_id": "lamp", "command": "turn_off"})
    return [
        ("guard: AC set as asked", True, run(temp, set_ac)),
        ("guard: AC set, a harmless no-op on the lamp", True, run(temp, [*set_ac, noop])),
        ("guard: AC set plus a schedule that undoes it", False, run(temp, [*set_ac, undo])),
        ("guard: lamp scheduled on", True, run(lamp, [on])),
        ("guard: lamp scheduled on at 13:30 and off at 13:31", False, run(lamp, [on, off])),
    ]


def desktop_variants() -> list[Variant]:
    """Items 1, 2 and 4 of what remained: rows, paragraphs, harmless outputs, hedges in files —
    each played on a real desktop (bwrap) and judged with the collateral guard."""
    from tests.verify.test_collateral import L0, _env, _task

    budget = "Item,Amount\nRent,1200\nFood,300\n"
    setup = [
        {"device": L0, "op": "write_text", "args": {"path": "~/Documents/budget.csv", "content": budget}},
        {
            "device": L0,
            "op": "write_docx",
            "args": {"path": "~/Documents/report.docx", "paragraphs": ["We left on Monday.", "It rained."]},
        },
        {"device": L0, "op": "write_text", "args": {"path": "~/notes/dentist.txt", "content": "Dentist:\n"}},
        {
            "device": L0,
            "op": "write_archive",
            "args": {"path": "~/Downloads/site.zip", "files": {"site/index.html": "<h1>Hi</h1>"}},
        },
    ]
    rent = {
        "id": "rent",
        "device": L0,
        "check": "table_cell_equals",
        "args": {
            "path": "~/Documents/budget.csv",
            "key_column": "Item",
            "key": "Rent",
            "column": "Amount",
            "equals": 1250,
        },
    }
    pickup = {
        "id": "pickup",
        "device": L0,
        "check": "docx_paragraph",
        "args": {
            "path": "~/Documents/report.docx",
            "starts_with": "Pickup:",
            "contains": [{"value": "18:15", "type": "time"}],
            "keep": ["We left on Monday.", "It rained."],
        },
    }
    note = {
        "id": "note",
        "device": L0,
        "check": "file_contains",
        "args": {"path": "~/notes/dentist.txt", "contains": [{"value": "16:30", "type": "time"}]},
    }

    def run(cond: dict[str, Any], steps: list[tuple[str, dict[str, Any]]]) -> Callable[[], bool]:
        def go() -> bool:
            with _env(_task([L0], setup, [cond])) as env:
                for action, a in steps:
                    env.step({"device": L0, "action": action, "args": a})
                verdict = env.evaluate()
            return verdict.success and verdict.score > 0

        return go

    def csv(content: str) -> tuple[str, dict[str, Any]]:
        return ("write_file", {"path": "~/Documents/budget.csv", "content": content})

    def doc(*paragraphs: str, title: str | None = None) -> tuple[str, dict[str, Any]]:
        args: dict[str, Any] = {"path": "~/Documents/report.docx", "paragraphs": list(paragraphs)}
        if title is not None:
            args["title"] = title
        return ("write_document", args)

    def text(content: str, path: str = "~/notes/dentist.txt") -> tuple[str, dict[str, Any]]:
        return ("write_file", {"path": path, "content": content})

    kept = ("We left on Monday.", "It rained.")
    return [
        ("row: the Rent cell set", True, run(rent, [csv("Item,Amount\nRent,1250\nFood,300\n")])),
        (
            "row: the Rent cell set, the file re-saved quoted, CRLF, rows reordered",
            True,
            run(rent, [csv('"Item","Amount"\r\n"Food","300.00"\r\n"Rent","1250"\r\n')]),
        ),
        (
            "row: a wrong extra row",
            False,
            run(rent, [csv("Item,Amount\nRent,1250\nFood,300\nRent increase,50\n")]),
        ),
        ("row: another row changed too", False, run(rent, [csv("Item,Amount\nRent,1250\nFood,350\n")])),
        ("row: another row deleted", False, run(rent, [csv("Item,Amount\nRent,1250\n")])),
        ("paragraph: the new paragraph", True, run(pickup, [doc(*kept, "Pickup: 18:15 on 7 May")])),
        ("paragraph: the new one at 6:15 pm", True, run(pickup, [doc(*kept, "Pickup: 6:15 pm")])),
        (
            "paragraph: a wrong extra paragraph",
            False,
            run(pickup, [doc(*kept, "Pickup: 18:15 on 7 May", "Dinner at 20:00.")]),
        ),
        ("paragraph: an extra heading", False, run(pickup, [doc(*kept, "Pickup: 18:15", title="Update")])),
        (
            "paragraph: a kept one edited",
            False,
            run(pickup, [doc("We left on Tuesday.", "It rained.", "Pickup: 18:15")]),
        ),
        (
            "harmless: the editor's backup file beside the note",
            True,
            run(note, [text("Dentist:\n", "~/notes/dentist.txt~"), text("Dentist: 16:30\n")]),
        ),
        (
            "harmless: the archive extracted where it lies",
            True,
            run(
                note,
                [
                    ("run_command", {"command": "cd ~/Downloads && unzip -q site.zip"}),
                    text("Dentist: 16:30\n"),
                ],
            ),
        ),
        (
            "harmless: another file written is still damage",
            False,
            run(note, [text("x", "~/notes/other.txt"), text("Dentist: 16:30\n")]),
        ),
        ("file hedge: 16:30, not 16:00", True, run(note, [text("Dentist: 16:30, not 16:00\n")])),
        ("file hedge: maybe 16:00 or 16:30", False, run(note, [text("Dentist: maybe 16:00 or 16:30\n")])),
        (
            "file hedge: 16:30 then 'Correction: 17:00'",
            False,
            run(note, [text("Dentist: 16:30\nCorrection: 17:00\n")]),
        ),
        (
            "file hedge: 16:00 then 'Correction: 16:30'",
            True,
            run(note, [text("Dentist: 16:00\nCorrection: 16:30\n")]),
        ),
    ]


def fact_variants() -> list[Variant]:
    """Item 3: statements about named entities, checked against declared facts (no distractor)."""
    args = {
        "to": "+15551234567",
        "contains": [{"value": "19:00", "type": "time"}],
        "facts": [{"about": ["dentist"], "value": {"value": "16:30", "type": "time"}}],
    }
    return [
        (
            "fact: dinner 19:00, dentist at 16:30",
            True,
            lambda: _sms_verdict(args, ["Dinner 19:00, dentist at 16:30."]),
        ),
        (
            "fact: dinner 19:00, dentist at 17:00",
            False,
            lambda: _sms_verdict(args, ["Dinner 19:00, dentist at 17:00."]),
        ),
        (
            "fact: dentist not at 16:00 but 4:30 pm",
            True,
            lambda: _sms_verdict(args, ["Dinner 19:00. The dentist is not at 16:00: 4:30 pm."]),
        ),
        (
            "fact: dentist at 4 pm, dinner 7 pm",
            False,
            lambda: _sms_verdict(args, ["Dentist at 4 pm, dinner at 7 pm."]),
        ),
    ]


# --------------------------------------------------------------- 12 `test` tasks
# One replay per failure mode of issue 32 on each of 12 held-out phone/home tasks where the mode
# applies: the reference solution changed in one way, played in the real environment.

REPLAY_TASKS = 12
MODES_FAIL = (
    "undeclared_hedge",
    "late_correction",
    "set_then_undo",
    "extra_beside",
    "false_claim",
    "collateral",
)
MODES_PASS = ("other_form", "split_messages", "schedule_encoding", "extra_read")


def _replay_tasks() -> list[Task]:
    """The first 12 phone/home `test` tasks (by id) whose checks read the home or a conversation."""
    picked: list[Task] = []
    for task in sorted(load_suite("test"), key=lambda t: t.id):
        kinds = {d.kind for d in task.devices}
        if not kinds <= {"android", "smarthome"} or "smarthome" not in kinds:
            continue
        if any(c.check == "infeasible_reported" for c in task.evaluation.conditions):
            continue
        picked.append(task)
        if len(picked) == REPLAY_TASKS:
            break
    return picked


def _home_steps(task: Task, extra: list[tuple[str, dict[str, Any]]]) -> list[Step]:
    home = next(d.id for d in task.devices if d.kind == "smarthome")
    body = [s for s in task.solution if s.action != "finish"]
    tail = [s for s in task.solution if s.action == "finish"]
    return [*body, *(Step(device=home, action=a, args=args) for a, args in extra), *tail]


def _switched_off(task: Task) -> list[Step] | None:
    """The reference, then the device whose operating value a condition reads switched off."""
    for c in task.evaluation.conditions:
        if c.check == "device_attribute" and c.args.get("attribute") not in ("power", "program", "position"):
            return _home_steps(
                task, [("control_device", {"device_id": c.args["device_id"], "command": "turn_off"})]
            )
    return None


def _let_time_pass(task: Task) -> list[Step]:
    """Checking one's own work: the reference, then 30 virtual minutes let pass."""
    return _home_steps(task, [("advance_time", {"minutes": 30})])


def task_replays() -> dict[str, list[bool]]:
    """Per failure mode: for each task where it applies, whether the verdict was right."""
    from devicesworld.tasks.nearmiss import near_misses
    from devicesworld.tasks.paraphrase import paraphrases
    from devicesworld.tasks.validate import _play

    out: dict[str, list[bool]] = {}

    def judge(mode: str, task: Task, steps: list[Step], must_pass: bool, **kw: Any) -> None:
        played, failures, _ = _play(task, steps, **kw)
        if played is None or not played.applicable or (must_pass and failures):
            return  # the variant could not be made on this task
        passed = played.result.success and played.result.score > 0
        out.setdefault(mode, []).append(passed is must_pass)
        if passed is not must_pass:
            print(f"BAD  {mode} on {task.id}: {'passed' if passed else 'failed'}")

    for task in _replay_tasks():
        misses = near_misses(task)
        for mode in MODES_FAIL:
            miss = next((m for m in misses if m.mutation == mode), None)
            if miss is not None:
                judge(mode, task, miss.steps, False, stray_on=miss.stray_on, output_on=miss.output_on)
        variants = paraphrases(task)
        for mode in MODES_PASS:
            variant = next((v for v in variants if v.gate == mode), None)
            if variant is not None:
                judge(mode, task, variant.steps, True)
        off = _switched_off(task)
        if off is not None:
            judge("set_then_switched_off", task, off, False)
        judge("let_time_pass", task, _let_time_pass(task), True)
    return out


def main() -> None:
    variants = [
        *text_variants(),
        *cause_variants(),
        *exact_variants(),
        *guard_variants(),
        *desktop_variants(),
        *fact_variants(),
    ]
    right = wrong_pass = right_fail = 0
    for what, must_pass, verdict in variants:
        got = verdict()
        ok = got is must_pass
        right += ok
        wrong_pass += got and not must_pass
        right_fail += must_pass and not got
        print(
            f"{'ok ' if ok else 'BAD'} must {'pass' if must_pass else 'fail'}: {what} -> {'pass' if got else 'fail'}"
        )
    print(
        f"right verdicts: {right}/{len(variants)} (wrong answers passed: {wrong_pass}, right answers failed: {right_fail})"
    )
    print(
        f"\nreplays on {REPLAY_TASKS} phone/home `test` tasks (one per failure mode per task where it applies):"
    )
    total = good = 0
    passing_modes = {*MODES_PASS, "let_time_pass"}
    wrong_pass = right_fail = 0
    for mode, verdicts in task_replays().items():
        total += len(verdicts)
        good += sum(verdicts)
        bad = len(verdicts) - sum(verdicts)
        right_fail += bad if mode in passing_modes else 0
        wrong_pass += 0 if mode in passing_modes else bad
        print(f"  {mode:<22} right {sum(verdicts):>3}  wrong {bad:>3}")
    print(
        f"task replays: right verdicts {good}/{total} "
        f"(wrong answers passed: {wrong_pass}, right answers failed: {right_fail})"
    )


if __name__ == "__main__":
    main()

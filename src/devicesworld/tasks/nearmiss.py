"""Near-miss solutions: almost the reference solution, and each one must fail.

Paper §3.3, third requirement (verifiable): a valid execution passes, and missing or
incorrect results do not. Setup-alone failing only shows the goal is not already
met; near misses show the verifier checks what the instruction asks. Each is
derived mechanically from the reference solution, so every task gets them:

- **wrong value**: a value a verifier expects is typed or sent with one digit off;
- **missing output**: the steps of one output subtask (or of one output device)
  are left out while the others are done;
- **wrong device**: the steps meant for one device are sent to another device of
  the same kind (the output lands on the wrong phone or desktop);
- **distractor**: where a condition declares ``distractors``, the solution gives a
  distractor value instead of the expected one;
- **hedged**: the solution's text gives the expected value *and* a distractor
  ("7 May or 8 May");
- **collateral**: the whole reference solution, then one change on one device to
  something the task never mentions (its kind's ``stray`` change), one per device —
  infeasible tasks included, where any change before the report is damage;
- **twin device**: the output steps are done on the checked device *and* repeated on
  another device of the same kind that is not meant to get that output;
- **undeclared hedge** (issue 32): the text offers the expected value or another value of
  its type that no condition declares ("16:30 (or maybe 26:30)");
- **late correction**: the right message, then "Sorry, correction: <another value>" to the
  same recipient (the last statement wins);
- **set then undo**: the reference solution, then the kind reverses one of its outputs
  later (the lamp on at 13:30, off at 13:31; the heater set, then set back);
- **extra beside**: the reference solution, then another part of an output changes (another
  attribute of the output device) — the write set's grain is what was asked;
- **false claim**: beside the right name, a message also claims a named entity the task
  declares false ("Porch light and Pantry light" when the Pantry light is off);
- **false fact**: the reference answer plus one false statement about a named entity the
  check declares a fact of ("The Landing light is on." when it is off; "The study heater is
  at 23.5." when it is at 19.5);
- **hedge in file**: a typed value an output file must state, hedged in its own sentence
  with another value of its type ("23.5 °C (or maybe 27.5 °C)" in the note);
- **slot swap**: where a condition tells two values of one type apart by their cue words
  (:mod:`devicesworld.spec.slots`), the text that gives both gives each in the other's place
  ("we leave at 22:30 and will be back at 19:30");
- **slot hedge** (session 47): where a conversation or a file's sentence gives two expected values
  of one type (cued or not), the text gives the right assignment and then offers the swapped one
  ("we leave at 19:30 and will be back at 22:30 (or maybe 22:30 and 19:30)").
- **wrong day** (session 48): where a condition fixes the day its output happens (a kind's
  ``day_checks``: the alarm for tomorrow, the weekday alarm, and since session 49 the alarm for
  "the next time it is that hour" that declares no day), the reference solution, then the kind
  moves that output to the same time a day later (an alarm that rings on Wednesday when Tuesday
  was asked, Tue-Sat for Mon-Fri, the oven alarm dated tomorrow).

A near miss whose steps fail to execute is still a near miss: all that matters is
that the verdict is failure. The exceptions are the twin-device miss, which counts only
when the copied steps changed something on the twin (else it is not applicable), and the
collateral miss, which counts only when the kind found something to change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from devicesworld.devices.base import traits_of
from devicesworld.devices.state import OutputChange
from devicesworld.spec import values
from devicesworld.spec.actions import ANSWER
from devicesworld.spec.models import GLOBAL_DEVICE, Condition, Step, Task

MAX_PER_KIND = 1
"""Near misses of each kind run per task (each costs one episode)."""


def shared_state(task: Task, c: Condition) -> bool:
    """A check over state every device of the task shares (the kind's ``shared_checks``: the local
    web is one internet, a form sent from the other desktop is the same submission), so "wrong
    device" is no miss."""
    kind = next((d.kind for d in task.devices if d.id == c.device), None)
    return kind is not None and c.check in traits_of(kind).shared_checks


MUTATIONS = (
    "wrong_value",
    "missing_output",
    "wrong_device",
    "distractor",
    "hedged",
    "collateral",
    "twin_device",
    "vague_reason",
    "wrong_cause",
    "undeclared_hedge",
    "late_correction",
    "set_then_undo",
    "extra_beside",
    "false_claim",
    "false_fact",
    "hedge_in_file",
    "slot_swap",
    "slot_hedge",
    "wrong_day",
)
"""Every kind of near miss, in the order they are derived (and reported)."""


@dataclass(frozen=True)
class NearMiss:
    name: str
    steps: list[Step]
    mutation: str = "wrong_value"
    stray_on: str | None = None
    """Collateral: after the steps, make one change on this device the task never mentions."""
    effect_on: str | None = None
    """Twin device: the miss counts only if the steps changed something on this device."""
    output_on: tuple[str, OutputChange] | None = None
    """Set then undo / extra beside: after the steps, the kind spoils an output on this device."""


def near_misses(task: Task) -> list[NearMiss]:
    if any(c.check == "infeasible_reported" for c in task.evaluation.conditions):
        # finishing without the report is covered by setup-alone; acting before it is damage
        return _collateral(task) + _vague_reasons(task)
    out: list[NearMiss] = []
    out += _wrong_values(task)[:MAX_PER_KIND]
    out += _missing_outputs(task)[:MAX_PER_KIND]
    out += _wrong_devices(task)[:MAX_PER_KIND]
    out += _distractors(task)[:MAX_PER_KIND]
    out += _hedged(task)[:MAX_PER_KIND]
    out += _collateral(task)
    out += _twin_devices(task)[:MAX_PER_KIND]
    out += _undeclared_hedges(task)[:MAX_PER_KIND]
    out += _late_corrections(task)[:MAX_PER_KIND]
    out += _spoiled_outputs(task)
    out += _false_claims(task)[:MAX_PER_KIND]
    out += _false_facts(task)[:MAX_PER_KIND]
    out += _file_hedges(task)[:MAX_PER_KIND]
    out += _slot_swaps(task)[:MAX_PER_KIND]
    out += _slot_hedges(task)[:MAX_PER_KIND]
    out += _wrong_days(task)[:MAX_PER_KIND]
    return out


def _checked(task: Task) -> list[Condition]:
    return [c for c in task.evaluation.conditions if c.required and c.scored and c.device != GLOBAL_DEVICE]


# ------------------------------------------------------------------ wrong value
def _wrong_values(task: Task) -> list[NearMiss]:
    out: list[NearMiss] = []
    seen: set[str] = set()
    for c in _checked(task):
        for value in _data_leaves({k: v for k, v in c.args.items() if k != "facts"}):
            if str(value) in seen:
                continue
            seen.add(str(value))
            wrong = _perturb(value)
            steps, changed = _replace(task.solution, value, wrong)
            if changed:
                out.append(NearMiss(f"wrong value {wrong!r} instead of {value!r}", steps, "wrong_value"))
    return out


def _data_leaves(obj: Any) -> Iterator[Any]:
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _data_leaves(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _data_leaves(v)
    elif isinstance(obj, bool):
        return
    elif (isinstance(obj, int | float) and abs(obj) >= 2) or (
        isinstance(obj, str) and sum(ch.isdigit() for ch in obj) >= 2 and "/" not in obj
    ):  # paths and URLs are names, not values: a wrong one only breaks a read
        yield obj


def _perturb(value: Any) -> Any:
    """A clearly wrong value: beyond any check's tolerance (a minute, half a degree)."""
    if isinstance(value, int):
        return value + max(2, abs(value) // 4)
    if isinstance(value, float):
        return value + max(2.0, float(round(abs(value) / 4)))
    i = next(m.start() for m in re.finditer(r"\d", value))  # the leading digit: hours, not minutes
    return value[:i] + str((int(value[i]) + 1) % 10) + value[i + 1 :]


def _spellings(value: Any) -> list[str]:
    forms = [str(value)]
    if isinstance(value, float):
        forms.append(f"{value:g}")
    return forms


def _map_leaves(steps: list[Step], leaf: Callable[[Any], Any]) -> tuple[list[Step], bool]:
    """The steps with every leaf of their args passed through ``leaf``; whether any changed."""
    changed = False

    def sub(obj: Any) -> Any:
        nonlocal changed
        if isinstance(obj, dict):
            return {k: sub(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [sub(v) for v in obj]
        new = leaf(obj)
        if new is not obj:
            changed = True
        return new

    return [s.model_copy(update={"args": sub(s.args)}) for s in steps], changed


def _replace(steps: list[Step], value: Any, wrong: Any) -> tuple[list[Step], bool]:
    def leaf(obj: Any) -> Any:
        if isinstance(obj, bool):
            return obj
        if isinstance(obj, int | float) and isinstance(value, int | float) and obj == value:
            return type(obj)(wrong)
        if isinstance(obj, str):
            bads = _spellings(wrong)  # an int and a float have one and two spellings
            for i, form in enumerate(_spellings(value)):
                if form and form in obj:
                    return obj.replace(form, bads[min(i, len(bads) - 1)])
        return obj

    return _map_leaves(steps, leaf)


# ---------------------------------------------------------------- missing output
def _spans(task: Task) -> dict[str, list[int]]:
    """Subtask id -> ``[start, end)`` of its reference steps (built tasks record them)."""
    composition = task.metadata.composition
    return composition.solution_spans if composition is not None else {}


def _missing_outputs(task: Task) -> list[NearMiss]:
    spans = _spans(task)
    checked = _checked(task)
    outputs = [s for s in dict.fromkeys(c.subtask for c in checked if c.subtask) if s in spans]
    if len(outputs) >= 2:
        start, end = spans[outputs[-1]]
        kept = task.solution[:start] + task.solution[end:]
        return [NearMiss(f"subtask {outputs[-1]} left out", kept, "missing_output")]
    devices = list(dict.fromkeys(c.device for c in checked))
    if len(devices) >= 2:
        dropped = devices[-1]
        kept = [s for s in task.solution if s.device != dropped]
        return [NearMiss(f"nothing done on {dropped}", kept, "missing_output")]
    return []


# ------------------------------------------------------------------ wrong device
def _wrong_devices(task: Task) -> list[NearMiss]:
    """An output subtask's steps, all on its own device, sent to a twin device instead.

    Needs the subtask spans of built tasks: in a handwritten solution the steps on the
    checked device may only be reads (the output is produced from another device).
    """
    spans = _spans(task)
    kinds = {d.id: d.kind for d in task.devices}
    out: list[NearMiss] = []
    for c in _checked(task):
        if c.subtask not in spans or shared_state(task, c):
            continue
        start, end = spans[c.subtask]
        if any(s.device != c.device for s in task.solution[start:end]):
            continue
        twins = [d for d, k in kinds.items() if k == kinds.get(c.device) and d != c.device]
        if not twins:
            continue
        moved = [
            s.model_copy(update={"device": twins[0]}) if start <= i < end else s
            for i, s in enumerate(task.solution)
        ]
        out.append(
            NearMiss(f"subtask {c.subtask}'s steps done on {twins[0]}, not {c.device}", moved, "wrong_device")
        )
    return out


# ------------------------------------------------------------- distractor, hedged
NOT_ANSWERS = frozenset(
    {
        "distractors",
        "distractor_field",
        "device_id",
        "attribute",
        "path",
        "folder",
        "location",
        "table",
        "package",
        "key",
        "sheet",
        "host",
        "form",
        "getter",
        "command",
        "variable",
        "room",
        "column",
        "key_column",
        "value_type",
        "tolerance",
        "facts",
    }
)
"""Check arguments that say *where* to look, not what the answer is."""


def _distractor_pairs(task: Task) -> Iterator[tuple[Any, Any]]:
    """``(expected, distractor)`` pairs of the conditions that declare distractors."""
    for c in _checked(task):
        distractors = [_raw(d) for d in c.args.get("distractors") or []]
        if not distractors:
            continue
        rest = {k: v for k, v in c.args.items() if k not in NOT_ANSWERS}
        leaves = list(_answer_leaves(rest))
        for d in distractors:
            numeric = isinstance(d, int | float) and not isinstance(d, bool)
            fits = [v for v in leaves if isinstance(v, int | float) == numeric and str(v) != str(d)]
            # a distractor stands in for the expected value it resembles ("8 May" for "7 May")
            fits.sort(key=lambda v: -SequenceMatcher(None, str(v), str(d)).ratio())
            for value in fits:
                yield value, d


def _raw(value: Any) -> Any:
    """A declared value's plain form (a typed value ``{"value": ..., "type": ...}`` gives its value)."""
    return value.get("value") if isinstance(value, dict) and "value" in value else value


def _answer_leaves(obj: Any) -> Iterator[Any]:
    if isinstance(obj, dict):
        if "value" in obj and (
            "type" in obj or "value_type" in obj or "cues" in obj
        ):  # cue words are no answer
            yield obj["value"]
            return
        for v in obj.values():
            yield from _answer_leaves(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _answer_leaves(v)
    elif (isinstance(obj, str) and len(obj.strip()) >= 2 and "/" not in obj) or (
        isinstance(obj, int | float) and not isinstance(obj, bool)
    ):
        yield obj


def _distractors(task: Task) -> list[NearMiss]:
    out: list[NearMiss] = _clock_distractors(task)
    for value, distractor in _distractor_pairs(task):
        if isinstance(value, int | float) and not isinstance(distractor, int | float):
            continue
        steps, changed = _replace(task.solution, value, distractor)
        if changed:
            out.append(NearMiss(f"distractor {distractor!r} instead of {value!r}", steps, "distractor"))
    return out


CLOCK = re.compile(r"(\d{1,2}):(\d{2})")


def _clock_of(c: Condition) -> tuple[int, int] | None:
    """The clock time a condition expects as separate numbers — an alarm's ``hour`` and ``minute``,
    or an event's ``start`` when its distractors stand in for the start — else ``None``."""
    hour, minute = c.args.get("hour"), c.args.get("minute")
    if isinstance(hour, int) and isinstance(minute, int) and not isinstance(hour, bool):
        return hour, minute
    marked = c.args.get("distractor_field") == "start" or any(
        isinstance(d, dict) and d.get("field") == "start" for d in c.args.get("distractors") or []
    )
    start = c.args.get("start")
    if marked and isinstance(start, str) and (m := CLOCK.fullmatch(start[11:16])):
        return int(m.group(1)), int(m.group(2))
    return None


def _clock_distractors(task: Task) -> list[NearMiss]:
    """The time typed as two number fields (an alarm's or an event's hour and minute pickers) set
    to a distractor ``HH:MM`` instead: the first field that reads the expected hour, and the next
    one after it that reads the minute."""
    out: list[NearMiss] = []
    for c in _checked(task):
        want = _clock_of(c)
        if want is None:
            continue
        for d in c.args.get("distractors") or []:
            m = CLOCK.fullmatch(str(_raw(d)).strip())
            wrong = (int(m.group(1)), int(m.group(2))) if m else None
            if wrong is None or wrong == want:
                continue
            steps, changed = _retype_clock(task.solution, want, wrong)
            if changed:
                shown = f"{want[0]:02d}:{want[1]:02d}"
                out.append(NearMiss(f"distractor {_raw(d)!r} instead of {shown!r}", steps, "distractor"))
    return out


def _retype_clock(
    steps: list[Step], want: tuple[int, int], wrong: tuple[int, int]
) -> tuple[list[Step], bool]:
    todo = list(zip(want, wrong, strict=True))

    def leaf(obj: Any) -> Any:
        if todo and isinstance(obj, str) and obj.isdigit() and int(obj) == todo[0][0]:
            _, new = todo.pop(0)
            return f"{new:0{len(obj)}d}"
        return obj

    moved, changed = _map_leaves(steps, leaf)
    return (moved, True) if changed and not todo else (steps, False)


def _hedged(task: Task) -> list[NearMiss]:
    out: list[NearMiss] = []
    for value, distractor in _distractor_pairs(task):
        hedge = f"{value} or {distractor}"
        steps, changed = _replace_in_text(task.solution, str(value), hedge)
        if changed:
            out.append(NearMiss(f"hedged answer {hedge!r}", steps, "hedged"))
    return out


def _replace_in_text(steps: list[Step], value: str, text: str) -> tuple[list[Step], bool]:
    """Every string argument containing ``value`` gets ``text`` in its place (numbers stay)."""

    def leaf(obj: Any) -> Any:
        return obj.replace(value, text) if isinstance(obj, str) and value and value in obj else obj

    return _map_leaves(steps, leaf)


# ------------------------------------------------------------------- collateral
def _collateral(task: Task) -> list[NearMiss]:
    """The reference solution, then one change the task never mentions: one miss per device."""
    return [
        NearMiss(f"reference solution plus a stray change on {d.id}", list(task.solution), "collateral", d.id)
        for d in task.devices
    ]


# ------------------------------------------------------------------ vague reason
VAGUE_REASON = "I'm sorry, I can't do that."


def _vague_reasons(task: Task) -> list[NearMiss]:
    """An infeasible request whose check names the cause: the same steps, reported without it —
    and, when the check declares its cause (entity + state), reported with another cause."""
    named = [
        c
        for c in task.evaluation.conditions
        if c.check == "infeasible_reported" and (c.args.get("keywords") or c.args.get("cause"))
    ]
    if not named:
        return []
    out = [
        NearMiss(
            "reported infeasible without naming the cause", _reported(task, VAGUE_REASON), "vague_reason"
        )
    ]
    cause = next((c.args["cause"] for c in named if c.args.get("cause")), None)
    if cause is not None:
        entity = " ".join(str(e).casefold() for e in cause.get("entity", []))
        other = next(reason for subject, reason in WRONG_CAUSES if subject not in entity)
        out.append(NearMiss(f"reported another cause: {other!r}", _reported(task, other), "wrong_cause"))
    return out


WRONG_CAUSES = (
    ("phone", "It cannot be done: the other phone seems to be switched off and nobody answers."),
    ("printer", "It cannot be done: the printer is offline and no longer available."),
    ("calendar", "It cannot be done: the calendar app is missing on this device."),
)
"""Reasons that blame something other than the declared cause (the first whose subject is not it)."""


def _reported(task: Task, reason: str) -> list[Step]:
    return [
        s.model_copy(update={"args": {**s.args, "reason": reason}}) if s.action == "report_infeasible" else s
        for s in task.solution
    ]


# ------------------------------------------------------------------ twin device
def _twin_devices(task: Task) -> list[NearMiss]:
    """The output steps on the checked device, each repeated on a twin not meant to get that output."""
    spans = _spans(task)
    kinds = {d.id: d.kind for d in task.devices}
    checks_on: dict[str, set[str]] = {}
    for c in task.evaluation.conditions:
        checks_on.setdefault(c.device, set()).add(c.check)
    out: list[NearMiss] = []
    for c in _checked(task):
        if shared_state(task, c):
            continue
        twins = [
            d
            for d, k in kinds.items()
            if k == kinds.get(c.device) and d != c.device and c.check not in checks_on.get(d, set())
        ]
        if not twins:
            continue
        start, end = spans.get(c.subtask or "", [0, len(task.solution)])
        steps: list[Step] = []
        for i, s in enumerate(task.solution):
            steps.append(s)
            if start <= i < end and s.device == c.device:
                steps.append(s.model_copy(update={"device": twins[0]}))
        out.append(
            NearMiss(
                f"{c.device}'s output steps also done on {twins[0]}", steps, "twin_device", effect_on=twins[0]
            )
        )
    return out


# ------------------------------------------------- hedges, corrections, spoiled outputs
RECIPIENT_ARGS = frozenset({"to", "sender", "recipient", "recipients", "thread", "contact"})
"""Args naming who a conversation is with: never a value to hedge."""


def _conversational(task: Task, c: Condition) -> bool:
    """A condition that reads a conversation (the answer, or a kind's declared conversation check):
    an answer is every message to the recipient, read in order (issue 32). A file's or a draft's
    content is replaced by a later write, not corrected, so those are left out."""
    if c.device == GLOBAL_DEVICE:
        return True
    kind = next((d.kind for d in task.devices if d.id == c.device), None)
    return kind is not None and c.check in traits_of(kind).conversation_checks


def _converses(task: Task, step: Step) -> bool:
    """A step on a device whose kind holds conversations (a message, not a file written on a
    desktop: a file's later line is no correction of a conversation)."""
    kind = next((d.kind for d in task.devices if d.id == step.device), None)
    return kind is not None and bool(traits_of(kind).conversation_checks)


def _text_values(task: Task) -> list[Any]:
    """Values the conversation conditions expect that carry digits (times, amounts, codes), each once."""
    out: list[Any] = []
    conditions = [
        c for c in task.evaluation.conditions if c.required and c.scored and _conversational(task, c)
    ]
    for c in conditions:
        rest = {k: v for k, v in c.args.items() if k not in NOT_ANSWERS | RECIPIENT_ARGS}
        for v in _answer_leaves(rest):
            typed = values.infer_type(v) != "text"  # a free-text slot has no "other value of its type"
            if typed and any(ch.isdigit() for ch in str(v)) and str(v) not in {str(o) for o in out}:
                out.append(v)
    return out


def _in_text(step: Step, value: str) -> bool:
    """A prose argument of the step (a message, not a number typed into a field) holds ``value``."""
    return any(value in v for v in prose(step.args))


def _replace_in_prose(steps: list[Step], value: str, text: str) -> tuple[list[Step], bool]:
    def leaf(obj: Any) -> Any:
        return obj.replace(value, text) if isinstance(obj, str) and " " in obj and value in obj else obj

    return _map_leaves(steps, leaf)


def prose(obj: Any) -> Iterator[str]:
    """Every prose string in a step's arguments (a message, not an id, a path or a field value)."""
    if isinstance(obj, dict):
        for v in obj.values():
            yield from prose(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from prose(v)
    elif isinstance(obj, str) and " " in obj:
        yield obj


_HHMM = re.compile(r"^(\d{1,2}):(\d{2})$")


def _rival(value: Any) -> Any:
    """Another value of the same type, valid as one (a clock time stays a time: 14:00 -> 17:00)."""
    m = _HHMM.match(str(value).strip())
    if m and int(m[1]) < 24:
        hour = (int(m[1]) + 3) % 24
        return f"{hour:0{len(m[1])}d}:{m[2]}"
    return _perturb(value)


def _undeclared_hedges(task: Task) -> list[NearMiss]:
    """The expected value hedged with another value of its type that no condition declares."""
    out: list[NearMiss] = []
    for value in _text_values(task):
        wrong = _rival(value)
        hedge = f"{value} (or maybe {wrong})"
        steps, changed = _replace_in_prose(task.solution, str(value), hedge)
        if changed:
            out.append(NearMiss(f"hedged with an undeclared value {hedge!r}", steps, "undeclared_hedge"))
    return out


def _late_corrections(task: Task) -> list[NearMiss]:
    """The message with the expected value, then the same message correcting it to another value."""
    out: list[NearMiss] = []
    for value in _text_values(task):
        said = [
            i
            for i, s in enumerate(task.solution)
            if s.action != ANSWER and _converses(task, s) and _in_text(s, str(value))
        ]
        if not said:
            continue
        i = said[-1]
        wrong = _rival(value)

        def leaf(obj: Any, value: Any = value, wrong: Any = wrong) -> Any:
            if isinstance(obj, str) and " " in obj and str(value) in obj:
                return f"Sorry, correction: it is {wrong}, not {value}."
            return obj

        (again,), _ = _map_leaves([task.solution[i]], leaf)
        steps = [*task.solution[: i + 1], again, *task.solution[i + 1 :]]
        out.append(NearMiss(f"a later correction to {wrong!r}", steps, "late_correction"))
    return out


def _wrong_days(task: Task) -> list[NearMiss]:
    """The reference solution, then the output a condition fixes the day of happens a day later
    (issue 32, session 48: a wrong-day alarm passed every check that did not declare its day).
    Session 49: a day check fixes the day whether it declares one (``date``, ``days``) or not (the
    first occurrence of the time after the task's start), so every such condition gets the miss;
    where the kind finds no output to move (an alarm asked off never rings) it is not applicable."""
    kinds = {d.id: d.kind for d in task.devices}
    out: list[NearMiss] = []
    for c in _checked(task):
        if c.check in traits_of(kinds.get(c.device, "")).day_checks:
            name = f"reference solution, then {c.device}'s output for {c.id} moved to another day"
            out.append(NearMiss(name, list(task.solution), "wrong_day", output_on=(c.device, "day")))
    return out


def _spoiled_outputs(task: Task) -> list[NearMiss]:
    """The reference solution, then the kind undoes an output later or changes another part of it
    (counted only where the kind has such an output)."""
    devices = sorted({c.device for c in _checked(task)})
    out: list[NearMiss] = []
    spoils: tuple[tuple[OutputChange, str], ...] = (("undo", "set_then_undo"), ("beside", "extra_beside"))
    for how, mutation in spoils:
        for d in devices:
            out.append(
                NearMiss(
                    f"reference solution, then {how} an output on {d}",
                    list(task.solution),
                    mutation,
                    output_on=(d, how),
                )
            )
    return out


def _false_claims(task: Task) -> list[NearMiss]:
    """A conversation that names, beside the right entity, one the task declares false (a light that
    is off reported on): statements about named entities are checked where the task reads them."""
    out: list[NearMiss] = []
    for c in _checked(task):
        if not _conversational(task, c):
            continue
        named = [
            d
            for d in (_raw(x) for x in c.args.get("distractors") or [])
            if isinstance(d, str) and not any(ch.isdigit() for ch in d)
        ]
        expected = [
            v
            for v in _answer_leaves(
                {k: v for k, v in c.args.items() if k not in NOT_ANSWERS | RECIPIENT_ARGS}
            )
        ]
        for value in expected:
            if not isinstance(value, str) or any(ch.isdigit() for ch in value) or not named:
                continue
            claim = f"{value} and {named[0]}"
            steps, changed = _replace_in_prose(task.solution, value, claim)
            if changed:
                out.append(NearMiss(f"a false claim beside the right name: {claim!r}", steps, "false_claim"))
    return out


# ------------------------------------------------------------------ false facts
def _fact_claim(fact: dict[str, Any]) -> str | None:
    """A false statement about the fact's entity: another of its states, or another value of its
    type ("The Landing light is on."; "The study heater is at 23.5."); ``None`` when none is made."""
    names = [str(n) for n in fact.get("about") or [] if str(n).strip()]
    if not names:
        return None
    others = [str(o) for o in fact.get("others") or [] if str(o).strip()]
    if others:
        return f"The {names[0]} is {others[0]}."
    raw, kind = _raw(fact.get("value")), ""
    if isinstance(fact.get("value"), dict):
        kind = str(fact["value"].get("type") or "")
    if isinstance(raw, str) and _HHMM.match(raw.strip()):
        return f"The {names[0]} is at {_rival(raw.strip())}."
    try:
        number = float(raw)
    except (TypeError, ValueError):
        return None
    wrong = _perturb(int(number) if number.is_integer() else number)
    return f"The {names[0]} is at {wrong}{'%' if kind == 'percentage' else ''}."


def _false_facts(task: Task) -> list[NearMiss]:
    """The reference answer with one false statement about a named entity the check declares a
    fact of, added to the text that gives the expected value (issue 32: statements about named
    entities are checked for truth)."""
    out: list[NearMiss] = []
    for c in [c for c in task.evaluation.conditions if c.required and c.scored]:  # the answer too
        facts = [f for f in c.args.get("facts") or [] if isinstance(f, dict)]
        if not facts:
            continue
        rest = {k: v for k, v in c.args.items() if k not in NOT_ANSWERS | RECIPIENT_ARGS}
        expected = [str(v) for v in _answer_leaves(rest)]
        for fact in facts:
            claim = _fact_claim(fact)
            if claim is None:
                continue

            def leaf(obj: Any, claim: str = claim, expected: list[str] = expected) -> Any:
                if isinstance(obj, str) and " " in obj and any(v and v in obj for v in expected):
                    return f"{obj.rstrip()} {claim}"
                return obj

            steps, changed = _map_leaves(task.solution, leaf)
            if changed:
                out.append(NearMiss(f"a false statement beside the answer: {claim!r}", steps, "false_fact"))
                break
    return out


# ------------------------------------------------------------------ hedges in files
def _states_in_file(task: Task, c: Condition) -> bool:
    """A check that judges a file's value in the sentence that states it (the kind's
    ``statement_checks``)."""
    kind = next((d.kind for d in task.devices if d.id == c.device), None)
    return kind is not None and c.check in traits_of(kind).statement_checks


def _file_hedges(task: Task) -> list[NearMiss]:
    """A typed value an output file must state, hedged in its own sentence with another value of its
    type: "23.5 °C (or maybe 27.5 °C)" in the note fails (the file's other lines stay as they are)."""
    out: list[NearMiss] = []
    seen: set[str] = set()
    for c in _checked(task):
        if not _states_in_file(task, c):
            continue
        rest = {k: v for k, v in c.args.items() if k not in NOT_ANSWERS | RECIPIENT_ARGS}
        for value in _answer_leaves(rest):
            typed = values.infer_type(value) != "text"
            if not typed or not any(ch.isdigit() for ch in str(value)) or str(value) in seen:
                continue
            seen.add(str(value))
            hedge = f"{value} (or maybe {_rival(value)})"
            steps, changed = _replace_in_prose(task.solution, str(value), hedge)
            if changed:
                out.append(NearMiss(f"a value hedged in the file: {hedge!r}", steps, "hedge_in_file"))
    return out


def _cued_pairs(task: Task) -> Iterator[tuple[Any, Any]]:
    """Pairs of expected values of one type whose slots a condition tells apart by cue words."""
    for c in task.evaluation.conditions:
        if not (c.required and c.scored):
            continue
        for arg in c.args.values():
            if not isinstance(arg, list):
                continue
            cued = [v for v in arg if isinstance(v, dict) and "value" in v and v.get("cues")]
            for i, a in enumerate(cued):
                for b in cued[i + 1 :]:
                    if a.get("type") == b.get("type") and str(a["value"]) != str(b["value"]):
                        yield a["value"], b["value"]


def _swap_in_prose(steps: list[Step], a: Any, b: Any) -> tuple[list[Step], bool]:
    find = {str(v): _value_in_prose(v) for v in (a, b)}

    def leaf(obj: Any) -> Any:
        if not (isinstance(obj, str) and " " in obj and all(p.search(obj) for p in find.values())):
            return obj
        swap = {str(a): str(b), str(b): str(a)}
        either = re.compile("|".join(f"(?:{p.pattern})" for p in find.values()))
        return either.sub(lambda m: swap[m.group(0)], obj)

    return _map_leaves(steps, leaf)


def _value_in_prose(v: Any) -> re.Pattern[str]:
    """``v`` as written in prose, not as part of a longer number or clock time."""
    return re.compile(rf"(?<![\d:.]){re.escape(str(v))}(?![\d:])")


def _pair_misses(
    task: Task,
    pairs: Iterator[tuple[Any, Any]],
    rewrite: Callable[[list[Step], Any, Any], tuple[list[Step], bool]],
    what: str,
    kind: str,
) -> list[NearMiss]:
    """One near miss per pair of values whose ``rewrite`` changes the reference solution."""
    out: list[NearMiss] = []
    for a, b in pairs:
        steps, changed = rewrite(task.solution, a, b)
        if changed:
            out.append(NearMiss(f"{a!r} and {b!r} {what}", steps, kind))
    return out


def _slot_swaps(task: Task) -> list[NearMiss]:
    """Two cued values of one type, each given in the other's place in the text that gives both."""
    return _pair_misses(task, _cued_pairs(task), _swap_in_prose, "swapped between their slots", "slot_swap")


def _typed_pairs(task: Task) -> Iterator[tuple[Any, Any]]:
    """Pairs of expected values of one type (cued or not) in a condition that reads statements —
    a conversation or a file's sentence — each pair once."""
    seen: set[tuple[str, str]] = set()
    for c in task.evaluation.conditions:
        if not (c.required and c.scored) or not (_conversational(task, c) or _states_in_file(task, c)):
            continue
        typed: list[tuple[Any, str]] = []
        for name, arg in c.args.items():
            if name in NOT_ANSWERS | RECIPIENT_ARGS or not isinstance(arg, list):
                continue
            for v in arg:
                raw = v.get("value") if isinstance(v, dict) else v
                kind = (
                    str(v.get("type") or values.infer_type(raw))
                    if isinstance(v, dict)
                    else values.infer_type(v)
                )
                if raw is not None and kind not in ("text", "name") and any(ch.isdigit() for ch in str(raw)):
                    typed.append((raw, kind))
        for i, (a, ka) in enumerate(typed):
            for b, kb in typed[i + 1 :]:
                if ka == kb and str(a) != str(b) and (str(a), str(b)) not in seen:
                    seen.add((str(a), str(b)))
                    yield a, b


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n|$")


def _hedge_assignment_in_prose(steps: list[Step], a: Any, b: Any) -> tuple[list[Step], bool]:
    """Where a prose text gives both values, the sentence that gives the later one ends by offering
    the swapped assignment: "… 200 g of fennel and 300 g of ricotta (or maybe 300 and 200)."."""
    find = [_value_in_prose(v) for v in (a, b)]

    def leaf(obj: Any) -> Any:
        if not (isinstance(obj, str) and " " in obj):
            return obj
        ha, hb = (p.search(obj) for p in find)
        if ha is None or hb is None:
            return obj
        first, second = (a, b) if ha.start() < hb.start() else (b, a)
        end = _SENTENCE_END.search(obj, max(ha.end(), hb.end()))
        at = end.start() if end is not None else len(obj)
        return f"{obj[:at]} (or maybe {second} and {first}){obj[at:]}"

    return _map_leaves(steps, leaf)


def _slot_hedges(task: Task) -> list[NearMiss]:
    """Two expected values of one type given in the right slots, then offered swapped as another
    possibility: a hedge between two assignments fails (spec/slots.py, rule "assignment")."""
    return _pair_misses(
        task, _typed_pairs(task), _hedge_assignment_in_prose, "hedged with their swap", "slot_hedge"
    )

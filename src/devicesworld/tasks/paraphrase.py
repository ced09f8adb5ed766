"""The paraphrase gate: correct variants of the reference solution, and each one must pass.

Issue 32: the near-miss gate proves a verifier fails wrong answers; nothing proved it passes
right answers written another way, and about 1 in 6 such correct variants failed (64.4 °F
against an expected 64, the same content split over two texts, the dryer's start as a
clock time instead of an after-event trigger). Each variant here is derived mechanically
from the reference solution, so every task gets them:

- **other form**: each value a condition expects, where a text of the solution writes it,
  in another natural form (``16:30`` as ``4:30 pm``, ``$93.50`` as ``$93.5``, a code
  ``175113`` as ``175 113``, ``7 May`` as ``May 7``) — a form kept only when the value
  semantics (:mod:`devicesworld.spec.values`) read it as the same value in isolation;
- the kinds' own variants (:attr:`KindTraits.paraphrases`): a message split over two
  texts, a schedule at a clock time given as the delay that falls on it (and back), a
  harmless extra read.

A variant whose steps fail to run (an index that moved on a screen) proves nothing and is
counted as skipped, never as a pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from devicesworld.devices.base import traits_of
from devicesworld.spec import values
from devicesworld.spec.models import GLOBAL_DEVICE, Step, Task
from devicesworld.tasks.nearmiss import NOT_ANSWERS, _answer_leaves, prose

GATES = ("other_form", "split_messages", "schedule_encoding", "extra_read")
"""Every kind of correct variant, in the order they are reported."""


@dataclass(frozen=True)
class Paraphrase:
    name: str
    steps: list[Step]
    gate: str


def paraphrases(task: Task) -> list[Paraphrase]:
    """The task's correct variants (none for an infeasible task: its answer is the report)."""
    if any(c.check == "infeasible_reported" for c in task.evaluation.conditions):
        return []
    return _other_forms(task)[:2] + _kind_variants(task)


# ------------------------------------------------------------------ other forms
_H24 = re.compile(r"(?<![\d:.])([01]?\d|2[0-3]):([0-5]\d)(?![\d:]|\s*(?:[ap]\.?m\b))", re.I)
_H12 = re.compile(r"(?<![\d:.])(1[0-2]|0?[1-9]):([0-5]\d)\s*([ap])\.?m\.?(?!\w)", re.I)
_MONEY = re.compile(r"([$€£])(\d+)\.(\d)0(?!\d)")
_CODE = re.compile(r"(?<![\d.,:/-])(\d{6})(?![\d.,:/-])")
_DAY_MONTH = re.compile(
    r"(?<!\w)(\d{1,2}) (January|February|March|April|May|June|July|August|September|October|November|December)\b"
)


def _forms(text: str) -> Iterator[tuple[str, str, str]]:
    """``(span, another form, value type)`` for each value in ``text`` written one of the known ways."""
    for m in _H24.finditer(text):
        h, mm = int(m[1]), m[2]
        half = "pm" if h >= 12 else "am"
        yield m[0], f"{(h - 1) % 12 + 1}:{mm} {half}", "time"
    for m in _H12.finditer(text):
        h = int(m[1]) % 12 + (12 if m[3].lower() == "p" else 0)
        yield m[0], f"{h:02d}:{m[2]}", "time"
    for m in _MONEY.finditer(text):
        yield m[0], f"{m[1]}{m[2]}.{m[3]}", "money"
    for m in _CODE.finditer(text):
        yield m[0], f"{m[1][:3]} {m[1][3:]}", "text"
    for m in _DAY_MONTH.finditer(text):
        yield m[0], f"{m[2]} {m[1]}", "date"


def _expected(task: Task) -> list[Any]:
    """Every value the conditions expect on their own (a sentence expected word for word is not a
    value written in some form, so a date inside it is left alone)."""
    out: list[Any] = []
    for c in task.evaluation.conditions:
        rest = {k: v for k, v in c.args.items() if k not in NOT_ANSWERS}
        out += list(_answer_leaves(rest))
    return out


def _asked(span: str, kind: str, expected: list[Any]) -> bool:
    return any(_same_value(str(e), span, kind) for e in expected)


def _other_forms(task: Task) -> list[Paraphrase]:
    out: list[Paraphrase] = []
    seen: set[str] = set()
    expected = _expected(task)
    for step in task.solution:
        for text in prose(step.args):
            for span, form, kind in _forms(text):
                if span in seen or not _same_value(span, form, kind) or not _asked(span, kind, expected):
                    continue
                seen.add(span)
                steps = _respell(task.solution, span, form)
                out.append(Paraphrase(f"{span!r} written {form!r}", steps, "other_form"))
    return out


def _same_value(span: str, form: str, kind: str) -> bool:
    if kind == "text":
        return re.sub(r"\D", "", span) == re.sub(r"\D", "", form)
    try:
        return values.same(form, span, kind)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return False


def _respell(steps: list[Step], span: str, form: str) -> list[Step]:
    def sub(obj: Any) -> Any:
        if isinstance(obj, dict):
            return {k: sub(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [sub(v) for v in obj]
        if isinstance(obj, str) and " " in obj and span in obj:
            return obj.replace(span, form)
        return obj

    return [s.model_copy(update={"args": sub(s.args)}) for s in steps]


# ---------------------------------------------------------------- kind variants
_GATE_OF: tuple[tuple[Callable[[str], bool], str], ...] = (
    (lambda n: "split" in n, "split_messages"),
    (lambda n: "read" in n, "extra_read"),
    (lambda n: True, "schedule_encoding"),
)


def _kind_variants(task: Task) -> list[Paraphrase]:
    out: list[Paraphrase] = []
    for device in task.devices:
        fn = traits_of(device.kind).paraphrases
        if fn is None:
            continue
        where = [
            i for i, s in enumerate(task.solution) if s.device == device.id and s.device != GLOBAL_DEVICE
        ]
        mine = [(task.solution[i].action, dict(task.solution[i].args)) for i in where]
        for splice in fn(mine, task.start_time):
            if splice.at > len(where) or splice.at + splice.count > len(where):
                continue
            first = where[splice.at] if splice.at < len(where) else (where[-1] + 1 if where else 0)
            cut = set(where[splice.at : splice.at + splice.count])
            new = [Step(device=device.id, action=a, args=dict(args)) for a, args in splice.steps]
            steps: list[Step] = []
            for i, s in enumerate(task.solution):
                if i == first:
                    steps += new
                if i not in cut:
                    steps.append(s)
            if first >= len(task.solution):
                steps += new
            gate = next(g for test, g in _GATE_OF if test(splice.name))
            out.append(Paraphrase(f"{device.id}: {splice.name}", steps, gate))
    return out

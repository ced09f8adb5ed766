"""The verifier corpus: every check type judged on answers phrased many ways and on near misses.

Each file in ``corpus/checks`` names a check, its args and two lists of cases. A case
is an answer (or several, in the order they were written) that a small builder below
places into the getter state the check reads; ``device: twin`` puts it on the other device
of the same kind instead (the right value on the wrong device), ``missing: true``
leaves the file out. Passing cases must pass and near misses must fail, through the
real evaluator.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

from devicesworld.spec.models import GLOBAL_DEVICE, Condition
from devicesworld.spec.values import ValueContext
from devicesworld.verify.evaluate import evaluate_conditions

CORPUS = Path(__file__).parent / "corpus" / "checks"
CASE_KEYS = {"answer", "answers", "device", "missing"}

State = dict[str, Any]


def _nested(dotted: str, value: Any) -> dict[str, Any]:
    out: Any = value
    for part in reversed(dotted.split(".")):
        out = {part: out}
    return dict(out)


def _last(answers: list[Any]) -> Any:
    return answers[-1] if answers else None


def _drafts(args: dict[str, Any], answers: list[Any], case: dict[str, Any]) -> State:
    return {
        "email_drafts": [
            {
                "file": f"draft-{i}.eml",
                "modified_ns": i + 1,
                "to": case.get("to", [args["to"]]),
                "subject": case.get("subject", args["subject"]),
                "body": body,
            }
            for i, body in enumerate(answers)
        ]
    }


def _submissions(args: dict[str, Any], answers: list[Any], case: dict[str, Any]) -> State:
    subs = []
    for fields in answers:
        fields = dict(fields)
        accepted = fields.pop("accepted", True)
        form = fields.pop("form", args["form"])
        if form == args["form"]:  # the getter filters by host and form
            subs.append({"host": args["host"], "form": form, "fields": fields, "accepted": accepted})
    return {"site_submissions": subs}


def _sms(args: dict[str, Any], answers: list[Any], case: dict[str, Any]) -> State:
    box, to = case.get("box", "sent"), case.get("to", args["to"])
    return {"sms": [{"box": box, "address": to, "body": body} for body in answers]}


def _contacts(args: dict[str, Any], answers: list[Any], case: dict[str, Any]) -> State:
    return {"contacts": [{"company": "", "notes": "", **c} for c in answers]}


def _events(args: dict[str, Any], answers: list[Any], case: dict[str, Any]) -> State:
    return {"events": [{"dtend": e["dtstart"], "eventLocation": "", "description": "", **e} for e in answers]}


def _alarms(args: dict[str, Any], answers: list[Any], case: dict[str, Any]) -> State:
    """The phone's alarms (each the asked one unless the case says otherwise) and its clock: the
    check judges when an alarm rings, seen at ``now`` (default 2 Mar 2026 10:00, a Monday)."""
    asked = {"hour": args["hour"], "minute": args["minute"], "label": args.get("label") or ""}
    rows = [
        {"id": i + 1, **asked, "enabled": True, "days": [], "date": None, **a} for i, a in enumerate(answers)
    ]
    now = str(case.get("now", "2026-03-02T10:00:00"))
    return {"alarms": rows, "clock": {"now": now, "start": "2026-03-02T09:00:00"}}


def _table(args: dict[str, Any], answers: list[Any], case: dict[str, Any]) -> State:
    rows = _last(answers)
    return {"xlsx": rows, "csv": rows}


BUILDERS: dict[str, Callable[[dict[str, Any], list[Any], dict[str, Any]], State]] = {
    "email_draft": _drafts,
    "form_submitted": _submissions,
    "sms_sent": _sms,
    "contact_exists": _contacts,
    "event_exists": _events,
    "alarm_exists": _alarms,
    "table_cell_equals": _table,
    "table_has_row": _table,
    "docx_paragraph": lambda args, answers, case: {"docx": _last(answers)},
    "docx_contains": lambda args, answers, case: {"docx": _last(answers)},
    "file_exists": lambda args, answers, case: {"file": _last(answers)},
    "file_contains": lambda args, answers, case: {"text": _last(answers)},
    "file_equals": lambda args, answers, case: {"text": _last(answers)},
    "json_field_equals": lambda args, answers, case: {
        "json": None if not answers else _nested(args["field"], answers[-1])
    },
    "value_equals": lambda args, answers, case: {
        "json": None if not answers else _nested(args["path"], answers[-1])
    },
    "infeasible_reported": lambda args, answers, case: {
        "episode": {"finished": False, "infeasible_reason": _last(answers)}
    },
}


def _answers(case: Any) -> list[Any]:
    if not isinstance(case, dict):
        return [case]
    if case.get("missing"):
        return []
    if "answers" in case:
        return list(case["answers"])
    if "answer" in case:
        return [] if case["answer"] is None else [case["answer"]]
    if "rows" in case:
        return [case["rows"]]
    return [{k: v for k, v in case.items() if k not in CASE_KEYS | {"to", "subject", "box", "now"}}]


def _cases() -> list[Any]:
    out = []
    for path in sorted(CORPUS.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for verdict in ("pass", "fail"):
            for i, case in enumerate(doc[verdict]):
                out.append(pytest.param(doc, case, verdict == "pass", id=f"{path.stem}-{verdict}-{i}"))
    return out


def _judge(doc: dict[str, Any], case: Any) -> tuple[bool, list[str], str]:
    kind, check, args = doc["kind"], doc["check"], doc["args"]
    options = case if isinstance(case, dict) else {}
    build = BUILDERS[check]
    answered = build(args, _answers(case), options)
    if kind == GLOBAL_DEVICE:
        states, device = {GLOBAL_DEVICE: answered}, GLOBAL_DEVICE
    else:
        device, twin = f"{kind}_0", f"{kind}_1"
        if options.get("missing"):
            answered = {}
        untouched = build(args, [], {})
        on_twin = options.get("device") == "twin"
        states = {device: untouched if on_twin else answered, twin: answered if on_twin else untouched}

    def getter_for(device_id: str) -> Callable[[str, Any], Any]:
        return lambda name, _args: states[device_id].get(name)

    cond = Condition(id="c", device=device, check=check, args=args)
    ctx = ValueContext(today=date(2026, 3, 2), locale=doc.get("locale", "en-GB"))
    result = evaluate_conditions([cond], getter_for, {d: kind for d in states}, ctx).conditions[0]
    return result.passed, result.also_passes_on, result.detail


@pytest.mark.parametrize(("doc", "case", "should_pass"), _cases())
def test_check_corpus(doc: dict[str, Any], case: Any, should_pass: bool) -> None:
    passed, elsewhere, detail = _judge(doc, case)
    assert passed is should_pass, f"{doc['check']}: {case!r} -> {detail}"
    if isinstance(case, dict) and case.get("device") == "twin":
        assert elsewhere == [f"{doc['kind']}_1"], "the answer is right, only on the wrong device"


def test_every_corpus_file_has_ten_answers_and_ten_near_misses() -> None:
    checks = set()
    for path in CORPUS.glob("*.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert len(doc["pass"]) >= 10 and len(doc["fail"]) >= 10, path.name
        assert doc["check"] in BUILDERS, path.name
        checks.add(doc["check"])
    assert checks == set(BUILDERS)

"""LLM-as-judge filter (JarvisGUI §4.2): realism, coherence, evaluability on 1-5.

JarvisGUI keeps only tasks scored 5 on all three axes; we keep a task when no axis
falls below ``min_score`` (3 by default, ``--min-score 5`` reproduces the paper).
The judge sees what a reviewer needs — the instruction, the devices, the pattern,
the subtasks and what the verifier checks (check names and descriptions, not the
expected values) — and replies with JSON. A reply that cannot be read is asked for
again once; if the second is no better the task is *unjudged*: kept, marked, and
counted, because a broken judge reply says nothing about the task.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, Field

from devicesworld.spec.models import Task
from devicesworld.tasks.refine.endpoint import Answer, Chat
from devicesworld.tasks.refine.replies import json_objects

ROLE = "judge"
AXES = ("realism", "coherence", "evaluability")

SYSTEM = """You review tasks for a benchmark of assistants that operate a user's devices \
(Android phones, Linux desktops, a smart home). Score the task on three axes, each from 1 (worst) \
to 5 (best):
- realism: does the task reflect a plausible real-world user need?
- coherence: is the task logically consistent, free of superfluous or meaningless steps?
- evaluability: does it have well-defined objectives whose outcome can be reliably checked?
Reply with only a JSON object: {"realism": <1-5>, "coherence": <1-5>, "evaluability": <1-5>, \
"rationale": "<one or two sentences>"}"""

RETRY = (
    "Your reply could not be read. Reply with only the JSON object "
    '{"realism": <1-5>, "coherence": <1-5>, "evaluability": <1-5>, "rationale": "..."} and nothing else.'
)


class Verdict(BaseModel):
    """What the judge said about one task; ``status`` "unjudged" when no reply could be read."""

    status: Literal["judged", "unjudged"]
    realism: int | None = None
    coherence: int | None = None
    evaluability: int | None = None
    rationale: str = ""
    passed: bool = True
    min_score: int = 3
    model: str = ""
    error: str | None = Field(default=None, description="Why the replies could not be read.")

    def scores(self) -> dict[str, int]:
        return {a: v for a in AXES if isinstance(v := getattr(self, a), int)}


def judge_messages(task: Task) -> list[dict[str, Any]]:
    composition = task.metadata.composition
    view: dict[str, Any] = {
        "instruction": task.instruction,
        "devices": {d.id: d.kind for d in task.devices},
        "pattern": task.metadata.pattern,
        "subtasks": [
            {"atomic": s.atomic, "device": s.device}
            for s in (composition.subtasks if composition is not None else [])
        ],
        "checks": [
            {"device": c.device, "check": c.check, "description": c.description}
            for c in task.evaluation.conditions
        ],
    }
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "Task:\n" + json.dumps(view, indent=1, ensure_ascii=False)},
    ]


class MalformedVerdict(ValueError):
    """The judge's reply does not hold three scores from 1 to 5."""


def parse_verdict(text: str) -> tuple[dict[str, int], str]:
    """The three scores and the rationale; tolerant of fences, case, nesting and "4/5" or "4.0"."""
    objects = json_objects(text)
    if not objects:
        raise MalformedVerdict(f"no JSON object in the reply: {text.strip()[:120] or '(empty)'}")
    for obj in objects:
        flat = {str(k).strip().lower(): v for k, v in obj.items()}
        for inner in ("scores", "score", "ratings"):
            if isinstance(flat.get(inner), dict):
                flat = {**flat, **{str(k).strip().lower(): v for k, v in flat[inner].items()}}
        scores = {axis: _score(flat.get(axis)) for axis in AXES}
        if all(s is not None for s in scores.values()):
            rationale = flat.get("rationale") or flat.get("reason") or flat.get("explanation") or ""
            return {a: s for a, s in scores.items() if s is not None}, str(rationale)[:500]
    raise MalformedVerdict(f"the reply lacks a 1-5 score for each of {', '.join(AXES)}: {text.strip()[:120]}")


def _score(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str) and (m := re.fullmatch(r"\s*(\d+(?:\.0+)?)\s*(?:/\s*5)?\s*", value)):
        number = float(m.group(1))
    else:
        return None
    return int(number) if number.is_integer() and 1 <= number <= 5 else None


def judge_task(task: Task, chat: Chat, *, min_score: int = 3) -> tuple[Verdict, list[Answer]]:
    """Ask the judge (and once more if its reply cannot be read); raises ``EndpointError`` only."""
    messages = judge_messages(task)
    answers: list[Answer] = []
    error = ""
    for attempt in range(2):
        answer = chat(messages, role=ROLE)
        answers.append(answer)
        try:
            scores, rationale = parse_verdict(answer.text)
        except MalformedVerdict as exc:
            error = str(exc)
            if attempt == 0:
                messages = [
                    *messages,
                    {"role": "assistant", "content": answer.text or "(no reply)"},
                    {"role": "user", "content": RETRY},
                ]
            continue
        return Verdict(
            status="judged",
            rationale=rationale,
            passed=all(s >= min_score for s in scores.values()),
            min_score=min_score,
            model=chat.model,
            **scores,
        ), answers
    return Verdict(status="unjudged", min_score=min_score, model=chat.model, error=error), answers

"""Instruction rewriting (JarvisGUI §4.2), behind mechanical guards.

JarvisGUI has Qwen3-32B rewrite each merged instruction "to strictly preserve all
procedural details while generating a concise, coherent, and unambiguous final task
description". A model cannot be trusted to preserve details, so here the rewrite is
only a *proposal*: :func:`~devicesworld.tasks.refine.guards.check_rewrite` decides,
and the original stays whenever any guard fails, with the reason recorded. The model
sees the instruction only — never the hidden values, the verifier or the solution —
so it cannot leak what it was never told; the hidden-value guard catches chance hits.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from devicesworld.spec.models import Task
from devicesworld.tasks.provenance import provenance_problems
from devicesworld.tasks.refine.endpoint import Answer, Chat
from devicesworld.tasks.refine.guards import GuardFailure, check_rewrite, device_mentions, literals
from devicesworld.tasks.refine.replies import json_objects, without_thinking

ROLE = "rewrite"

SYSTEM = """You rewrite task instructions for a benchmark of assistants that work across a user's \
devices (phones, desktops, a smart home). Turn the instruction into the request a real user would \
write: natural, concise, coherent and unambiguous. Strict rules:
- keep every procedural detail and every condition; add nothing and invent no data;
- copy every literal listed below exactly as written (numbers, times, codes, names, e-mail \
addresses, file paths, quoted text), character for character;
- keep every mention of a device (the phone, the desktop, the smart home, device ids such as \
linux_1) each time it appears, so that it stays clear where each part happens;
- keep every room, app and item named in the instruction.
Reply with only a JSON object: {"instruction": "<the rewritten instruction>"}"""


class RewriteOutcome(BaseModel):
    """What happened to one task's instruction."""

    status: Literal["rewritten", "kept", "error"]
    reason: str | None = Field(default=None, description="A short code when kept (counted in the report).")
    detail: str | None = None
    proposal: str | None = Field(default=None, description="The refused rewrite, for inspection.")


def rewrite_messages(task: Task) -> list[dict[str, Any]]:
    """The prompt: the instruction, the literals to copy and the devices to keep naming."""
    keep = literals(task.instruction)
    mentions = device_mentions(task.instruction, [d.id for d in task.devices])
    devices = [f"{d} ({n}x)" for d, n in sorted(mentions.items())]
    lines = [f"Instruction:\n{task.instruction}"]
    if keep:
        lines.append("Literals to copy exactly: " + "; ".join(keep))
    if devices:
        lines.append("Device mentions to keep (times named): " + "; ".join(devices))
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n\n".join(lines)}]


def proposal_from(answer: Answer) -> str | None:
    """The rewritten instruction in a reply: the JSON field, or else the plain text."""
    for obj in json_objects(answer.text):
        value = obj.get("instruction")
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())
    text = without_thinking(answer.text).strip("`").strip()
    if not text or "{" in text:
        return None
    for label in ("Rewritten instruction:", "Instruction:", "Rewrite:"):
        if text.lower().startswith(label.lower()):
            text = text[len(label) :].strip()
    return " ".join(text.strip('"“”').split()) or None


def rewrite_task(task: Task, chat: Chat) -> tuple[Task, RewriteOutcome, Answer]:
    """The task with its instruction rewritten when every guard passes, else unchanged.

    Raises :class:`~devicesworld.tasks.refine.endpoint.EndpointError` when the model
    cannot be asked; every other problem keeps the original and says why.
    """
    answer = chat(rewrite_messages(task), role=ROLE)
    proposal = proposal_from(answer)
    if proposal is None:
        snippet = answer.text.strip()[:200] or "(empty reply or refusal)"
        return task, RewriteOutcome(status="kept", reason="no_rewrite", detail=snippet), answer
    failures = check_rewrite(
        task.instruction,
        proposal,
        hidden=[s.value for s in task.metadata.sources],
        device_ids=[d.id for d in task.devices],
    )
    first = task.metadata.original_instruction or task.instruction
    candidate = task.model_copy(
        update={
            "instruction": proposal,
            "metadata": task.metadata.model_copy(
                update={"original_instruction": first, "rewrite_model": chat.model}
            ),
        }
    )
    if not failures and task.metadata.origin == "composition":
        before = set(provenance_problems(task))  # only problems the rewrite brings in count
        failures += [
            GuardFailure(code="provenance", detail=p)
            for p in provenance_problems(candidate)
            if p not in before
        ]
    if failures:
        outcome = RewriteOutcome(
            status="kept",
            reason=failures[0].code,
            detail="; ".join(f"{f.code}: {f.detail}" for f in failures),
            proposal=proposal,
        )
        return task, outcome, answer
    return Task.model_validate(candidate.model_dump(mode="json")), RewriteOutcome(status="rewritten"), answer

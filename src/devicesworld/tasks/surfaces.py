"""The apps and surfaces a task touches, read off its setup and reference solution.

Breakdowns by app (paper Fig. 5) and the coverage-driven test selection need them,
and built tasks cannot be trusted to declare them by hand: a phone app counts when
the solution opens it, a desktop surface when an action uses it (terminal, browser,
documents by format, mail), a home appliance category when setup adds it and a
condition or step touches it.
"""

from __future__ import annotations

from devicesworld.spec.models import Task

LINUX_ACTION_SURFACES = {
    "run_command": "terminal",
    "write_email_draft": "mail",
    "read_document": "office",
    "write_document": "office",
}
DOCUMENT_TYPES = (
    "xlsx",
    "docx",
    "pdf",
    "csv",
    "json",
    "md",
    "txt",
    "png",
    "jpg",
    "wav",
    "zip",
    "tar",
    "eml",
    "py",
)


def task_surfaces(task: Task) -> list[str]:
    kinds = {d.id: d.kind for d in task.devices}
    out: set[str] = set()
    categories: dict[str, str] = {}
    for op in task.setup:
        if kinds.get(op.device) == "smarthome" and op.op == "add_device":
            categories[str(op.args.get("device_id"))] = str(op.args.get("category"))
    touched = {str(c.args.get("device_id")) for c in task.evaluation.conditions if "device_id" in c.args}
    for step in task.solution:
        kind = kinds.get(step.device or "")
        if kind == "android" and step.action == "open_app":
            out.add(f"android:{str(step.args.get('app_name', '')).lower()}")
        elif kind == "linux":
            if step.action.startswith("browser_"):
                out.add("linux:browser")
            elif step.action in LINUX_ACTION_SURFACES:
                out.add(f"linux:{LINUX_ACTION_SURFACES[step.action]}")
            else:
                out.add("linux:files")
            text = " ".join(str(v) for v in step.args.values())
            out |= {f"linux:{ext}" for ext in DOCUMENT_TYPES if f".{ext}" in text}
        elif kind == "smarthome":
            device = step.args.get("device_id")
            if device is not None:
                touched.add(str(device))
    for device in touched:
        if device in categories:
            out.add(f"smarthome:{categories[device]}")
    if "smarthome" in kinds.values() and not any(s.startswith("smarthome:") for s in out):
        out.add("smarthome:home")
    return sorted(out)

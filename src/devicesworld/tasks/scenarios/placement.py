"""Where each value a task needs sits, measured on the task's own devices.

A family declares where its sources sit (``first_screen`` / ``scroll`` / ``search`` /
``document``), but a declaration can be wrong for a given draw: the persona world
may put the needed text at the top of the inbox, or a document's first lines may
already show the value. Difficulty (issue #15) must come from what a task *is*, so
the compiler plays the recorded reference solution once and reads, for each device,
its **first screen**: what the device showed after the solution's first step on it
(the screen text, the step's message and data), cut to
:data:`~devicesworld.textshape.FIRST_SCREEN_CHARS`. Then, per source value:

- ``where``: ``first_screen`` when the value is on that first screen; otherwise the
  family's declaration (a value declared on the first screen but not found there is
  measured as ``scroll``: the agent has to look further);
- ``ahead``: how many distinct look-alike values (same digit shape,
  ``textshape.shape``) a reader meets before it — in the instruction, then in the
  first screens in the order the solution visits the devices. Zero means the value
  is the first of its kind a careless reader sees; each look-alike ahead of it is a
  chance to copy the wrong one (an older code, a time of another event).
"""

from __future__ import annotations

from pydantic import BaseModel

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import GLOBAL_DEVICE, SourceValue, Task
from devicesworld.textshape import candidates, first_screen, forms

END_ACTIONS = frozenset({"finish", "report_infeasible", "answer"})


class Placement(BaseModel):
    where: str
    """Measured: ``first_screen``, else the declared place (``scroll`` for a wrong ``first_screen``)."""
    ahead: int
    """Distinct look-alike values read before this one (0 when it is the first of its shape)."""


def first_screens(task: Task) -> dict[str, str]:
    """Device id -> its first screen along the reference solution, in the order first visited."""
    screens: dict[str, str] = {}
    with CrossDeviceEnv(task) as env:
        env.reset()
        for step in task.solution:
            if step.action in END_ACTIONS or step.device in (None, GLOBAL_DEVICE):
                continue
            outcome = env.step(step)
            device = step.device
            if device in screens:
                continue
            screen = env.observe().get(device, {}).get("screen_text")
            shown = [screen] if isinstance(screen, str) and screen.strip() else []
            text = first_screen(shown, outcome.result.message, outcome.result.data)
            if text:
                screens[device] = text
    return screens


def place(
    sources: list[SourceValue], declared: list[str], instruction: str, screens: dict[str, str]
) -> list[Placement]:
    """One :class:`Placement` per source (``declared[i]`` is the family's ``where`` for ``sources[i]``)."""
    reading = [instruction, *screens.values()]
    needed = {f for s in sources for f in forms(s.value)}
    out = []
    for source, said in zip(sources, declared, strict=True):
        screen = screens.get(source.device, "")
        shown = [f for f in forms(source.value) if f in screen]
        own = shown[0] if shown else forms(source.value)[0]
        # the task's other needed values are no look-alikes: a reader wants them too
        seen = [v for v in candidates(own, reading) if v == own or v not in needed]
        if shown:
            where = "first_screen"
            ahead = seen.index(own) if own in seen else len(seen)
        else:
            where = "scroll" if said == "first_screen" else said
            ahead = len(seen)
        out.append(Placement(where=where, ahead=ahead))
    return out

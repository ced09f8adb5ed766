"""The registry of LLM prompt hints, keyed by device kind name: what an agent is told about a kind.

A kind whose observation leaves something out (the smart home shows no device state: the agent
must query it) says so in one rule for acting agents and one line for planners. That is advice
to agents, not a property the harness needs to run or check a device, so it is not a field of
``KindTraits``: the kind registers its hint here from its own package (as it registers its
task-file macros in :mod:`devicesworld.macros`), and the agent layer
(:mod:`devicesworld.agents.llm.prompts`) reads it. This module imports nothing of the project,
so a kind's package may fill it and any layer may read it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PromptHint:
    act: str
    """One rule acting agents are told (what the kind's observation leaves out)."""
    plan: str = ""
    """The same for a planner that only plans the steps ("" : none)."""


_HINTS: dict[str, PromptHint] = {}


def register(kind: str, act: str, plan: str = "") -> None:
    """Register ``kind``'s hint (a later registration replaces it); blank rules are refused."""
    if not act.strip():
        raise ValueError(f"the prompt hint of kind {kind!r} is blank")
    _HINTS[kind] = PromptHint(act=act, plan=plan)


def hint_of(kind: str) -> PromptHint | None:
    return _HINTS.get(kind)


def unregister(kind: str) -> None:
    """Forget ``kind``'s hint (tests that register a throwaway kind)."""
    _HINTS.pop(kind, None)

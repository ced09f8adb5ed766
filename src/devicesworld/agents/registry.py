"""The agents ``--agent NAME`` can name."""

from __future__ import annotations

import importlib

from devicesworld.agents.base import AgentEntry
from devicesworld.agents.random_agent import RandomAgent
from devicesworld.agents.simple import NoopAgent, OracleAgent

AGENTS: dict[str, AgentEntry] = {
    "oracle": AgentEntry("oracle", "Replays the task's reference solution.", OracleAgent, privileged=True),
    "noop": AgentEntry("noop", "Declares completion at once.", NoopAgent),
    "random": AgentEntry("random", "Seeded random valid actions.", RandomAgent),
}


def agent_names() -> list[str]:
    return sorted(AGENTS)


def get_agent(name: str) -> AgentEntry:
    """A built-in agent by name, or your own as ``package.module:factory``.

    A factory named that way takes :class:`AgentOptions` and returns an agent; it is
    never privileged (it does not see the reference solution).
    """
    if name in AGENTS:
        return AGENTS[name]
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise KeyError(f"cannot load agent {name!r}: {exc}") from None
        return AgentEntry(name, getattr(factory, "__doc__", None) or name, factory)
    raise KeyError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}, or module:factory")

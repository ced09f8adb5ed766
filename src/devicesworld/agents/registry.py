"""The agents ``--agent NAME`` can name."""

from __future__ import annotations

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
    try:
        return AGENTS[name]
    except KeyError:
        raise KeyError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}") from None
